"""A whole-screen message: a title coloured by level, a wrapped body, a prompt."""

from __future__ import annotations

import pygame

from display import chrome, theme
from display.canvas import Canvas
from display.viewmodel import MessageView


def draw(canvas: Canvas, view: MessageView) -> None:
    L = canvas.layout
    colour = theme.LEVEL_COLOURS.get(view.level, theme.LEVEL_COLOURS["info"])
    stripe = L.rect((0.0, 0.0, 1.0, 0.03))
    pygame.draw.rect(canvas.surface, colour, stripe)
    title = L.rect((0.06, 0.18, 0.88, 0.16))
    ink = {"info": theme.TEXT, "error": theme.INVALID_TEXT}.get(view.level, colour)  # read on the dark ground
    canvas.text(view.title, L.line("title") * 3 // 2, title, ink, align="center")
    canvas.mark("title", title)
    body = L.rect((0.1, 0.4, 0.8, 0.44))
    canvas.paragraph(view.body, L.line("body"), body, theme.TEXT, align="center", valign="top", bold=False)
    canvas.mark("body", body)
    chrome.footer(canvas, view.prompt)
