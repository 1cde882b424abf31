"""The printed score sheet (PDF) and the running-totals chart (PNG), drawn with matplotlib.

Only ``tablekit export`` imports this module: matplotlib takes a moment to load and no other
command needs it. Everything is drawn on white in black ink (the chart's lines in colour, each
with its own marker and dash so a black-and-white copy still tells them apart), from a
:class:`~tablekit.score_sheet.PaperSheet`; nothing here reads the journal.

The sheet: a title block (the game, its date, the players or teams, how it is won and who
won), a table of the deals (deal number, dealer, the cut card where the game cuts one, each
player's points and running total, the deal's winner, and the verdicts in words: drops, wrong
shows, eliminations), the final totals, the standings, and a chart of the running totals. A
game too long for one page goes on over more, each repeating the table's header.

Names in any script: the text is set in DejaVu Sans, and for characters it lacks (Devanagari,
Tamil, Chinese…) matplotlib falls back to the Noto fonts that cover them, where installed
(Debian's fonts-noto-core and fonts-noto-cjk). A character no font here has is drawn as a box
and logged once; it never stops the export.
"""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import matplotlib
import matplotlib.style
from matplotlib import ft2font
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, fontManager
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator

from tablekit.score_sheet import PaperSheet, SheetDeal, format_score
from tablekit.values import check_plain_target

log = logging.getLogger(__name__)

#: Paper sizes, portrait, in millimetres.
PAPERS: dict[str, tuple[float, float]] = {"A4": (210.0, 297.0), "letter": (215.9, 279.4)}
MM_PER_PT = 25.4 / 72

BASE_FAMILY = "DejaVu Sans"
#: Fonts tried, in this order, for characters DejaVu Sans lacks (then any other Noto Sans).
FALLBACKS = (
    "Noto Sans Devanagari", "Noto Sans Bengali", "Noto Sans Gujarati", "Noto Sans Gurmukhi",
    "Noto Sans Tamil", "Noto Sans Telugu", "Noto Sans Kannada", "Noto Sans Malayalam",
    "Noto Sans Oriya", "Noto Sans Sinhala", "Noto Sans Arabic", "Noto Sans Hebrew",
    "Noto Sans Thai", "Noto Sans CJK JP", "Noto Sans CJK KR", "Noto Sans", "Noto Sans Symbols",
    "Noto Sans Symbols2",
)

INK = "black"
GREY = "0.4"
RULE = "0.55"
SHADE = "0.94"
#: Line colours, markers and dashes of the chart, one per player or team.
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
DASHES: tuple[Any, ...] = ("-", "--", "-.", ":", (0, (5, 1, 1, 1)), (0, (3, 1)), "-", "--")

MARGIN = 14.0  # mm, each side
FOOTER = 7.0  # mm kept at the foot of every page for the page number
PAD = 1.4  # mm either side of a table cell's text
CHART_HEIGHT = (62.0, 105.0)  # mm: the least the chart may have, and what it likes


# --- fonts -----------------------------------------------------------------------------------


@cache
def _charmap(path: str) -> frozenset[int]:
    try:
        return frozenset(ft2font.FT2Font(path).get_charmap())
    except (OSError, RuntimeError, ValueError):
        return frozenset()


def _family_file(family: str) -> str | None:
    for entry in fontManager.ttflist:
        if entry.name == family and entry.style == "normal":
            return str(entry.fname)
    return None


def font_families(texts: Iterable[str]) -> list[str]:
    """DejaVu Sans, then the installed fonts that draw what it cannot of ``texts``."""
    base = _family_file(BASE_FAMILY)
    covered = _charmap(base) if base else frozenset()
    missing = {ord(ch) for text in texts for ch in text if ch.isprintable() and not ch.isspace()}
    missing -= covered
    families = [BASE_FAMILY]
    if not missing:
        return families
    others = sorted({e.name for e in fontManager.ttflist if e.name.startswith("Noto Sans")} - set(FALLBACKS))
    for family in (*FALLBACKS, *others):
        path = _family_file(family)
        if path is None:
            continue
        found = missing & _charmap(path)
        if found:
            families.append(family)
            missing -= found
        if not missing:
            break
    if missing:
        log.warning("no font here draws %s: shown as boxes on the sheet",
                    " ".join(chr(c) for c in sorted(missing)[:8]))
    return families


@contextmanager
def _style(families: list[str]) -> Iterator[None]:
    """Matplotlib's own defaults (whatever a matplotlibrc says), on white, names as plain text."""
    with warnings.catch_warnings():
        # a glyph no font has is logged once by font_families; layout notes on a tiny chart
        # are not the user's business
        warnings.simplefilter("ignore", UserWarning)
        with matplotlib.style.context("default"), matplotlib.rc_context({
                "font.family": families, "text.parse_math": False, "figure.facecolor": "white",
                "savefig.facecolor": "white", "axes.facecolor": "white", "text.color": INK,
                "axes.edgecolor": INK, "axes.labelcolor": INK, "xtick.color": INK,
                "ytick.color": INK, "pdf.compression": 6}):
            yield


def _sheet_texts(sheet: PaperSheet) -> list[str]:
    return [sheet.variant, *sheet.players, *sheet.teams, sheet.headline, sheet.caveat]


# --- measuring and fitting text --------------------------------------------------------------


class _Ruler:
    """Text widths in millimetres, as the sheet's fonts set them."""

    def __init__(self) -> None:
        self._renderer = FigureCanvasAgg(Figure(dpi=72)).get_renderer()  # type: ignore[no-untyped-call]
        self._cache: dict[tuple[str, bool], float] = {}

    def width(self, text: str, size: float, bold: bool = False) -> float:
        """Measured once at 100 pt (a text's width grows with its size)."""
        key = (text, bold)
        if key not in self._cache:
            prop = FontProperties(size=100, weight="bold" if bold else "normal")
            w, _, _ = self._renderer.get_text_width_height_descent(text, prop, ismath=False)
            self._cache[key] = w * MM_PER_PT / 100
        return self._cache[key] * size

    def fit(self, text: str, width: float, size: float, bold: bool = False) -> str:
        """``text``, cut short with an ellipsis where it is wider than ``width``."""
        if self.width(text, size, bold) <= width:
            return text
        while text and self.width(text + "…", size, bold) > width:
            text = text[:-1]
        return text.rstrip() + "…"

    def wrap(self, text: str, width: float, size: float, bold: bool = False) -> list[str]:
        """``text`` in lines no wider than ``width`` (a word too long for one is cut short)."""
        lines: list[str] = []
        line = ""
        for word in text.split():
            trial = f"{line} {word}" if line else word
            if self.width(trial, size, bold) <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            line = self.fit(word, width, size, bold)
        if line:
            lines.append(line)
        return lines or [""]

    def wrap_all(self, parts: list[str], width: float, size: float) -> list[str]:
        """``parts`` joined by "; " in lines no wider than ``width``, a part going on to the
        next line whole where it does not fit on the current one."""
        lines: list[str] = []
        for part in parts:
            trial = f"{lines[-1]}; {part}" if lines else part
            if lines and self.width(trial, size) <= width:
                lines[-1] = trial
            else:
                lines += self.wrap(part, width, size)
        return lines or [""]


# --- the deals table -------------------------------------------------------------------------


@dataclass
class _Column:
    header: str
    width: float
    align: str = "left"  # "left", "right" or "center"


@dataclass
class _Table:
    size: float  # font size, pt
    columns: list[_Column]
    names: list[list[str]]  # each player's name as it heads their two columns (1 or 2 lines)
    first_player: int  # index of the first player's points column
    line: float  # line height, mm
    rows: list[list[str]] = field(default_factory=list)  # cells of each deal
    notes: list[list[str]] = field(default_factory=list)  # each deal's notes, wrapped
    bold: list[set[int]] = field(default_factory=list)  # columns set bold per deal
    faint: list[set[int]] = field(default_factory=list)  # columns set grey per deal

    @property
    def head_height(self) -> float:
        return (max(len(n) for n in self.names) + 1) * self.line + 2 * PAD

    def row_height(self, i: int) -> float:
        return len(self.notes[i]) * self.line + PAD


def _notes(sheet: PaperSheet, deal: SheetDeal, ruler: _Ruler, size: float) -> list[str]:
    """"Ravi: first drop", one for each player the deal has a verdict for (long names cut)."""
    return [f"{ruler.fit(name, 22.0 * size / 9, size)}: {note}"
            for name, note in zip(sheet.players, deal.notes, strict=True) if note]


def _table(sheet: PaperSheet, ruler: _Ruler, width: float) -> _Table:
    """The deals table at the largest font (9 pt down to 6) whose columns fit ``width``."""
    size = 9.0
    while size > 6.0:
        table = _try_table(sheet, ruler, width, size)
        if table is not None:
            return table
        size -= 0.5
    table = _try_table(sheet, ruler, width, size, squeeze=True)
    assert table is not None  # squeezed, it always fits
    return table


def _try_table(sheet: PaperSheet, ruler: _Ruler, width: float, size: float,
               squeeze: bool = False) -> _Table | None:
    def w(texts: Iterable[str], bold: bool = False) -> float:
        """The widest of ``texts``: the first is a heading, set in bold."""
        header, *cells = texts
        return max(ruler.width(header, size, True), *(ruler.width(t, size, bold) for t in cells)) + 2 * PAD

    name_cap = 26.0 * size / 9
    deals = sheet.deals
    columns = [_Column("Deal", w(["Deal", *(str(d.number) for d in deals)]), "right"),
               _Column("Dealer", min(w(["Dealer", *(d.dealer for d in deals)]), name_cap))]
    if sheet.has_cut:
        columns.append(_Column("Cut", w(["Cut", *(d.cut for d in deals)]), "center"))
    first = len(columns)
    names = []
    for s, name in enumerate(sheet.players):
        points = w(["pts", "–", *(format_score(d.scores[s]) for d in deals)])
        totals = w(["total", *(format_score(d.totals[s]) for d in deals)], bold=True)
        # a long name takes two lines, widening its columns only as far as that needs
        full = ruler.width(name, size, bold=True)
        longest = max(ruler.width(word, size, bold=True) for word in name.split() or [name])
        wanted = min(max(longest, full / 2 * 1.15) if full > points + totals - 2 * PAD else full,
                     name_cap) + 2 * PAD
        if wanted > points + totals:
            grow = wanted - points - totals
            points += grow / 2
            totals += grow / 2
        span = points + totals - 2 * PAD
        lines = ruler.wrap(name, span, size, bold=True)
        if len(lines) > 2:
            lines = [lines[0], ruler.fit(" ".join(lines[1:]), span, size, bold=True)]
        names.append(lines)
        columns += [_Column("pts", points, "right"), _Column("total", totals, "right")]
    columns.append(_Column("Winner", min(w(["Winner", *(d.winner for d in deals)]), name_cap)))
    used = sum(c.width for c in columns)
    least = 40.0 * size / 9
    if used + least > width and not squeeze:
        return None
    columns.append(_Column("Notes", max(width - used, least)))
    table = _Table(size, columns, names, first, size * 1.3 * MM_PER_PT)
    for deal in deals:
        cells = [str(deal.number), ruler.fit(deal.dealer, columns[1].width - 2 * PAD, size)]
        if sheet.has_cut:
            cells.append(deal.cut or "–")
        bold, faint = set(), set()
        for s in range(len(sheet.players)):
            col = first + 2 * s
            if deal.sat_out[s]:
                cells += ["–", format_score(deal.totals[s])]
                faint |= {col, col + 1}
            else:
                cells += [format_score(deal.scores[s]), format_score(deal.totals[s])]
                if deal.winner == sheet.players[s]:
                    bold.add(col)
            bold.add(col + 1)
        cells.append(ruler.fit(deal.winner or "–", columns[-2].width - 2 * PAD, size))
        table.rows.append(cells)
        table.notes.append(ruler.wrap_all(_notes(sheet, deal, ruler, size), columns[-1].width - 2 * PAD, size))
        table.bold.append(bold)
        table.faint.append(faint)
    return table


# --- pages -----------------------------------------------------------------------------------


class _Page:
    """One sheet of paper to draw on in millimetres from its top left corner."""

    def __init__(self, paper: tuple[float, float]) -> None:
        self.w, self.h = paper
        self.figure = Figure(figsize=(self.w / 25.4, self.h / 25.4))
        self.ax = self.figure.add_axes((0, 0, 1, 1))
        self.ax.set_xlim(0, self.w)
        self.ax.set_ylim(self.h, 0)
        self.ax.set_axis_off()

    def text(self, x: float, y: float, text: str, size: float, *, bold: bool = False,
             align: str = "left", colour: str = INK, italic: bool = False) -> None:
        """``text`` with its baseline at ``y``, starting at, ending at or centred on ``x``."""
        if text:
            self.ax.text(x, y, text, fontsize=size, fontweight="bold" if bold else "normal",
                         fontstyle="italic" if italic else "normal", ha=align, va="baseline",
                         color=colour)

    def rule(self, x0: float, x1: float, y: float, width: float = 0.5, colour: str = INK) -> None:
        self.ax.plot([x0, x1], [y, y], color=colour, linewidth=width, solid_capstyle="butt")

    def upright(self, x: float, y0: float, y1: float, width: float = 0.4, colour: str = RULE) -> None:
        self.ax.plot([x, x], [y0, y1], color=colour, linewidth=width, solid_capstyle="butt")

    def shade(self, x: float, y: float, w: float, h: float, colour: str = SHADE) -> None:
        self.ax.add_patch(Rectangle((x, y), w, h, facecolor=colour, edgecolor="none"))

    def chart(self, x: float, y: float, w: float, h: float) -> Axes:
        """An axes whose plotting area is the box at ``x, y`` of ``w`` by ``h`` mm."""
        return self.figure.add_axes((x / self.w, 1 - (y + h) / self.h, w / self.w, h / self.h))


@dataclass
class _Plan:
    """What goes on each page: the table's rows, and where the standings and chart go."""

    pages: list[tuple[int, int]]  # rows [start, stop) of the table on each page
    end_page: int  # the page with the standings and the chart (one after the table's last
    # page when they do not fit under it)


def _cell_x(table: _Table, left: float) -> list[float]:
    xs = [left]
    for c in table.columns:
        xs.append(xs[-1] + c.width)
    return xs


def _draw_header(page: _Page, sheet: PaperSheet, ruler: _Ruler, y: float) -> float:
    """The title block; returns where it ends."""
    width = page.w - 2 * MARGIN
    y += 6.5
    page.text(MARGIN, y, ruler.fit(f"{sheet.variant} · score sheet", width, 17, True), 17, bold=True)
    y += 6.5
    status = "finished" if sheet.over else "not finished"
    deals = f"{len(sheet.deals)} deal" + ("s" if len(sheet.deals) != 1 else "")
    page.text(MARGIN, y, f"Game {sheet.game_id} · {sheet.date} · {deals} · {status}", 10)
    if sheet.partnerships:
        who = "Teams: " + " v ".join(label for label, _ in sheet.sides())
    else:
        who = "Players: " + ", ".join(sheet.players)
    for line in ruler.wrap(who, width, 10):
        y += 5
        page.text(MARGIN, y, line, 10)
    y += 5
    page.text(MARGIN, y, f"Scoring: {sheet.rules}", 10)
    y += 6.5
    page.text(MARGIN, y, ruler.fit(sheet.headline, width, 12.5, True), 12.5, bold=True)
    if sheet.caveat:
        for line in ruler.wrap(f"Note: {sheet.caveat}", width, 8.5):
            y += 4.5
            page.text(MARGIN, y, line, 8.5, italic=True, colour=GREY)
    return y + 5


def _draw_table_head(page: _Page, table: _Table, y: float) -> float:
    xs = _cell_x(table, MARGIN)
    size, line = table.size, table.line
    top = y
    y += table.head_height
    base = y - PAD - 0.3 * line
    for i, column in enumerate(table.columns):
        player = i >= table.first_player and i < table.first_player + 2 * len(table.names)
        header = column.header
        _cell_text(page, xs[i], column, base, header, size, bold=not player,
                   colour=GREY if player else INK)
    for s, lines in enumerate(table.names):
        col = table.first_player + 2 * s
        middle = (xs[col] + xs[col + 2]) / 2
        for k, text in enumerate(reversed(lines)):
            page.text(middle, base - (k + 1) * line, text, size, bold=True, align="center")
    page.rule(MARGIN, xs[-1], top, 0.8)
    page.rule(MARGIN, xs[-1], y, 0.8)
    _uprights(page, table, xs, top, y)
    return y


def _uprights(page: _Page, table: _Table, xs: list[float], y0: float, y1: float) -> None:
    """Thin lines setting each player's pair of columns apart."""
    for s in range(len(table.names) + 1):
        page.upright(xs[table.first_player + 2 * s], y0, y1)


def _cell_text(page: _Page, x: float, column: _Column, y: float, text: str, size: float,
               bold: bool = False, colour: str = INK) -> None:
    if column.align == "right":
        page.text(x + column.width - PAD, y, text, size, bold=bold, align="right", colour=colour)
    elif column.align == "center":
        page.text(x + column.width / 2, y, text, size, bold=bold, align="center", colour=colour)
    else:
        page.text(x + PAD, y, text, size, bold=bold, colour=colour)


def _draw_rows(page: _Page, table: _Table, rows: range, y: float) -> float:
    xs = _cell_x(table, MARGIN)
    top = y
    for i in rows:
        h = table.row_height(i)
        if i % 2:
            page.shade(MARGIN, y, xs[-1] - MARGIN, h)
        base = y + PAD / 2 + 0.78 * table.line
        for c, (column, text) in enumerate(zip(table.columns, table.rows[i], strict=False)):
            _cell_text(page, xs[c], column, base, text, table.size, bold=c in table.bold[i],
                       colour=GREY if c in table.faint[i] else INK)
        for k, text in enumerate(table.notes[i]):
            _cell_text(page, xs[-2], table.columns[-1], base + k * table.line, text, table.size)
        y += h
    _uprights(page, table, xs, top, y)
    return y


def _draw_totals(page: _Page, sheet: PaperSheet, table: _Table, y: float) -> float:
    xs = _cell_x(table, MARGIN)
    h = table.line + PAD
    page.rule(MARGIN, xs[-1], y, 0.8)
    base = y + PAD / 2 + 0.78 * table.line
    page.text(MARGIN + PAD, base, "Final" if sheet.over else "So far", table.size, bold=True)
    for s, total in enumerate(sheet.totals):
        col = table.first_player + 2 * s + 1
        _cell_text(page, xs[col], table.columns[col], base, format_score(total), table.size, bold=True)
    _uprights(page, table, xs, y, y + h)
    page.rule(MARGIN, xs[-1], y + h, 0.8)
    page.rule(MARGIN, xs[-1], y + h + 0.6, 0.8)
    return y + h + 0.6


def _standings_height(sheet: PaperSheet) -> float:
    return 9.0 + 5.0 * len(sheet.standings) + 4.0


def _draw_standings(page: _Page, sheet: PaperSheet, ruler: _Ruler, y: float) -> float:
    y += 7.0
    title = "Final standings" if sheet.over else f"Standings after deal {len(sheet.deals)}"
    page.text(MARGIN, y, title, 11, bold=True)
    size = 9.5
    name_w = max(ruler.width(s.name, size) for s in sheet.standings) + 4
    team_w = (max(ruler.width(s.team, size) for s in sheet.standings) + 4) if sheet.partnerships else 0.0
    total_w = max(ruler.width(format_score(s.total), size, True) for s in sheet.standings) + 2
    x_place, x_name = MARGIN + 6, MARGIN + 9
    x_team = x_name + min(name_w, 60)
    x_total = x_team + min(team_w, 40) + total_w
    y += 1.5
    for standing in sheet.standings:
        y += 5.0
        page.text(x_place, y, f"{standing.place}.", size, align="right")
        page.text(x_name, y, ruler.fit(standing.name, 58, size, standing.note == "winner"), size,
                  bold=standing.note == "winner")
        if sheet.partnerships:
            page.text(x_team, y, ruler.fit(standing.team, 38, size), size, colour=GREY)
        page.text(x_total, y, format_score(standing.total), size, bold=True, align="right")
        page.text(x_total + 4, y, standing.note, size, italic=True,
                  colour=INK if standing.note == "winner" else GREY)
    return y + 4.0


def draw_chart(ax: Axes, sheet: PaperSheet, size: float) -> None:
    """The running totals, deal by deal, one line for each player (or team of partners)."""
    handles: list[Line2D] = []
    labels: list[str] = []
    for i, (label, seats) in enumerate(sheet.sides()):
        s = seats[0]
        xs: list[int] = [0]
        ys: list[float] = [0]
        for deal in sheet.deals:
            if deal.sat_out[s]:
                break  # out of the game: the line stops where they went out
            xs.append(deal.number)
            ys.append(float(deal.totals[s]))
        marker = MARKERS[i % len(MARKERS)] if len(sheet.deals) <= 30 else None
        [line] = ax.plot(xs, ys, color=COLOURS[i % len(COLOURS)], marker=marker,
                         linestyle=DASHES[i % len(DASHES)], linewidth=1.8, markersize=size * 0.45,
                         clip_on=False, zorder=3)
        handles.append(line)
        labels.append(label)
    values = [0.0, *(float(t) for d in sheet.deals for t in d.totals)]
    if sheet.target is not None:
        values.append(float(sheet.target))
        ax.axhline(sheet.target, color=GREY, linestyle=(0, (4, 3)), linewidth=1.0, zorder=2)
        ax.annotate(sheet.target_label, (0, sheet.target), xycoords=("axes fraction", "data"),
                    xytext=(4, 3), textcoords="offset points", ha="left", va="bottom",
                    fontsize=size * 0.85, color=GREY)
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    ax.set_ylim(low - 0.03 * span, high + 0.06 * span)  # a line along 0 clears the axis
    last = max(1, sheet.deals[-1].number if sheet.deals else 1)
    ax.set_xlim(-0.015 * last, 1.015 * last)  # room for the markers at either end
    if last <= 12:  # every deal its tick; a long game a tick every few
        ax.set_xticks(range(last + 1))
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=12))
    ax.set_xlabel("deal", fontsize=size)
    ax.set_ylabel("running total", fontsize=size)
    ax.tick_params(labelsize=size * 0.9, length=3)
    ax.grid(True, color="0.88", linewidth=0.6, zorder=0)
    for spine in ("top", "right"):
        ax.spines[spine].set_visible(False)
    ax.legend(handles, labels, fontsize=size * 0.9, frameon=True, framealpha=0.9,
              edgecolor="0.8", loc="best")


def _draw_chart_block(page: _Page, sheet: PaperSheet, y: float, height: float) -> None:
    y += 8.0
    page.text(MARGIN, y, "Running totals", 11, bold=True)
    # room for the axis labels to the left and below
    ax = page.chart(MARGIN + 14, y + 4, page.w - 2 * MARGIN - 16, height - 8.0 - 4 - 11)
    draw_chart(ax, sheet, 8.5)


def _plan(sheet: PaperSheet, table: _Table, page_h: float, first_top: float) -> tuple[_Plan, float]:
    """Which rows each page holds, and the chart's height."""
    bottom = page_h - MARGIN - FOOTER
    later_top = MARGIN + 9.0
    pages: list[tuple[int, int]] = []
    start, y = 0, first_top + table.head_height
    totals = table.line + PAD + 1
    n = len(table.rows)
    i = 0
    while i < n:
        h = table.row_height(i)
        room = bottom - y - (totals if i == n - 1 else 0)
        if h > room and i > start:
            pages.append((start, i))
            start, y = i, later_top + table.head_height
            continue
        y += h
        i += 1
    pages.append((start, n))
    y += totals
    end = _standings_height(sheet)
    left = bottom - y - end
    if left >= CHART_HEIGHT[0]:
        return _Plan(pages, len(pages) - 1), min(left, CHART_HEIGHT[1])
    return _Plan(pages, len(pages)), CHART_HEIGHT[1]


def _footer(page: _Page, sheet: PaperSheet, number: int, count: int) -> None:
    y = page.h - MARGIN + 2
    page.rule(MARGIN, page.w - MARGIN, y - 4.2, 0.3, RULE)
    page.text(MARGIN, y, f"Rummy Table Kit · game {sheet.game_id} · {sheet.date}", 7.5, colour=GREY)
    page.text(page.w - MARGIN, y, f"page {number} of {count}", 7.5, colour=GREY, align="right")


def draw_pages(sheet: PaperSheet, paper: str = "A4") -> list[Figure]:
    """The sheet's pages as matplotlib figures (drawn inside :func:`write_pdf`'s style)."""
    size = PAPERS[paper]
    ruler = _Ruler()
    width = size[0] - 2 * MARGIN
    first = _Page(size)
    first_top = _draw_header(first, sheet, ruler, MARGIN)
    table = _table(sheet, ruler, width)
    plan, chart_h = _plan(sheet, table, size[1], first_top)
    count = max(len(plan.pages), plan.end_page + 1)
    pages = [first] + [_Page(size) for _ in range(count - 1)]
    y = first_top
    for k, (start, stop) in enumerate(plan.pages):
        page = pages[k]
        if k > 0:
            page.text(MARGIN, MARGIN + 4, f"{sheet.variant} · game {sheet.game_id} · score sheet "
                      "(continued)", 9, colour=GREY)
            y = MARGIN + 9.0
        y = _draw_table_head(page, table, y)
        y = _draw_rows(page, table, range(start, stop), y)
    y = _draw_totals(pages[len(plan.pages) - 1], sheet, table, y)
    end = pages[plan.end_page]
    if plan.end_page >= len(plan.pages):
        end.text(MARGIN, MARGIN + 4, f"{sheet.variant} · game {sheet.game_id} · score sheet "
                 "(continued)", 9, colour=GREY)
        y = MARGIN + 5.0
    y = _draw_standings(end, sheet, ruler, y)
    _draw_chart_block(end, sheet, y, chart_h)
    for k, page in enumerate(pages):
        _footer(page, sheet, k + 1, count)
    return [p.figure for p in pages]


# --- files -----------------------------------------------------------------------------------


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary name beside ``path`` to write to; it becomes ``path`` only when the writing
    went through, so a failure never leaves half a file under the real name. A path that is
    there but no plain file (a device, a pipe) is refused: the rename would replace it."""
    check_plain_target(path)
    part = path.with_name(f".{path.name}.part")
    try:
        yield part
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)


def write_pdf(sheet: PaperSheet, path: Path, paper: str = "A4") -> int:
    """The printable score sheet as a PDF on ``paper`` (``A4`` or ``letter``, portrait);
    returns the number of pages."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}")
    metadata = {"Title": f"{sheet.variant} score sheet, game {sheet.game_id}",
                "Subject": sheet.headline, "Creator": "Rummy Table Kit (tablekit export)"}
    with _style(font_families(_sheet_texts(sheet))):
        figures = draw_pages(sheet, paper)
        with replacing(path) as part, PdfPages(part, metadata=metadata) as pdf:
            for figure in figures:
                pdf.savefig(figure)
    return len(figures)


def write_png(sheet: PaperSheet, path: Path, size: tuple[int, int] = (1280, 720)) -> Path:
    """The running-totals chart alone as a PNG of ``size`` pixels, on white."""
    with _style(font_families(_sheet_texts(sheet))):
        figure = Figure(figsize=(size[0] / 100, size[1] / 100), dpi=100, layout="constrained")
        FigureCanvasAgg(figure)
        text = max(3.0, min(28.0, min(size) / 50))
        ax = figure.add_subplot()
        ax.set_title(f"{sheet.variant} · game {sheet.game_id}: running totals",
                     fontsize=text * 1.2, loc="left")
        draw_chart(ax, sheet, text)
        with replacing(path) as part:
            figure.savefig(part, format="png", dpi=100)
    return path
