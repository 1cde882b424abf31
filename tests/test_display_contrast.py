"""The palette's text read against what it is drawn on, by the WCAG contrast ratio: 4.5:1 for
body text, 3:1 for large text (a tile's number)."""

from __future__ import annotations

import pytest

from display import theme


def _luminance(colour: theme.Colour) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: theme.Colour, b: theme.Colour) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("level", sorted(theme.LEVEL_COLOURS))
def test_a_pop_up_s_text_reads_on_its_level_s_fill(level: str) -> None:
    assert contrast(theme.LEVEL_TEXT[level], theme.LEVEL_COLOURS[level]) >= 4.5


@pytest.mark.parametrize(("ink", "ground"), [
    (theme.TEXT, theme.INVALID_FILL),          # refusal bands, an invalid show's banner
    (theme.INVALID_TEXT, theme.PANEL),         # "eliminated" on a seat, a refused entry
    (theme.INVALID_TEXT, theme.BACKGROUND),    # an error message's title
    (theme.TEXT, theme.KEY),                   # the keys' labels, the Joker key's too
    (theme.TEXT, theme.BACKGROUND),
    (theme.TEXT_DIM, theme.PANEL),
    (theme.HIGHLIGHT_TEXT, theme.HIGHLIGHT),
])
def test_body_text_reads_on_its_ground(ink: theme.Colour, ground: theme.Colour) -> None:
    assert contrast(ink, ground) >= 4.5


@pytest.mark.parametrize("colour", sorted(theme.TILE_COLOURS))
def test_every_tile_colour_s_number_reads_on_the_face(colour: str) -> None:
    assert contrast(theme.TILE_COLOURS[colour], theme.TILE_FACE) >= 3.0
