"""A QR code on the screen: the club's page for this table, for a phone to open.

The code's modules come from ``segno`` (part of the club's packages); without it no code is
drawn and the screen is otherwise the same. Drawn dark on white with the quiet zone the
standard asks for (four modules), so phone cameras read it off a dark screen.
"""

from __future__ import annotations

from functools import lru_cache

import pygame

#: Modules of white around the code (the standard's quiet zone).
QUIET = 4
DARK = (0, 0, 0)
LIGHT = (255, 255, 255)


@lru_cache(maxsize=4)
def modules(text: str) -> tuple[tuple[bool, ...], ...] | None:
    """The code's rows of modules (True: dark) for ``text``; None when no code can be made
    (``segno`` missing, or a text too long for any QR code)."""
    try:
        import segno
    except ImportError:
        return None
    try:
        code = segno.make_qr(text, error="m")
    except (ValueError, segno.DataOverflowError):
        return None
    return tuple(tuple(bool(v) for v in row) for row in code.matrix)


def draw(surface: pygame.Surface, text: str, box: pygame.Rect) -> pygame.Rect | None:
    """The code for ``text`` drawn as large as whole pixels per module allow, centred in
    ``box``; its rectangle (quiet zone included), or None when no code was drawn (no code
    for the text, or ``box`` too small for one pixel a module)."""
    rows = modules(text)
    if rows is None:
        return None
    side = len(rows) + 2 * QUIET
    px = min(box.w, box.h) // side
    if px < 1:
        return None
    rect = pygame.Rect(0, 0, side * px, side * px)
    rect.center = box.center
    pygame.draw.rect(surface, LIGHT, rect)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                surface.fill(DARK, (rect.x + (x + QUIET) * px, rect.y + (y + QUIET) * px, px, px))
    return rect
