"""``tablekit export GAME``: a game's score sheet as CSV and its running totals as a PNG chart.

The chart is the scoreboard screen itself, drawn off-screen by the display renderer (pygame),
so the file looks like what the table saw.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from pathlib import Path

from tablekit.journal import Journal, JournalError, default_path
from tablekit.score_sheet import resolve_game, score_sheet

__all__ = ["score_sheet", "write_chart", "write_csv"]

NAME = "export"
HELP = "write a game's score sheet (CSV) and score chart (PNG)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="game id (see `tablekit history`), or 'latest'")
    p.add_argument("--journal", type=Path, help="journal database (default: $TABLEKIT_JOURNAL or ~/.local/share/tablekit)")
    p.add_argument("--out", type=Path, default=Path("."), help="folder for the files (default: here)")
    p.add_argument("--size", default="1280x720", help="chart size in pixels")


def write_csv(journal: Journal, game_id: int, path: Path) -> Path:
    header, rows = score_sheet(journal, game_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(header)
        out.writerows(rows)
    return path


def write_chart(journal: Journal, game_id: int, path: Path, size: tuple[int, int] = (1280, 720)) -> Path:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from display.renderer import Renderer
    from tablekit.present import scoreboard

    state = journal.restore(game_id)
    if not state.history:
        raise JournalError(f"game {game_id} has no finished deal to chart")
    pygame.font.init()
    surface = pygame.Surface(size)
    view = scoreboard(state)
    Renderer().render(view, surface)
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(path))
    return path


def run(args: argparse.Namespace) -> int:
    path = args.journal or default_path()
    if not path.exists():
        print(f"error: no journal at {path}", file=sys.stderr)
        return 2
    w, _, h = args.size.partition("x")
    with Journal(path) as journal:
        try:
            game_id = resolve_game(journal, args.game)
            journal.game(game_id)
            sheet = write_csv(journal, game_id, args.out / f"game-{game_id}-scores.csv")
            chart = write_chart(journal, game_id, args.out / f"game-{game_id}-chart.png", (int(w), int(h)))
        except JournalError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    print(sheet)
    print(chart)
    return 0
