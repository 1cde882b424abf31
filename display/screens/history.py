"""The history: the last games from the journal, a page at a time, with who won each."""

from __future__ import annotations

import pygame

from display import chrome, theme
from display.canvas import Canvas
from display.layout import inset, split_columns, split_rows
from display.viewmodel import HistoryLine, HistoryView

COLUMNS = [0.18, 0.26, 0.34, 0.22]  # when, game, players, winner
ROWS = 6  # rows on a page (the shell pages the list by as many)
WORDS_MIN_SCALE = 0.8  # a game's when, name and players shrink this far before they wrap


def draw(canvas: Canvas, view: HistoryView) -> None:
    L = canvas.layout
    pages = f"page {view.page} of {view.pages}" if view.pages > 1 else ""
    chrome.header(canvas, view.title, pages)
    body = L.rect((0.03, 0.12, 0.94, 0.75))
    if view.note and not view.lines:
        canvas.paragraph(view.note, L.line("large"), body, theme.TEXT_DIM, align="center")
        canvas.mark("note", body)
        chrome.footer(canvas, view.prompt)
        return
    # a note under the list stays above the footer, which on a short screen reaches up to the
    # body's bottom (two lines of prompt)
    head, rest = L.rect((0.03, 0.12, 0.94, 0.06)), L.rect((0.03, 0.19, 0.94, 0.645 if view.note else 0.68))
    titles = ("When", "Game", "Players", "Winner")
    rows = split_rows(rest, max(ROWS, len(view.lines)), gap=L.py(0.01))
    games = [_game(line) for line in view.lines]
    shortest = min(rows, key=lambda row: row.h)
    needs = _needs(canvas, titles, view, games, split_columns(inset(shortest, L.py(0.02), L.py(0.004)), COLUMNS,
                                                             gap=L.py(0.02)))
    for cell, title in zip(split_columns(inset(head, L.py(0.02), 0), COLUMNS, gap=L.py(0.02), needs=needs),
                           titles, strict=True):
        canvas.text(title, L.line("small"), cell, theme.TEXT_DIM, bold=False)
    for i, (row, line, game) in enumerate(zip(rows, view.lines, games, strict=False)):
        canvas.panel(row, theme.PANEL, theme.PANEL_EDGE, width=L.py(0.002))
        canvas.mark(f"game:{i}", row)
        cells = split_columns(inset(row, L.py(0.02), L.py(0.004)), COLUMNS, gap=L.py(0.02), needs=needs)
        # each over two lines where it is longer than its column holds on one
        canvas.paragraph(line.when, L.line("small"), cells[0], theme.TEXT_DIM, bold=False, min_scale=WORDS_MIN_SCALE)
        canvas.paragraph(game, L.line("small"), cells[1], theme.TEXT, bold=False, min_scale=WORDS_MIN_SCALE)
        canvas.paragraph(line.players, L.line("small"), cells[2], theme.TEXT, bold=False, min_scale=WORDS_MIN_SCALE)
        canvas.text(_won(line), L.line("body"), cells[3], theme.HIGHLIGHT if line.winners and not line.status
                    else theme.TEXT_DIM)
    if view.note:
        note = L.rect((0.03, 0.84, 0.6, 0.035))
        canvas.text(view.note, L.line("small"), note, theme.WARNING, bold=False)
    chrome.footer(canvas, view.prompt)


def _game(line: HistoryLine) -> str:
    return line.game + (f" · {line.deals} deal{'s' * (line.deals != 1)}" if line.deals else "")


def _won(line: HistoryLine) -> str:
    return line.winners if line.winners and not line.status else line.status or "-"


def _needs(canvas: Canvas, titles: tuple[str, ...], view: HistoryView, games: list[str],
           cells: list[pygame.Rect]) -> list[int] | None:
    """The least width each column's words are whole in, in a row's ``cells`` as the weights
    split it: a column short of it (a 320×480 screen's game names) takes room from those with
    room to spare. None where every column's words are whole in its share already."""
    L = canvas.layout
    small, body = L.line("small"), L.line("body")
    columns = [{line.when for line in view.lines}, set(games), {line.players for line in view.lines}]
    winners = {_won(line) for line in view.lines}
    if (all(canvas.paragraph_fit(text, small, cell, bold=False, min_scale=WORDS_MIN_SCALE)[2]
            for texts, cell in zip(columns, cells, strict=False) for text in texts)
            and all(canvas.least_width(won, body) <= cells[3].w for won in winners)
            and all(canvas.least_width(title, small, bold=False) <= cell.w
                    for title, cell in zip(titles, cells, strict=True))):
        return None
    needs = [max((canvas.paragraph_width(text, small, cells[0].h, bold=False, min_scale=WORDS_MIN_SCALE)
                  for text in texts), default=0) for texts in columns]
    needs.append(max((canvas.least_width(won, body) for won in winners), default=0))
    return [max(need, canvas.least_width(title, small, bold=False)) for need, title in zip(needs, titles, strict=True)]
