"""``tablekit history``: the games played at this table, a game's score sheet, player statistics.

The journal is opened read-only: history needs no write access to it or its folder. A damaged
journal is read as far as it can be (:func:`tablekit.journal_open.read_journal`), and a line on
stderr says how much of it could not be.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path

from tablekit.journal import GameSummary, Journal, JournalError, PlayerStats, default_path
from tablekit.journal_open import read_journal
from tablekit.score_sheet import resolve_game, score_sheet

NAME = "history"
HELP = "list past games, show a game's score sheet, or per-player statistics"
log = logging.getLogger(__name__)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--journal", type=Path, help="journal database (default: $TABLEKIT_JOURNAL or ~/.local/share/tablekit)")
    p.add_argument("--game", help="show this game's score sheet (an id, or 'latest')")
    p.add_argument("--players", action="store_true", help="per-player statistics over every game")
    p.add_argument("--json", action="store_true", help="JSON lines instead of a table")


def run(args: argparse.Namespace) -> int:
    path = args.journal or default_path()
    try:
        if args.game:
            game = args.game

            def sheet(journal: Journal) -> tuple[list[str], list[list[object]]]:
                return score_sheet(journal, resolve_game(journal, game))

            (header, rows), note = read_journal(path, sheet)
            _warn(note)
            return _sheet(header, rows, args.json)
        if args.players:
            stats, note = read_journal(path, lambda journal: journal.player_stats())
            _warn(note)
            return _players(stats, args.json)
        games, note = read_journal(path, lambda journal: journal.games())
        _warn(note)
        return _games(games, args.json)
    except JournalError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _warn(note: str | None) -> None:
    if note:
        log.warning("%s", note)


def _games(games: list[GameSummary], as_json: bool) -> int:
    for g in games:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.created_ms / 1000))
        if as_json:
            print(json.dumps({"id": g.id, "created_ms": g.created_ms, "variant": g.variant,
                              "players": list(g.players), "status": g.status,
                              "winners": list(g.winners), "deals": g.deals}))
        else:
            won = ", ".join(g.winners) or "-"
            print(f"{g.id:>4}  {when}  {g.variant:<18} {g.status:<9} deals {g.deals:<3} "
                  f"winner {won:<12} {', '.join(g.players)}")
    return 0


def _sheet(header: list[str], rows: list[list[object]], as_json: bool) -> int:
    if as_json:
        for row in rows:
            print(json.dumps(dict(zip(header, row, strict=True))))
        return 0
    widths = [max(len(str(x)) for x in [h] + [r[i] for r in rows]) for i, h in enumerate(header)]
    table: list[list[object]] = [list(header), *rows]
    for row in table:
        print("  ".join(str(x).rjust(w) for x, w in zip(row, widths, strict=True)))
    return 0


def _players(stats: list[PlayerStats], as_json: bool) -> int:
    for s in stats:
        if as_json:
            print(json.dumps({"name": s.name, "games": s.games, "games_won": s.games_won,
                              "deals": s.deals, "deals_won": s.deals_won, "points": s.points,
                              "average": round(s.average, 1)}))
        else:
            print(f"{s.name:<14} games {s.games:>3} won {s.games_won:>3}   deals {s.deals:>4} "
                  f"won {s.deals_won:>4}   points {s.points:>5}  avg {s.average:5.1f}")
    return 0
