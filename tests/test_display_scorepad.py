"""The scorepad screen at the Pi's 800x480 and at 1080p: whose hand, the number, who confirms, why refused."""

from __future__ import annotations

import dataclasses

# ruff: noqa: I001 - the fixtures module comes first: it sets SDL's dummy drivers before pygame loads
from tests._display_fixtures import BOTH, assert_texts_inside, render, share

import pytest

from display import theme
from display.screens.scorepad import MIN_VALUE_PX
from display.viewmodel import HandPadView, ScorepadView, Toast


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
    assert "problem" in canvas.regions and share(surface, canvas.regions["problem"], theme.INVALID_FILL) > 0.3
    assert "at most 80 points" in " ".join(texts(canvas))


@BOTH
@pytest.mark.parametrize("valid", [True, False])
def test_a_verdict_is_drawn_in_its_colour_without_steps(size: tuple[int, int], valid: bool) -> None:
    surface, canvas = render(verdict_view(valid), size)
    assert_texts_inside(canvas)
    word = "valid show" if valid else "wrong show"
    placed = next(t for t in canvas.texts if t.text == word)
    assert placed.rect.h >= MIN_VALUE_PX
    assert share(surface, placed.rect, theme.VALID if valid else theme.INVALID_TEXT, tolerance=40) > 0.05
    assert "pad:plus" not in canvas.regions


@BOTH
def test_typing_and_a_toast_fit_too(size: tuple[int, int]) -> None:
    view = count_view(value="7", typing=True, confirming=False, entered_by="typed at the keyboard",
                      toast=Toast("paused: camera lost"))
    _, canvas = render(view, size)
    assert_texts_inside(canvas)
    assert "7_" in texts(canvas) and "toast" in canvas.regions


def cards_view(confirming: bool = False, typed: str | None = None, tiles: bool = False) -> ScorepadView:
    groups = (("R10", "R11", "R12"), ("K9", "B9", "Y9")) if tiles else (("10H", "JH", "QH"), ("KS", "KD"))
    hand = HandPadView(groups, None if confirming else (1, 2), tiles, typed, "wrong show: KS KD is not a set",
                       False, editable=not confirming)
    return ScorepadView("Meera", "Meera's show", "Which cards does Meera show?", "5 cards", False,
                        entered_by="entered by Asha",
                        confirm_by=("Ravi, Meera: press your button to confirm these cards" if confirming
                                    else "then a different seat's button confirms"),
                        confirming=confirming, why="no camera",
                        prompt="a seat's button: next rank · hold it: next suit · MENU: next card · OK: done",
                        confirmers=((1, "Ravi"), (2, "Meera")) if confirming else (), hand=hand)


@BOTH
@pytest.mark.parametrize("tiles", [False, True], ids=["cards", "tiles"])
def test_the_cards_of_a_hand_are_drawn_with_the_keys_that_enter_them(size: tuple[int, int], tiles: bool) -> None:
    surface, canvas = render(cards_view(tiles=tiles), size)
    assert_texts_inside(canvas)
    for name in ("pad:slot:0:0", "pad:slot:1:2", "pad:slot:2:0", "pad:cursor", "pad:remove", "pad:group",
                 "pad:rank:0", "pad:rank:13", "pad:suit:" + ("K" if tiles else "C")):
        assert name in canvas.regions, name
    assert canvas.regions["pad:cursor"] == canvas.regions["pad:slot:1:2"]
    # the card faces are drawn (a card's face is light), the ruling in the colour of a wrong show
    assert share(surface, canvas.regions["pad:slot:0:0"], theme.TILE_FACE if tiles else theme.CARD_FACE) > 0.3
    ruling = next(t for t in canvas.texts if t.text.startswith("wrong show"))
    assert ruling.rect.colliderect(canvas.regions["ruling"])
    keys = [canvas.regions[f"pad:rank:{n}"] for n in range(14)]
    assert min(k.h for k in keys) >= (30 if size[1] < 600 else 60)  # a fingertip at 800x480
    assert all(not a.colliderect(b) for a, b in zip(keys, keys[1:], strict=False))
    shown = " ".join(texts(canvas))
    assert ("Joly" if tiles else "Joker") in shown and "new group" in shown


@BOTH
def test_cards_waiting_for_a_second_seat_show_its_buttons_not_the_keys(size: tuple[int, int]) -> None:
    surface, canvas = render(cards_view(confirming=True), size)
    assert_texts_inside(canvas)
    assert "pad:rank:1" not in canvas.regions and "pad:cursor" not in canvas.regions
    assert share(surface, canvas.regions["seat:1"], theme.HIGHLIGHT) > 0.3 and "seat:2" in canvas.regions


@BOTH
def test_typed_cards_show_as_text_with_a_caret(size: tuple[int, int]) -> None:
    _, canvas = render(cards_view(typed="10H JH QH / KS K"), size)
    assert "10H JH QH / KS K_" in texts(canvas) and "pad:typed" in canvas.regions


def test_eight_confirmers_whose_names_begin_alike_read_apart() -> None:
    """Eight confirm buttons cut two names beginning alike to the same "Alexandrina…": each is
    shortened as its seat box shortens it, its family name's initial kept."""
    names = ("Alexandrina Fernandes", "Alexandrina Fonseca", "Alexandrina Souza", "Ravi Kumar",
             "Meera Nair", "Asha Rao", "Ben Cohen", "Chitra Iyer")
    view = dataclasses.replace(cards_view(confirming=True),
                               confirmers=tuple((i, n) for i, n in enumerate(names)))
    for size in ((1280, 720), (1920, 1080)):
        _, canvas = render(view, size)
        shown = [t.text for t in canvas.texts if t.rect.colliderect(canvas.regions["seat:0"].union(
            canvas.regions["seat:7"]))]
        assert len(shown) == 8 and len(set(shown)) == 8, shown
        assert shown[0].startswith("A. Fe") and shown[1].startswith("A. Fo"), shown
