"""The turn check: a turn the camera says broke the rules, every rule it broke, and the way out."""

from __future__ import annotations

import pygame

from display import chrome, theme
from display.canvas import Canvas
from display.layout import inset, split_rows
from display.viewmodel import TurnCheckView

MAX_ROWS = 4  # rules listed one per panel; more are counted on the last line


def draw(canvas: Canvas, view: TurnCheckView) -> None:
    L = canvas.layout
    right = f"read {view.reads} times" if view.reads > 1 else ""
    chrome.header(canvas, "Turn check", right)
    banner = L.rect((0.0, 0.1, 1.0, 0.1))
    pygame.draw.rect(canvas.surface, theme.INVALID_FILL, banner)
    headline = view.headline or f"{view.player}'s turn is not legal"
    canvas.paragraph(headline, L.line("large"), inset(banner, L.py(0.03), L.py(0.008)), theme.TEXT,
                     align="center")
    canvas.mark("headline", banner)

    area = L.rect((0.04, 0.225, 0.92, 0.58))
    shown = list(view.violations[:MAX_ROWS])
    more = len(view.violations) - len(shown)
    if more > 0:
        shown[-1] = f"{shown[-1]} (and {more} more)"
    if shown:
        rows = split_rows(area, max(len(shown), 2), gap=L.py(0.015))
        for i, (row, rule) in enumerate(zip(rows, shown, strict=False)):
            canvas.panel(row, theme.PANEL)
            bar = pygame.Rect(row.x, row.y, max(6, L.py(0.015)), row.h)
            pygame.draw.rect(canvas.surface, theme.INVALID, bar)
            text_box = inset(pygame.Rect(bar.right, row.y, row.right - bar.right, row.h), L.py(0.02), L.py(0.01))
            canvas.paragraph(rule, L.line("body"), text_box, theme.TEXT, bold=False)
            canvas.mark(f"rule:{i}", row)

    if view.next_player:
        waits = L.rect((0.04, 0.81, 0.92, 0.065))
        canvas.text(f"{view.next_player} plays next, once the table settles this", L.line("body"),
                    waits, theme.TEXT_DIM, align="center", bold=False)
        canvas.mark("next", waits)
    chrome.footer(canvas, view.prompt)
