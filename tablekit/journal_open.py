"""Opening a journal that may be damaged: never lose it, never crash on it.

A table (``tablekit run``, ``tablekit demo``) opens its journal with :func:`open_table_journal`:
a file that is damaged or is no tablekit journal at all is renamed aside (``NAME.corrupt-STAMP``,
never over another file) with its WAL companions, a fresh journal is started in its place,
and the caller gets a sentence to put on the screen. Whatever cannot be used at all (a folder,
a device, a read-only place, a full disk) is a :class:`~tablekit.journal.JournalFileError`.

Commands that only read (``tablekit history``, ``tablekit export``) go through
:func:`read_journal`: the journal opened read-only (no write access needed) and, when it turns
out damaged, :func:`salvage` instead: every game and event whose row can still be read, copied
into a journal in memory with the roster's names and the photos of the events kept, and a
sentence saying how many could not be.
"""

from __future__ import annotations

import contextlib
import glob
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from engine.errors import TablekitError
from engine.game import Event, Game, event_from_json, replay
from engine.game.events import check_event
from tablekit.journal import (
    COLUMNS,
    ROW_FAULTS,
    Journal,
    JournalDamagedError,
    JournalFileError,
    JournalRowError,
    check_place,
    draft_crc,
    event_crc,
    setup_crc,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

#: WAL companions that travel with a journal file set aside.
COMPANIONS = ("-wal", "-shm")
_MAX_ROWID = 2**63 - 1


def journal_files(path: Path) -> list[tuple[Path, str]]:
    """The journal's file and its write-ahead companions, each with what it is (as
    ``tablekit.values.output_file``'s ``keep``: an output named like one of them would be
    written over the games)."""
    return [(path, "the journal"), *((Path(f"{path}{s}"), "the journal's write-ahead file")
                                     for s in COMPANIONS)]


def open_table_journal(path: str | Path) -> tuple[Journal, str | None]:
    """The journal a table writes to, and a sentence for the screen when it had to start afresh.

    A damaged file, or one that is not a tablekit journal, is kept under a new name beside it
    (see :func:`set_aside`) and a fresh journal is started: the sentence then says so, e.g.
    "the journal was damaged; kept as journal.sqlite.corrupt-20250101-120000; starting fresh".
    Otherwise the sentence is None. Raises :class:`~tablekit.journal.JournalFileError` (a
    ``TablekitError``) when no journal can be kept there at all.
    """
    path = Path(path)
    message = None
    try:
        journal = Journal(path)
    except JournalDamagedError as exc:
        aside = set_aside(path)
        log.warning("%s; kept as %s", exc, aside)
        journal = Journal(path)
        report = carry_over(aside, journal)
        if report is None or not report.games:
            message = f"the journal was damaged; kept as {aside.name}; starting fresh"
        else:
            lost = report.games_lost + report.events_lost
            message = (f"the journal was damaged; kept as {aside.name}; its {report.games} readable "
                       f"game{'s' * (report.games != 1)} carried over"
                       + (f" ({lost} game or event row{'s' * (lost != 1)} could not be read)" if lost
                          else "")
                       + ("; rows at its end may be lost, so no unfinished game is resumed"
                          if report.at_least else ""))
    journal.first_game_id = games_before(path) + 1
    return journal, message


def carry_over(aside: Path, journal: Journal) -> Salvage | None:
    """Copy into the fresh ``journal`` what :func:`salvage` reads of the damaged file set aside:
    each game with its events up to the first unreadable one, under its own number (a game
    whose events all came through can be resumed; one that lost some, or an unfinished one
    when rows were lost at the file's end, is kept 'damaged', shown but never resumed), the
    roster, the photos and a hand being entered (a draft still current). Damage often spares the events (a page of indexes, of score rows, of
    the roster): the game goes on. None when nothing of the file can be read."""
    try:
        recovered, report = salvage(aside)
    except (JournalDamagedError, JournalFileError) as exc:
        log.warning("nothing of %s could be read: %s", aside, exc)
        return None
    with recovered:
        for summary in recovered.games():
            game = recovered.game(summary.id)
            won = [summary.players.index(w) for w in summary.winners if w in summary.players]
            # rows lost at the end of the file may be any unfinished game's last events:
            # resumed, it would go on from an earlier point than the table had reached
            status = "damaged" if report.at_least and summary.status == "playing" else summary.status
            journal.import_game(summary.id, summary.created_ms, game, recovered.events(summary.id),
                                status, won)
            for seq in sorted(recovered.photo_seqs(summary.id)):
                jpeg = recovered.photo(summary.id, seq)
                if jpeg:
                    journal.add_photo(summary.id, seq, jpeg)
            draft = recovered.draft(summary.id)
            if draft is not None:
                journal.keep_draft(summary.id, json.dumps(draft))
        for row in recovered.roster():
            journal.import_player(row.name, row.added_ms, row.played_ms)
    log.info("%s", report.sentence())
    return report


def games_before(path: Path) -> int:
    """The highest game number this place has used before its journal: in the journals set aside
    beside it (as far as they can still be read) and in the club's mark (the games the club
    holds from it). A fresh journal numbers its games after them, so that a game number names one
    game at this table, at the club too, whatever was set aside."""
    from tablekit.club.marks import highest_marked_game

    top = highest_marked_game(path)
    for aside in path.parent.glob(f"{glob.escape(path.name)}.corrupt-*"):
        if aside.name.endswith(COMPANIONS):
            continue
        top = max(top, _highest_game(aside))
    return top


def _highest_game(aside: Path) -> int:
    """The highest game id a journal set aside still shows, its WAL included (0: none can be
    read). Whatever SQLite makes beside it to read the WAL is removed again."""
    made = [Path(f"{aside}{s}") for s in COMPANIONS if not Path(f"{aside}{s}").exists()]
    uri = "file:" + quote(os.fsencode(aside.resolve())) + "?mode=ro"
    best = 0
    for suffix in ("", "&immutable=1"):  # the WAL too; else the main file as it lies
        try:
            db = sqlite3.connect(uri + suffix, uri=True, timeout=0.5)
            try:
                best = max(best, int(db.execute("SELECT COALESCE(MAX(id), 0) FROM games")
                                     .fetchone()[0]))
            finally:
                db.close()
        except (sqlite3.Error, OSError, TypeError, ValueError, OverflowError):
            pass  # too damaged to say: its mark, if any, still counts
        for path in made:
            with contextlib.suppress(OSError):
                path.unlink()
        if best:
            break
    return best if 0 < best <= 2**53 else 0


def set_aside(path: Path) -> Path:
    """Rename ``path`` (and its ``-wal``/``-shm`` files) to ``NAME.corrupt-STAMP`` beside it,
    adding ``-2``, ``-3``… rather than replacing any file. Returns the new path."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        aside = path.with_name(f"{path.name}.corrupt-{stamp}" + (f"-{n}" if n > 1 else ""))
        if any(Path(f"{aside}{s}").exists() for s in ("", *COMPANIONS)):
            continue
        try:
            _move(path, aside)
        except FileExistsError:
            continue
        except OSError as exc:
            raise JournalFileError(f"the journal {path} is damaged and cannot be moved aside "
                                   f"({exc.strerror or exc})") from None
        for suffix in COMPANIONS:
            companion = Path(f"{path}{suffix}")
            if companion.exists():
                try:
                    _move(companion, Path(f"{aside}{suffix}"))
                except OSError as exc:
                    log.warning("cannot move %s beside %s: %s", companion, aside, exc)
        return aside
    raise JournalFileError(f"the journal {path} is damaged and no free name was found beside it")


def _move(source: Path, target: Path) -> None:
    """Rename without ever replacing ``target`` (a hard link, then the old name removed)."""
    try:
        os.link(source, target)  # fails if target exists
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: look, then rename
        if target.exists():
            raise FileExistsError(str(target)) from None
        os.rename(source, target)
        return
    os.unlink(source)


# --- reading a journal that may be damaged ------------------------------------------------


@dataclass
class Salvage:
    """What could and could not be read from a damaged journal."""

    path: Path
    games: int = 0
    events: int = 0
    games_lost: int = 0
    events_lost: int = 0
    players: int = 0  # the roster's names copied
    photos: int = 0  # the evidence photos copied (of the games and events kept)
    at_least: bool = False  # rows were lost at the end of a table: how many is not known

    def sentence(self) -> str:
        lost = (f"{self.games_lost} game{'s' * (self.games_lost != 1)} and {self.events_lost} "
                f"event{'s' * (self.events_lost != 1)}"
                + (" (and rows at the end of the file, how many is not known)" if self.at_least else ""))
        return (f"the journal {self.path} is damaged: {lost} could not be read; showing the "
                f"{self.games} game{'s' * (self.games != 1)} and {self.events} "
                f"event{'s' * (self.events != 1)} that could")


def read_journal(path: str | Path, read: Callable[[Journal], T]) -> tuple[T, str | None]:
    """``read(journal)`` on the journal at ``path`` opened read-only, and None; when the file or
    a row ``read`` needs turns out damaged, ``read`` on what :func:`salvage` recovers instead,
    and the salvage's sentence. Raises ``JournalFileError`` for a path that is no journal file
    and ``JournalDamagedError`` when nothing at all can be read."""
    path = Path(path)
    try:
        with Journal(path, read_only=True) as journal:
            return read(journal), None
    except (JournalDamagedError, JournalRowError) as exc:
        log.info("%s: reading what can be read", exc)
    journal, report = salvage(path)
    with journal:
        try:
            return read(journal), report.sentence()
        except TablekitError as exc:  # what was asked for is among what the damage took
            raise JournalDamagedError(f"{exc}: {report.sentence()}") from None


def salvage(path: str | Path) -> tuple[Journal, Salvage]:
    """A journal in memory holding every game of the file at ``path`` whose setup can be read,
    each with its events up to the first one that cannot be (a game that lost events is
    marked 'damaged'), the roster's readable names, the readable photos of the events kept
    and each game's intact draft kept after its last event kept; and the counts of what was
    copied and lost."""
    path = Path(path)
    check_place(path, read_only=True)
    report = Salvage(path)
    db = _open_raw(path)
    try:
        games, lost, end = _scan(db, "games", "id, created_ms, setup, status, winners, "
                                 + _or_null(db, "games", "variant, crc", blob="variant"))
        report.games_lost += lost
        events, lost, events_cut = _scan(db, "events", "game_id, seq, body, "
                                         + _or_null(db, "events", "t_ms, type, crc", blob="type"))
        report.events_lost += lost
        report.at_least = end or events_cut
        players = _scan_extra(db, "players", "name, added_ms, played_ms")
        photos = _scan_extra(db, "photos", "game_id, seq, jpeg")
        drafts = _scan_extra(db, "drafts", "game_id, seq, body, crc")
    finally:
        db.close()
    by_game: dict[int, dict[int, Any]] = {}
    for _, game_id, seq, body, t_ms, type_, crc in events:
        if isinstance(game_id, int) and isinstance(seq, int):
            # a row not as it was written reads as none: the game's events stop before it
            intact = crc is None or crc == event_crc(game_id, seq, t_ms, type_, body)
            by_game.setdefault(game_id, {})[seq] = body if intact else None
        else:
            report.events_lost += 1
    out = Journal(":memory:")
    kept_events: dict[int, int] = {}  # game -> how many of its events were kept
    for _, game_id, created_ms, setup, status, winners, variant, crc in games:
        bodies = by_game.pop(game_id, {}) if isinstance(game_id, int) else {}
        if crc is not None and crc != setup_crc(game_id, created_ms, variant, setup):
            setup = None  # not as it was written: the game cannot be trusted, nor its events
        try:
            game = Game.from_json(json.loads(setup))
            created = int(created_ms)
        except ROW_FAULTS:
            report.games_lost += 1
            report.events_lost += len(bodies)
            continue
        kept = _readable_prefix(bodies, game.players)
        report.events_lost += len(bodies) - len(kept)
        try:
            won = [w for w in json.loads(winners) if isinstance(w, int)]
        except ROW_FAULTS:
            won = []
        try:
            # a game that lost events, or whose row says it ended where its events do not
            # (its last events were lost), is 'damaged': shown, never resumed
            short = len(kept) < max(bodies, default=0) or (not kept and events_cut) or (
                status == "over" and replay(game, kept).phase != "game-over")
            out.import_game(game_id, created, game, kept, "damaged" if short else str(status), won)
        except ROW_FAULTS:  # the engine could not replay it: nothing of it can be shown
            report.games_lost += 1
            report.events_lost += len(kept)
            continue
        report.games += 1
        report.events += len(kept)
        kept_events[game_id] = len(kept)
    report.events_lost += sum(len(b) for b in by_game.values())  # events of no readable game
    for _, name, added_ms, played_ms in players:
        try:
            if out.import_player(str(name), int(added_ms), None if played_ms is None else int(played_ms)):
                report.players += 1
        except ROW_FAULTS:
            continue
    for _, game_id, seq, jpeg in photos:
        if isinstance(game_id, int) and isinstance(seq, int) and 1 <= seq <= kept_events.get(game_id, 0) \
                and isinstance(jpeg, bytes) and jpeg:
            out.add_photo(game_id, seq, jpeg)
            report.photos += 1
    for _, game_id, seq, body, crc in drafts:
        # a hand being entered, kept after the game's last event: still that, every event kept
        if isinstance(game_id, int) and isinstance(seq, int) and game_id in kept_events \
                and seq == kept_events[game_id] and isinstance(body, str) and crc == draft_crc(game_id, seq, body):
            out.keep_draft(game_id, body)
    return out, report


def _or_null(db: sqlite3.Connection, table: str, columns: str, blob: str = "") -> str:
    """``columns`` of ``table`` for a SELECT, each one the table lacks (an older kit's
    journal) as NULL, and ``blob`` (text its checksum takes as bytes) as bytes: a column whose
    text is no longer UTF-8 then spoils its row alone."""
    try:
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
    except sqlite3.DatabaseError:
        have = set()
    names = (c.strip() for c in columns.split(","))
    return ", ".join(("NULL" if c not in have else f"CAST({c} AS BLOB)" if c == blob else c)
                     for c in names)


def _scan_extra(db: sqlite3.Connection, table: str, columns: str) -> list[Any]:
    """The readable rows of a table a journal may lack (the roster, the photos: an older kit
    wrote neither) or have lost to the damage: none then."""
    try:
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
    except sqlite3.DatabaseError:
        return []
    if not {c.strip() for c in columns.split(",")} <= have:
        return []
    try:
        rows, _, _ = _scan(db, table, columns)
    except sqlite3.DatabaseError:
        return []
    return rows


def _readable_prefix(bodies: dict[int, Any], players: int) -> list[Event]:
    """The game's events from seq 1 up to the first missing or unreadable one."""
    kept: list[Event] = []
    for seq in range(1, len(bodies) + 2):
        if seq not in bodies:
            break
        try:
            kept.append(check_event(event_from_json(json.loads(bodies[seq])), players))
        except ROW_FAULTS:
            break
    return kept


def _open_raw(path: Path) -> sqlite3.Connection:
    """The file opened read-only with no checks at all; JournalDamagedError when SQLite cannot
    read even its list of tables, or it is another program's database."""
    uri = "file:" + quote(os.fsencode(path.resolve())) + "?mode=ro"
    for suffix in ("", "&immutable=1"):
        try:
            db = sqlite3.connect(uri + suffix, uri=True, isolation_level=None)
        except sqlite3.Error:
            continue
        try:
            # read the list of tables even where it names pages the file no longer has
            # (truncated): the connection is read-only, nothing is ever written
            db.execute("PRAGMA writable_schema=ON")
            tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.OperationalError as exc:
            db.close()
            if str(getattr(exc, "sqlite_errorname", "")).startswith("SQLITE_CANTOPEN"):
                continue
            raise JournalDamagedError(f"{path} cannot be read at all ({exc})") from None
        except sqlite3.DatabaseError as exc:
            db.close()
            raise JournalDamagedError(f"{path} is not a tablekit journal, or is damaged beyond "
                                      f"reading ({exc})") from None
        for table in ("games", "events"):
            try:
                columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            except sqlite3.DatabaseError:
                columns = set()
            if table not in tables or not COLUMNS[table] - {"type", "t_ms", "variant", "ended_ms"} <= columns:
                db.close()
                raise JournalDamagedError(f"{path} is not a tablekit journal (no usable {table} table)")
        return db
    raise JournalFileError(f"cannot open {path} to read it")


def _scan(db: sqlite3.Connection, table: str, columns: str) -> tuple[list[Any], int, bool]:
    """Every row of ``table`` that can be read, in rowid order, skipping damaged stretches;
    how many rows were skipped (counting rowids, which the journal never leaves gaps in); and
    whether rows were lost at the end, where how many is not known."""
    rows: list[Any] = []
    lost = 0
    after = 0  # the journal's rowids count from 1
    sql = f"SELECT rowid, {columns} FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT 256"
    while True:
        batch: list[Any] = []
        try:
            cursor = db.execute(sql, (after,))
            while (row := cursor.fetchone()) is not None:
                batch.append(row)
        except sqlite3.DatabaseError:
            rows += batch
            if batch:
                after = int(batch[-1][0])
            nxt, skipped = _next_readable(db, table, after)
            lost += skipped
            if nxt is None:
                return rows, lost, True
            after = nxt - 1
            continue
        rows += batch
        if len(batch) < 256:
            return rows, lost, False
        after = int(batch[-1][0])


def _probe(db: sqlite3.Connection, table: str, after: int) -> int | None | bool:
    """The first rowid past ``after`` (None: none), or False when that part cannot be read."""
    try:
        row = db.execute(f"SELECT rowid FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT 1",
                         (after,)).fetchone()
    except sqlite3.DatabaseError:
        return False
    return None if row is None else int(row[0])


def _next_readable(db: sqlite3.Connection, table: str, after: int) -> tuple[int | None, int]:
    """Past an unreadable stretch starting after rowid ``after``: the next rowid that can be
    read (None: none) and how many rowids the stretch covers."""
    bad, step = after, 1
    while True:
        probe = min(after + step, _MAX_ROWID - 1)
        if _probe(db, table, probe) is not False:
            break
        bad = probe
        if probe >= _MAX_ROWID - 1:
            return None, 0
        step *= 2
    good = probe
    while good - bad > 1:  # the last rowid whose successor cannot be read
        mid = (bad + good) // 2
        if _probe(db, table, mid) is False:
            bad = mid
        else:
            good = mid
    nxt = _probe(db, table, good)
    if nxt is None or nxt is False or nxt is True:
        return None, good - after
    return nxt, nxt - after - 1


__all__ = ["Salvage", "journal_files", "open_table_journal", "read_journal", "salvage", "set_aside"]
