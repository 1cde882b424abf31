"""The meld grammar: every option of sequences, groups and wild-card rules, and its reasons."""

from __future__ import annotations

import pytest

from engine.cards import Card
from engine.melds import GroupRule, MeldRules, SequenceRule, WildRule, classify, printed_jokers_wild
from engine.notation import parse_cards, parse_tiles


def judge(text: str, rules: MeldRules | None = None, wild_rank: int | None = None):
    def is_wild(c):  # printed jokers plus, optionally, one wild rank
        return c.is_joker or (wild_rank is not None and isinstance(c, Card) and c.rank == wild_rank)

    return classify(parse_cards(text), rules or MeldRules(), is_wild)


@pytest.mark.parametrize(
    ("text", "kind"),
    [("4H 5H 6H", "pure-sequence"), ("6H 4H 5H", "pure-sequence"), ("AH 2H 3H", "pure-sequence"),
     ("QH KH AH", "pure-sequence"), ("4H PJ 6H", "sequence"), ("QD QS QC", "set"),
     ("KD KH KC PJ", "set"), ("4H 5D 6H", "invalid"), ("KH AH 2H", "invalid"), ("7H 7H 7S", "invalid")],
)
def test_default_rules(text: str, kind: str) -> None:
    assert judge(text).kind == kind


def test_reasons_speak_the_players_language() -> None:
    assert "one suit" in judge("4H 5D 6H").reason
    assert "K-A-2" in judge("KH AH 2H").reason
    assert "two sevens of hearts" in judge("7H 7H 7S").reason
    assert "at least 3" in judge("4H 5H").reason
    assert "natural" in judge("PJ PJ PJ").reason
    assert "at most 4" in judge("3S 3H 3D 3C 3S").reason


def test_minimum_length_and_exact_length() -> None:
    four = MeldRules(sequence=SequenceRule(min_len=4))
    assert judge("4H 5H 6H", four).kind == "set" or not judge("4H 5H 6H", four).valid
    assert judge("4H 5H 6H 7H", four).kind == "pure-sequence"
    exact = MeldRules(sequence=SequenceRule(exact_len=3), group=None)
    assert not judge("4H 5H 6H 7H", exact).valid
    assert judge("4H 5H 6H", exact).valid


def test_ace_rules() -> None:
    low = MeldRules(sequence=SequenceRule(ace="low"))
    high = MeldRules(sequence=SequenceRule(ace="high"))
    assert judge("AH 2H 3H", low).valid and not judge("QH KH AH", low).valid
    assert judge("QH KH AH", high).valid and not judge("AH 2H 3H", high).valid
    both = MeldRules(sequence=SequenceRule(ace="both"))
    assert judge("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", both).valid
    wrap = MeldRules(sequence=SequenceRule(wrap=True))
    assert judge("KH AH 2H", wrap).valid
    assert judge("QH KH AH 2H PJ", wrap).valid


def test_any_suit_sequences_and_lowest_rank() -> None:
    mixed = MeldRules(sequence=SequenceRule(same_suit=False))
    assert judge("4H 5D 6S", mixed).kind == "pure-sequence"
    no_low_ace = MeldRules(sequence=SequenceRule(lowest=3))
    assert not judge("AH 2H 3H", no_low_ace).valid
    assert judge("QH KH AH", no_low_ace).valid
    assert "cannot be part" in judge("2S 3S 4S", no_low_ace).reason


def test_group_rules() -> None:
    any_suits = MeldRules(group=GroupRule(distinct_suits=False, max_size=None))
    assert judge("7H 7H 7S 7S 7C", any_suits).kind == "set"
    suited = MeldRules(group=GroupRule(same_suit=True, distinct_suits=False, max_size=None))
    assert judge("3D 3D 3D", suited).valid and not judge("3D 3H 3D", suited).valid
    threes = MeldRules(group=GroupRule(ranks=frozenset({3, 1}), distinct_suits=False, max_size=None))
    ruling = judge("7H 7S 7C", threes)
    assert not ruling.valid and "sevens" in ruling.reason and "threes" in ruling.reason


def test_wild_limits() -> None:
    one = MeldRules(wild=WildRule(max_per_meld=1))
    assert judge("7H 7S PJ", one).valid
    assert "at most 1" in judge("7H PJ PJ", one).reason
    two_naturals = MeldRules(wild=WildRule(min_natural=2))
    assert not judge("7H PJ PJ", two_naturals).valid
    ratio = MeldRules(wild=WildRule(max_ratio=0.5))
    assert judge("4H 5H PJ", ratio).valid and not judge("4H PJ PJ 7H", ratio).valid
    apart = MeldRules(wild=WildRule(no_adjacent=True))
    assert judge("4H PJ 6H PJ 8H", apart).valid
    assert not judge("4H PJ PJ 7H", apart).valid
    none = MeldRules(wild=WildRule(allowed=False))
    assert "no wild" in judge("4H 5H PJ", none).reason


def test_wild_card_standing_as_itself() -> None:
    assert judge("4D 5D 6D", wild_rank=5).kind == "pure-sequence"
    never = MeldRules(wild=WildRule(natural_if_in_place=False))
    assert judge("4D 5D 6D", never, wild_rank=5).kind == "sequence"
    # three wild fives are still a set of fives
    assert judge("5D 5S 5H", wild_rank=5).kind == "set"


def test_ordered_sequences_fix_what_a_joker_stands_for() -> None:
    ordered = MeldRules(sequence=SequenceRule(ordered=True))
    ruling = judge("4H PJ 6H", ordered)
    assert ruling.valid and ruling.stands_for[1] == (5, "H")
    assert not judge("4H 6H PJ", ordered).valid
    assert judge("6H 5H 4H", ordered).valid  # laid high to low


def test_tiles_use_the_same_grammar() -> None:
    rules = MeldRules(sequence=SequenceRule(ace="either"), wild=WildRule(max_ratio=0.5))
    [run], [group], [bad] = parse_tiles("R12 R13 R1"), parse_tiles("B7 Y7 K7 JY"), parse_tiles("R13 R1 R2")
    assert classify(run, rules, printed_jokers_wild).valid
    assert classify(group, rules, printed_jokers_wild).kind == "set"
    assert not classify(bad, rules, printed_jokers_wild).valid
