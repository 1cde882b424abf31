"""The deal result: who won the deal and what each player scored, with running totals."""

from __future__ import annotations

import pygame

from display import chrome, theme
from display.canvas import Canvas, number_text
from display.layout import inset, split_columns, split_rows
from display.viewmodel import DealResultView

COLUMNS = (0.42, 0.18, 0.18, 0.32)
TABLE = (0.06, 0.225, 0.88, 0.655)  # the players' lines, under the headline
MIN_ROWS = 5  # a short list keeps rows of this share, not one or two tall bars


def draw(canvas: Canvas, view: DealResultView) -> None:
    L = canvas.layout
    chrome.header(canvas, f"Deal {view.deal_number}")
    if view.headline:
        box = L.rect((0.03, 0.115, 0.94, 0.1))
        canvas.text(view.headline, L.line("title"), box, theme.HIGHLIGHT, align="center")
        canvas.mark("headline", box)
    table = L.rect(TABLE)
    # the column heads take one small line (two where a column is too narrow for its head on
    # one: a 320×480 screen's "This deal"); the players' rows share the rest, so eight
    # players' scores still print large on the Pi's screen
    gap = L.py(0.006)
    heads = ("Player", "This deal", "Total", "")
    columns = split_columns(inset(table, L.py(0.02), 0), list(COLUMNS), gap=L.py(0.02))
    head_h = max(canvas.lines_height(title, L.line("small"), column.w, bold=False)
                 for column, title in zip(columns, heads, strict=True))
    head = pygame.Rect(table.x, table.y, table.w, max(L.line("small"), head_h) + gap)
    body = pygame.Rect(table.x, head.bottom + gap, table.w, table.bottom - head.bottom - gap)
    rows = split_rows(body, max(len(view.lines), MIN_ROWS), gap=gap)
    for column, title, align in zip(columns, heads, ("left", "right", "right", "left"), strict=True):
        cell = pygame.Rect(column.x, head.y, column.w, head.h)
        canvas.paragraph(title, L.line("small"), cell, theme.TEXT_DIM, align=align, bold=False, min_scale=0.75)
    for i, (row, line) in enumerate(zip(rows, view.lines, strict=False)):
        fill = theme.HIGHLIGHT if line.winner else theme.PANEL
        ink = theme.HIGHLIGHT_TEXT if line.winner else theme.TEXT
        canvas.panel(row, fill, None)
        canvas.mark(f"line:{i}", row)
        cells = split_columns(inset(row, L.py(0.02), 0), list(COLUMNS), gap=L.py(0.02))
        canvas.text(line.name, L.line("large"), cells[0], ink)
        canvas.text(number_text(line.points), L.line("large"), cells[1], ink, align="right")
        canvas.text(number_text(line.total), L.line("title"), cells[2], ink, align="right")
        note_ink = theme.INVALID_TEXT if line.eliminated and not line.winner else ink
        canvas.text(line.note, L.line("body"), cells[3], note_ink, bold=False)
        if line.eliminated:
            y = row.centery
            pygame.draw.line(canvas.surface, theme.INVALID, (cells[0].x, y), (cells[2].right, y), max(2, L.py(0.005)))
    chrome.footer(canvas, view.prompt)
