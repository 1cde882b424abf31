"""The club's database (PostgreSQL): every table's events stored once, and the results the
engine's replay derives from them.

``club_events`` holds each game's events with no gap, unique on (table, game, seq): a message
delivered twice is stored once. An event that comes before the ones it follows is held aside in
``club_held`` (logged) and moves into ``club_events`` when the gap fills. A message from a table
the club does not know, one that cannot be read, one whose event the game cannot take, or one
that repeats a stored sequence number with different content is logged and kept in
``club_quarantine``, and never reaches the results.

The results (``club_games``: status, whose turn, totals, winners, the last ruling with its
reason; ``club_deals``: the score row of every finished deal) are the fold of the stored events
with :func:`engine.game.apply`, exactly as a table's journal derives its own: no rule is
computed here.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import psycopg

from engine.game import Event, Game, GameState, ShowVerdict, apply, event_from_json, new_game
from engine.game.events import check_event
from engine.game.setup import check_names
from engine.ruling import plain_number
from tablekit.club.wire import ClubError, Message, MessageError, check_table_id, read_message
from tablekit.journal import ROW_FAULTS

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS club_tables (
    table_id TEXT PRIMARY KEY,
    added_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS club_games (
    table_id TEXT NOT NULL REFERENCES club_tables(table_id),
    game_id BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    variant TEXT NOT NULL,
    setup TEXT NOT NULL,
    players JSONB NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    phase TEXT NOT NULL DEFAULT 'setup',
    turn TEXT NOT NULL DEFAULT '',
    totals JSONB NOT NULL DEFAULT '[]',
    winners JSONB NOT NULL DEFAULT '[]',
    ruling TEXT NOT NULL DEFAULT '',
    notice TEXT NOT NULL DEFAULT '',
    last_seq BIGINT NOT NULL DEFAULT 0,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, game_id)
);
CREATE TABLE IF NOT EXISTS club_events (
    table_id TEXT NOT NULL,
    game_id BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    t_ms BIGINT NOT NULL,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    stored_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, game_id, seq),
    FOREIGN KEY (table_id, game_id) REFERENCES club_games(table_id, game_id)
);
CREATE TABLE IF NOT EXISTS club_held (
    table_id TEXT NOT NULL,
    game_id BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    t_ms BIGINT NOT NULL,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    held_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, game_id, seq)
);
ALTER TABLE club_held ADD COLUMN IF NOT EXISTS created_ms BIGINT NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS club_deals (
    table_id TEXT NOT NULL,
    game_id BIGINT NOT NULL,
    deal INT NOT NULL,
    winner INT,
    scores JSONB NOT NULL,
    totals JSONB NOT NULL,
    PRIMARY KEY (table_id, game_id, deal),
    FOREIGN KEY (table_id, game_id) REFERENCES club_games(table_id, game_id)
);
CREATE TABLE IF NOT EXISTS club_quarantine (
    id BIGSERIAL PRIMARY KEY,
    received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    table_id TEXT,
    game_id BIGINT,
    seq BIGINT,
    reason TEXT NOT NULL,
    payload TEXT NOT NULL,
    digest TEXT NOT NULL UNIQUE
);
"""


class StoreError(ClubError):
    """The club's database cannot be reached or used."""


def shown_dsn(dsn: str) -> str:
    """A connection string as a message or a log may show it: its password left out."""
    try:
        parts = psycopg.conninfo.conninfo_to_dict(dsn)
    except psycopg.Error:
        return "(a connection string that cannot be read)"
    if "password" not in parts:
        return dsn
    parts["password"] = "***"
    return psycopg.conninfo.make_conninfo("", **{k: v for k, v in parts.items() if v is not None})


def connect(dsn: str) -> psycopg.Connection[Any]:
    try:
        return psycopg.connect(dsn, connect_timeout=5, autocommit=True)
    except psycopg.Error as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise StoreError(f"cannot reach the club database {shown_dsn(dsn)!r}: {first}") from None


@dataclass(slots=True)
class Fold:
    """One game as the club has it: its events folded with the engine, up to ``last_seq``."""

    game: Game
    state: GameState
    created_ms: int = 0  # the game's own (its header's): with the number, which game it is
    last_seq: int = 0
    ruling: str = ""
    deals_written: int = 0
    changed: bool = False

    def take(self, event: Event) -> None:
        self.state, effects = apply(self.state, event)
        for effect in effects:
            if isinstance(effect, ShowVerdict):
                name = self.game.seats[effect.seat].name if 0 <= effect.seat < self.game.players else "?"
                verdict = "valid" if effect.valid else "not valid"
                self.ruling = f"{name}: {verdict}" + (f" — {effect.reason}" if effect.reason else "")
        self.last_seq += 1
        self.changed = True


def read_event(body: str, players: int | None) -> Event:
    """The journaled event in ``body``; :class:`MessageError` when it cannot be one."""
    try:
        event = event_from_json(json.loads(body))
        if players is not None:
            check_event(event, players)
        return event
    except ROW_FAULTS as exc:
        raise MessageError(f"the event cannot be read ({exc})") from None


class OtherGame(MessageError):
    """A message of another game than the one the club holds under its number."""

    def __init__(self, message: str, held_ms: int) -> None:
        super().__init__(message)
        self.held_ms = held_ms


def same_game(msg: Message, created_ms: int) -> None:
    """:class:`OtherGame` when ``msg`` names the game it belongs to (its creation time) and
    that is not the game the club holds under its number."""
    if msg.created_ms and created_ms and msg.created_ms != created_ms:
        raise OtherGame(
            f"another game numbered {msg.game} (created at {msg.created_ms} ms, the club holds "
            f"one created at {created_ms} ms): two tables send as {msg.table!r}, or its journal "
            f"was begun afresh; give each table its own --table-id", created_ms)


#: A game created before this (2024-01-01, UTC) was timed by a clock that was not set.
EARLIEST_MS = 1_704_067_200_000


def clock_check(msg: Message, now_ms: int | None = None) -> str:
    """A warning (logged, and returned) when the game's creation time says its table's clock
    is not set: before 2024, or more than an hour ahead of the club's. "" otherwise."""
    now = int(time.time() * 1000) if now_ms is None else now_ms
    if msg.created_ms < EARLIEST_MS:
        off = "before 2024"
    elif msg.created_ms > now + 3_600_000:
        off = f"{(msg.created_ms - now) / 3_600_000:.1f} h ahead of the club's"
    else:
        return ""
    warning = (f"table {msg.table} game {msg.game}: the table's clock reads {off}; the game is "
               f"filed by that clock (give the tables network time: docs/club.md, Clocks)")
    log.warning("club: %s", warning)
    return warning


def whose_turn(state: GameState) -> str:
    if state.phase == "play" and state.deal is not None:
        return state.game.seats[state.deal.turn].name
    if state.phase == "show" and state.show is not None:
        return state.game.seats[state.show.declarer].name
    return ""


@dataclass
class Outcome:
    """What one batch did: acks per table (game -> highest stored seq), games whose results
    changed (table -> game -> last seq), and counts."""

    acks: dict[str, dict[int, int]] = field(default_factory=dict)
    changed: dict[str, dict[int, int]] = field(default_factory=dict)
    #: Games with events held behind a gap the batch did not fill (table -> game -> the last
    #: seq stored, -1 when not even the header is): the table is asked to send after it.
    gaps: dict[str, dict[int, int]] = field(default_factory=dict)
    #: Each acknowledged game's creation time (table -> game -> created_ms): a table that
    #: shares its id with another takes only the acks of its own games.
    created: dict[str, dict[int, int]] = field(default_factory=dict)
    #: Games whose number the club holds for another game (table -> game -> the created_ms of
    #: the one it holds): the table sending them is told, and they are kept aside.
    taken: dict[str, dict[int, int]] = field(default_factory=dict)
    stored: int = 0
    duplicates: int = 0
    held: int = 0
    quarantined: int = 0

    def merge(self, other: Outcome) -> None:
        """Take in what ``other`` (a later batch) did: its answers win, its counts add up."""
        for name in ("acks", "changed", "gaps", "created", "taken"):
            mine: dict[str, dict[int, int]] = getattr(self, name)
            for table, games in getattr(other, name).items():
                mine.setdefault(table, {}).update(games)
        for name in ("stored", "duplicates", "held", "quarantined"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def highest_games(dsn: str, tables: Iterable[str]) -> dict[str, int]:
    """The highest game number the club holds (or holds back) from each of ``tables`` (0 for
    none), on a connection of its own: a demo table begun afresh numbers its games after them,
    so its games are not taken for others under their numbers."""
    db = connect(dsn)
    try:
        out = {}
        for table in tables:
            row = db.execute("SELECT GREATEST((SELECT MAX(game_id) FROM club_games WHERE table_id=%s), "
                             "(SELECT MAX(game_id) FROM club_held WHERE table_id=%s))",
                             (table, table)).fetchone()
            out[table] = int(row[0] or 0) if row else 0
        return out
    finally:
        db.close()


class Store:
    """The club's database, written by one ingest worker."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.db = connect(dsn)
        self._folds: dict[tuple[str, int], Fold] = {}
        self._tables_stale = False  # a failed batch may have named tables it never stored
        try:
            with self.db.transaction():
                self.db.execute(SCHEMA)
            self.tables = {r[0] for r in self.db.execute("SELECT table_id FROM club_tables")}
            self.db.commit()
        except psycopg.Error as exc:
            self.db.close()
            raise StoreError(f"cannot prepare the club database {shown_dsn(dsn)!r}: {exc}") from None

    def close(self) -> None:
        self.db.close()

    def add_tables(self, names: Iterable[str]) -> None:
        with self.db.transaction():
            for name in names:
                self.db.execute("INSERT INTO club_tables (table_id) VALUES (%s) "
                                "ON CONFLICT DO NOTHING", (check_table_id(name),))
        self.tables |= set(names)

    # --- a batch of messages, one transaction ------------------------------------------------

    def ingest(self, payloads: Sequence[bytes], open_club: bool = False) -> Outcome:
        """Store a batch of messages (all or nothing); :class:`StoreError` when the database
        fails (nothing of the batch is kept: the tables send it again)."""
        work: dict[tuple[str, int], Fold | None] = {}
        out = Outcome()
        try:
            if self._tables_stale:
                self.tables = {r[0] for r in self.db.execute("SELECT table_id FROM club_tables")}
                self._tables_stale = False
            with self.db.transaction():
                for payload in payloads:
                    self._one(payload, work, out, open_club)
                self._gaps_left(work, out)
                for key, fold in work.items():
                    if fold is not None and fold.changed:
                        self._write_results(key, fold)
                        out.changed.setdefault(key[0], {})[key[1]] = fold.last_seq
            self.db.commit()
        except psycopg.Error as exc:
            self._reset()
            raise StoreError(f"the club database failed: {str(exc).strip()[:200]}") from None
        for key, fold in work.items():
            if fold is not None:
                fold.changed = False
                self._folds[key] = fold
        return out

    def _gaps_left(self, work: dict[tuple[str, int], Fold | None], out: Outcome) -> None:
        """Put in ``out.gaps`` every game of the batch whose held events still wait behind a
        gap (whether held now or held before and sent again)."""
        held = {(str(t), int(g)) for t, g in
                self.db.execute("SELECT DISTINCT table_id, game_id FROM club_held")}
        for (table, game), fold in work.items():  # one query a batch: club_held is mostly empty
            if (table, game) in held:
                out.gaps.setdefault(table, {})[game] = fold.last_seq if fold is not None else -1

    def _reset(self) -> None:
        """After a failed transaction: forget the folds and the tables known (they are read
        again: a table first met in the failed batch was never stored) and reconnect."""
        self._folds.clear()
        self._tables_stale = True
        try:
            self.db.close()
        finally:
            self.db = connect(self.dsn)

    def _one(self, payload: bytes, work: dict[tuple[str, int], Fold | None], out: Outcome,
             open_club: bool) -> None:
        try:
            msg = read_message(payload)
        except MessageError as exc:
            self._quarantine(None, f"malformed message: {exc}", payload, out)
            return
        if msg.table not in self.tables:
            if not open_club:
                self._quarantine(msg, "unknown table", payload, out)
                return
            self.db.execute("INSERT INTO club_tables (table_id) VALUES (%s) ON CONFLICT DO NOTHING",
                            (msg.table,))
            self.tables.add(msg.table)  # read again from the database if the batch fails
        key = (msg.table, msg.game)
        if key not in work:
            work[key] = self._load(key)
        fold = work[key]
        try:
            if msg.seq and fold is not None:
                same_game(msg, fold.created_ms)
            if msg.seq == 0:
                fold = self._header(msg, fold, work, out)
            elif fold is not None and msg.seq == fold.last_seq + 1:
                event = read_event(msg.body, fold.game.players)
                self._store(msg, event, fold, out)
            elif fold is not None and msg.seq <= fold.last_seq:
                self._repeat(msg, "club_events", out)
            else:
                self._hold(msg, fold, out)
        except OtherGame as exc:  # nothing of it is stored: no ack, and the table is told
            self._quarantine(msg, str(exc), payload, out)
            out.taken.setdefault(msg.table, {})[msg.game] = exc.held_ms
            return
        except MessageError as exc:
            self._quarantine(msg, str(exc), payload, out)
        if fold is not None:
            self._drain(key, fold, out)
            out.acks.setdefault(msg.table, {})[msg.game] = fold.last_seq
            if fold.created_ms:
                out.created.setdefault(msg.table, {})[msg.game] = fold.created_ms

    def _load(self, key: tuple[str, int]) -> Fold | None:
        fold = self._folds.get(key)
        if fold is not None:
            return replace(fold)
        row = self.db.execute("SELECT setup, created_ms FROM club_games WHERE table_id=%s AND "
                              "game_id=%s", key).fetchone()
        if row is None:
            return None
        game = Game.from_json(json.loads(row[0]))
        fold = Fold(game, new_game(game), int(row[1]))
        for (body,) in self.db.execute("SELECT body FROM club_events WHERE table_id=%s AND "
                                       "game_id=%s ORDER BY seq", key):
            fold.take(read_event(body, game.players))
        fold.deals_written = len(fold.state.history)
        fold.changed = False
        return fold

    def _header(self, msg: Message, fold: Fold | None, work: dict[tuple[str, int], Fold | None],
                out: Outcome) -> Fold | None:
        setup = json.dumps(msg.setup, sort_keys=True, separators=(",", ":"))
        if fold is not None:
            row = self.db.execute("SELECT setup, created_ms FROM club_games WHERE table_id=%s "
                                  "AND game_id=%s", (msg.table, msg.game)).fetchone()
            if row is not None and (row[0], row[1]) == (setup, msg.created_ms):
                out.duplicates += 1
                return fold
            same_game(msg, fold.created_ms)
            raise MessageError("replayed but different: the game's header does not match "
                               "the one stored")
        try:
            game = Game.from_json(msg.setup or {})
            check_names(game.seats)  # as a table checks them: no table sends others
        except ROW_FAULTS as exc:
            raise MessageError(f"the game's setup cannot be read ({exc})") from None
        names = [s.name for s in game.seats]
        clock_check(msg)
        self.db.execute("INSERT INTO club_games (table_id, game_id, created_ms, variant, setup, "
                        "players, totals) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                        (msg.table, msg.game, msg.created_ms, game.variant_id, setup,
                         json.dumps(names), json.dumps([0] * len(names))))
        fold = Fold(game, new_game(game), msg.created_ms, changed=True)
        work[(msg.table, msg.game)] = fold
        out.stored += 1
        return fold

    def _store(self, msg: Message, event: Event, fold: Fold, out: Outcome) -> None:
        before = replace(fold)
        try:
            fold.take(event)
        except ROW_FAULTS as exc:
            fold.state, fold.last_seq, fold.ruling = before.state, before.last_seq, before.ruling
            raise MessageError(f"the game cannot take event {msg.seq} ({exc})") from None
        self.db.execute("INSERT INTO club_events (table_id, game_id, seq, t_ms, type, body) "
                        "VALUES (%s, %s, %s, %s, %s, %s)",
                        (msg.table, msg.game, msg.seq, msg.t_ms, msg.type, msg.body))
        out.stored += 1

    def _repeat(self, msg: Message, table: str, out: Outcome) -> None:
        row = self.db.execute(f"SELECT t_ms, type, body FROM {table} WHERE table_id=%s AND "
                              f"game_id=%s AND seq=%s", (msg.table, msg.game, msg.seq)).fetchone()
        if row is not None and (row[0], row[1], row[2]) == (msg.t_ms, msg.type, msg.body):
            out.duplicates += 1
            return
        if row is None:
            raise MessageError(f"event {msg.seq} has no place (nothing stored there)")
        raise MessageError(f"replayed but different: event {msg.seq} does not match the one "
                           f"stored")

    def _hold(self, msg: Message, fold: Fold | None, out: Outcome) -> None:
        read_event(msg.body, fold.game.players if fold is not None else None)
        row = self.db.execute("SELECT 1 FROM club_held WHERE table_id=%s AND game_id=%s AND "
                              "seq=%s", (msg.table, msg.game, msg.seq)).fetchone()
        if row is not None:
            self._repeat(msg, "club_held", out)
            return
        self.db.execute("INSERT INTO club_held (table_id, game_id, seq, t_ms, type, body, "
                        "created_ms) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                        (msg.table, msg.game, msg.seq, msg.t_ms, msg.type, msg.body,
                         msg.created_ms))
        out.held += 1
        log.info("table %s game %d: event %d held aside (the club has up to %s)", msg.table,
                 msg.game, msg.seq, fold.last_seq if fold is not None else "no header")

    def _drain(self, key: tuple[str, int], fold: Fold, out: Outcome) -> None:
        """Move the held events that now follow the stored ones into the game."""
        while True:
            row = self.db.execute("SELECT t_ms, type, body, created_ms FROM club_held WHERE "
                                  "table_id=%s AND game_id=%s AND seq=%s",
                                  (*key, fold.last_seq + 1)).fetchone()
            if row is None:
                return
            msg = Message(key[0], key[1], fold.last_seq + 1, int(row[0]), str(row[1]), str(row[2]),
                          created_ms=int(row[3]))
            self.db.execute("DELETE FROM club_held WHERE table_id=%s AND game_id=%s AND seq=%s",
                            (*key, msg.seq))
            out.held -= 1
            try:
                same_game(msg, fold.created_ms)
                self._store(msg, read_event(msg.body, fold.game.players), fold, out)
            except MessageError as exc:
                self._quarantine(msg, str(exc), msg.body.encode(), out)
                return

    def _quarantine(self, msg: Message | None, reason: str, payload: bytes, out: Outcome) -> None:
        import hashlib

        # the database keeps no NUL character: it is kept written out
        text = payload.decode("utf-8", "replace").replace("\x00", "\\u0000")
        reason = reason.replace("\x00", "\\u0000")
        digest = hashlib.sha256(f"{reason}\n{text}".encode()).hexdigest()
        where = f"table {msg.table} game {msg.game} seq {msg.seq}: " if msg is not None else ""
        log.warning("club: kept aside %s%s", where, reason)
        self.db.execute("INSERT INTO club_quarantine (table_id, game_id, seq, reason, payload, "
                        "digest) VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (digest) DO NOTHING",
                        (msg.table if msg else None, msg.game if msg else None,
                         msg.seq if msg else None, reason[:500], text[:20000], digest))
        out.quarantined += 1

    def _write_results(self, key: tuple[str, int], fold: Fold) -> None:
        state = fold.state
        over = state.phase == "game-over"
        self.db.execute(
            "UPDATE club_games SET status=%s, phase=%s, turn=%s, totals=%s, winners=%s, ruling=%s, "
            "notice=%s, last_seq=%s, updated_at=now() WHERE table_id=%s AND game_id=%s",
            ("over" if over else "playing", state.phase, whose_turn(state),
             json.dumps([plain_number(x) for x in state.totals]),
             json.dumps(list(state.winners) if over else []), fold.ruling, state.notice,
             fold.last_seq, *key))
        for record in state.history[fold.deals_written:]:
            self.db.execute(
                "INSERT INTO club_deals (table_id, game_id, deal, winner, scores, totals) VALUES "
                "(%s, %s, %s, %s, %s, %s) ON CONFLICT (table_id, game_id, deal) DO UPDATE SET "
                "winner=EXCLUDED.winner, scores=EXCLUDED.scores, totals=EXCLUDED.totals",
                (*key, record.number, record.winner,
                 json.dumps([plain_number(x) for x in record.scores]),
                 json.dumps([plain_number(x) for x in record.totals])))
        fold.deals_written = len(state.history)

    def keep_aside(self, payload: bytes, reason: str) -> None:
        """Quarantine ``payload`` on its own (a message that broke a batch)."""
        with self.db.transaction():
            self._quarantine(None, reason, payload, Outcome())
        self.db.commit()
