"""One layout description for every screen size: boxes and type sizes as fractions.

A box is ``(x, y, w, h)`` in fractions of the screen's width and height; a type size is a
line height in fractions of the screen's height. The same description gives the 1920×1080
table screen and the 800×480 Pi touchscreen; only a floor on type size differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import pygame

Box = tuple[float, float, float, float]

# Line heights as fractions of screen height.
TYPE: Final[dict[str, float]] = {
    "huge": 0.20,  # countdown seconds
    "title": 0.085,
    "large": 0.068,
    "body": 0.052,
    "small": 0.042,
}
MIN_LINE_PX: Final = 16  # below this nothing is readable on a 7" screen
MIN_PARAGRAPH_PX: Final = 14  # a wrapped reason or prompt is never shrunk below this line height
#: The footer holds at least this many lines of that height (a prompt wrapped on a short screen).
FOOTER_LINES: Final = 2

SIZES: Final[dict[str, tuple[int, int]]] = {
    "table": (1920, 1080),
    "pi": (800, 480),
}

# Bands shared by the screens.
HEADER: Final[Box] = (0.0, 0.0, 1.0, 0.1)
BODY: Final[Box] = (0.02, 0.11, 0.96, 0.77)
FOOTER: Final[Box] = (0.0, 0.91, 1.0, 0.09)
# The on-screen MENU and OK keys in the bottom right corner, for a finger on a touchscreen.
SOFT_KEY_HEIGHT: Final = 0.105  # of the screen's height
MIN_SOFT_KEY_PX: Final = 48  # a fingertip, on the smallest screen
SOFT_KEY_ASPECT: Final = 1.7  # width over height
SOFT_KEY_MARGIN: Final = 0.008  # of the height: from the screen's edge and between the keys
#: Nothing a screen draws reaches below this (of the height) at the right, where the keys are.
SOFT_KEYS_TOP: Final = 0.88


#: The narrowest screen (width over height) whose type is sized by its height alone (4:3).
TYPE_ASPECT: Final = 4 / 3


@dataclass(frozen=True, slots=True)
class Layout:
    """Turns the fractional description into pixels for one surface size."""

    width: int
    height: int

    @classmethod
    def of(cls, surface: pygame.Surface) -> Layout:
        w, h = surface.get_size()
        return cls(w, h)

    def rect(self, box: Box) -> pygame.Rect:
        x, y, w, h = box
        left, top = round(x * self.width), round(self.down(y))
        return pygame.Rect(left, top, round((x + w) * self.width) - left, round(self.down(y + h)) - top)

    def down(self, fraction: float) -> float:
        """Where a box's edge ``fraction`` of the way down lies, in pixels. Boxes keep above
        ``SOFT_KEYS_TOP`` what the soft keys leave free at the right; where a short screen's
        keys (a fingertip tall whatever the height) rise above that line, the description is
        drawn a little squeezed, down to the keys' top, and what lies under the line fills
        the rest, so that no word a screen draws lies under a key."""
        if fraction <= SOFT_KEYS_TOP:
            return fraction * self.height * self.squeeze
        keys = SOFT_KEYS_TOP * self.height * self.squeeze
        return keys + (fraction - SOFT_KEYS_TOP) * (self.height - keys) / (1 - SOFT_KEYS_TOP)

    @property
    def squeeze(self) -> float:
        """How much ``down`` shortens what lies above ``SOFT_KEYS_TOP``: 1 where the soft keys
        stay under that line, less on a short screen (0.89 at 320×240)."""
        top, line = self.soft_key_strip().top, SOFT_KEYS_TOP * self.height
        # within their margin of the line (a rounding's pixel on a tall screen) counts as under it
        return 1.0 if top >= line - self.py(SOFT_KEY_MARGIN) else top / line

    def py(self, fraction: float) -> int:
        """A length as a fraction of the screen height, in pixels (at least 1)."""
        return max(1, round(fraction * self.height))

    def across(self, fraction: float) -> int:
        """A margin or a gap between things side by side, in pixels (at least 1): a fraction
        of the type height, so that a screen narrower than ``TYPE_ASPECT`` (a portrait one)
        keeps its narrow width for words, spaced as a 4:3 screen of this width is."""
        return max(1, round(fraction * self.type_height))

    def line(self, role: str) -> int:
        """A role's line height: a share of the screen's height, or on a screen narrower than
        ``TYPE_ASPECT`` (a portrait kiosk) of the height such a screen of this width would
        have, so that lines laid out across the width fit it."""
        return max(MIN_LINE_PX, round(TYPE[role] * self.type_height))

    @property
    def type_height(self) -> float:
        """The height type is sized by: the screen's, or on a screen narrower than
        ``TYPE_ASPECT`` the height such a screen of this width would have."""
        return min(self.height, self.width / TYPE_ASPECT)

    @property
    def full(self) -> pygame.Rect:
        return pygame.Rect(0, 0, self.width, self.height)

    def soft_keys(self) -> dict[str, pygame.Rect]:
        """Where the on-screen MENU and OK keys are ("key:menu", "key:ok"): side by side in
        the bottom right corner, at least a fingertip tall on any screen."""
        h = max(MIN_SOFT_KEY_PX, round(SOFT_KEY_HEIGHT * self.height))
        w = round(h * SOFT_KEY_ASPECT)
        m = self.py(SOFT_KEY_MARGIN)
        ok = pygame.Rect(self.width - m - w, self.height - m - h, w, h)
        menu = pygame.Rect(ok.x - m - w, ok.y, w, h)
        return {"key:menu": menu, "key:ok": ok}

    def soft_key_strip(self) -> pygame.Rect:
        """The corner the soft keys take, with their margin: the footer's words stay left of it."""
        keys = self.soft_keys()
        m = self.py(SOFT_KEY_MARGIN)
        return keys["key:menu"].union(keys["key:ok"]).inflate(2 * m, 2 * m)

    def footer_band(self, lines: int = FOOTER_LINES) -> pygame.Rect:
        """The footer band left of the soft keys (the prompt and the toast go here). On a
        short screen (a 3.5" 480×320 one) it reaches up into the gap under the body, so that
        a prompt has two lines of the smallest readable type rather than being cut; ``lines``
        lines where a long prompt needs more in a narrow band (a 320×480 screen's)."""
        band = self.rect(FOOTER)
        band.w = self.soft_key_strip().x - band.x
        need = lines * MIN_PARAGRAPH_PX + 2 * self.py(0.012)
        if band.h < need:
            top = max(self.rect(BODY).bottom, band.bottom - need)
            band.h, band.y = band.bottom - top, top
        return band


def inset(rect: pygame.Rect, dx: int, dy: int | None = None) -> pygame.Rect:
    """``rect`` shrunk by ``dx`` on left and right and ``dy`` on top and bottom."""
    dy = dx if dy is None else dy
    return pygame.Rect(rect.x + dx, rect.y + dy, max(0, rect.w - 2 * dx), max(0, rect.h - 2 * dy))


def split_rows(rect: pygame.Rect, count: int, gap: int = 0) -> list[pygame.Rect]:
    """``count`` equal rows stacked in ``rect``."""
    if count <= 0:
        return []
    h = (rect.h - gap * (count - 1)) / count
    return [pygame.Rect(rect.x, round(rect.y + i * (h + gap)), rect.w, max(1, round(h))) for i in range(count)]


def split_columns(rect: pygame.Rect, weights: list[float], gap: int = 0,
                  needs: list[int] | None = None) -> list[pygame.Rect]:
    """Columns side by side in ``rect``, widths in proportion to ``weights``. With ``needs``
    (the least width each column's words are whole in), a column short of its need is widened
    towards it by the columns with room to spare beyond theirs, each giving in proportion to
    its room: where nothing is short, the split is as the weights give it."""
    total = sum(weights) or 1.0
    free = rect.w - gap * (len(weights) - 1)
    widths = [free * w / total for w in weights]
    if needs is not None:
        widths = _share_room(widths, needs)
    out: list[pygame.Rect] = []
    x = float(rect.x)
    for width in widths:
        out.append(pygame.Rect(round(x), rect.y, max(1, round(width)), rect.h))
        x += width + gap
    return out


def _share_room(widths: list[float], needs: list[int]) -> list[float]:
    """``widths`` with the columns short of their ``needs`` given what the others can spare
    (all of their shortfall where the others' spare room covers it)."""
    short = sum(max(0.0, need - w) for w, need in zip(widths, needs, strict=True))
    spare = sum(max(0.0, w - need) for w, need in zip(widths, needs, strict=True))
    if short <= 0 or spare <= 0:
        return widths
    give = min(short, spare)
    return [w + (need - w) * give / short if need > w else w - (w - need) * give / spare
            for w, need in zip(widths, needs, strict=True)]
