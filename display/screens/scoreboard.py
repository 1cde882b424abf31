"""The scoreboard: each player's running total, as a list and as a line chart per deal."""

from __future__ import annotations

import pygame

from display import chrome, theme
from display.canvas import Canvas, number_text
from display.chart import draw_line_chart
from display.layout import inset, split_rows
from display.viewmodel import ScoreboardView


def draw(canvas: Canvas, view: ScoreboardView) -> None:
    L = canvas.layout
    chrome.header(canvas, view.title, "low score leads" if view.lower_is_better else "high score leads")
    board = L.rect((0.02, 0.13, 0.33, 0.745))
    chart = L.rect((0.37, 0.13, 0.61, 0.745))
    colours = [theme.series_colour(i) for i in range(len(view.series))]
    count = max(len(view.series), 5)
    for i, (row, s) in enumerate(zip(split_rows(board, count, gap=L.py(0.012)), view.series, strict=False)):
        canvas.panel(row, theme.PANEL, None)
        canvas.mark(f"total:{i}", row)
        swatch = pygame.Rect(row.x, row.y, max(6, L.py(0.02)), row.h)
        pygame.draw.rect(canvas.surface, colours[i], swatch, border_top_left_radius=L.py(0.012), border_bottom_left_radius=L.py(0.012))
        inner = inset(pygame.Rect(swatch.right, row.y, row.right - swatch.right, row.h), L.py(0.015), L.py(0.005))
        total = s.totals[-1] if s.totals else 0
        num_w = int(inner.w * 0.34)
        ink = theme.TEXT_DIM if s.eliminated else theme.TEXT
        canvas.text(s.name, L.line("large"), pygame.Rect(inner.x, inner.y, inner.w - num_w, inner.h), ink)
        canvas.text(number_text(total), L.line("large"), pygame.Rect(inner.right - num_w, inner.y, num_w, inner.h), ink, align="right")
        if s.eliminated:
            pygame.draw.line(canvas.surface, theme.INVALID, (inner.x, row.centery), (inner.right, row.centery), max(2, L.py(0.005)))
    canvas.panel(chart, theme.dim(theme.PANEL, 0.8), None)
    draw_line_chart(
        canvas,
        inset(chart, L.py(0.015)),
        [(tuple(float(t) for t in s.totals), colours[i]) for i, s in enumerate(view.series)],
        names=[s.name for s in view.series],
        target=None if view.target is None else float(view.target),
        target_label=view.target_label,
    )
    chrome.footer(canvas, view.prompt)
