"""The show verdict and the card faces: markers, colours of suits and tiles, corrections."""

from __future__ import annotations

# ruff: noqa: I001 - the fixtures module comes first: it sets SDL's dummy drivers before pygame loads
from tests._display_fixtures import BOTH, assert_texts_inside, count, render, share

import dataclasses

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from display import theme
from display.canvas import TextCache
from display.cardface import FaceDrawer, read_face
from display.fonts import Fonts
from display.samples import show_view, tile_show_view
from display.viewmodel import GroupView, ShowView


@BOTH
def test_a_valid_group_is_marked_green_and_an_invalid_one_red(size: tuple[int, int]) -> None:
    view = show_view(valid=False)
    surface, canvas = render(view, size)
    for i, group in enumerate(view.groups):
        marker = canvas.regions[f"marker:{i}"]
        expected, other = (theme.VALID, theme.INVALID) if group.valid else (theme.INVALID, theme.VALID)
        assert share(surface, marker.inflate(-2, -8), expected, 4) > 0.9, f"group {i}"
        assert share(surface, marker, other, 4) == 0.0
        badge = canvas.regions[f"badge:{i}"]
        assert share(surface, badge, expected, 4) > 0.4


@BOTH
def test_the_verdict_banner_is_coloured_by_the_whole_show(size: tuple[int, int]) -> None:
    good, gc = render(show_view(valid=True), size)
    assert share(good, gc.regions["verdict"], theme.VALID, 4) > 0.6
    bad, bc = render(show_view(valid=False), size)
    assert share(bad, bc.regions["verdict"], theme.INVALID_FILL, 4) > 0.6
    reading, rc = render(ShowView("Ravi", valid=None, stage="reading"), size)
    assert share(reading, rc.regions["verdict"], theme.NEUTRAL, 4) > 0.6
    assert "Reading the table…" in [t.text for t in rc.texts]


@BOTH
def test_an_invalid_group_shows_its_reason(size: tuple[int, int]) -> None:
    _, canvas = render(show_view(valid=False), size)
    words = " ".join(t.text for t in canvas.texts)
    assert "neither a sequence nor a set" in words
    assert_texts_inside(canvas)


@BOTH
def test_red_suits_print_red_and_black_suits_black(size: tuple[int, int]) -> None:
    view = ShowView("Anita", groups=(GroupView(("QH", "QD", "QS", "QC", "10H", "10S"), True, "set"),), valid=True)
    surface, canvas = render(view, size)
    for j, card in enumerate(view.groups[0].cards):
        rect = canvas.regions[f"card:0:{j}"]
        visible = pygame.Rect(rect.x, rect.y, max(8, rect.w // 4), rect.h // 2)  # the corner index shows even when overlapped
        reds = count(surface, visible, theme.CARD_RED, 20)
        blacks = count(surface, visible, theme.CARD_BLACK, 20)  # not the grey card edge
        if card[-1] in "HD":
            assert reds > 20 and reds > blacks, card
        else:
            assert blacks > 20 and reds == 0, card


@BOTH
def test_tiles_print_in_their_colour(size: tuple[int, int]) -> None:
    view = ShowView("Meera", groups=(GroupView(("R9", "Y9", "B9", "K9"), True, "group"),), valid=True)
    surface, canvas = render(view, size)
    for j, colour in enumerate("RYBK"):
        rect = canvas.regions[f"card:0:{j}"]
        corner = pygame.Rect(rect.x, rect.y, rect.w // 2, rect.h // 2)
        mine = count(surface, corner, theme.TILE_COLOURS[colour], 30)
        others = sum(count(surface, corner, theme.TILE_COLOURS[c], 30) for c in "RYBK" if c != colour)
        assert mine > 20 and mine > 3 * others, colour


@BOTH
def test_the_card_under_correction_is_ringed_and_its_replacement_shown(size: tuple[int, int]) -> None:
    surface, canvas = render(show_view(valid=False, correcting=True), size)
    selected = canvas.regions["selected"]
    assert selected == canvas.regions["card:3:1"]
    ring = selected.inflate(10, 10)
    assert count(surface, ring, theme.SELECTION, 4) > selected.w  # a coloured outline around it
    assert "proposed" in canvas.regions and "correction" in canvas.regions
    assert canvas.regions["correction"].contains(canvas.regions["proposed"])
    assert not canvas.regions["correction"].colliderect(canvas.regions["group:3"])
    assert_texts_inside(canvas)


@BOTH
def test_tile_show_with_the_joly_and_an_unread_tile(size: tuple[int, int]) -> None:
    surface, canvas = render(tile_show_view(), size)
    unread = canvas.regions["card:3:2"]
    assert share(surface, unread.inflate(-unread.w // 2, -unread.h // 2), theme.CARD_UNREAD, 4) > 0.3
    joly = canvas.regions["card:2:1"]
    assert count(surface, joly, theme.CARD_RED, 40) > 20  # the Joly's face
    assert_texts_inside(canvas)


@BOTH
def test_loose_cards_get_their_own_neutral_cell(size: tuple[int, int]) -> None:
    view = ShowView("Ravi", groups=(GroupView(("3H", "4H", "5H"), True, "pure sequence"),), loose=("9C", "KD"), valid=False)
    surface, canvas = render(view, size)
    assert share(surface, canvas.regions["marker:loose"].inflate(-2, -8), theme.NEUTRAL, 4) > 0.9
    assert "Not in a group" in [t.text for t in canvas.texts]


def test_reading_faces_from_notation() -> None:
    assert read_face("QH").kind == "card" and read_face("QH").red
    assert read_face("10c").label == "10" and not read_face("10c").red
    assert read_face("PJ").kind == "joker" and read_face("JK").kind == "joker"
    assert read_face("R7").kind == "tile" and read_face("R7").red
    assert read_face("K13").suit == "K" and read_face("K13").label == "13"
    assert read_face("JY").kind == "joly"
    for junk in ("?", "", "ZZ", "R0", "1H"):
        assert read_face(junk).kind == "unread"


def test_faces_are_cached_and_sized_as_asked() -> None:
    drawer = FaceDrawer(TextCache(Fonts()))
    a = drawer.face("7S", 70, 100)
    assert a.get_size() == (70, 100)
    assert drawer.face("7S", 70, 100) is a
    assert drawer.face("7S", 35, 50).get_size() == (35, 50)


CARD_TEXT = st.one_of(
    st.sampled_from(["AS", "10H", "QD", "KC", "2C", "PJ", "R1", "B13", "Y7", "K10", "JY", "?"]),
    st.text(alphabet="AKQJ0123456789SHDCRYBK?", max_size=4),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    groups=st.lists(
        st.tuples(st.lists(CARD_TEXT, min_size=1, max_size=13), st.booleans(), st.text(max_size=80)),
        min_size=0,
        max_size=8,
    ),
    loose=st.lists(CARD_TEXT, max_size=6),
    big=st.booleans(),
)
def test_any_show_renders_inside_the_screen(groups: list[tuple[list[str], bool, str]], loose: list[str], big: bool) -> None:
    view = ShowView(
        "Declarer with a rather long name",
        groups=tuple(GroupView(tuple(cards), ok, "meld" if ok else "invalid", reason) for cards, ok, reason in groups),
        loose=tuple(loose),
        valid=all(ok for _, ok, _ in groups),
        prompt="OK: confirm",
    )
    surface, canvas = render(view, (1920, 1080) if big else (800, 480))
    full = surface.get_rect()
    for name, rect in canvas.regions.items():
        if name.startswith(("card:", "group:", "marker:")):
            assert full.contains(rect), name
    for i in range(len(groups)):
        assert not canvas.regions[f"group:{i}"].colliderect(canvas.regions["verdict"])
    for placed in canvas.texts:
        assert full.contains(placed.rect) and placed.bounds.contains(placed.rect), placed.text


@BOTH
def test_rendering_a_show_leaves_no_card_outside_its_group(size: tuple[int, int]) -> None:
    view = ShowView("Ravi", groups=(GroupView(tuple(["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]), True, "sequence"),), valid=True)
    _, canvas = render(view, size)
    cell = canvas.regions["group:0"]
    for j in range(13):
        assert cell.contains(canvas.regions[f"card:0:{j}"])


@pytest.mark.parametrize("text", ["AS", "10D", "KH", "PJ", "R12", "JY", "?"])
def test_each_face_differs_from_a_blank_card(text: str) -> None:
    drawer = FaceDrawer(TextCache(Fonts()))
    face = drawer.face(text, 70, 100)
    blank = drawer.face("  ", 70, 100)
    assert pygame.image.tobytes(face, "RGBA") != pygame.image.tobytes(blank, "RGBA") or text == "?"


def test_the_header_names_the_declarer_unless_given_a_title() -> None:
    _, canvas = render(show_view(True), (800, 480))
    assert "Ravi shows" in [t.text for t in canvas.texts]
    _, canvas = render(dataclasses.replace(show_view(True), title="Ravi's hand"), (800, 480))
    words = [t.text for t in canvas.texts]
    assert "Ravi's hand" in words and "Ravi shows" not in words


def test_a_character_with_no_width_is_drawn_as_a_stand_in() -> None:
    # found by the fuzz test above: a variation selector alone made the font raise
    from display.fonts import Fonts

    assert TextCache(Fonts()).displayable("A\U000e0100", 24) == "A?"


@pytest.mark.parametrize("size", [(320, 240), (480, 800), (1080, 1920)])
@pytest.mark.parametrize("stage", ["photo", "correcting"])
def test_many_groups_on_a_narrow_screen_draw_without_failing(size: tuple[int, int], stage: str) -> None:
    """Seven groups or more on a portrait (or the smallest) screen left each card a few pixels
    wide: a replay with its photo, or a correction, failed to draw (pygame's "Invalid
    resolution", "Cannot scale to negative size") and stopped the table."""
    from display.viewmodel import SHOW_CONFIRM, SHOW_CORRECTING, CardRef

    photo = render_photo()
    groups = tuple(GroupView(("PJ", "3H", "4H", "5H")[:n], False, "invalid", "a reason")
                   for n in (2, 3, 4) * 5)
    view = ShowView("Asha", groups, False, "wrong show", SHOW_CONFIRM if stage == "photo" else SHOW_CORRECTING,
                    selected=CardRef(0, 0) if stage == "correcting" else None, proposed="8C",
                    photo=photo if stage == "photo" else None)
    surface, _ = render(view, size)
    assert surface.get_size() == size


def render_photo() -> bytes:
    """A small JPEG, as a reading's evidence photo."""
    import cv2
    import numpy as np

    ok, data = cv2.imencode(".jpg", np.full((60, 80, 3), 120, np.uint8))
    assert ok
    return data.tobytes()


@BOTH
def test_the_longest_reason_the_engine_gives_is_read_whole(size: tuple[int, int]) -> None:
    """A contract game's deal-7 reason runs past 300 characters; the verdict band stopped
    growing and cut it before its end."""
    reason = ("wrong show: the contract is not met: a sequence needs at least 4 cards of one suit in a "
              "row, 7H 8H 9H is 3; a sequence needs at least 4 cards of one suit in a row, QS KS AS "
              "is 3; a sequence needs at least 4 cards of one suit in a row, 4D 5D is 2; the whole hand "
              "must go down: at least 10 cards, not 9")
    view = dataclasses.replace(show_view(valid=False), verdict=reason)
    _, canvas = render(view, size)
    shown = " ".join(t.text for t in canvas.texts if t.rect.colliderect(canvas.regions["verdict"]))
    assert shown == reason
