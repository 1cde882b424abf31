"""Helpers for the club's tests: tables that play into real journals, and the check that the
club's database holds exactly what the journals hold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import psycopg

from tablekit.club.sim import sim_events, sim_game
from tablekit.journal import Journal


def play(path: Path, seed: int, *, upto: int | None = None, game_id: int | None = None) -> int:
    """Play game ``seed`` into the journal at ``path`` (its first ``upto`` events, or the rest
    of game ``game_id`` already begun); the game's id."""
    game = sim_game(seed)
    events = list(sim_events(game, seed))
    with Journal(path) as journal:
        if game_id is None:
            game_id = journal.new_game(game, 1_700_000_000_000 + seed * 3_600_000)
            start = 0
        else:
            start = len(journal.events(game_id))
        for event in events[start:upto]:
            journal.append(game_id, event)
    return game_id


def journal_facts(path: Path) -> dict[str, Any]:
    """Every event, score row, status and winners of the journal at ``path``."""
    with Journal(path, read_only=True) as journal:
        games = {}
        for g in journal.games():
            rows = journal._rows("SELECT seq, t_ms, type, body FROM events WHERE game_id=? "
                                 "ORDER BY seq", (g.id,))
            games[g.id] = {
                "events": [tuple(r) for r in rows],
                "deals": [(d, list(s), list(t)) for d, s, t in journal.score_rows(g.id)],
                "status": "over" if g.status == "over" else "playing",
                "winners": list(g.winners),
            }
        return games


def club_facts(dsn: str, table: str) -> dict[str, Any]:
    with psycopg.connect(dsn) as db:
        games = {}
        for gid, status, winners, players in db.execute(
                "SELECT game_id, status, winners, players FROM club_games WHERE table_id=%s",
                (table,)):
            events = [tuple(r) for r in db.execute(
                "SELECT seq, t_ms, type, body FROM club_events WHERE table_id=%s AND game_id=%s "
                "ORDER BY seq", (table, gid))]
            deals = [(d, s, t) for d, s, t in db.execute(
                "SELECT deal, scores, totals FROM club_deals WHERE table_id=%s AND game_id=%s "
                "ORDER BY deal", (table, gid))]
            games[int(gid)] = {"events": events, "deals": deals, "status": status,
                               "winners": [players[w] for w in winners]}
        return games


def count(dsn: str, sql: str, *params: Any) -> int:
    with psycopg.connect(dsn) as db:
        row = db.execute(sql, params).fetchone()
        return int(row[0]) if row else 0


def same(dsn: str, table: str, path: Path) -> bool:
    return club_facts(dsn, table) == journal_facts(path)


def dumps(x: Any) -> str:
    return json.dumps(x, sort_keys=True)
