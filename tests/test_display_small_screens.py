"""The smallest screens the kit is drawn for: a 3.5-inch one held in portrait (320×480) cuts no
word of any sample screen, and a 320×240 panel keeps whole what its height leaves room for."""

from __future__ import annotations

# ruff: noqa: I001 - the fixtures module comes first: it sets SDL's dummy drivers before pygame loads
from tests._display_fixtures import assert_texts_inside, render, share

import dataclasses
import math

import pygame
import pytest

from display import theme
from display.canvas import Canvas
from display.layout import BODY, FOOTER, SOFT_KEYS_TOP, Layout, split_columns
from display.samples import every_screen, gameover_view, play_view, turn_check_view
from display.screens.handpad import CARD_RANKS
from display.screens.play import SEAT_WIDTH, SEAT_WIDTH_CROWDED
from display.viewmodel import ScorepadView, Toast

PORTRAIT = (320, 480)  # a 3.5" screen held upright
TINY = (320, 240)  # the smallest screen the kit takes (tablekit.values.MIN_SIZE)
#: Prompts of three lines in the smallest type: more than a 320×240 screen's footer holds.
LONG_PROMPTS = ("turn-check", "turn-check-read-again", "show-correcting-by-button")


def _cut(canvas: Canvas) -> list[str]:
    return [t.text for t in canvas.texts if t.text.endswith("…")]


def _words(canvas: Canvas, area: pygame.Rect) -> list[str]:
    return " ".join(t.text for t in canvas.texts if area.contains(t.rect)).split()


def test_no_sample_screen_cuts_a_word_on_a_3_5_inch_portrait_screen() -> None:
    """Long prompts take three lines beside the soft keys, a long game's name two under its
    label, a narrow column's head two; crowded seats keep the full width, a column short of
    room takes it from one with room to spare."""
    for name, view in every_screen().items():
        _, canvas = render(view, PORTRAIT)
        assert not _cut(canvas), f"{name}: {_cut(canvas)}"
        assert_texts_inside(canvas)
        keys = [canvas.regions["key:menu"], canvas.regions["key:ok"]]
        for placed in canvas.texts:
            if placed.text not in ("MENU", "OK"):
                assert not any(k.colliderect(placed.rect) for k in keys), f"{placed.text!r} under a soft key on {name}"


@pytest.mark.parametrize("size", [(480, 320), TINY, (800, 400), (800, 480)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_word_of_any_sample_screen_lies_under_a_soft_key(size: tuple[int, int]) -> None:
    """A short screen's keys (a fingertip tall, a fifth of a 320×240 screen) rise above the line
    the screens keep clear of them: the screens are drawn squeezed down to the keys' top, the
    bottom seat of the play screen too."""
    for name, view in every_screen().items():
        _, canvas = render(view, size)
        keys = [canvas.regions["key:menu"], canvas.regions["key:ok"]]
        under = [t.text for t in canvas.texts
                 if t.text not in ("MENU", "OK") and any(k.colliderect(t.rect) for k in keys)]
        assert not under, f"{name}: {under} under a soft key"
        assert not any(k.colliderect(r) for k in keys for key, r in canvas.regions.items()
                       if key.startswith(("seat:", "row:", "standing:"))), name


def test_the_layout_is_squeezed_only_where_the_soft_keys_rise_above_their_line() -> None:
    tall = Layout(800, 480)
    assert tall.squeeze == 1.0 and tall.down(0.5) == 240 and tall.rect(BODY) == pygame.Rect(16, 53, 768, 369)
    short = Layout(*TINY)
    keys = short.soft_key_strip().top
    assert short.squeeze < 0.95
    assert short.down(0.0) == 0 and short.down(1.0) == TINY[1]
    assert round(short.down(SOFT_KEYS_TOP)) == keys  # the line the keys stay under meets their top
    edges = [short.down(f / 100) for f in range(101)]
    assert all(a < b for a, b in zip(edges, edges[1:], strict=False))  # boxes keep their order
    assert short.rect(BODY).bottom <= keys < short.rect(FOOTER).bottom


def test_on_a_320x240_screen_the_setup_labels_take_room_the_values_spare() -> None:
    """"Turn timer" beside "45 s": the labels of a column are widened together (its values
    still line up), as far as the longest value leaves room."""
    view = every_screen()["setup"]
    _, canvas = render(view, TINY)
    shown = [t.text for t in canvas.texts]
    for option in view.options:
        assert option.label in shown and option.value in shown, (option, shown)
    lefts = {t.rect.x for t in canvas.texts if t.text in {o.value for o in view.options}}
    assert len(lefts) == 1, lefts


def test_on_a_320x240_screen_every_prompt_of_two_lines_is_whole() -> None:
    """The footer's margins above and below give way so that two lines of the smallest type
    fit between the body and the screen's edge."""
    for name, view in every_screen().items():
        prompt = getattr(view, "hint", "") or getattr(view, "prompt", "")
        if not prompt or name in LONG_PROMPTS or getattr(view, "toast", None) is not None:
            continue
        _, canvas = render(view, TINY)
        band = canvas.regions["footer"]
        assert _words(canvas, band) == prompt.split(), f"{name}: {_words(canvas, band)}"
        assert band.top >= canvas.layout.rect(BODY).bottom  # under the body, not over it


@pytest.mark.parametrize("size", [PORTRAIT, TINY], ids=["320x480", "320x240"])
def test_a_header_s_long_status_takes_the_room_a_short_title_leaves(size: tuple[int, int]) -> None:
    for name in ("setup", "setup-roster", "scorepad-verdict"):
        view = every_screen()[name]
        _, canvas = render(view, size)
        band = canvas.regions["header"]
        status = view.variant_name if name.startswith("setup") else "the camera read nothing"
        assert " ".join(status.split()) in " ".join(_words(canvas, band)), (name, _words(canvas, band))
        assert not [t.text for t in canvas.texts if band.contains(t.rect) and t.text.endswith("…")]


@pytest.mark.parametrize("size", [PORTRAIT, TINY], ids=["320x480", "320x240"])
def test_narrow_columns_heads_and_notes_take_two_lines_not_a_cut(size: tuple[int, int]) -> None:
    _, canvas = render(every_screen()["deal"], size)
    shown = [t.text for t in canvas.texts]
    assert "This" in shown and "deal" in shown and not _cut(canvas), shown  # "This deal", over two lines
    view = dataclasses.replace(gameover_view(), choices=("Rematch", "New players"), choice=0)
    _, canvas = render(view, size)
    noted = [(i, s) for i, s in enumerate(view.standings) if s.note]
    assert noted
    for i, standing in noted:
        assert " ".join(_words(canvas, canvas.regions[f"standing:{i}"])).endswith(standing.note), standing


@pytest.mark.parametrize("tiles", [True, False], ids=["tiles", "cards"])
def test_the_joker_key_keeps_its_word_on_a_narrow_screen(tiles: bool) -> None:
    view = every_screen()["scorepad-cards"]
    assert isinstance(view, ScorepadView) and view.hand is not None
    view = dataclasses.replace(view, hand=dataclasses.replace(view.hand, tiles=tiles))
    _, canvas = render(view, PORTRAIT)
    key = canvas.regions["pad:rank:0"]
    assert [t.text for t in canvas.texts if key.contains(t.rect)] == ["Joly" if tiles else "Joker"]
    keys = [*(canvas.regions[f"pad:rank:{n}"] for n in range(1, 14)), key]  # the rank keys gave it room
    assert all(a.right < b.left for a, b in zip(keys, keys[1:], strict=False))
    ranks = [str(n) for n in range(1, 14)] if tiles else list(CARD_RANKS)
    assert [[t.text for t in canvas.texts if k.contains(t.rect)] for k in keys[:-1]] == [[r] for r in ranks]


@pytest.mark.parametrize("seats", [7, 8])
def test_crowded_seats_keep_their_width_on_a_narrow_screen_without_touching(seats: int) -> None:
    view = play_view(seats)
    _, canvas = render(view, PORTRAIT)
    rects = [canvas.regions[f"seat:{i}"] for i in range(seats)]
    assert all(r.w == round(SEAT_WIDTH * PORTRAIT[0]) for r in rects)
    for i, a in enumerate(rects):
        assert canvas.surface.get_rect().contains(a)
        assert not a.colliderect(canvas.regions["header"])
        ring = canvas.regions["countdown"]
        nearest = (min(max(ring.centerx, a.left), a.right), min(max(ring.centery, a.top), a.bottom))
        assert math.dist(nearest, ring.center) > ring.w / 2, f"seat {i} of {seats} covers the countdown ring"
        assert not any(a.colliderect(b) for b in rects[i + 1:]), f"seats overlap with {seats} players"
    noted = [s.note for s in view.seats if s.note]
    assert noted and all(note in [t.text for t in canvas.texts] for note in noted)
    _, canvas = render(view, (800, 480))  # a landscape screen's crowded seats are as narrow as ever
    assert canvas.regions["seat:0"].w == round(SEAT_WIDTH_CROWDED * 800)


def test_a_toast_hides_a_long_prompt_whole() -> None:
    """A long prompt's band (three lines on a 320×480 screen) is taller and wider than the
    toast's pill: none of its words peek out around the pill."""
    view = dataclasses.replace(turn_check_view(), toast=Toast("Joseph dropped (20)"))
    surface, canvas = render(view, PORTRAIT)
    band, pill = canvas.regions["footer"], canvas.regions["toast"]
    assert band.h > pill.h  # the three-line band
    above = pygame.Rect(band.x, band.y, band.w, pill.y - band.y)
    assert share(surface, above, theme.BACKGROUND, 2) == 1.0
    for side in (pygame.Rect(band.x, pill.y, pill.x - band.x, pill.h),
                 pygame.Rect(pill.right, pill.y, band.right - pill.right, pill.h)):
        if side.w > 0:
            assert share(surface, side, theme.BACKGROUND, 2) == 1.0


def test_a_column_short_of_its_need_takes_room_from_those_with_room_to_spare() -> None:
    row = pygame.Rect(0, 0, 400, 20)
    weights = [1.0, 1.0, 2.0]
    plain = split_columns(row, weights, gap=10)
    assert split_columns(row, weights, gap=10, needs=[50, 50, 100]) == plain  # none short: as weighted
    wide = split_columns(row, weights, gap=10, needs=[150, 20, 100])
    assert [c.w for c in wide] == [150, 70, 160]  # the others give in proportion to their spare room
    assert wide[1].x == wide[0].right + 10 and wide[2].right == row.right
    tight = split_columns(row, weights, gap=10, needs=[200, 90, 190])  # 5 px to spare: all of it given
    assert [c.w for c in tight] == [100, 90, 190]


def test_the_least_widths_a_text_and_a_paragraph_show_whole_in() -> None:
    canvas = render(play_view(4), PORTRAIT)[1]
    text = "Indian rummy · pool 101 · 8 deals"
    least = canvas.least_width(text, 20, bold=False, min_scale=0.6)
    assert least == canvas.cache.width(text, 12, False) < canvas.cache.width(text, 20, False)
    assert canvas.least_width("157", 20) == canvas.cache.width("157", 8)  # a number shrinks further
    narrow = canvas.paragraph_width(text, 16, 3 * 16, bold=False, min_scale=0.9)
    box = pygame.Rect(0, 0, narrow, 3 * 16)
    assert canvas.paragraph_fit(text, 16, box, bold=False, min_scale=0.9)[2]
    box.w -= 1
    assert not canvas.paragraph_fit(text, 16, box, bold=False, min_scale=0.9)[2]
