"""``tablekit export GAME``: a game's score sheet as CSV and its running totals as a PNG chart.

The chart is the scoreboard screen itself, drawn off-screen by the display renderer (pygame),
so the file looks like what the table saw. The journal is opened read-only (export needs no
write access to it), and a damaged one is read as far as it can be, as ``tablekit history``
does.
"""

from __future__ import annotations

import argparse
import csv
import logging
import os
import sys
from pathlib import Path

from engine.errors import TablekitError
from tablekit.journal import Journal, JournalError, default_path
from tablekit.journal_open import read_journal
from tablekit.score_sheet import resolve_game, score_sheet

__all__ = ["score_sheet", "write_chart", "write_csv"]

NAME = "export"
HELP = "write a game's score sheet (CSV) and score chart (PNG)"
log = logging.getLogger(__name__)


class ExportError(TablekitError, ValueError):
    """A chart size that is no size, or an output folder that cannot be written."""


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


def chart_size(text: str) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    try:
        size = int(w), int(h)
    except ValueError:
        raise ExportError(f"bad --size {text!r}: expected WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (16 <= size[0] <= 8192 and 16 <= size[1] <= 8192):
        raise ExportError(f"bad --size {text!r}: each side must be 16 to 8192 pixels")
    return size


def run(args: argparse.Namespace) -> int:
    path = args.journal or default_path()
    size = chart_size(args.size)

    def export(journal: Journal) -> tuple[Path, Path]:
        game_id = resolve_game(journal, args.game)
        journal.game(game_id)
        sheet = write_csv(journal, game_id, args.out / f"game-{game_id}-scores.csv")
        chart = write_chart(journal, game_id, args.out / f"game-{game_id}-chart.png", size)
        return sheet, chart

    try:
        (sheet, chart), note = read_journal(path, export)
    except JournalError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        raise ExportError(f"cannot write to {args.out}: {exc.strerror or exc}") from None
    if note:
        log.warning("%s", note)
    print(sheet)
    print(chart)
    return 0
