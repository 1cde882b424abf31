"""The scorepad: the players enter a hand (or a show's verdict) the camera did not read.

Big and plain, to be read across a table on the Pi's 800x480 and on a 1080p screen: whose
hand it is, the number (or the verdict) as large as the screen allows, what the game takes,
who has entered it and who must confirm it, and why an entry was refused. The steps a tap
could stand for (one down, one up, ten up) and the number itself are marked on the canvas
(``pad:minus``, ``pad:plus``, ``pad:plus10``, ``pad:value``) for touch to hit-test; while the
entry waits, each seat that may confirm it is a button of its own (``seat:N``).

A game that scores a deal from the cards themselves asks for the cards instead (``view.hand``):
the groups entered so far with the slot being changed, the engine's ruling on them as they
stand, and the keys a finger enters them with (:mod:`display.screens.handpad`).
"""

from __future__ import annotations

import pygame

from display import chrome, theme
from display.canvas import Canvas
from display.cardface import FaceDrawer
from display.fonts import clusters
from display.layout import inset, split_columns
from display.screens.handpad import draw_hand, draw_keys
from display.screens.play import first_and_initials
from display.viewmodel import HandPadView, ScorepadView

#: The number's line height, of the screen height: 0.2 is 96 px at 800x480.
VALUE_LINE = 0.2
#: Never smaller than this, whatever the screen.
MIN_VALUE_PX = 32


def draw(canvas: Canvas, view: ScorepadView, faces: FaceDrawer) -> None:
    L = canvas.layout
    chrome.header(canvas, view.title or f"{view.player}'s hand", view.why)
    if view.hand is not None:
        _draw_cards(canvas, view, view.hand, faces)
        return

    ask = L.rect((0.04, 0.11, 0.92, 0.09))
    canvas.text(view.question, L.line("large"), ask, theme.TEXT, align="center")
    canvas.mark("question", ask)

    pad = L.rect((0.04, 0.21, 0.92, 0.34))
    edge = theme.SELECTION if view.typing else (theme.HIGHLIGHT if view.confirming else theme.PANEL_EDGE)
    canvas.panel(pad, theme.PANEL, edge)
    steps = view.verdict is None
    if steps:
        minus, value_box, plus, plus10 = split_columns(pad, [1.0, 2.4, 1.0, 1.0], gap=L.py(0.012))
    else:
        value_box = pad
    colour = theme.TEXT
    if view.verdict is not None:
        colour = theme.VALID if view.verdict else theme.INVALID_TEXT
    value_px = max(MIN_VALUE_PX, round(VALUE_LINE * L.type_height))
    shown = view.value + ("_" if view.typing else "")
    canvas.text(shown, value_px, inset(value_box, L.py(0.01)), colour, align="center", min_scale=0.5)
    canvas.mark("pad:value", value_box)
    if steps:
        for rect, label, name in ((minus, "-1", "pad:minus"), (plus, "+1", "pad:plus"),
                                  (plus10, "+10", "pad:plus10")):
            key = inset(rect, L.py(0.02))
            pygame.draw.rect(canvas.surface, theme.KEY, key, border_radius=L.py(0.015))
            pygame.draw.rect(canvas.surface, theme.KEY_EDGE, key, width=max(1, L.py(0.004)),
                             border_radius=L.py(0.015))
            canvas.text(label, L.line("title"), inset(key, L.py(0.01)), theme.TEXT, align="center")
            canvas.mark(name, key)

    facts = L.rect((0.04, 0.565, 0.92, 0.07))
    left, right = split_columns(facts, [1.0, 1.0], gap=L.py(0.02))
    canvas.text(view.limit, L.line("body"), left, theme.TEXT_DIM, bold=False)
    canvas.text(view.entered_by, L.line("body"), right, theme.TEXT_DIM, align="right", bold=False)
    canvas.mark("limit", left)
    canvas.mark("entered-by", right)

    band = L.rect((0.04, 0.645, 0.92, 0.115))
    if view.confirming and view.confirmers:
        # each seat that may confirm as a button to tap (``seat:N``, as its panel in play)
        _confirm_buttons(canvas, view.confirmers, band)
        canvas.mark("pad:confirm", band)
    elif view.confirming and view.confirm_by:
        pygame.draw.rect(canvas.surface, theme.HIGHLIGHT, band, border_radius=L.py(0.01))
        canvas.paragraph(view.confirm_by, L.line("large"), inset(band, L.py(0.02), L.py(0.005)),
                         theme.HIGHLIGHT_TEXT, align="center")
        canvas.mark("pad:confirm", band)
    elif view.confirm_by:
        canvas.paragraph(view.confirm_by, L.line("body"), inset(band, L.py(0.02), L.py(0.005)),
                         theme.TEXT_DIM, align="center", bold=False)
        canvas.mark("pad:confirm", band)

    _problem(canvas, view.problem, 0.11)
    chrome.footer(canvas, view.prompt)


def confirm_labels(canvas: Canvas, names: list[str], px: int, width: int) -> list[str]:
    """The confirm buttons' labels: "NAME: confirm" where every one fits at nine tenths of
    ``px`` in ``width``; else each name alone (the line above says what the buttons are for),
    whole where it fits, else its first word and the initials of the others ("Alexandrina F."),
    else its first initial and the rest whole ("A. Fernandes"): the first of these that no
    other button shows too and that fits, else the shortest of them (cut from its end, what
    tells it apart is left). Cut from its end, two whole names that begin alike read alike."""
    def fits(text: str) -> bool:
        return canvas.cache.width(text, max(1, px * 9 // 10), True) <= width

    if all(fits(f"{name}: confirm") for name in names):
        return [f"{name}: confirm" for name in names]

    def ways(name: str) -> list[str]:
        words = name.split()
        if len(words) < 2:
            return [name]
        return [name, first_and_initials(name), " ".join([clusters(words[0])[0] + ".", *words[1:]])]

    options = [ways(name) for name in names]
    out = []
    for k, own in enumerate(options):
        others = {w for j, other in enumerate(options) if j != k for w in other}
        unique = [w for w in own if w not in others] or own
        # none fits: the shortest of them, whose cut end leaves what tells it apart
        out.append(next((w for w in unique if fits(w)), min(unique, key=len)))
    return out


def _confirm_buttons(canvas: Canvas, confirmers: tuple[tuple[int, str], ...], area: pygame.Rect) -> None:
    """Each seat that may confirm as a button to tap across ``area`` (``seat:N``, as its panel
    in play)."""
    L = canvas.layout
    cells = split_columns(area, [1.0] * max(1, len(confirmers)), gap=L.py(0.012))
    px = L.line("body")
    boxes = [inset(cell, L.py(0.012)) for cell in cells[:len(confirmers)]]
    labels = confirm_labels(canvas, [name for _, name in confirmers], px, min((b.w for b in boxes), default=0))
    for (seat, _), cell, box, label in zip(confirmers, cells, boxes, labels, strict=False):
        pygame.draw.rect(canvas.surface, theme.HIGHLIGHT, cell, border_radius=L.py(0.01))
        canvas.text(label, px, box, theme.HIGHLIGHT_TEXT, align="center")
        canvas.mark(f"seat:{seat}", cell)


def _problem(canvas: Canvas, text: str, height: float) -> None:
    """A refusal, on red, in a band ``height`` of the screen tall above the footer."""
    if not text:
        return
    L = canvas.layout
    why = L.rect((0.04, 0.77, 0.92, height))
    pygame.draw.rect(canvas.surface, theme.INVALID_FILL, why, border_radius=L.py(0.01))
    canvas.paragraph(text, L.line("body"), inset(why, L.py(0.02), L.py(0.005)), theme.TEXT, align="center")
    canvas.mark("problem", why)


def _draw_cards(canvas: Canvas, view: ScorepadView, hand: HandPadView, faces: FaceDrawer) -> None:
    """The scorepad taking a hand's cards: the question, the groups, the engine's ruling and
    who entered them, the keys (while entering) or the seats that may confirm, a refusal."""
    L = canvas.layout
    ask = L.rect((0.04, 0.105, 0.92, 0.07))
    canvas.text(view.question, L.line("large"), ask, theme.TEXT, align="center")
    canvas.mark("question", ask)
    draw_hand(canvas, hand, L.rect((0.04, 0.185, 0.92, 0.24)), faces)

    facts = L.rect((0.04, 0.435, 0.92, 0.065))
    left, right = split_columns(facts, [2.4, 1.0], gap=L.py(0.02))
    colour = theme.TEXT if hand.valid is None else (theme.VALID if hand.valid else theme.INVALID_TEXT)
    canvas.text(hand.ruling or view.value, L.line("body"), left, colour, min_scale=0.5)
    canvas.text(view.entered_by or view.value, L.line("body"), right, theme.TEXT_DIM, align="right", bold=False)
    canvas.mark("ruling", left)
    canvas.mark("entered-by", right)

    if hand.editable:
        draw_keys(canvas, hand, L.rect((0.04, 0.51, 0.92, 0.17)))
        band = L.rect((0.04, 0.69, 0.92, 0.07))
        canvas.text(view.confirm_by, L.line("body"), band, theme.TEXT_DIM, align="center", bold=False)
        canvas.mark("pad:confirm", band)
    else:
        band = L.rect((0.04, 0.52, 0.92, 0.1))
        canvas.paragraph(view.confirm_by, L.line("body"), band, theme.HIGHLIGHT, align="center")
        _confirm_buttons(canvas, view.confirmers, L.rect((0.04, 0.63, 0.92, 0.13)))
        canvas.mark("pad:confirm", band)

    _problem(canvas, view.problem, 0.1)
    chrome.footer(canvas, view.prompt)
