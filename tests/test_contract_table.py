"""Table actions and scoring each contract game declares, checked against its text."""

from __future__ import annotations

import pytest

from tests._contract_fixtures import game

# (variant, claim name, penalty cards, limit in deal 1, tokens) — None where the game has no claim.
CLAIMS = [
    ("contract-rummy", "May I", 1, None, None),
    ("jo", "May I", 1, None, None),
    ("shanghai", "buy", 1, 3, None),
    ("sa-kaluki", "buy", 1, 4, None),
    ("caribbean-kalooki", "call", 1, 3, None),
    ("russian-rummy", "claim", 1, None, None),
    ("telefunken", "buy", 1, None, 7),
    ("farmers-rummy", "buy", 2, None, 10),
    ("onze", "take", 1, None, None),
    ("dummy-rummy", "cut-in", 3, 2, None),
]


@pytest.mark.parametrize(("variant", "name", "penalty", "limit", "tokens"), CLAIMS)
def test_out_of_turn_claims(variant: str, name: str, penalty: int, limit: int | None, tokens: int | None) -> None:
    claim = game(variant).table.claim
    assert claim is not None
    assert (claim.name, claim.penalty_cards, claim.limit_for(1), claim.tokens) == (name, penalty, limit, tokens)


def test_shanghai_allows_four_buys_in_the_last_deal() -> None:
    claim = game("shanghai").table.claim
    assert claim is not None
    assert [claim.limit_for(d) for d in range(1, 11)] == [3] * 9 + [4]


@pytest.mark.parametrize("variant", ["loba", "carioca", "kalooki-40", "push", "american-jokers"])
def test_games_without_out_of_turn_claims(variant: str) -> None:
    assert game(variant).table.claim is None


def test_claims_only_before_melding_and_refusals() -> None:
    assert game("telefunken").table.claim.before_melding_only  # type: ignore[union-attr]
    assert game("caribbean-kalooki").table.claim.refusable  # type: ignore[union-attr]


@pytest.mark.parametrize(("variant", "going_out"), [
    ("kalooki-40", "discard-required"), ("na-kalooki", "discard-or-meld"), ("farmers-rummy", "discard-required"),
    ("american-jokers", "discard-required"), ("dummy-rummy", "discard-required"), ("push", "discard-or-meld"),
    ("sa-kaluki", "discard-or-meld"),
])
def test_going_out(variant: str, going_out: str) -> None:
    assert game(variant).going_out(1) == going_out


def test_contract_rummy_last_deal_goes_out_without_a_discard() -> None:
    v = game("contract-rummy")
    assert v.going_out(7) == "no-discard" and v.contract_for(7).one_turn
    assert v.going_out(1) == "discard-or-meld"


@pytest.mark.parametrize(("variant", "when", "jokers_only", "set_cards", "run_wild"), [
    ("contract-twos-wild", "after-contract", True, 1, "fixed"),
    ("king-rummy", "at-once", False, 1, "fixed"),
    ("loba", "never", False, 1, "ends"),
    ("carioca", "never", False, 1, "anywhere"),
    ("telefunken", "after-contract", False, 2, "ends-once"),
    ("kalooki-40", "after-contract", False, 2, "fixed"),
    ("russian-rummy", "on-turn", False, 1, "fixed"),
])
def test_joker_replacement(variant: str, when: str, jokers_only: bool, set_cards: int, run_wild: str) -> None:
    swap = game(variant).table.swap
    assert (swap.when, swap.jokers_only, swap.set_cards, swap.run_wild) == (when, jokers_only, set_cards, run_wild)


def test_special_table_rules() -> None:
    assert game("push").table.pushing and game("push").scoring.partnerships
    assert not game("caribbean-kalooki").table.discard_wild
    assert game("caribbean-kalooki").table.draw_after_contract == "stock-only"
    assert game("dummy-rummy").table.new_melds == "contract-only"
    assert game("onze").table.new_melds == "contract-only"
    assert game("na-kalooki").table.new_melds == "one-per-turn"
    assert game("loba").table.lay_off == "next-turn"
    assert game("onze").table.swap.replay and game("kalooki-40").table.swap.replay


@pytest.mark.parametrize(("variant", "winner", "bent", "bonus", "out_at"), [
    ("contract-rummy", "lowest", False, 0, None),
    ("jo", "highest", False, 0, None),
    ("caribbean-kalooki", "lowest", True, 0, None),
    ("baby-kalooki", "lowest", True, 0, None),
    ("kalooki-40", "lowest", False, -40, 150),
    ("na-kalooki", "lowest", False, -40, 150),
])
def test_scoring(variant: str, winner: str, bent: bool, bonus: int, out_at: int | None) -> None:
    s = game(variant).scoring
    assert (s.winner, s.bent_table_doubles, s.one_turn_bonus, s.eliminate_at) == (winner, bent, bonus, out_at)
