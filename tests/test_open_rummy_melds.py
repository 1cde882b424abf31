"""Open Rummy melds, each rule with the rule text's own example (Marwari Open Rummy)."""

from __future__ import annotations

import pytest

from engine.families.open_rummy.melds import classify_open, sequence_readings
from tests._open_fixtures import cards


@pytest.mark.parametrize("text", ["8H 9H 10H", "3C 2D 5C", "2H 8S PJ 10S JS"])
def test_the_texts_sequences_are_valid(text: str) -> None:
    # the three example sequences: hearts 8-9-10, clubs 3-(two)-5, a run with a two and a joker
    assert classify_open(cards(text)).valid


def test_table_order_fixes_what_the_sliding_joker_stands_for() -> None:
    # "2H 8S PJ 10S JS": the two stands for the seven of spades, not the queen
    (reading,), _ = sequence_readings(cards("2H 8S PJ 10S JS"))
    assert reading.positions == (7, 8, 9, 10, 11)
    assert reading.suit == "S" and reading.jokers == 2


def test_a_sequence_needs_a_natural_card_and_at_most_three_jokers() -> None:
    assert classify_open(cards("KS PJ 2H 2C")).valid
    too_many = classify_open(cards("5S PJ 2H 2C PJ"))
    assert not too_many.valid and "at most 3" in too_many.reason
    only_jokers = classify_open(cards("PJ 2H 2C"))
    assert not only_jokers.valid and "natural" in only_jokers.reason


def test_an_ace_is_never_below_the_three() -> None:
    assert classify_open(cards("QD KD AD")).valid
    low = classify_open(cards("AD 2D 3D"))
    assert not low.valid
    assert not classify_open(cards("2S 3S 4S")).valid  # the two would stand below the three


def test_a_sequence_is_one_suit_and_consecutive_in_the_order_laid() -> None:
    assert not classify_open(cards("5S 6H 7S")).valid
    shuffled = classify_open(cards("5S 7S 6S"))
    assert not shuffled.valid and "order" in shuffled.reason


def test_complete_sets_pure_and_mixed() -> None:
    pure = classify_open(cards("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"))
    assert pure.kind == "pure-complete-set"
    mixed = classify_open(cards("3H 4H 5H 6H 7H 8H 2C 10H JH QH KH AH"))
    assert mixed.kind == "complete-set"


def test_a_complete_set_grows_past_twelve_only_by_a_slid_two() -> None:
    slid = classify_open(cards("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2C"))
    assert slid.kind == "complete-set"  # ruling: the slid two keeps it mixed
    assert not classify_open(cards("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH PJ")).valid
    assert not classify_open(cards("4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2C")).valid  # not complete: the two runs off


def test_groups_of_threes_or_aces_only() -> None:
    assert classify_open(cards("3H 3S 3C")).kind == "set"  # "heart3-spade3-club3", a value group
    assert classify_open(cards("AD AD AS AS")).kind == "set"  # "diamondA-diamondA-spadeA-spadeA"
    sevens = classify_open(cards("7H 7S 7C"))
    assert not sevens.valid and "Threes and Aces" in sevens.reason


def test_suited_groups() -> None:
    assert classify_open(cards("3D 3D 3D 3D")).kind == "suited-group"  # "diamond3 x4"
    assert classify_open(cards("AC AC AC")).kind == "suited-group"  # "clubA x3"


def test_no_jokers_in_groups() -> None:
    got = classify_open(cards("AC AC 2C"))
    assert not got.valid and "no jokers" in got.reason
    assert not classify_open(cards("3C 3C PJ")).valid


def test_high_to_low_is_read_when_the_naturals_show_it() -> None:
    (reading,), _ = sequence_readings(cards("KS PJ JS"))
    assert reading.positions == (13, 12, 11)
    readings, _ = sequence_readings(cards("5S PJ PJ"))
    assert [r.positions for r in readings] == [(5, 6, 7), (5, 4, 3)]
