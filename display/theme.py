"""Colours of the table screen: one high-contrast palette, readable across a table."""

from __future__ import annotations

from typing import Final

Colour = tuple[int, int, int]

BACKGROUND: Final[Colour] = (12, 16, 24)
FELT: Final[Colour] = (18, 84, 52)
FELT_EDGE: Final[Colour] = (10, 52, 32)
PANEL: Final[Colour] = (32, 38, 52)
PANEL_EDGE: Final[Colour] = (88, 98, 120)
TEXT: Final[Colour] = (245, 245, 245)
TEXT_DIM: Final[Colour] = (170, 178, 194)
TEXT_DARK: Final[Colour] = (16, 16, 16)

# The active seat and the setup cursor: a warm yellow nothing else on screen uses.
HIGHLIGHT: Final[Colour] = (255, 204, 0)
HIGHLIGHT_TEXT: Final[Colour] = (16, 16, 16)
SELECTION: Final[Colour] = (0, 200, 255)  # a card under correction, a row being edited

VALID: Final[Colour] = (40, 200, 80)
INVALID: Final[Colour] = (235, 50, 50)
# Red as a fill under white text (5.7:1) and as text on the dark panels (5.8:1): the marks'
# red is too light for one and too dark for the other.
INVALID_FILL: Final[Colour] = (190, 30, 30)
INVALID_TEXT: Final[Colour] = (255, 110, 110)
NEUTRAL: Final[Colour] = (120, 128, 144)
WARNING: Final[Colour] = (255, 150, 0)

# The countdown ring by time left.
RING_TRACK: Final[Colour] = (52, 60, 76)
RING_CALM: Final[Colour] = (40, 200, 80)
RING_HURRY: Final[Colour] = (255, 170, 0)
RING_LAST: Final[Colour] = (235, 50, 50)
RING_PAUSED: Final[Colour] = (120, 128, 144)

# The on-screen MENU and OK keys.
KEY: Final[Colour] = (44, 56, 84)
KEY_EDGE: Final[Colour] = (150, 164, 196)

MISSED_MARK: Final[Colour] = (235, 50, 50)
MISSED_SLOT: Final[Colour] = (100, 108, 124)

# Card faces.
CARD_FACE: Final[Colour] = (252, 252, 248)
CARD_EDGE: Final[Colour] = (40, 40, 40)
CARD_RED: Final[Colour] = (210, 20, 30)
CARD_BLACK: Final[Colour] = (16, 16, 16)
CARD_UNREAD: Final[Colour] = (96, 104, 120)
WILD_MARK: Final[Colour] = (200, 140, 0)
TILE_FACE: Final[Colour] = (246, 238, 214)
TILE_EDGE: Final[Colour] = (150, 130, 90)
TILE_COLOURS: Final[dict[str, Colour]] = {
    "R": (205, 25, 30),
    "Y": (190, 100, 0),  # yellow tiles print orange-ish: dark enough on a cream face (3.6:1)
    "B": (20, 70, 200),
    "K": (16, 16, 16),
}

LEVEL_COLOURS: Final[dict[str, Colour]] = {
    "info": (40, 110, 200),
    "warning": WARNING,
    "error": INVALID_FILL,
}
# The text on each level's fill: dark on the orange (9:1), white on the others.
LEVEL_TEXT: Final[dict[str, Colour]] = {
    "info": TEXT,
    "warning": TEXT_DARK,
    "error": TEXT,
}

HEALTH_COLOURS: Final[dict[str, Colour]] = {
    "ok": VALID,
    "fallback": WARNING,
    "lost": INVALID,
}

# Teams and chart lines: distinct on the dark background and from each other.
SERIES: Final[tuple[Colour, ...]] = (
    (80, 170, 255),
    (255, 120, 80),
    (120, 220, 120),
    (230, 110, 230),
    (255, 220, 90),
    (90, 220, 220),
    (250, 250, 250),
    (200, 160, 110),
)


def series_colour(index: int) -> Colour:
    return SERIES[index % len(SERIES)]


def dim(colour: Colour, factor: float = 0.5) -> Colour:
    r, g, b = colour
    return (int(r * factor), int(g * factor), int(b * factor))
