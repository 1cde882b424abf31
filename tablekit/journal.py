"""The journal: every game and every table event in SQLite, written before the event takes effect.

A game is its fixed description plus its events in order; the state at any moment is the fold
of those events (:func:`engine.game.replay`), so a game survives a power cut and any dispute
can be replayed. The database runs in WAL mode with ``synchronous=FULL``: an ``append`` that
returned is on disk.

A game's summary (its status, its winners, a score row per finished deal) is kept for history
and statistics without replaying every game. It is never written on its own: ``append`` writes
the rows an event settles (the deal it ends, the game it ends) in the same transaction as the
event, so no kill can come between them. :meth:`Journal.settle` recomputes a summary from the
events; opening a journal an older kit wrote, resuming a game and looking for one to resume
all run it, so a journal that once lost a row is put right.

The roster (the ``players`` table) is the list of the table's regular players: a name, when
it was added and when it last played, one row per name (its key: the name without surrounding
spaces, case folded, so "Ravi" and " ravi" are one player). :mod:`tablekit.roster` checks the
names; a journal an older kit wrote gets the table when it is opened for writing.

The ``photos`` table keeps the evidence of rulings made from a camera reading: a JPEG of the
zone read (:mod:`tablekit.evidence`), keyed by the game and the ``seq`` of the event it was
read for. A photo is written in its own transaction right after its event, so a photo lost
to a power cut never loses or damages the event; photos are bounded by a budget in bytes
(:meth:`Journal.prune_photos`: the oldest photos of finished games go first, the game being
played keeps all of its own). Events never hold a photo: the engine never sees one.

The ``drafts`` table keeps, for a game, what the players are entering by hand and have not
confirmed yet (the scorepad's entry, a call being typed on the call panel): it is no event
(the engine never sees it), but a power cut in the middle of entering thirteen cards should not
lose them. It is written whenever the entry or the panel changes, and with the number of the
game's last event then: it is taken back only while that is still the last event
(:meth:`Journal.draft`).

Each event row and each game's setup carries a CRC-32 of itself (``crc``): SQLite keeps no
checksum of its pages, and a byte changed inside an event's text often leaves valid JSON (a
digit of a time, a card's rank). A row whose checksum does not match is read as one that
cannot be read. A journal an older kit wrote (schema 1) is given its checksums, from its rows
as they read then, when it is first opened for writing; rows with none are not checked.

Every way the file can fail comes out as a :class:`JournalError` (a ``TablekitError``, which the
command line prints as one ``error:`` line): a folder or a device named as the journal, a
read-only place, a full disk, a file that is damaged or is no tablekit journal
(:class:`JournalDamagedError`), one game's row or event that cannot be read
(:class:`JournalRowError`). ``Journal(path, read_only=True)`` never writes and needs no write
access (history, export). :mod:`tablekit.journal_open` keeps damaged files and salvages them.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import sqlite3
import stat
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from engine.errors import TablekitError
from engine.game import Event, Game, GameState, apply, event_from_json, replay
from engine.game.events import check_event
from engine.ruling import plain_number
from tablekit.clock import wall_ms

log = logging.getLogger(__name__)

#: ``PRAGMA application_id`` of a tablekit journal ("TKJ1").
APPLICATION_ID = 0x544B4A31
#: ``PRAGMA user_version``: 1 since summaries are written with the event that settles them,
#: 2 since each event and each game's setup carry a checksum (``crc``).
SCHEMA_VERSION = 2

TABLES = {
    "games": """CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created_ms INTEGER NOT NULL,
    variant TEXT NOT NULL,
    setup TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    winners TEXT NOT NULL DEFAULT '[]',
    ended_ms INTEGER,
    crc INTEGER
)""",
    "events": """CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    t_ms INTEGER NOT NULL,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    crc INTEGER,
    PRIMARY KEY (game_id, seq)
)""",
    "deals": """CREATE TABLE IF NOT EXISTS deals (
    game_id INTEGER NOT NULL REFERENCES games(id),
    deal INTEGER NOT NULL,
    scores TEXT NOT NULL,
    totals TEXT NOT NULL,
    PRIMARY KEY (game_id, deal)
)""",
    "players": """CREATE TABLE IF NOT EXISTS players (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    added_ms INTEGER NOT NULL,
    played_ms INTEGER
)""",
    "photos": """CREATE TABLE IF NOT EXISTS photos (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    jpeg BLOB NOT NULL,
    bytes INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
)""",
    "drafts": """CREATE TABLE IF NOT EXISTS drafts (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    crc INTEGER NOT NULL
)""",
}
SCHEMA = ";\n".join(TABLES.values()) + ";\n"
#: The columns a journal of each table must have (``crc``, added by schema 2, may be missing:
#: an older kit's journal gets it when opened for writing).
COLUMNS = {
    "games": {"id", "created_ms", "variant", "setup", "status", "winners", "ended_ms"},
    "events": {"game_id", "seq", "t_ms", "type", "body"},
    "deals": {"game_id", "deal", "scores", "totals"},
    "players": {"key", "name", "added_ms", "played_ms"},
    "photos": {"game_id", "seq", "jpeg", "bytes"},
    "drafts": {"game_id", "seq", "body", "crc"},
}
#: The most a kept draft may take (two tile sets typed in full are under 2 kB).
DRAFT_BYTES = 16_384
#: Tables a journal may lack (an older kit's): made when it is opened.
OPTIONAL_TABLES = ("deals", "players", "photos", "drafts")

#: What reading (or replaying) a row can raise when it holds something the kit did not write.
ROW_FAULTS = (ValueError, TypeError, KeyError, AttributeError, IndexError, ArithmeticError,
              AssertionError, TablekitError)


def _crc_bytes(value: object) -> bytes:
    """A column's value as its checksum takes it: text as UTF-8, a number as its digits, and
    bytes (a column read ``CAST(... AS BLOB)``, which gives exactly those) as they are."""
    return bytes(value) if isinstance(value, bytes | bytearray | memoryview) else str(value).encode("utf-8")


def event_crc(game_id: object, seq: object, t_ms: object, type_: object, body: object) -> int:
    """The checksum an event row is written with: CRC-32 of its game, number, time, type and
    body. A row whose bytes changed after it was written (a flipped bit, a stray write) still
    reads as JSON more often than not; its checksum then tells it from the event written.
    Read back, the columns are taken as bytes (``CAST(... AS BLOB)``): a column whose text is
    no longer UTF-8 is then one damaged row, not a journal SQLite cannot read."""
    return zlib.crc32(b"\x1f".join(_crc_bytes(v) for v in (game_id, seq, t_ms, type_, body)))


def draft_crc(game_id: object, seq: object, body: object) -> int:
    """The checksum a draft row is written with (its game, its event number and its body)."""
    return event_crc(game_id, seq, 0, "drafts", body)


def setup_crc(game_id: object, created_ms: object, variant: object, setup: object) -> int:
    """The checksum a game's row is written with: CRC-32 of its number, start, variant and
    setup (its status and winners are a summary of its events, rewritten as they settle)."""
    return event_crc(game_id, created_ms, variant, "games", setup)


class JournalError(TablekitError, LookupError):
    """No such game in the journal, nothing to resume, or a journal that cannot be used."""


class JournalFileError(JournalError):
    """The journal's file cannot be opened or written: a folder or a device named as the
    journal, a missing folder that cannot be made, a file locked by another program."""


class JournalReadOnlyError(JournalFileError):
    """The journal (or its folder) cannot be written here."""


class JournalFullError(JournalFileError):
    """The disk is full: the event was not written, everything journaled before is kept."""


class JournalDamagedError(JournalError):
    """The file is damaged (truncated, overwritten) or is not a tablekit journal at all."""


class JournalRowError(JournalError):
    """One game's setup or event in the journal cannot be read; the rest of the file can."""


def _failure(exc: sqlite3.Error, path: Path, doing: str) -> JournalError:
    """The :class:`JournalError` an SQLite error means, in the table's words."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    text = str(exc)
    if name == "SQLITE_FULL" or "disk is full" in text:
        return JournalFullError(f"cannot {doing} {path}: the disk is full (nothing journaled "
                                f"before is lost; free some space and resume)")
    if name.startswith("SQLITE_READONLY") or "readonly" in text:
        return JournalReadOnlyError(f"cannot {doing} {path}: it cannot be written here ({text})")
    if name == "SQLITE_NOTADB" or "not a database" in text:
        return JournalDamagedError(f"{path} is not a tablekit journal (not an SQLite database)")
    if name.startswith("SQLITE_CORRUPT") or "malformed" in text:
        return JournalDamagedError(f"{path} is damaged ({text})")
    if name in ("SQLITE_BUSY", "SQLITE_LOCKED") or "locked" in text:
        return JournalFileError(f"cannot {doing} {path}: another program is using it ({text})")
    if name.startswith("SQLITE_CANTOPEN") and not os.access(path.parent, os.W_OK):
        return JournalReadOnlyError(f"cannot {doing} {path}: its folder cannot be written here")
    return JournalFileError(f"cannot {doing} {path}: {text}")


#: The first four bytes of a write-ahead log SQLite wrote (its magic number, either byte order).
WAL_MAGICS = (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83")


def _check_wal(path: Path) -> None:
    """A write-ahead log beside the journal whose header is not SQLite's is damage: opened as
    it is, SQLite would pass over the log (the latest moves in it) and then empty it, losing
    them without a word. Said instead, so the journal and its log are kept aside whole."""
    wal = Path(f"{path}-wal")
    try:
        if wal.stat().st_size < 32:
            return
        with wal.open("rb") as f:
            magic = f.read(4)
    except OSError:
        return  # no log, or none to read: SQLite says what it makes of that
    if magic not in WAL_MAGICS:
        raise JournalDamagedError(f"{path} is damaged (its write-ahead log {wal.name} has no "
                                  "valid header, so its latest moves cannot be read)")


def check_place(path: Path, read_only: bool) -> None:
    """Refuse, with a :class:`JournalFileError`, a journal path that can never be one: a
    folder, a device (``/dev/null``), a missing file to read, a place that cannot be written.
    Makes the folder of a new journal."""
    try:
        st: os.stat_result | None = path.stat()
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise JournalFileError(f"cannot reach the journal {path}: {exc.strerror or exc}") from None
    if st is None:
        if read_only:
            raise JournalFileError(f"no journal at {path}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                raise JournalReadOnlyError(f"cannot make the folder for the journal {path}: "
                                           f"{exc.strerror}") from None
            raise JournalFileError(f"cannot make the folder for the journal {path}: "
                                   f"{exc.strerror or exc}") from None
        if not os.access(path.parent, os.W_OK):
            raise JournalReadOnlyError(f"cannot create the journal {path}: its folder "
                                       f"{path.parent} cannot be written here")
        return
    if stat.S_ISDIR(st.st_mode):
        raise JournalFileError(f"{path} is a folder, not a journal file (name a file in it, "
                               f"e.g. {path / 'journal.sqlite'})")
    if not stat.S_ISREG(st.st_mode):
        raise JournalFileError(f"{path} is not a plain file (a device or a pipe): a journal "
                               f"must be a file")
    if read_only:
        if not os.access(path, os.R_OK):
            raise JournalFileError(f"cannot read the journal {path}: permission denied")
        return
    if not os.access(path, os.R_OK | os.W_OK):
        raise JournalReadOnlyError(f"cannot write the journal {path}: the file is read-only here")
    if not os.access(path.parent, os.W_OK):
        raise JournalReadOnlyError(f"cannot write the journal {path}: its folder {path.parent} "
                                   f"cannot be written here (open it read-only to read it)")


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One line of the game history."""

    id: int
    created_ms: int
    variant: str
    players: tuple[str, ...]
    status: str
    winners: tuple[str, ...]
    deals: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """How one player (by name) has done over every game in the journal."""

    name: str
    games: int = 0
    games_won: int = 0
    deals: int = 0
    deals_won: int = 0
    points: int | float = 0

    @property
    def average(self) -> float:
        return self.points / self.deals if self.deals else 0.0


DealRow = tuple[int, tuple[Any, ...], tuple[Any, ...]]


def deal_rows(state: GameState) -> list[DealRow]:
    """The score rows a game's state says it has: one per finished deal."""
    return [(r.number, tuple(plain_number(x) for x in r.scores),
             tuple(plain_number(x) for x in r.totals)) for r in state.history]


def _insert_event(db: sqlite3.Connection, game_id: int, seq: int, event: Event) -> None:
    """Write one event row with its checksum (inside the caller's transaction)."""
    body = event.to_json()
    text = json.dumps(body, separators=(",", ":"))
    t_ms = int(body.get("t_ms", 0))
    db.execute("INSERT INTO events (game_id, seq, t_ms, type, body, crc) VALUES (?, ?, ?, ?, ?, ?)",
               (game_id, seq, t_ms, event.TYPE, text, event_crc(game_id, seq, t_ms, event.TYPE, text)))


class Journal:
    """One SQLite file holding every game played at this table.

    ``read_only``: open without writing anything, even where nothing can be written (a
    read-only folder or file): for commands that only read.
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = read_only
        self._next_seq: dict[int, int] = {}
        self._deal_rows: dict[int, int] = {}  # score rows on disk per game (as last known)
        #: the fold of each game appended to or restored (this object writes every event it
        #: appends, so a game's fold stays its events' until the journal is closed)
        self._states: dict[int, GameState] = {}
        self._games: dict[int, Game] = {}
        self._stale = False  # summaries from an older kit, not put right (read-only)
        #: what reads a row's checksum: ``crc``, or NULL in a read-only older kit's journal
        self._crc = "crc"
        #: The lowest number a new game may take: a journal begun afresh numbers its games
        #: after those of the journal it replaces (see ``journal_open.open_table_journal``).
        self.first_game_id = 1
        memory = str(path) == ":memory:"
        if not memory:
            check_place(self.path, read_only)
            _check_wal(self.path)
        try:
            self._db = self._connect(memory)
        except sqlite3.Error as exc:
            raise _failure(exc, self.path, "open the journal") from None
        try:
            self._prepare()
        except sqlite3.Error as exc:
            self._db.close()
            raise _failure(exc, self.path, "open the journal") from None
        except BaseException:
            self._db.close()
            raise

    def _connect(self, memory: bool) -> sqlite3.Connection:
        if memory:
            return sqlite3.connect(":memory:", isolation_level=None)
        if not self.read_only:
            return sqlite3.connect(str(self.path), isolation_level=None)
        uri = "file:" + quote(os.fsencode(self.path.resolve())) + "?mode=ro"
        try:
            db = sqlite3.connect(uri, uri=True, isolation_level=None)
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.OperationalError as exc:
            if not str(getattr(exc, "sqlite_errorname", "")).startswith("SQLITE_CANTOPEN"):
                raise
        # A WAL journal in a folder that cannot be written: SQLite cannot make its shared
        # memory file there. Read the file as it lies (all of it once its writer closed it).
        wal = Path(f"{self.path}-wal")
        if wal.exists() and wal.stat().st_size:
            log.warning("%s cannot be written here: reading it without its latest moves", self.path)
        return sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)

    def _prepare(self) -> None:
        db = self._db
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        app = int(db.execute("PRAGMA application_id").fetchone()[0])
        if app not in (0, APPLICATION_ID):
            raise JournalDamagedError(f"{self.path} is not a tablekit journal (another "
                                      f"program's database)")
        db.execute("PRAGMA foreign_keys=ON")
        if not tables:  # a new journal (or an empty file)
            if not self.read_only:
                self._durable()
            if self.read_only:
                for sql in TABLES.values():
                    db.execute(sql.replace("CREATE TABLE IF NOT EXISTS", "CREATE TEMP TABLE"))
                return
            with self._write() as w:
                for sql in TABLES.values():
                    w.execute(sql)
                w.execute(f"PRAGMA application_id={APPLICATION_ID}")
                w.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            return
        unchecked: list[str] = []  # tables an older kit made, without checksums
        for table in ("games", "events", *OPTIONAL_TABLES):
            if table not in tables:
                if table in OPTIONAL_TABLES and {"games", "events"} <= tables:
                    db.execute(TABLES[table].replace(
                        "CREATE TABLE IF NOT EXISTS", "CREATE TEMP TABLE" if self.read_only else
                        "CREATE TABLE IF NOT EXISTS"))
                    continue
                raise JournalDamagedError(f"{self.path} is not a tablekit journal (no {table} table)")
            columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if not COLUMNS[table] <= columns:
                missing = ", ".join(sorted(COLUMNS[table] - columns))
                raise JournalDamagedError(f"{self.path} is not a tablekit journal (its {table} "
                                          f"table has no {missing})")
            if table in ("games", "events") and "crc" not in columns:
                unchecked.append(table)
        check = [line.strip() for row in db.execute("PRAGMA quick_check(3)")
                 for line in str(row[0]).splitlines() if line.strip() and not line.startswith("***")]
        if check != ["ok"]:
            raise JournalDamagedError(f"{self.path} is damaged ({'; '.join(check[:2])})")
        if not self.read_only:  # only now that it is known to be a sound tablekit journal
            self._durable()
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:  # its tables hold what this kit needs; what it adds is kept
            log.warning("%s was written by a newer kit (journal schema %d, this kit's %d): "
                        "update this kit to see all it holds", self.path, version, SCHEMA_VERSION)
        if unchecked and self.read_only:
            self._crc = "NULL"
        elif unchecked:
            self._add_checksums(unchecked)
        if version < 1:
            if self.read_only:
                self._stale = True
            else:
                self._repair_all()
        if version < SCHEMA_VERSION and not self.read_only:
            with self._write() as w:
                w.execute(f"PRAGMA application_id={APPLICATION_ID}")
                w.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _add_checksums(self, tables: Sequence[str]) -> None:
        """Give an older kit's journal its ``crc`` columns, each row's checksum written from
        the row as it reads now (what was written before is not known: from here on, a row
        that changes is told from what was written), in one transaction."""
        with self._write() as w:
            for table in tables:
                w.execute(f"ALTER TABLE {table} ADD COLUMN crc INTEGER")
            if "games" in tables:
                rows = w.execute("SELECT id, CAST(created_ms AS BLOB), CAST(variant AS BLOB), "
                                 "CAST(setup AS BLOB) FROM games").fetchall()
                w.executemany("UPDATE games SET crc=? WHERE id=?",
                              [(setup_crc(*row), row[0]) for row in rows])
            if "events" in tables:
                rows = w.execute("SELECT game_id, seq, CAST(t_ms AS BLOB), CAST(type AS BLOB), "
                                 "CAST(body AS BLOB) FROM events").fetchall()
                w.executemany("UPDATE events SET crc=? WHERE game_id=? AND seq=?",
                              [(event_crc(*row), row[0], row[1]) for row in rows])
        log.info("%s: checksums added to an older kit's journal", self.path)

    def _durable(self) -> None:
        """WAL with a full sync: a transaction that returned is on disk."""
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction: all of it on disk when it returns, none of it when it raises."""
        if self.read_only:
            raise JournalReadOnlyError(f"the journal {self.path} was opened for reading only")
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _failure(exc, self.path, "write to the journal") from None
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException as exc:
            if self._db.in_transaction:
                try:
                    self._db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # SQLite rolled back already (a full disk, an I/O error)
            if isinstance(exc, sqlite3.Error):
                raise _failure(exc, self.path, "write to the journal") from None
            raise

    def _rows(self, sql: str, params: Sequence[object] = ()) -> list[Any]:
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise _failure(exc, self.path, "read the journal") from None

    # --- writing ------------------------------------------------------------------------

    def new_game(self, game: Game, created_ms: int) -> int:
        with self._write() as db:
            setup = json.dumps(game.to_json())
            cur = db.execute("INSERT INTO games (id, created_ms, variant, setup) VALUES ("
                             "(SELECT max(COALESCE(MAX(id), 0) + 1, ?) FROM games), ?, ?, ?)",
                             (self.first_game_id, created_ms, game.variant_id, setup))
            game_id = cur.lastrowid
            assert game_id is not None
            db.execute("UPDATE games SET crc=? WHERE id=?",
                       (setup_crc(game_id, created_ms, game.variant_id, setup), game_id))
        self._next_seq[game_id] = 1
        self._deal_rows[game_id] = 0
        self._games[game_id] = game
        return game_id

    def append(self, game_id: int, event: Event, after: GameState | None = None) -> int:
        """Write one event durably and return its sequence number (1-based).

        ``after`` is the game's state with the event folded in (the table has it already);
        without it the journal folds the event itself. The score row of a deal the event
        ends, and the status and winners of a game it ends, go in the same transaction.
        """
        seq = self._next_seq.get(game_id)
        if seq is None:
            seq = self._last_seq(game_id) + 1
        # never write what could not be read back: the game would not resume
        check_event(event, self.game(game_id).players)
        if after is None:
            after, _ = apply(self.restore(game_id), event)
        with self._write() as db:
            _insert_event(db, game_id, seq, event)
            rows = self._summary_rows(db, game_id, after)
        self._next_seq[game_id] = seq + 1
        self._deal_rows[game_id] = rows
        self._states[game_id] = after
        return seq

    def _summary_rows(self, db: sqlite3.Connection, game_id: int, state: GameState) -> int:
        """Write the summary rows ``state`` adds (inside the caller's transaction); the number
        of score rows the game then has."""
        known = self._deal_rows.get(game_id)
        if known is None:
            known = int(db.execute("SELECT COUNT(*) FROM deals WHERE game_id=?", (game_id,)).fetchone()[0])
        rows = deal_rows(state)
        for deal, scores, totals in rows[known:]:
            db.execute("INSERT OR REPLACE INTO deals (game_id, deal, scores, totals) VALUES (?, ?, ?, ?)",
                       (game_id, deal, json.dumps(list(scores)), json.dumps(list(totals))))
        if state.phase == "game-over":
            db.execute("UPDATE games SET status='over', winners=?, ended_ms=? "
                       "WHERE id=? AND status='playing'",
                       (json.dumps(list(state.winners)), wall_ms(), game_id))
        return max(known, len(rows))

    def write_scores(self, game_id: int, deal: int, scores: tuple[int | float, ...],
                     totals: tuple[int | float, ...]) -> None:
        """A deal's score row (``append`` writes these itself; kept for tools and tests)."""
        with self._write() as db:
            db.execute("INSERT OR REPLACE INTO deals (game_id, deal, scores, totals) VALUES (?, ?, ?, ?)",
                       (game_id, deal, json.dumps(list(scores)), json.dumps(list(totals))))
        self._deal_rows.pop(game_id, None)

    def finish(self, game_id: int, winners: tuple[int, ...], ended_ms: int) -> None:
        with self._write() as db:
            db.execute("UPDATE games SET status='over', winners=?, ended_ms=? WHERE id=?",
                       (json.dumps(list(winners)), ended_ms, game_id))

    def abandon(self, game_id: int) -> None:
        with self._write() as db:
            db.execute("UPDATE games SET status='abandoned' WHERE id=? AND status='playing'", (game_id,))

    def settle(self, game_id: int, state: GameState | None = None) -> bool:
        """Make the game's summary what its events say (``state``: their fold, if at hand):
        a score row per finished deal, and 'over' with its winners once the game ended.
        True when something had to be put right (on a read-only journal nothing is written)."""
        if state is None:
            state = self.restore(game_id)
        want = deal_rows(state)
        try:
            have = self.score_rows(game_id)
        except JournalRowError:
            have = []
        status = self._rows("SELECT status FROM games WHERE id=?", (game_id,))
        ended = state.phase == "game-over" and bool(status) and status[0][0] == "playing"
        if [(d, list(s), list(t)) for d, s, t in have] == [(d, list(s), list(t)) for d, s, t in want] \
                and not ended:
            return False
        if self.read_only:
            return True
        log.info("game %d: its summary is rebuilt from its events", game_id)
        with self._write() as db:
            db.execute("DELETE FROM deals WHERE game_id=?", (game_id,))
            self._deal_rows[game_id] = 0
            self._summary_rows(db, game_id, state)
        self._deal_rows[game_id] = len(want)
        return True

    def _repair_all(self) -> None:
        """Settle every game still 'playing' (a journal an older kit wrote could have lost
        the score row or the end of a game killed right after its last event)."""
        for (game_id,) in self._rows("SELECT id FROM games WHERE status='playing'"):
            try:
                self.settle(int(game_id))
            except JournalRowError as exc:
                log.warning("game %s is left as it is: %s", game_id, exc)

    def import_game(self, game_id: int, created_ms: int, game: Game, events: Sequence[Event],
                    status: str = "playing", winners: Sequence[int] = ()) -> GameState:
        """Write a whole game under the id it had elsewhere (salvage copies the readable games
        of a damaged journal); its summary comes from its events. Returns its state."""
        state = replay(game, events)
        setup = json.dumps(game.to_json())
        with self._write() as db:
            db.execute("INSERT INTO games (id, created_ms, variant, setup, status, winners, crc) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (game_id, created_ms, game.variant_id, setup,
                        "playing" if state.phase == "game-over" else status,
                        json.dumps(list(winners)),
                        setup_crc(game_id, created_ms, game.variant_id, setup)))
            for seq, event in enumerate(events, 1):
                _insert_event(db, game_id, seq, event)
            self._deal_rows[game_id] = 0
            self._deal_rows[game_id] = self._summary_rows(db, game_id, state)
        self._games[game_id] = game
        self._states[game_id] = state
        return state

    # --- reading ------------------------------------------------------------------------

    def _last_seq(self, game_id: int) -> int:
        row = self._rows("SELECT MAX(seq) FROM events WHERE game_id=?", (game_id,))
        return int(row[0][0] or 0)

    def game(self, game_id: int) -> Game:
        known = self._games.get(game_id)
        if known is not None:
            return known
        rows = self._rows(f"SELECT CAST(created_ms AS BLOB), CAST(variant AS BLOB), CAST(setup AS BLOB), "
                          f"{self._crc} FROM games WHERE id=?", (game_id,))
        if not rows:
            raise JournalError(f"no game {game_id} in the journal")
        created_ms, variant, setup, crc = rows[0]
        if crc is not None and crc != setup_crc(game_id, created_ms, variant, setup):
            raise JournalRowError(f"game {game_id} in {self.path}: its setup is not as it was "
                                  f"written (its checksum does not match)")
        try:
            game = Game.from_json(json.loads(setup.decode("utf-8")))
        except ROW_FAULTS as exc:
            raise JournalRowError(f"game {game_id} in {self.path}: its setup cannot be read "
                                  f"({exc})") from None
        self._games[game_id] = game
        return game

    def events(self, game_id: int) -> list[Event]:
        """The game's events in order, each checked (its fields, its seats) as it is read."""
        players = self.game(game_id).players
        out = []
        # read as bytes: a body whose text is no longer UTF-8 is one damaged row, not a file
        # SQLite cannot read
        for seq, t_ms, type_, body, crc in self._rows(
                f"SELECT seq, CAST(t_ms AS BLOB), CAST(type AS BLOB), CAST(body AS BLOB), {self._crc} "
                "FROM events WHERE game_id=? ORDER BY seq", (game_id,)):
            if crc is not None and crc != event_crc(game_id, seq, t_ms, type_, body):
                raise JournalRowError(f"game {game_id} in {self.path}: event {seq} is not as it "
                                      f"was written (its checksum does not match)")
            try:
                out.append(check_event(event_from_json(json.loads(body.decode("utf-8"))), players))
            except ROW_FAULTS as exc:
                raise JournalRowError(f"game {game_id} in {self.path}: event {seq} cannot be "
                                      f"read ({exc})") from None
        return out

    def last_time(self, game_id: int) -> int:
        row = self._rows("SELECT MAX(t_ms) FROM events WHERE game_id=?", (game_id,))
        try:
            return int(row[0][0] or 0)
        except ROW_FAULTS as exc:
            raise JournalRowError(f"game {game_id}: its last time cannot be read ({exc})") from None

    def restore(self, game_id: int) -> GameState:
        """The exact state of a game, rebuilt by replaying its events (once: the table's
        start looks for unfinished games that cannot be resumed, then for the one to resume)."""
        known = self._states.get(game_id)
        if known is not None:
            return known
        game, events = self.game(game_id), self.events(game_id)
        try:
            state = replay(game, events)
        except ROW_FAULTS as exc:
            raise JournalRowError(f"game {game_id} in {self.path} cannot be replayed ({exc})") from None
        self._states[game_id] = state
        return state

    def resumable(self) -> int | None:
        """The most recent game still being played, if any.

        Each candidate is replayed first: a game whose events say it is over is settled
        (never offered), one whose rows cannot be read is passed over with a warning.
        """
        for (game_id,) in self._rows("SELECT id FROM games WHERE status='playing' ORDER BY id DESC"):
            try:
                state = self.restore(int(game_id))
                self.settle(int(game_id), state)
            except JournalRowError as exc:
                log.warning("game %s cannot be resumed: %s", game_id, exc)
                continue
            if state.phase != "game-over":
                return int(game_id)
        return None

    def stuck(self) -> list[tuple[int, str]]:
        """The games left unfinished that cannot be resumed, each with why (a row of theirs
        that cannot be read): said at the table's start, never passed over in silence."""
        out = []
        for (game_id,) in self._rows("SELECT id FROM games WHERE status='playing' ORDER BY id"):
            try:
                self.restore(int(game_id))
            except JournalRowError as exc:
                out.append((int(game_id), str(exc)))
        return out

    def latest(self) -> int | None:
        row = self._rows("SELECT MAX(id) FROM games")
        return int(row[0][0]) if row and row[0][0] is not None else None

    def games(self) -> list[GameSummary]:
        out = []
        rows = self._rows(
            "SELECT g.id, g.created_ms, g.variant, g.setup, g.status, g.winners, "
            "(SELECT COUNT(*) FROM deals d WHERE d.game_id=g.id) FROM games g ORDER BY g.id")
        for gid, created, variant, setup, status, winners, deals in rows:
            try:
                names = tuple(str(s["name"]) for s in json.loads(setup)["seats"])
                won = tuple(names[w] for w in json.loads(winners) if 0 <= w < len(names))
                summary = GameSummary(int(gid), int(created), str(variant), names, str(status),
                                      won, int(deals))
            except ROW_FAULTS as exc:
                raise JournalRowError(f"game {gid} in {self.path}: its row cannot be read "
                                      f"({exc})") from None
            if self._stale and status == "playing":  # an older kit's summary: the events say
                state = self.restore(int(gid))
                over = state.phase == "game-over"
                summary = GameSummary(summary.id, summary.created_ms, summary.variant, names,
                                      "over" if over else status,
                                      tuple(names[w] for w in state.winners) if over else won,
                                      len(state.history))
            out.append(summary)
        return out

    def score_rows(self, game_id: int) -> list[DealRow]:
        if self._stale:
            return deal_rows(self.restore(game_id))
        rows = self._rows("SELECT deal, scores, totals FROM deals WHERE game_id=? ORDER BY deal",
                          (game_id,))
        try:
            return [(int(deal), tuple(json.loads(s)), tuple(json.loads(t))) for deal, s, t in rows]
        except ROW_FAULTS as exc:
            raise JournalRowError(f"game {game_id}: a score row cannot be read ({exc})") from None

    def player_stats(self) -> list[PlayerStats]:
        """Per-player figures over every game, by player name (each game is replayed)."""
        stats: dict[str, dict[str, Any]] = {}
        for summary in self.games():
            state = self.restore(summary.id)
            for seat, name in enumerate(summary.players):
                entry = stats.setdefault(name, {"games": 0, "games_won": 0, "deals": 0,
                                                "deals_won": 0, "points": 0})
                entry["games"] += 1
                if seat in state.winners:
                    entry["games_won"] += 1
                for record in state.history:
                    if record.outcomes[seat] == "out":
                        continue
                    entry["deals"] += 1
                    entry["points"] += plain_number(record.scores[seat])
                    if record.winner == seat:
                        entry["deals_won"] += 1
        return [PlayerStats(name, **v) for name, v in sorted(stats.items())]

    # --- photos (the evidence of rulings made from a camera reading) ----------------------

    def add_photo(self, game_id: int, seq: int, jpeg: bytes) -> None:
        """Keep ``jpeg`` as the photo event ``seq`` of the game was read from (its own
        transaction, after the event's: losing it never loses the event)."""
        with self._write() as db:
            db.execute("INSERT OR REPLACE INTO photos (game_id, seq, jpeg, bytes) VALUES (?, ?, ?, ?)",
                       (game_id, seq, sqlite3.Binary(jpeg), len(jpeg)))

    def photo_seqs(self, game_id: int) -> set[int]:
        """The events of the game that have a photo kept."""
        rows = self._rows("SELECT seq FROM photos WHERE game_id=?", (game_id,))
        try:
            return {int(seq) for (seq,) in rows}
        except ROW_FAULTS as exc:
            raise JournalRowError(f"game {game_id}: its photos cannot be listed ({exc})") from None

    def photo(self, game_id: int, seq: int) -> bytes | None:
        """The photo kept for event ``seq`` of the game (None: none kept). What the row holds
        is returned as bytes, unchecked: a damaged photo is the reader's to notice."""
        rows = self._rows("SELECT jpeg FROM photos WHERE game_id=? AND seq=?", (game_id, seq))
        if not rows:
            return None
        blob = rows[0][0]
        if isinstance(blob, bytes | bytearray | memoryview):
            return bytes(blob)
        return str(blob).encode("utf-8", "replace")  # not a blob at all: unreadable as a photo

    def photo_bytes(self) -> int:
        """The size of every photo kept, in bytes."""
        row = self._rows("SELECT COALESCE(SUM(bytes), 0) FROM photos")
        try:
            return int(row[0][0])
        except ROW_FAULTS as exc:
            raise JournalRowError(f"the photos' sizes in {self.path} cannot be read ({exc})") from None

    def prune_photos(self, budget: int, keep_game: int | None = None) -> int:
        """Delete the oldest photos until they take at most ``budget`` bytes: finished games'
        first (oldest game, then earliest event), then other games left unfinished; never a
        photo of ``keep_game`` (the game being played). Returns how many were deleted."""
        total = self.photo_bytes()
        if total <= budget:
            return 0
        rows = self._rows(
            "SELECT p.game_id, p.seq, p.bytes FROM photos p JOIN games g ON g.id = p.game_id "
            "WHERE p.game_id IS NOT ? ORDER BY g.status = 'playing', p.game_id, p.seq",
            (keep_game,))
        doomed: list[tuple[int, int]] = []
        for game_id, seq, size in rows:
            if total <= budget:
                break
            doomed.append((int(game_id), int(seq)))
            total -= int(size or 0)
        if doomed:
            with self._write() as db:
                db.executemany("DELETE FROM photos WHERE game_id=? AND seq=?", doomed)
        return len(doomed)

    # --- what the players are entering by hand -----------------------------------------------

    def keep_draft(self, game_id: int, body: str | None) -> None:
        """Keep ``body`` (JSON: what the players are entering by hand for the game, not yet an
        event) with the game's last event's number, in place of the one kept before; None
        forgets it. Its own small transaction: it never holds up an event."""
        with self._write() as db:
            if body is None:
                db.execute("DELETE FROM drafts WHERE game_id=?", (game_id,))
                return
            seq = self._last_seq(game_id)
            db.execute("INSERT OR REPLACE INTO drafts (game_id, seq, body, crc) VALUES (?, ?, ?, ?)",
                       (game_id, seq, body, draft_crc(game_id, seq, body)))

    def draft(self, game_id: int) -> Any:
        """The draft kept for the game (its JSON, parsed), while the game's last event is still
        the one it was kept after; None when there is none, it is older than the game's last
        event, or its row does not read back as it was written (a damaged row is passed over:
        the players enter the hand again)."""
        rows = self._rows("SELECT seq, CAST(body AS BLOB), crc FROM drafts WHERE game_id=?", (game_id,))
        if not rows:
            return None
        seq, body, crc = rows[0]
        try:
            if len(body) > DRAFT_BYTES:
                raise ValueError(f"{len(body)} bytes, where a hand entered takes a few hundred")
            if draft_crc(game_id, seq, body) != crc:
                raise ValueError("its checksum does not match")
            if seq != self._last_seq(game_id):
                return None  # kept before the game's last event: what it answered may be gone
            return json.loads(bytes(body).decode("utf-8"))
        except (*ROW_FAULTS, RecursionError, MemoryError) as exc:
            log.warning("%s: the hand being entered for game %s cannot be read back (%s): "
                        "it is entered again", self.path, game_id, exc)
            return None

    # --- the roster of players --------------------------------------------------------------

    def roster(self) -> list[RosterRow]:
        """Every name on the roster: the most recent players first, then the newest added."""
        rows = self._rows("SELECT name, added_ms, played_ms FROM players "
                          "ORDER BY played_ms IS NULL, played_ms DESC, added_ms DESC, name")
        try:
            return [RosterRow(str(name), int(added), None if played is None else int(played))
                    for name, added, played in rows]
        except ROW_FAULTS as exc:
            raise JournalRowError(f"the roster in {self.path} cannot be read ({exc})") from None

    def add_player(self, name: str, added_ms: int) -> bool:
        """Put ``name`` on the roster; False (and nothing written) when a name with the same
        key (:func:`player_key`) is on it already."""
        with self._write() as db:
            cur = db.execute("INSERT OR IGNORE INTO players (key, name, added_ms) VALUES (?, ?, ?)",
                             (player_key(name), name.strip(), added_ms))
        return cur.rowcount == 1

    def player_played(self, names: Sequence[str], played_ms: int, *, add: bool = True) -> None:
        """The players ``names`` sat down to a game at ``played_ms``: their last game is now;
        with ``add``, a name not on the roster yet is put on it (in one transaction)."""
        with self._write() as db:
            for name in names:
                if add:
                    db.execute("INSERT OR IGNORE INTO players (key, name, added_ms) VALUES (?, ?, ?)",
                               (player_key(name), name.strip(), played_ms))
                db.execute("UPDATE players SET played_ms=? WHERE key=?", (played_ms, player_key(name)))

    def import_player(self, name: str, added_ms: int, played_ms: int | None) -> bool:
        """Put ``name`` on the roster as it stood elsewhere (salvage copies the roster of a
        damaged journal); False when it is not a name or the roster has it already."""
        from engine.game import Seat
        from engine.game.setup import SetupError, check_names

        try:  # the rules of a seat's name (tablekit.roster checks them the same way)
            check_names((Seat(name),))
        except SetupError:
            return False
        with self._write() as db:
            cur = db.execute("INSERT OR IGNORE INTO players (key, name, added_ms, played_ms) "
                             "VALUES (?, ?, ?, ?)", (player_key(name), name.strip(), added_ms, played_ms))
        return cur.rowcount == 1

    def remove_player(self, name: str) -> bool:
        """Take ``name`` off the roster (its games stay); False when it was not on it."""
        with self._write() as db:
            cur = db.execute("DELETE FROM players WHERE key=?", (player_key(name),))
        return cur.rowcount == 1


@dataclass(frozen=True, slots=True)
class RosterRow:
    """One name on the roster: when it was added and when it last sat down to a game."""

    name: str
    added_ms: int
    played_ms: int | None = None


def player_key(name: str) -> str:
    """What makes two names one player: the name without surrounding spaces, case folded."""
    return name.strip().casefold()


def default_path() -> Path:
    """``$TABLEKIT_JOURNAL``, else the user's data folder (``~/.local/share/tablekit``)."""
    env = os.environ.get("TABLEKIT_JOURNAL")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tablekit" / "journal.sqlite"


__all__ = ["ROW_FAULTS", "SCHEMA", "GameSummary", "Journal", "JournalDamagedError", "JournalError",
           "JournalFileError", "JournalFullError", "JournalReadOnlyError", "JournalRowError",
           "PlayerStats", "RosterRow", "check_place", "deal_rows", "default_path", "player_key"]
