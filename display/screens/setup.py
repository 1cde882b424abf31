"""The setup screen: the game, the players in their seats, the options, and Start."""

from __future__ import annotations

import pygame

from display import chrome, theme
from display.canvas import Canvas
from display.layout import inset, split_columns, split_rows
from display.viewmodel import SetupView

MIN_ROWS = 6  # rows never grow taller than a sixth of the column: a short list stays compact


def draw(canvas: Canvas, view: SetupView) -> None:
    L = canvas.layout
    chrome.header(canvas, "New game", view.variant_name)
    body = L.rect((0.03, 0.12, 0.94, 0.7))
    left, right = split_columns(body, [1.0, 1.0], gap=L.py(0.04))

    left_rows: list[tuple[str, str, str, int]] = [("Game", view.variant_name, "variant", 0)]
    for i, player in enumerate(view.players):
        label = f"Seat {i + 1}"
        value = player.name + (f"  ({player.team})" if player.team else "")
        left_rows.append((label, value, "player", i))
    right_rows: list[tuple[str, str, str, int]] = [(o.label, o.value, "option", i) for i, o in enumerate(view.options)]
    right_rows.append(("", "Start", "start", 0))

    count = max(len(left_rows), len(right_rows), MIN_ROWS)
    for column, rows in ((left, left_rows), (right, right_rows)):
        for rect, (label, value, section, index) in zip(split_rows(column, count, gap=L.py(0.012)), rows, strict=False):
            _row(canvas, rect, label, value, section, index, view)

    if view.problem:
        problem = L.rect((0.03, 0.825, 0.94, 0.05))
        canvas.text(view.problem, L.line("body"), problem, theme.WARNING, align="center")
        canvas.mark("problem", problem)
    chrome.footer(canvas, view.hint)


def _row(canvas: Canvas, rect: pygame.Rect, label: str, value: str, section: str, index: int, view: SetupView) -> None:
    L = canvas.layout
    here = view.cursor.section == section and (section in ("variant", "start") or view.cursor.index == index)
    if section == "start":
        fill = theme.HIGHLIGHT if here else theme.VALID
        canvas.panel(rect, fill, theme.TEXT if here else None, width=L.py(0.005))
        canvas.text(value, L.line("large"), inset(rect, L.py(0.015)), theme.TEXT_DARK, align="center")
    else:
        fill = theme.HIGHLIGHT if here and not view.editing else theme.PANEL
        edge = theme.SELECTION if here and view.editing else theme.PANEL_EDGE
        canvas.panel(rect, fill, edge, width=L.py(0.006 if here and view.editing else 0.002))
        ink = theme.HIGHLIGHT_TEXT if here and not view.editing else theme.TEXT
        inner = inset(rect, L.py(0.02), L.py(0.006))
        label_box = pygame.Rect(inner.x, inner.y, int(inner.w * 0.36), inner.h)
        value_box = pygame.Rect(label_box.right + L.py(0.01), inner.y, inner.right - label_box.right - L.py(0.01), inner.h)
        canvas.text(label, L.line("small"), label_box, ink if here else theme.TEXT_DIM, bold=False)
        canvas.text(value, L.line("body"), value_box, ink)
    name = section if section in ("variant", "start") else f"{section}:{index}"
    canvas.mark(f"row:{name}", rect)
    if here:
        canvas.mark("cursor", rect)
