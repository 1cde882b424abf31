"""The journal: every game and every table event in SQLite, written before the event takes effect.

A game is its fixed description plus its events in order; the state at any moment is the fold
of those events (:func:`engine.game.replay`), so a game survives a power cut and any dispute
can be replayed. The database runs in WAL mode with ``synchronous=FULL``: an ``append`` that
returned is on disk. Finished deals are also kept as score rows, for history and statistics
without replaying every game.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import TablekitError
from engine.game import Event, Game, GameState, event_from_json, replay
from engine.ruling import plain_number

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created_ms INTEGER NOT NULL,
    variant TEXT NOT NULL,
    setup TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    winners TEXT NOT NULL DEFAULT '[]',
    ended_ms INTEGER
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    t_ms INTEGER NOT NULL,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS deals (
    game_id INTEGER NOT NULL REFERENCES games(id),
    deal INTEGER NOT NULL,
    scores TEXT NOT NULL,
    totals TEXT NOT NULL,
    PRIMARY KEY (game_id, deal)
);
"""


class JournalError(TablekitError, LookupError):
    """No such game in the journal, or nothing to resume."""


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


class Journal:
    """One SQLite file holding every game played at this table."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        self._next_seq: dict[int, int] = {}

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # --- writing ------------------------------------------------------------------------

    def new_game(self, game: Game, created_ms: int) -> int:
        with self._write() as db:
            cur = db.execute("INSERT INTO games (created_ms, variant, setup) VALUES (?, ?, ?)",
                             (created_ms, game.variant_id, json.dumps(game.to_json())))
        game_id = cur.lastrowid
        assert game_id is not None
        self._next_seq[game_id] = 1
        return game_id

    def append(self, game_id: int, event: Event) -> int:
        """Write one event durably and return its sequence number (1-based)."""
        seq = self._next_seq.get(game_id)
        if seq is None:
            seq = self._last_seq(game_id) + 1
        body = event.to_json()
        with self._write() as db:
            db.execute("INSERT INTO events (game_id, seq, t_ms, type, body) VALUES (?, ?, ?, ?, ?)",
                       (game_id, seq, int(body.get("t_ms", 0)), event.TYPE,
                        json.dumps(body, separators=(",", ":"))))
        self._next_seq[game_id] = seq + 1
        return seq

    def write_scores(self, game_id: int, deal: int, scores: tuple[int | float, ...],
                     totals: tuple[int | float, ...]) -> None:
        with self._write() as db:
            db.execute("INSERT OR REPLACE INTO deals (game_id, deal, scores, totals) VALUES (?, ?, ?, ?)",
                       (game_id, deal, json.dumps(list(scores)), json.dumps(list(totals))))

    def finish(self, game_id: int, winners: tuple[int, ...], ended_ms: int) -> None:
        with self._write() as db:
            db.execute("UPDATE games SET status='over', winners=?, ended_ms=? WHERE id=?",
                       (json.dumps(list(winners)), ended_ms, game_id))

    def abandon(self, game_id: int) -> None:
        with self._write() as db:
            db.execute("UPDATE games SET status='abandoned' WHERE id=? AND status='playing'", (game_id,))

    # --- reading ------------------------------------------------------------------------

    def _last_seq(self, game_id: int) -> int:
        row = self._db.execute("SELECT MAX(seq) FROM events WHERE game_id=?", (game_id,)).fetchone()
        return int(row[0] or 0)

    def game(self, game_id: int) -> Game:
        row = self._db.execute("SELECT setup FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id} in the journal")
        return Game.from_json(json.loads(row[0]))

    def events(self, game_id: int) -> list[Event]:
        rows = self._db.execute("SELECT body FROM events WHERE game_id=? ORDER BY seq", (game_id,))
        return [event_from_json(json.loads(body)) for (body,) in rows]

    def last_time(self, game_id: int) -> int:
        row = self._db.execute("SELECT MAX(t_ms) FROM events WHERE game_id=?", (game_id,)).fetchone()
        return int(row[0] or 0)

    def restore(self, game_id: int) -> GameState:
        """The exact state of a game, rebuilt by replaying its events."""
        return replay(self.game(game_id), self.events(game_id))

    def resumable(self) -> int | None:
        """The most recent game still being played, if any."""
        row = self._db.execute(
            "SELECT id FROM games WHERE status='playing' ORDER BY id DESC LIMIT 1").fetchone()
        return int(row[0]) if row else None

    def latest(self) -> int | None:
        row = self._db.execute("SELECT MAX(id) FROM games").fetchone()
        return int(row[0]) if row and row[0] is not None else None

    def games(self) -> list[GameSummary]:
        out = []
        rows = self._db.execute(
            "SELECT g.id, g.created_ms, g.variant, g.setup, g.status, g.winners, "
            "(SELECT COUNT(*) FROM deals d WHERE d.game_id=g.id) FROM games g ORDER BY g.id")
        for gid, created, variant, setup, status, winners, deals in rows:
            names = tuple(str(s["name"]) for s in json.loads(setup)["seats"])
            won = tuple(names[w] for w in json.loads(winners) if 0 <= w < len(names))
            out.append(GameSummary(gid, created, variant, names, status, won, deals))
        return out

    def score_rows(self, game_id: int) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
        rows = self._db.execute("SELECT deal, scores, totals FROM deals WHERE game_id=? ORDER BY deal",
                                (game_id,))
        return [(deal, tuple(json.loads(s)), tuple(json.loads(t))) for deal, s, t in rows]

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


def default_path() -> Path:
    """``$TABLEKIT_JOURNAL``, else the user's data folder (``~/.local/share/tablekit``)."""
    import os

    env = os.environ.get("TABLEKIT_JOURNAL")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tablekit" / "journal.sqlite"
