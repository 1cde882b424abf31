"""``tablekit export GAME``: a game's printable score sheet (PDF), its scores for a spreadsheet
(CSV) and a chart of its running totals (PNG).

The PDF (A4 portrait, or ``--paper letter``) is a sheet to print and pin up: the game, its
date and players, a table of the deals (deal number, dealer, the cut card where the game cuts
one, each player's points and running total, the deal's winner, and the verdicts: drops, wrong
shows, eliminations), the final totals and standings, who won, and a chart of the running
totals; a long game goes on over more pages.

The CSV is one row per deal, as on the paper: ``deal``, ``dealer``, ``cut`` (``-`` where the
game cuts none), ``winner``, then for each player ``NAME points``, ``NAME total`` (the running
total after that deal) and ``NAME note`` (how the deal ended for them: ``winner``, ``lost``,
``first-drop``, ``middle-drop``, ``wrong-show``, ``out``…); the last row's totals are the
final ones. A club's treasurer can sum a column, or lay the sheets of several games side by
side. It is UTF-8 with a byte-order mark, so Excel and LibreOffice open names such as "José"
or "रवि" as they were typed; a name a spreadsheet would take for a formula (``=…``, ``+…``,
``-…``, ``@…``) is written with a leading apostrophe.

The journal is opened read-only (export needs no write access to it), and a damaged one is
read as far as it can be, as ``tablekit history`` does; the sheet then says what was lost.
Files are written under a temporary name and renamed once complete. matplotlib, which draws
the PDF and the chart, is loaded only when this command runs.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import logging
from collections.abc import Collection
from pathlib import Path

from engine.errors import TablekitError
from tablekit.journal import Journal, default_path
from tablekit.journal_open import journal_files, read_journal
from tablekit.score_sheet import PaperSheet, paper_sheet, resolve_game, score_sheet
from tablekit.values import ValueRefused, output_file, output_folder, path_arg, same_file

__all__ = ["score_sheet", "write_chart", "write_csv", "write_sheet"]

NAME = "export"
HELP = "write a game's printable score sheet (PDF), its scores (CSV) and a score chart (PNG)"
log = logging.getLogger(__name__)

PAPER_NAMES = {"a4": "A4", "letter": "letter"}
#: What a spreadsheet reads as the start of a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


DESCRIPTION = f"""{HELP}.

The PDF (A4 portrait, or --paper letter): the game, its date and players; a table of the
deals (deal, dealer, cut card, each player's points and running total, the deal's winner,
drops, wrong shows and eliminations); the final totals and standings; who won; and a chart
of the running totals. A long game goes on over more pages.

The CSV has one row per deal: deal, dealer, cut, winner, then for each player NAME points,
NAME total (the running total) and NAME note (winner, lost, first-drop, wrong-show, out...).
The last row holds the final totals. It is UTF-8 with a byte-order mark, so Excel and
LibreOffice show accented and non-Latin names as they were typed."""


class ExportError(TablekitError, ValueError):
    """A paper there is none of, or a file that cannot be written."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = DESCRIPTION
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("game", help="game id (see `tablekit history`), or 'latest'")
    p.add_argument("--journal", type=path_arg, help="journal database (default: $TABLEKIT_JOURNAL or ~/.local/share/tablekit)")
    p.add_argument("--out", type=path_arg, default=Path("."),
                   help="folder for the files: game-N-sheet.pdf, game-N-scores.csv, "
                        "game-N-chart.png (default: here)")
    p.add_argument("--paper", type=paper, default="A4", help="A4 (the default) or letter, portrait")
    p.add_argument("--pdf", type=path_arg, metavar="FILE", help="write the score sheet here instead")
    p.add_argument("--csv", type=path_arg, metavar="FILE", help="write the scores here instead")
    p.add_argument("--chart", type=path_arg, metavar="FILE", help="write the chart here instead")
    p.add_argument("--size", default="1280x720", help="chart size in pixels (default: 1280x720)")


def paper(text: str) -> str:
    """``A4`` or ``letter``, however the command line spells it."""
    try:
        return PAPER_NAMES[text.strip().lower()]
    except KeyError:
        raise argparse.ArgumentTypeError(f"no paper {text!r}: choose A4 or letter") from None


def _cell(value: object) -> object:
    """A text cell a spreadsheet would run as a formula, made plain text."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and value != "-":
        return "'" + value
    return value


def _write_csv(header: list[str], rows: list[list[object]], path: Path) -> Path:
    from tablekit.paper import replacing

    with replacing(path) as part:
        with part.open("w", newline="", encoding="utf-8-sig") as f:
            out = csv.writer(f)
            out.writerow([_cell(h) for h in header])
            out.writerows([_cell(x) for x in row] for row in rows)
    return path


def write_csv(journal: Journal, game_id: int, path: Path) -> Path:
    """The game's scores as CSV (one row per deal; see the module's docstring)."""
    header, rows = score_sheet(journal, game_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    return _write_csv(header, rows, path)


def write_sheet(journal: Journal, game_id: int, path: Path, paper: str = "A4") -> int:
    """The game's printable score sheet as a PDF; returns its number of pages."""
    from tablekit.paper import write_pdf

    sheet = paper_sheet(journal, game_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_pdf(sheet, path, paper)


def write_chart(journal: Journal, game_id: int, path: Path, size: tuple[int, int] = (1280, 720)) -> Path:
    """The game's running totals as a PNG chart of ``size`` pixels, on white."""
    from tablekit.paper import write_png

    sheet = paper_sheet(journal, game_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_png(sheet, path, size)


def chart_size(text: str) -> tuple[int, int]:
    """The chart's ``--size``: 16 to 8192 pixels a side."""
    from tablekit.values import parse_size

    return parse_size(text, low=(16, 16), high=(8192, 8192))


@dataclasses.dataclass(frozen=True)
class _Read:
    sheet: PaperSheet
    header: list[str]
    rows: list[list[object]]


def _distinct(outputs: dict[str, Path], named: Collection[str] = ()) -> None:
    """Refuse two outputs naming one file (each would overwrite the one before: only the last
    would be left), a named one (an option of ``named``, else ``--out``'s) among them."""
    same = [o for o in outputs if sum(same_file(p, outputs[o]) for p in outputs.values()) > 1]
    if same:
        said = dict.fromkeys(f"--{o}" if o in named else "--out" for o in same)
        raise ValueRefused(f"{' and '.join(said)} name the same file {outputs[same[0]]}: "
                           "give each its own")


def run(args: argparse.Namespace) -> int:
    path = args.journal or default_path()
    size = chart_size(args.size)
    # named files are checked before anything is read: a folder named as a file is refused
    keep = journal_files(path)
    named = {option: output_file(getattr(args, option), f"--{option}", keep)
             for option in ("pdf", "csv", "chart") if getattr(args, option) is not None}
    _distinct(named, named)

    def read(journal: Journal) -> _Read:
        game_id = resolve_game(journal, args.game)
        header, rows = score_sheet(journal, game_id)
        return _Read(paper_sheet(journal, game_id), header, rows)

    found, note = read_journal(path, read)
    if note:
        log.warning("%s", note)
    sheet = dataclasses.replace(found.sheet, caveat=note or "")
    gid = sheet.game_id
    if len(named) < 3:
        output_folder(args.out, "--out")
    pdf = named.get("pdf") or output_file(args.out / f"game-{gid}-sheet.pdf", "--out", keep)
    sheet_csv = named.get("csv") or output_file(args.out / f"game-{gid}-scores.csv", "--out", keep)
    chart = named.get("chart") or output_file(args.out / f"game-{gid}-chart.png", "--out", keep)
    _distinct({"pdf": pdf, "csv": sheet_csv, "chart": chart}, named)

    from tablekit.paper import write_pdf, write_png

    target = pdf
    try:
        write_pdf(sheet, pdf, args.paper)
        target = sheet_csv
        _write_csv(found.header, found.rows, sheet_csv)
        target = chart
        write_png(sheet, chart, size)
    except OSError as exc:
        raise ExportError(f"cannot write {target}: {exc.strerror or exc}") from None
    print(pdf)
    print(sheet_csv)
    print(chart)
    return 0
