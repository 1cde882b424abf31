"""The Open Rummy turn rules as plain-data checks, each with an allowed and a refused example."""

from __future__ import annotations

import pytest

from engine.errors import MeldError
from engine.families.open_rummy.rules import (
    discard,
    join_problem,
    lay_down_problem,
    partners,
    pile_take_problem,
    replace_joker,
    touch_problem,
)
from tests._open_fixtures import cards


def test_partners_sit_alternately() -> None:
    assert partners(0, 2) and partners(1, 5) and not partners(0, 3)
    assert touch_problem(0, 2) is None
    assert touch_problem(0, 1) is not None and "opponent" in (touch_problem(0, 1) or "")
    assert touch_problem(0, 2, opening=True) is not None
    assert touch_problem(2, 2, opening=True) is None


def test_taking_from_the_pile() -> None:
    pile = cards("9D 6C 6H 7H QS 4S")
    assert pile_take_problem(pile, 4, cards("6H 7H 2S")) is None
    assert pile_take_problem(pile, 2, cards("8C 9C 10C")) is not None
    assert pile_take_problem(pile, 7, []) is not None


def test_the_dealers_joker() -> None:
    assert pile_take_problem(cards("PJ"), 1, [], first_turn=True) is None
    assert pile_take_problem(cards("PJ 9C"), 2, cards("8D PJ 10D")) is not None
    assert pile_take_problem(cards("PJ 9C"), 2, cards("9C 10C JC")) is None


def test_keep_a_card_to_discard() -> None:
    # holding 5H 6H and drawing 7H: the three may not all be laid down
    assert lay_down_problem(3, 3) is not None
    assert lay_down_problem(3, 2) is None


def test_discarding_a_joker_kills_the_pile() -> None:
    pile = tuple(cards("4C KH"))
    assert discard(pile, cards("9S")[0]) == (pile + tuple(cards("9S")), ())
    assert discard(pile, cards("2D")[0]) == ((), pile + tuple(cards("2D")))


def test_replacing_a_printed_joker() -> None:
    new, back = replace_joker(cards("5S PJ 7S"), 1, cards("6S")[0])
    assert [str(c) for c in new] == ["5S", "6S", "7S"] and str(back) == "PJ"


def test_replacing_a_sliding_joker() -> None:
    # "spade4-diamond2-spade6" with the spade5: the two slides to 3S or 7S
    low, _ = replace_joker(cards("4S 2D 6S"), 1, cards("5S")[0], "low")
    high, _ = replace_joker(cards("4S 2D 6S"), 1, cards("5S")[0], "high")
    assert [str(c) for c in low] == ["2D", "4S", "5S", "6S"]
    assert [str(c) for c in high] == ["4S", "5S", "6S", "2D"]
    left, aside = replace_joker(cards("4S 2D 6S"), 1, cards("5S")[0])
    assert str(aside) == "2D" and len(left) == 3  # the slide is left to the opener


def test_refused_replacements() -> None:
    with pytest.raises(MeldError):
        replace_joker(cards("5S PJ 7S"), 1, cards("2H")[0])
    with pytest.raises(MeldError):
        replace_joker(cards("5S PJ 7S"), 1, cards("8S")[0])
    with pytest.raises(MeldError):
        replace_joker(cards("4S 5S 6S 7S 8S 9S 10S JS QS KS 2D"), 10, cards("AS")[0], "high")


def test_joining() -> None:
    assert join_problem(cards("5S 6S 7S 8S"), cards("9S 10S JS QS")) is None
    assert join_problem(cards("4C 5C 2D 7C"), cards("8C PJ 10C 2H"), peak_first=2) is not None
    assert join_problem(cards("5S 6S 7S"), cards("9S 10S JS")) is not None  # not end to end
