"""The history: the last games from the journal, a page at a time, with who won each."""

from __future__ import annotations

from display import chrome, theme
from display.canvas import Canvas
from display.layout import inset, split_columns, split_rows
from display.viewmodel import HistoryView

COLUMNS = [0.18, 0.26, 0.34, 0.22]  # when, game, players, winner
ROWS = 6  # rows on a page (the shell pages the list by as many)


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
    for cell, title in zip(split_columns(inset(head, L.py(0.02), 0), COLUMNS, gap=L.py(0.02)),
                           ("When", "Game", "Players", "Winner"), strict=True):
        canvas.text(title, L.line("small"), cell, theme.TEXT_DIM, bold=False)
    rows = split_rows(rest, max(ROWS, len(view.lines)), gap=L.py(0.01))
    for i, (row, line) in enumerate(zip(rows, view.lines, strict=False)):
        canvas.panel(row, theme.PANEL, theme.PANEL_EDGE, width=L.py(0.002))
        canvas.mark(f"game:{i}", row)
        cells = split_columns(inset(row, L.py(0.02), L.py(0.004)), COLUMNS, gap=L.py(0.02))
        # each over two lines where it is longer than its column holds on one
        canvas.paragraph(line.when, L.line("small"), cells[0], theme.TEXT_DIM, bold=False, min_scale=0.8)
        game = line.game + (f" · {line.deals} deal{'s' * (line.deals != 1)}" if line.deals else "")
        canvas.paragraph(game, L.line("small"), cells[1], theme.TEXT, bold=False, min_scale=0.8)
        canvas.paragraph(line.players, L.line("small"), cells[2], theme.TEXT, bold=False, min_scale=0.8)
        won = line.winners if line.winners and not line.status else line.status or "-"
        canvas.text(won, L.line("body"), cells[3], theme.HIGHLIGHT if line.winners and not line.status
                    else theme.TEXT_DIM)
    if view.note:
        note = L.rect((0.03, 0.84, 0.6, 0.035))
        canvas.text(view.note, L.line("small"), note, theme.WARNING, bold=False)
    chrome.footer(canvas, view.prompt)
