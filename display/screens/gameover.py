"""The end of the game: the winner, large, the final standings and, beside them, what the
table can do next (a rematch, new players…), the choice under the cursor highlighted; each
choice is a region "row:choice:N" a tap takes."""

from __future__ import annotations

import pygame

from display import chrome, theme
from display.canvas import Canvas, number_text
from display.layout import inset, split_columns, split_rows
from display.viewmodel import GameOverView


def _trophy(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """A cup drawn with primitives: bowl, handles, stem and base."""
    gold = theme.HIGHLIGHT
    w, h = rect.w, rect.h
    bowl = pygame.Rect(rect.x + w * 0.2, rect.y, w * 0.6, h * 0.55)
    pygame.draw.ellipse(surface, gold, bowl)
    pygame.draw.rect(surface, gold, (bowl.x, bowl.y, bowl.w, bowl.h // 2))
    for x in (rect.x + w * 0.06, rect.x + w * 0.66):
        pygame.draw.ellipse(surface, gold, (x, rect.y + h * 0.06, w * 0.28, h * 0.3), max(2, w // 16))
    pygame.draw.rect(surface, gold, (rect.x + w * 0.44, rect.y + h * 0.5, w * 0.12, h * 0.3))
    pygame.draw.rect(surface, gold, (rect.x + w * 0.25, rect.y + h * 0.8, w * 0.5, h * 0.16), border_radius=max(1, w // 20))


def draw(canvas: Canvas, view: GameOverView) -> None:
    L = canvas.layout
    chrome.header(canvas, "Game over", f"{view.deals_played} deals" if view.deals_played else "")
    cup = L.rect((0.06, 0.14, 0.0, 0.2))
    cup.w = cup.h
    _trophy(canvas.surface, cup)
    canvas.mark("trophy", cup)
    head = pygame.Rect(cup.right + L.py(0.04), cup.y, L.width - cup.right - L.py(0.1), cup.h)
    # no verb of our own without a headline: "Ann & Cy" (a team) or a tie would need "win"
    # over two lines, and smaller, before anything is cut: a tie names every winner
    canvas.paragraph(view.headline or view.winner, L.line("title") * 3 // 2, head, theme.HIGHLIGHT,
                     min_scale=0.5)
    canvas.mark("headline", head)
    table = L.rect((0.1, 0.38, 0.8, 0.5))
    if view.choices:
        table = L.rect((0.04, 0.38, 0.6, 0.5))
        _choices(canvas, L.rect((0.67, 0.38, 0.3, 0.48)), view)
    count = max(len(view.standings), 4)
    rows = split_rows(table, count, gap=L.py(0.012))
    needs = _needs(canvas, view, rows[0])
    for i, (row, st) in enumerate(zip(rows, view.standings, strict=False)):
        first = st.place == 1
        canvas.panel(row, theme.HIGHLIGHT if first else theme.PANEL, None)
        canvas.mark(f"standing:{i}", row)
        ink = theme.HIGHLIGHT_TEXT if first else theme.TEXT
        cells = split_columns(inset(row, L.py(0.02), 0), COLUMNS, gap=L.py(0.02), needs=needs)
        canvas.text(f"{st.place}.", L.line("large"), cells[0], ink)
        canvas.text(st.name, L.line("large"), cells[1], ink)
        canvas.text(number_text(st.total), L.line("large"), cells[2], ink, align="right")
        # over two lines in a narrow row (a portrait screen's, beside the choices) before a cut
        canvas.paragraph(st.note, L.line("body"), cells[3], ink, bold=False, min_scale=0.6)
    chrome.footer(canvas, view.prompt)


#: The standings' columns (place, name, total, note), as shares of a row.
COLUMNS = [0.1, 0.42, 0.18, 0.3]


def _needs(canvas: Canvas, view: GameOverView, row: pygame.Rect) -> list[int] | None:
    """The least width each standings column's words are whole in (a note over two lines of
    a ``row`` where it can): a short screen's note takes room from a short name. None where
    every column's words fit its share (a quick measure first: this runs every frame)."""
    L = canvas.layout
    large, body = L.line("large"), L.line("body")
    cells = split_columns(inset(row, L.py(0.02), 0), COLUMNS, gap=L.py(0.02))
    if all(canvas.least_width(f"{st.place}.", large) <= cells[0].w
           and canvas.least_width(st.name, large) <= cells[1].w
           and canvas.least_width(number_text(st.total), large) <= cells[2].w
           and canvas.paragraph_fit(st.note, body, pygame.Rect(0, 0, cells[3].w, row.h), bold=False,
                                    min_scale=0.6)[2] for st in view.standings):
        return None
    return [max((canvas.least_width(f"{st.place}.", large) for st in view.standings), default=0),
            max((canvas.least_width(st.name, large) for st in view.standings), default=0),
            max((canvas.least_width(number_text(st.total), large) for st in view.standings), default=0),
            max((canvas.paragraph_width(st.note, body, row.h, bold=False, min_scale=0.6)
                 for st in view.standings), default=0)]


def _choices(canvas: Canvas, area: pygame.Rect, view: GameOverView) -> None:
    L = canvas.layout
    rows = split_rows(area, max(len(view.choices), 4), gap=L.py(0.015))
    for i, (rect, label) in enumerate(zip(rows, view.choices, strict=False)):
        here = i == view.choice
        canvas.panel(rect, theme.HIGHLIGHT if here else theme.KEY, theme.TEXT if here else theme.KEY_EDGE,
                     width=L.py(0.005 if here else 0.002))
        canvas.text(label, L.line("large"), inset(rect, L.py(0.02), L.py(0.008)),
                    theme.HIGHLIGHT_TEXT if here else theme.TEXT, align="center")
        canvas.mark(f"row:choice:{i}", rect)
        if here:
            canvas.mark("cursor", rect)
