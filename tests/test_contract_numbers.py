"""Each contract game's definition against the numbers in its rule text (table-driven)."""

from __future__ import annotations

import pytest

from engine.errors import DeckError, GameSetupError
from engine.families.contract.variants import ContractVariant
from engine.variants import KNOWN_IDS, JudgeRequest, all_variants
from tests._contract_fixtures import TEXT_FACTS, ask, game

CONTRACT_IDS = sorted(TEXT_FACTS)


def test_every_contract_id_is_registered_once() -> None:
    ours = [v.id for v in all_variants() if isinstance(v, ContractVariant)]
    assert sorted(ours) == CONTRACT_IDS
    assert set(ours) <= set(KNOWN_IDS)


@pytest.mark.parametrize("variant", CONTRACT_IDS)
def test_players_decks_and_jokers_match_the_text(variant: str) -> None:
    (low, high), table, _ = TEXT_FACTS[variant]
    v = game(variant)
    assert (v.min_players, v.max_players) == (low, high)
    for players, (decks, jokers) in table.items():
        request = JudgeRequest("count", players=players)
        assert v.decks_for(request) == decks, players
        assert v.jokers_for(request) == jokers, players
    for outside in (low - 1, high + 1):
        with pytest.raises(GameSetupError, match=str(outside)):
            v.packs_for(outside)


@pytest.mark.parametrize("variant", CONTRACT_IDS)
def test_cards_dealt_and_number_of_deals_match_the_text(variant: str) -> None:
    _, _, cards = TEXT_FACTS[variant]
    v = game(variant)
    assert [d.cards for d in v.deal_list] == cards
    if cards:
        assert v.deals == len(cards)
        assert v.cards_dealt == (cards[0] if len(set(cards)) == 1 else f"{min(cards)}-{max(cards)}")
    else:
        assert v.deals == "until one player is left" and v.opening is not None


@pytest.mark.parametrize("variant", CONTRACT_IDS)
def test_describe_lists_the_game(variant: str) -> None:
    row = game(variant).describe()
    assert row["id"] == variant and row["family"] == "contract" and row["summary"]
    assert row["deals"] == game(variant).deals


@pytest.mark.parametrize("variant", CONTRACT_IDS)
def test_every_definition_explains_its_rulings(variant: str) -> None:
    assert game(variant).rulings, f"{variant} should state where its text was unclear"


def test_player_count_changes_the_deck() -> None:
    # Russian Rummy: 2 players play one deck with 2 jokers, 5 players three decks with 6.
    with pytest.raises(DeckError, match="7H"):
        ask("russian-rummy", "count", "7H 7H", players=2)
    assert ask("russian-rummy", "count", "7H 7H 7H", players=5).points == 15
    with pytest.raises(DeckError, match="PJ"):
        ask("russian-rummy", "count", "PJ PJ PJ", players=2)
    # Jo: jokers are one fewer than players
    with pytest.raises(DeckError, match="PJ"):
        ask("jo", "count", "PJ PJ PJ PJ", players=4)
    assert ask("jo", "count", "PJ PJ PJ PJ", players=5).points == 60


def test_decks_option_sets_decks_and_their_jokers() -> None:
    with pytest.raises(DeckError):
        ask("contract-rummy", "count", "7H 7H 7H")
    assert ask("contract-rummy", "count", "7H 7H 7H", decks=3).points == 21
    # three decks serve up to 8 players: 7 jokers
    assert ask("contract-rummy", "count", " ".join(["PJ"] * 7), decks=3).points == 105
    # two jokers go with every deck in Farmer's Rummy
    assert ask("farmers-rummy", "count", " ".join(["PJ"] * 8), decks=4).points == 400


def test_wrong_player_count_is_an_error_naming_it() -> None:
    with pytest.raises(GameSetupError, match="9"):
        ask("jo", "count", "PJ", players=9)
    with pytest.raises(GameSetupError, match="3"):
        ask("push", "count", "PJ", players=3)


def test_na_kalooki_deals_fewer_cards_to_six() -> None:
    v = game("na-kalooki")
    assert [v.cards_for(1, n) for n in range(2, 7)] == [13, 13, 13, 13, 11]
    assert game("shanghai").cards_for(3) == 11 and game("progressive-rummy").cards_for(4, 5) == 9


def test_jokers_follow_players_even_when_decks_are_given() -> None:
    v = game("contract-rummy")
    assert v.jokers_for(JudgeRequest("count", players=4, decks=3)) == 3
    assert game("russian-rummy").jokers_for(JudgeRequest("count", players=2, decks=2)) == 4
