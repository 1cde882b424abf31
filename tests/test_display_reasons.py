"""A ruling's reason is read whole: it wraps (and the type shrinks a little) before it is cut."""

from __future__ import annotations

# ruff: noqa: I001 - the fixtures module comes first: it sets SDL's dummy drivers before pygame loads
from tests._display_fixtures import BOTH, assert_texts_inside, render

import dataclasses

import pygame

from display.canvas import ELLIPSIS, Canvas
from display.samples import play_view, show_view, turn_check_view
from display.viewmodel import GroupView, Toast

VERDICT = ("Invalid show: the group 4♥ 5♥ 7♥ has a gap between 5♥ and 7♥ that no joker fills, "
           "and a show needs two sequences, one of them pure, before any set can count")
GROUP_REASON = "4♥ 5♥ 7♥ has a gap between 5♥ and 7♥ that no joker fills"


def words_in(canvas: Canvas, region: pygame.Rect) -> str:
    """The words of the lines drawn across ``region`` (boxes inside it, at least half its
    width: not a seat's score under a banner), top to bottom, as one line."""
    lines = [t for t in canvas.texts if region.contains(t.bounds) and t.bounds.w * 2 >= region.w]
    inside = sorted(lines, key=lambda t: (t.rect.y, t.rect.x))
    return " ".join(t.text for t in inside)


def shown(canvas: Canvas, text: str) -> str:
    return canvas.cache.displayable(text, 20)  # suit symbols as the font draws them


@BOTH
def test_a_long_verdict_wraps_whole_in_the_band(size: tuple[int, int]) -> None:
    view = dataclasses.replace(show_view(valid=False), verdict=VERDICT)
    _, canvas = render(view, size)
    assert_texts_inside(canvas)
    band = canvas.regions["verdict"]
    assert words_in(canvas, band) == shown(canvas, VERDICT)
    assert not any(ELLIPSIS in t.text for t in canvas.texts if band.contains(t.rect))
    assert len([t for t in canvas.texts if band.contains(t.rect)]) >= 2  # on more than one line
    # the groups moved down to make room: nothing is drawn under the band
    for name, rect in canvas.regions.items():
        if name.startswith("group:"):
            assert rect.top >= band.bottom


@BOTH
def test_a_short_verdict_keeps_a_one_line_band(size: tuple[int, int]) -> None:
    _, canvas = render(show_view(valid=False), size)
    band = canvas.regions["verdict"]
    assert band.h == round(0.1 * size[1])
    assert words_in(canvas, band) == "Wrong show: one group is not a meld"


@BOTH
def test_a_long_group_reason_wraps_under_its_group(size: tuple[int, int]) -> None:
    view = show_view(valid=False)
    groups = view.groups[:3] + (dataclasses.replace(view.groups[3], reason=GROUP_REASON),)
    _, canvas = render(dataclasses.replace(view, groups=groups), size)
    assert_texts_inside(canvas)
    cell = canvas.regions["group:3"]
    assert words_in(canvas, cell) == shown(canvas, GROUP_REASON)


@BOTH
def test_a_long_reason_under_one_of_six_groups_is_read_whole(size: tuple[int, int]) -> None:
    group = GroupView(("4H", "5H", "7H"), False, "invalid", GROUP_REASON)
    view = dataclasses.replace(show_view(valid=False), groups=(group,) * 6)
    _, canvas = render(view, size)
    assert_texts_inside(canvas)
    for i in range(6):
        assert words_in(canvas, canvas.regions[f"group:{i}"]) == shown(canvas, GROUP_REASON)


@BOTH
def test_a_long_notice_wraps_in_the_toast(size: tuple[int, int]) -> None:
    notice = "Ravi's show was wrong: " + GROUP_REASON + "; Ravi takes 80 points"
    _, canvas = render(play_view(4, toast=Toast(notice, "warning"), hint=""), size)  # the toast covers the hint
    assert_texts_inside(canvas)
    assert words_in(canvas, canvas.regions["toast"]) == shown(canvas, notice)


@BOTH
def test_a_long_pause_reason_and_turn_check_rule_are_read_whole(size: tuple[int, int]) -> None:
    reason = "The camera cannot see the table: check that nothing covers the lens, then press OK"
    _, canvas = render(play_view(4, paused_reason=reason), size)
    assert_texts_inside(canvas)
    assert words_in(canvas, canvas.regions["paused"]) == "Paused " + reason
    rule = "Meera laid off 9♠ on Ravi's run 5♠ 6♠ 7♠ 8♠ before laying down a meld of her own, which this game does not allow"
    view = dataclasses.replace(turn_check_view(), violations=(rule,))
    _, canvas = render(view, size)
    assert_texts_inside(canvas)
    assert words_in(canvas, canvas.regions["rule:0"]) == shown(canvas, rule)
