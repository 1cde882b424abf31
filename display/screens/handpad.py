"""Cards (or tiles) entered by hand, drawn: the groups with the slot being changed, and the keys.

Used by the scorepad when it takes a hand's cards and by the call panel for a call's tiles.
Every card and every "add" slot is marked ``pad:slot:G:I`` (a tap moves the cursor there);
the keys are ``pad:rank:N`` (1-13, 0 the joker), ``pad:suit:S`` (a suit or a tile colour),
``pad:remove`` and ``pad:group``.
"""

from __future__ import annotations

import pygame

from display import theme
from display.canvas import Canvas
from display.cardface import CARD_ASPECT, FaceDrawer, pip
from display.layout import inset, split_columns, split_rows
from display.viewmodel import HandPadView

CARD_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
COLOURS = ("R", "Y", "B", "K")
#: The widest a card is drawn, of its height.
MAX_STEP = 1.08
KEY_LABEL_MARGIN = 2  # px between a key's edge and its label
KEY_LABEL_MIN_SCALE = 0.4  # a key's label shrinks this far before it is cut


def draw_hand(canvas: Canvas, hand: HandPadView, box: pygame.Rect, faces: FaceDrawer) -> None:
    """The groups side by side in ``box``, the cursor's card ringed, each "add" slot a "+"."""
    L = canvas.layout
    canvas.panel(box, theme.PANEL, theme.SELECTION if hand.typed is not None else theme.PANEL_EDGE)
    inner = inset(box, L.py(0.015))
    if hand.typed is not None:  # the keyboard's text, in the notation, with its caret
        canvas.paragraph(hand.typed + "_", L.line("large"), inner, theme.TEXT, align="left")
        canvas.mark("pad:typed", inner)
        return
    groups = hand.groups
    slots = sum(len(g) + 1 for g in groups) + 1  # each card, each group's "+", a new group
    gaps = len(groups)
    h = inner.h
    w = round(h * CARD_ASPECT)
    gap = max(4, w // 3)
    need = slots * w * MAX_STEP + gaps * gap
    if need > inner.w:  # smaller cards: everything in one row
        scale = inner.w / need
        w = max(8, int(w * scale))
        h = min(inner.h, round(w / CARD_ASPECT))
        gap = max(3, w // 3)
    step = round(w * MAX_STEP)
    top = inner.y + (inner.h - h) // 2
    x = inner.x
    cursor = hand.cursor
    ring: pygame.Rect | None = None
    for g, group in enumerate(groups):
        for i in range(len(group) + 1):
            rect = pygame.Rect(x, top, w, h)
            canvas.mark(f"pad:slot:{g}:{i}", rect)
            if i < len(group):
                faces.draw(canvas.surface, group[i], rect)
            else:
                _add(canvas, rect, "+")
            if cursor == (g, i):
                ring = rect
            x += step
        x += gap
    rect = pygame.Rect(x, top, w, h)
    canvas.mark(f"pad:slot:{len(groups)}:0", rect)
    _add(canvas, rect, "+ |" if groups else "+")
    if cursor == (len(groups), 0):
        ring = rect
    if ring is not None:
        width = max(3, w // 14)
        pygame.draw.rect(canvas.surface, theme.SELECTION, ring.inflate(width * 2, width * 2), width,
                         border_radius=max(4, w // 8))
        canvas.mark("pad:cursor", ring)


def _add(canvas: Canvas, rect: pygame.Rect, label: str) -> None:
    pygame.draw.rect(canvas.surface, theme.PANEL_EDGE, rect, max(1, rect.w // 20), border_radius=max(3, rect.w // 10))
    canvas.text(label, max(10, rect.w // 2), inset(rect, 2), theme.TEXT_DIM, align="center", min_scale=0.4)


def _key_margin(canvas: Canvas) -> int:
    """The space between a key's cell and its drawn key, on each side."""
    return max(1, canvas.layout.py(0.004))


def _label_px(canvas: Canvas, key_h: int) -> int:
    """The line height of a label on a key ``key_h`` tall."""
    return min(canvas.layout.line("title"), round(key_h * 0.62))


def _key(canvas: Canvas, rect: pygame.Rect, name: str, label: str, colour: theme.Colour = theme.TEXT) -> pygame.Rect:
    L = canvas.layout
    key = inset(rect, _key_margin(canvas))
    pygame.draw.rect(canvas.surface, theme.KEY, key, border_radius=L.py(0.01))
    pygame.draw.rect(canvas.surface, theme.KEY_EDGE, key, width=max(1, L.py(0.003)), border_radius=L.py(0.01))
    if label:
        canvas.text(label, _label_px(canvas, key.h), inset(key, KEY_LABEL_MARGIN), colour, align="center",
                    min_scale=KEY_LABEL_MIN_SCALE)
    canvas.mark(name, key)
    return key


def draw_keys(canvas: Canvas, hand: HandPadView, box: pygame.Rect) -> None:
    """Two rows of keys: the ranks (tile numbers) and the joker; the suits (colours), remove,
    a new group."""
    L = canvas.layout
    top, bottom = split_rows(box, 2, gap=L.py(0.008))
    labels = [str(n) for n in range(1, 14)] if hand.tiles else list(CARD_RANKS)
    joker = "Joly" if hand.tiles else "Joker"
    # the joker's key keeps the width its word takes at the smallest a label shrinks to: on a
    # narrow screen (320 pixels wide) the rank keys give it the room rather than it being cut
    margin = _key_margin(canvas)
    need = canvas.least_width(joker, _label_px(canvas, top.h - 2 * margin), min_scale=KEY_LABEL_MIN_SCALE)
    cells = split_columns(top, [1.0] * 13 + [1.4], gap=L.py(0.006),
                          needs=[0] * 13 + [need + 2 * (margin + KEY_LABEL_MARGIN)])
    for n, (label, cell) in enumerate(zip(labels, cells, strict=False), start=1):
        _key(canvas, cell, f"pad:rank:{n}", label)
    _key(canvas, cells[-1], "pad:rank:0", joker)
    suits = COLOURS if hand.tiles else SUITS
    cells = split_columns(bottom, [1.0] * 4 + [1.6, 1.8], gap=L.py(0.006))
    for suit, cell in zip(suits, cells, strict=False):
        key = _key(canvas, cell, f"pad:suit:{suit}", "")
        size = max(8, round(min(key.w, key.h) * 0.7))
        if hand.tiles:
            colour = theme.TILE_COLOURS[suit]
            dot = pygame.Rect(0, 0, size, size)
            dot.center = key.center
            pygame.draw.rect(canvas.surface, theme.TILE_FACE, dot, border_radius=max(2, size // 6))
            canvas.text(suit, round(size * 0.8), dot, colour, align="center", min_scale=0.4)
        else:
            colour = theme.CARD_RED if suit in ("H", "D") else theme.CARD_BLACK
            back = pygame.Rect(0, 0, size, size)
            back.center = key.center
            pygame.draw.rect(canvas.surface, theme.CARD_FACE, back, border_radius=max(2, size // 6))
            mark = pip(suit, round(size * 0.8), colour)
            canvas.surface.blit(mark, mark.get_rect(center=key.center))
    _key(canvas, cells[4], "pad:remove", "remove")
    _key(canvas, cells[5], "pad:group", "new group")
