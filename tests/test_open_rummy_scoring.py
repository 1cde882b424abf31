"""Open Rummy scoring: card values, bonuses, shows, partnership totals and the target."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.families.open_rummy.scoring import (
    TeamTable,
    add_deal,
    card_value,
    check_show,
    score_deal,
    score_meld,
)
from tests._open_fixtures import cards

PURE_HEARTS = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
MIXED_CLUBS = "3C 4C 5C 6C 7C 8C PJ 10C JC QC KC AC"


@pytest.mark.parametrize(("card", "value"), [
    ("3S", Fraction(1, 2)), ("6D", Fraction(1, 2)), ("7C", 1), ("KH", 1), ("AS", Fraction(3, 2)),
    ("2D", 2), ("PJ", 4),
])
def test_card_values(card: str, value: Fraction) -> None:
    assert card_value(cards(card)[0]) == value


def test_pure_complete_set_scores_its_cards_and_20() -> None:
    s = score_meld(cards(PURE_HEARTS))
    assert (s.points, s.bonus, s.total) == (Fraction(21, 2), 20, Fraction(61, 2))  # 30.5


def test_mixed_complete_set_bonus_is_15() -> None:
    s = score_meld(cards(MIXED_CLUBS))
    assert s.bonus == 15 and s.points == Fraction(2) + 2 + 4 + 4 + Fraction(3, 2)  # 3-6, 7-8, PJ, 10-K, A


@pytest.mark.parametrize(("text", "bonus"), [
    ("3D 3D 3D", 25), ("3D 3D 3D 3D", 75), ("AC AC AC", 50), ("AC AC AC AC", 75),
    ("3D 3S 3D", 0), ("AC AC AS AC", 0),
])
def test_suited_group_bonuses(text: str, bonus: int) -> None:
    assert score_meld(cards(text)).bonus == bonus


def test_a_suited_group_added_to_is_only_a_value_group() -> None:
    # "clubA-clubA-clubA" with a fourth clubA added later earns no bonus
    s = score_meld(cards("AC AC AC AC"), laid_whole=False)
    assert s.bonus == 0 and s.points == 6


def test_show_requirements_count_complete_sets_not_groups() -> None:
    table = [cards(PURE_HEARTS), cards(MIXED_CLUBS), cards("3D 3D 3D 3D")]
    got = check_show(table, 2, 1)
    assert got.met and (got.complete_sets, got.pure_sets) == (2, 1)
    short = check_show(table, 3, 0)
    assert not short.met and "at least 3" in short.reason
    no_pure = check_show([cards(MIXED_CLUBS)] * 5, 5, 1)
    assert not no_pure.met and "pure" in no_pure.reason


def test_a_show_scores_table_opponents_hands_and_20() -> None:
    us = TeamTable.of([cards(PURE_HEARTS)], cards("3S"))
    them = TeamTable.of([cards("5D 6D 7D")], cards("PJ KS"))
    got = score_deal([us, them], "show", 0, 1, 1)
    assert got[0] == Fraction(61, 2) + 5 + 20
    assert got[1] == 2 + Fraction(1, 2)  # 5D 6D 7D plus our unplayed 3S


def test_a_show_without_the_sets_is_a_wrong_show() -> None:
    us = TeamTable.of([cards("5D 6D 7D")], ())
    them = TeamTable.of([cards("8S 9S 10S")], cards("PJ"))
    assert score_deal([us, them], "show", 0, 1, 0) == (0, 3)
    assert score_deal([us, them], "wrong-show", 0, 1, 0) == (0, 3)


def test_a_ground_show_has_no_show_points() -> None:
    us = TeamTable.of([cards(PURE_HEARTS)], cards("KS"))
    them = TeamTable.of([cards("AS AS AS")], cards("3C"))
    assert score_deal([us, them], "ground-show", None, 5, 1) == (Fraction(61, 2) + Fraction(1, 2),
                                                                 Fraction(9, 2) + 50 + 1)


def test_target_and_draw() -> None:
    going = add_deal((Fraction(1400), Fraction(900)), (Fraction(99), Fraction(50)), 1500)
    assert not going.over
    won = add_deal(going.totals, (Fraction(1), Fraction(0)), 1500)
    assert won.over and won.winner == 0 and not won.draw
    both = add_deal((Fraction(1490), Fraction(1480)), (Fraction(30), Fraction(40)), 1500)
    assert both.over and both.draw and both.winner is None
