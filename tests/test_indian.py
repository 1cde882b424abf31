"""Indian 13-card rummy: the rule texts' own examples, house options and the judge modes."""

from __future__ import annotations

import pytest

from engine.cards import Card
from engine.errors import DeckError, TablekitError
from engine.variants import JudgeRequest, find


def ask(mode: str, hand: str, wild: str | None = None, variant: str = "indian-points",
        decks: int | None = None, **options):
    v = find(variant)
    return v.judge(JudgeRequest(mode, groups=v.parse(hand), wild=Card.parse(wild) if wild else None,
                                decks=decks, options=options))


def test_losing_hand_counts_58() -> None:
    r = ask("count", "4H 5H 6H | 7C 8C 5D | 9D 9S 4C | KD QD 7S 9S", "5D")
    assert r.valid and r.points == 58
    assert [g.kind for g in r.groups] == ["pure-sequence", "sequence", "invalid", "invalid"]


def test_no_pure_sequence_counts_everything_capped_at_80() -> None:
    r = ask("count", "9S 9H 9C | 8D 9D 6D | 8S 10S JS | QH KH | KS KD", "6C")
    assert not r.valid and r.points == 80 and "112" in r.reason


def test_valid_declaration() -> None:
    r = ask("declare", "4H 5H 6H 7H | KC QC PJ | QD QS QC | 7S 7D 7C", "3S")
    assert r.valid and r.points == 0
    assert [g.kind for g in r.groups] == ["pure-sequence", "sequence", "set", "set"]


@pytest.mark.parametrize(
    ("hand", "why"),
    [("4H 5H PJ | KC QC PJ | QD QS QC | 7S 7D 7C 8C", "no pure sequence"),
     ("4H 5H 6H | KC KC PJ | KD KS KC KH | 7S 7D 7C", "not a meld"),
     ("4H 5H 6H | KC KH PJ | KD KS KC KH | 7S 7D 7D", "not a meld"),
     ("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D | KS KS KS", "only one sequence")],
)
def test_wrong_shows_score_80(hand: str, why: str) -> None:
    v = find("indian-points")
    r = v.judge(JudgeRequest("declare", groups=v.parse(hand), wild=Card.parse("3S"), decks=3))
    assert not r.valid and r.points == 80 and why in r.reason


def test_short_invalid_show_is_a_wrong_show() -> None:
    r = ask("declare", "4H 5H PJ | KC QC PJ | QD QS QC | 7S 7D 7C", "3S")
    assert not r.valid and r.points == 80


def test_show_with_the_wrong_number_of_cards_and_bad_melds_is_a_wrong_show() -> None:
    r = ask("declare", "4H 5H 6H | KC KC PJ | KD KS KC KH | 7S 7D 7C 7H", "3S", decks=3)
    assert not r.valid and r.points == 80
    assert "14 cards" in r.reason and "two kings of clubs" in r.reason


def test_wrong_number_of_cards_is_an_input_error() -> None:
    with pytest.raises(DeckError):
        ask("declare", "4H 5H 6H 7H | KC QC PJ | QD QS QC | 7S 7D 7C 7H", "3S")
    with pytest.raises(DeckError):
        ask("declare", "4H 5H 6H | 7S 8S 9S | QD QS QC", "3S")


def test_too_many_copies_for_two_decks() -> None:
    with pytest.raises(DeckError, match="7S"):
        ask("count", "7S 7S 7S | 4H 5H 6H")
    v = find("indian-points")
    r = v.judge(JudgeRequest("count", groups=v.parse("7S 7S 7S | 4H 5H 6H"), decks=3))
    assert r.points == 36  # one sequence only: every card counts


def test_examples_of_wild_jokers_from_the_text() -> None:
    # with 9s wild, 3H 9H 5H is a sequence: the 9 stands in for the 4
    assert ask("meld", "3H 9H 5H", "9C").groups[0].kind == "sequence"
    # with 8s wild, 2S 8H 4S 5S PJ is an impure sequence
    assert ask("meld", "2S 8H 4S 5S PJ", "8D").groups[0].kind == "sequence"
    # with jacks wild, KD KH KS JD is a set and 2S JH 4S 5S a sequence
    r = ask("meld", "KD KH KS JD | 2S JH 4S 5S", "JH")
    assert [g.kind for g in r.groups] == ["set", "sequence"]


def test_printed_joker_cut_makes_aces_wild() -> None:
    r = ask("meld", "AS 7H 8H", "PJ")
    assert r.groups[0].kind == "sequence"


def test_wild_card_in_its_own_place_keeps_a_sequence_pure_unless_house_rule() -> None:
    assert ask("meld", "4D 5D 6D", "5S").groups[0].kind == "pure-sequence"
    assert ask("meld", "4D 5D 6D", "5S", wild_in_place_pure=False).groups[0].kind == "sequence"


def test_wrap_is_a_house_option() -> None:
    assert ask("meld", "KH AH 2H").groups[0].kind == "invalid"
    assert "K-A-2" in ask("meld", "KH AH 2H").groups[0].reason
    assert ask("meld", "KH AH 2H", wrap=True).groups[0].kind == "pure-sequence"


def test_joker_only_melds_are_a_house_option() -> None:
    # 7C and 7H are both wild here: with no natural card the group is no meld by default
    r = ask("meld", "PJ PJ 7C", "7H", wild_in_place_pure=False)
    assert r.groups[0].kind in ("set", "sequence")  # 7C may stand as itself
    assert not ask("meld", "PJ PJ PJ", decks=3).valid
    assert ask("meld", "PJ PJ PJ", decks=3, joker_only_melds=True).valid


def test_sets_never_hold_five() -> None:
    r = ask("meld", "QD QS QC QH PJ")
    assert not r.valid and "at most 4" in r.groups[0].reason


def test_best_finds_the_lowest_count() -> None:
    r = ask("best", "4H 5H 6H 7C 8C 5D 9D 9S 4C KD QD 7S 9S", "5D")
    assert r.valid and r.points <= 58
    shown = [c for g in r.groups for c in g.cards]
    assert len(shown) == 13


def test_unsupported_mode_is_an_error() -> None:
    with pytest.raises(TablekitError, match="contract"):
        ask("contract", "4H 5H 6H")


@pytest.mark.parametrize("vid", ["indian-points", "indian-pool-101", "indian-pool-201", "indian-deals"])
def test_every_indian_variant_is_registered(vid: str) -> None:
    v = find(vid)
    assert v.cards_dealt == 13 and v.decks == 2 and v.jokers == 2


def test_a_show_needs_three_groups() -> None:
    r = ask("declare", "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D | JS QS KS", "5C")
    assert not r.valid and r.points == 80 and "at least 3" in r.reason
    assert ask("declare", "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D | JS QS KS", "5C", min_show_groups=2).valid
    assert ask("declare", "AD 2D 3D 4D 5D 6D 7D | 8D 9D 10D | JS QS KS", "5C").valid
