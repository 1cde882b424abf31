"""``tablekit history``: the games played at this table, a game's score sheet, player statistics."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tablekit.journal import Journal, JournalError, default_path
from tablekit.score_sheet import resolve_game, score_sheet

NAME = "history"
HELP = "list past games, show a game's score sheet, or per-player statistics"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--journal", type=Path, help="journal database (default: $TABLEKIT_JOURNAL or ~/.local/share/tablekit)")
    p.add_argument("--game", help="show this game's score sheet (an id, or 'latest')")
    p.add_argument("--players", action="store_true", help="per-player statistics over every game")
    p.add_argument("--json", action="store_true", help="JSON lines instead of a table")


def run(args: argparse.Namespace) -> int:
    path = args.journal or default_path()
    if not path.exists():
        print(f"error: no journal at {path}", file=sys.stderr)
        return 2
    with Journal(path) as journal:
        try:
            if args.game:
                return _sheet(journal, resolve_game(journal, args.game), args.json)
            if args.players:
                return _players(journal, args.json)
            return _games(journal, args.json)
        except JournalError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2


def _games(journal: Journal, as_json: bool) -> int:
    for g in journal.games():
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


def _sheet(journal: Journal, game_id: int, as_json: bool) -> int:
    header, rows = score_sheet(journal, game_id)
    if as_json:
        for row in rows:
            print(json.dumps(dict(zip(header, row, strict=True))))
        return 0
    widths = [max(len(str(x)) for x in [h] + [r[i] for r in rows]) for i, h in enumerate(header)]
    table: list[list[object]] = [list(header), *rows]
    for row in table:
        print("  ".join(str(x).rjust(w) for x, w in zip(row, widths, strict=True)))
    return 0


def _players(journal: Journal, as_json: bool) -> int:
    for s in journal.player_stats():
        if as_json:
            print(json.dumps({"name": s.name, "games": s.games, "games_won": s.games_won,
                              "deals": s.deals, "deals_won": s.deals_won, "points": s.points,
                              "average": round(s.average, 1)}))
        else:
            print(f"{s.name:<14} games {s.games:>3} won {s.games_won:>3}   deals {s.deals:>4} "
                  f"won {s.deals_won:>4}   points {s.points:>5}  avg {s.average:5.1f}")
    return 0
