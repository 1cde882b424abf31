"""The call panel: a seat makes a call its game's rules answer (tile rummy: declare a double,
show the ace, lay a meld), by keyboard or touch.

Across the top, the seats (``call:seat:N``); then the calls, each with whether the rules take
it now or why not (``call:what:NAME``); for a call that names tiles, the tiles entered and the
keys that enter them (:mod:`display.screens.handpad`); the rules' answer to the last call, red
when refused; "Call" (``call:make``) and "Close" (``call:close``).
"""

from __future__ import annotations

import pygame

from display import chrome, theme
from display.canvas import Canvas
from display.cardface import FaceDrawer
from display.layout import inset, split_columns
from display.screens.handpad import draw_hand, draw_keys
from display.viewmodel import CallsView


def _button(canvas: Canvas, rect: pygame.Rect, name: str, label: str, *, on: bool,
            fill: theme.Colour | None = None) -> None:
    L = canvas.layout
    key = inset(rect, max(1, L.py(0.004)))
    colour = fill if fill is not None else (theme.HIGHLIGHT if on else theme.KEY)
    pygame.draw.rect(canvas.surface, colour, key, border_radius=L.py(0.012))
    pygame.draw.rect(canvas.surface, theme.KEY_EDGE, key, width=max(1, L.py(0.003)), border_radius=L.py(0.012))
    text = theme.HIGHLIGHT_TEXT if on or fill is not None else theme.TEXT
    canvas.text(label, L.line("body"), inset(key, L.py(0.01)), text, align="center", min_scale=0.5)
    canvas.mark(name, key)


def draw(canvas: Canvas, view: CallsView, faces: FaceDrawer) -> None:
    L = canvas.layout
    name = view.seats[view.seat] if 0 <= view.seat < len(view.seats) else ""
    chrome.header(canvas, f"{name}'s call" if name else "Calls", "play goes on")

    seats = L.rect((0.03, 0.105, 0.94, 0.085))
    for i, (seat, cell) in enumerate(zip(view.seats, split_columns(seats, [1.0] * len(view.seats),
                                                                    gap=L.py(0.01)), strict=True)):
        _button(canvas, cell, f"call:seat:{i}", seat, on=i == view.seat)

    row = L.rect((0.03, 0.2, 0.94, 0.085))
    cells = split_columns(row, [1.0] * max(1, len(view.options)), gap=L.py(0.01))
    for i, (option, cell) in enumerate(zip(view.options, cells, strict=False)):
        _button(canvas, cell, f"call:what:{option.call}", option.label, on=i == view.chosen)

    chosen = view.options[view.chosen] if 0 <= view.chosen < len(view.options) else None
    status = L.rect((0.03, 0.29, 0.94, 0.06))
    if chosen is not None:
        words = "the rules take it now" if chosen.ready else chosen.why
        canvas.text(words, L.line("body"), status, theme.VALID if chosen.ready else theme.TEXT_DIM,
                    align="center", bold=False, min_scale=0.5)
        canvas.mark("call:status", status)

    if view.hand is not None and chosen is not None and chosen.tiles:
        draw_hand(canvas, view.hand, L.rect((0.03, 0.355, 0.94, 0.2)), faces)
        draw_keys(canvas, view.hand, L.rect((0.03, 0.565, 0.94, 0.16)))

    if view.said:
        band = L.rect((0.03, 0.735, 0.6, 0.13))
        pygame.draw.rect(canvas.surface, theme.INVALID_FILL if view.refused else theme.PANEL, band,
                         border_radius=L.py(0.01))
        canvas.paragraph(view.said, L.line("body"), inset(band, L.py(0.015), L.py(0.005)), theme.TEXT,
                         align="center")
        canvas.mark("call:said", band)
    make, close = split_columns(L.rect((0.65, 0.735, 0.32, 0.13)), [1.3, 1.0], gap=L.py(0.012))
    _button(canvas, make, "call:make", "Call", on=False, fill=theme.VALID if chosen and chosen.ready else None)
    _button(canvas, close, "call:close", "Close", on=False)
    chrome.footer(canvas, view.prompt)
    chrome.toast(canvas, view.toast)
