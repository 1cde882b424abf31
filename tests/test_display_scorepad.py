"""The scorepad screen at the Pi's 800x480 and at 1080p: whose hand, the number, who confirms, why refused."""

from __future__ import annotations

# ruff: noqa: I001 - the fixtures module comes first: it sets SDL's dummy drivers before pygame loads
from tests._display_fixtures import BOTH, assert_texts_inside, render, share

import pytest

from display import theme
from display.screens.scorepad import MIN_VALUE_PX
from display.viewmodel import ScorepadView, Toast


def count_view(**changes: object) -> ScorepadView:
    base = dict(player="Meera", title="Meera's hand", question="How many points does Meera's hand count?",
                value="45", limit="0 to 80 points", entered_by="entered by Asha",
                confirm_by="Ravi or Meera: press your button to confirm 45 points",
                confirming=True, why="no camera",
                prompt="a seat's button: confirm · MENU: change it")
    base.update(changes)
    return ScorepadView(**base)  # type: ignore[arg-type]


def verdict_view(valid: bool) -> ScorepadView:
    return ScorepadView("Ravi", "Ravi's show", "Is Ravi's show valid?",
                        "valid show" if valid else "wrong show", verdict=valid,
                        confirm_by="then another seat's button confirms",
                        prompt="a seat's button: valid or wrong · OK: done")


def texts(canvas) -> list[str]:
    return [t.text for t in canvas.texts if t.text]


@BOTH
def test_the_number_is_large_and_says_whose_hand_and_who_confirms(size: tuple[int, int]) -> None:
    surface, canvas = render(count_view(), size)
    assert_texts_inside(canvas)
    number = next(t for t in canvas.texts if t.text == "45")
    assert number.rect.h >= MIN_VALUE_PX and number.rect.h >= 0.12 * size[1]
    shown = " ".join(texts(canvas))
    assert "Meera's hand" in shown and "entered by Asha" in shown and "0 to 80 points" in shown
    assert "Ravi or Meera" in shown
    for name in ("pad:value", "pad:minus", "pad:plus", "pad:plus10", "pad:confirm"):
        assert name in canvas.regions
    assert share(surface, canvas.regions["pad:confirm"], theme.HIGHLIGHT) > 0.3
    # every text is readable across a table
    assert min(t.rect.h for t in canvas.texts if t.text) >= (12 if size[1] < 600 else 20)


@BOTH
def test_a_refusal_says_why_in_a_red_band(size: tuple[int, int]) -> None:
    view = count_view(value="95", confirming=False, problem="a hand counts at most 80 points in Pool 101, not 95",
                      confirm_by="then another seat's button confirms")
    surface, canvas = render(view, size)
    assert_texts_inside(canvas)
    assert "problem" in canvas.regions and share(surface, canvas.regions["problem"], theme.INVALID) > 0.3
    assert "at most 80 points" in " ".join(texts(canvas))


@BOTH
@pytest.mark.parametrize("valid", [True, False])
def test_a_verdict_is_drawn_in_its_colour_without_steps(size: tuple[int, int], valid: bool) -> None:
    surface, canvas = render(verdict_view(valid), size)
    assert_texts_inside(canvas)
    word = "valid show" if valid else "wrong show"
    placed = next(t for t in canvas.texts if t.text == word)
    assert placed.rect.h >= MIN_VALUE_PX
    assert share(surface, placed.rect, theme.VALID if valid else theme.INVALID, tolerance=40) > 0.05
    assert "pad:plus" not in canvas.regions


@BOTH
def test_typing_and_a_toast_fit_too(size: tuple[int, int]) -> None:
    view = count_view(value="7", typing=True, confirming=False, entered_by="typed at the keyboard",
                      toast=Toast("paused: camera lost"))
    _, canvas = render(view, size)
    assert_texts_inside(canvas)
    assert "7_" in texts(canvas) and "toast" in canvas.regions
