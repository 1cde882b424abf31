"""Every contract game's contracts, wild limits and card values, with cases taken from its text."""

from __future__ import annotations

import pytest

from tests._contract_fixtures import TEXT_FACTS, ask, contract, count, game

# (variant, deal, hand, valid) — one or more cases per deal rule a text states.
CONTRACT_CASES = [
    # standard Contract Rummy: contracts, groups of any suits, four-card suited sequences
    ("contract-rummy", 1, "7H 7H 7D | KS KC PJ", True),
    ("contract-rummy", 1, "7H 7S 7D 7C | KS KC KD", True),
    ("contract-rummy", 1, "7H 7S | KS KC KD", False),
    ("contract-rummy", 2, "7H 7S 7D | 5C 6C 7C 8C", True),
    ("contract-rummy", 2, "7H 7S 7D | 5C 6C 7C", False),
    ("contract-rummy", 2, "7H 7S 7D | 5C 6D 7C 8C", False),
    ("contract-rummy", 3, "AS 2S 3S 4S | JD QD KD AD", True),
    ("contract-rummy", 3, "QS KS AS 2S | JD QD KD AD", False),
    ("contract-rummy", 4, "7H 7S 7D | 8H 8S 8D | 9C 9D PJ", True),
    ("contract-rummy", 5, "7H 7S 7D | 8H 8S 8D | 9C 10C JC QC", True),
    ("contract-rummy", 6, "7H 7S 7D | 2C 3C 4C 5C | 9D 10D JD PJ", True),
    ("contract-rummy", 7, "2C 3C 4C 5C | 2D 3D 4D 5D | 9H 10H JH QH", True),
    ("contract-rummy", 7, "2C 3C 4C 5C | 2D 3D 4D 5D", False),
    ("contract-rummy", 1, "7H 7S 7D | 8H 8S 8D | 9C 9D 9S", False),  # exactly the contract
    # Twos Wild: a two fills in like a joker
    ("contract-twos-wild", 2, "7H 7S 2D | 5C 6C 2C 8C", True),
    ("contract-rummy", 2, "7H 7S 2D | 5C 6C 2C 8C", False),
    # Jo and Progressive keep the standard contracts
    ("jo", 3, "AS 2S 3S 4S | JD QD KD AD", True),
    ("progressive-rummy", 1, "7H 7S 7D | KS KC KD", True),
    ("progressive-rummy", 6, "7H 7S 7D | 5C 6C 7C 8C", False),
    # King Rummy: four deals; deal 4 takes exactly ten cards
    ("king-rummy", 1, "7H 7S 7D | 5C 6C 7C 8C", True),
    ("king-rummy", 2, "7H 7S 7D | 8H 8S 8D | 9C 9D 9S", True),
    ("king-rummy", 3, "2C 3C 4C 5C | 9H 10H JH QH", True),
    ("king-rummy", 4, "7H 7S 7D | 8H 8S 8D | 2C 3C 4C 5C", True),
    ("king-rummy", 4, "7H 7S 7D | 8H 8S 8D | 2C 3C 4C 5C 6C", False),
    ("king-rummy", 1, "7H 7S 7D 7C | 5C 6C 7C 8C 9C", True),  # extra cards in the contract melds
    # Shanghai: the wild-card chart and aces high only
    ("shanghai", 1, "7H 7S 2D | KS KC PJ", True),
    ("shanghai", 1, "7H 2S 2D | KS KC KD", False),
    ("shanghai", 2, "7H 7S 2D | 5C 6C 7C 8C", True),
    ("shanghai", 2, "7H 2S 2D | 5C 6C 7C 8C", False),
    ("shanghai", 3, "7H 7S 7D PJ | 8H 8S 8D 8C", True),
    ("shanghai", 3, "7H 7S PJ PJ | 8H 8S 8D 8C", False),
    ("shanghai", 3, "7H 7S 7D | 8H 8S 8D 8C", False),
    ("shanghai", 4, "7H 7S 7D | 5C PJ 7C 2D 9C", True),
    ("shanghai", 4, "7H 7S 7D | 5C PJ 2H 2D 9C", False),
    ("shanghai", 5, "7H 7S 7D | 8H 8S 2D | 9C 9D PJ", True),
    ("shanghai", 5, "7H 7S 7D | 8H 8S 8D | 9C PJ PJ", False),
    ("shanghai", 6, "7H 7S 7D | 3C 4C PJ 6C 2D 8C PJ", True),
    ("shanghai", 6, "7H 7S 7D | 3C PJ PJ 6C 2D 8C PJ", False),
    ("shanghai", 8, "7H 7S 7D | 3C PJ 5C PJ 7C 2D 9C PJ JC QC", True),
    ("shanghai", 8, "7H 7S 7D | 3C PJ 5C PJ 7C 2D 9C PJ 2S QC", False),
    ("shanghai", 9, "7H 7S 7D | 8H 8S 8D | 9H 9S 9D | 10C JC QC KC AC", True),
    ("shanghai", 10, "2C 3C 4C 5C 6C | 2D 3D 4D 5D 6D | 9H 10H JH QH KH", True),
    ("shanghai", 7, "AC 2C 3C 4C | 5D 6D 7D 8D | 9H 10H JH QH", False),  # aces only high
    ("shanghai", 7, "JC QC KC AC | 5D 6D 7D 8D | 9H 10H JH QH", True),
    # Loba: trios of exactly three, escaleras of exactly four, one joker per meld
    ("loba", 1, "5D 5H 5C | QS QC QS", True),
    ("loba", 1, "5D 5H PJ | QS QC PJ", True),
    ("loba", 1, "5D PJ PJ | QS QC QS", False),
    ("loba", 1, "5D 5H 5C 5S | QS QC QS", False),
    ("loba", 2, "5D 5H 5C | 8D 9D 10D JD", True),
    ("loba", 2, "5D 5H 5C | 8D 9D 10D JD QD", False),
    ("loba", 3, "AC 2C 3C 4C | JH QH KH AH", True),
    ("loba", 3, "9C 10C JC PJ | JH QH KH AH", True),
    ("loba", 4, "5D 5H 5C | 6D 6H 6C | 7S 7S 7H", True),
    ("loba", 5, "5D 5H 5C | 6D 6H 6C | 8D 9D 10D JD", True),
    ("loba", 6, "5D 5H 5C | 8D 9D 10D JD | 2S 3S 4S 5S", True),
    # Carioca: Loba plus three escaleras in deal 7
    ("carioca", 1, "5D 5H PJ | QS QC QS", True),
    ("carioca", 2, "5D 5H 5C | 8D 9D 10D PJ", True),
    ("carioca", 3, "AC 2C 3C 4C | JH QH KH AH", True),
    ("carioca", 4, "5D 5H 5C | 6D 6H 6C | 7S 7S 7H", True),
    ("carioca", 5, "5D 5H 5C | 6D 6H 6C | 8D 9D 10D JD", True),
    ("carioca", 6, "5D 5H 5C | 8D 9D 10D JD | 2S 3S 4S 5S", True),
    ("carioca", 6, "5D 5H 5C | 8D 9D 10D JD | 2S 3S 4S 5S 6S", False),
    ("carioca", 7, "AC 2C 3C 4C | JH QH KH AH | 5S 6S 7S 8S", True),
    ("carioca", 7, "AC 2C 3C 4C | JH QH KH AH", False),
    # South African Kaluki: Blitz, then exactly the requirement, one joker in the first meld
    ("sa-kaluki", 1, "7H 7S 7D | 5C 6C 7C | JD QD KD AD", True),
    ("sa-kaluki", 1, "7H 7S 7D | 5C 6C 7C", False),
    ("sa-kaluki", 1, "7H 7S 7D | 5C 6C 7C | JD QD KD 2D", False),
    ("sa-kaluki", 2, "7H 7S 7D", True),
    ("sa-kaluki", 2, "7H 7S 7D 7C", False),
    ("sa-kaluki", 2, "7H 7H 7D", False),  # a group's suits differ
    ("sa-kaluki", 2, "7H 7S 7D | 8H 8S 8D", False),
    ("sa-kaluki", 3, "QC KC AC", True),
    ("sa-kaluki", 3, "AC 2C 3C", True),
    ("sa-kaluki", 4, "5C 6C PJ | 7H 7S 7D", True),
    ("sa-kaluki", 4, "5C 6C PJ | 7H 7S PJ", False),
    ("sa-kaluki", 5, "5C 6C 7C 8C", True),
    ("sa-kaluki", 5, "5C 6C 7C 8C 9C", False),
    ("sa-kaluki", 6, "7H 7S 7D 7C", True),
    ("sa-kaluki", 7, "5C 6C 7C 8C 9C", True),
    # Caribbean Kalooki: threes need two natural cards, fours no joker beside a joker
    ("caribbean-kalooki", 1, "7H 7S 7D | 8H 8S PJ | 9C 9D 9S", True),
    ("caribbean-kalooki", 1, "7H 7S 7D | 8H PJ PJ | 9C 9D 9S", False),
    ("caribbean-kalooki", 1, "7H 7S 7D | 7H 7C PJ | 9C 9D 9S", False),  # two threes of sevens
    ("caribbean-kalooki", 2, "7H 7S 7D | 8H 8S 8D | 9C PJ JC PJ", True),
    ("caribbean-kalooki", 2, "7H 7S 7D | 8H 8S 8D | 9C PJ PJ QC", False),
    # a joker stands for the card its place says: two laid side by side at an end are
    # sequential however else they could have stood
    ("caribbean-kalooki", 2, "7H 7S 7D | 8H 8S 8D | PJ PJ 5S 6S", False),
    ("caribbean-kalooki", 2, "7H 7S 7D | 8H 8S 8D | 5S 6S PJ PJ", False),
    ("caribbean-kalooki", 2, "7H 7S 7D | 8H 8S 8D | PJ 5S 6S PJ", True),
    ("caribbean-kalooki", 3, "7H 7S 7D | 2C 3C 4C 5C | JC QC KC AC", False),  # two fours of clubs
    ("caribbean-kalooki", 3, "7H 7S 7D | 2C 3C 4C 5C | JD QD KD AD", True),
    ("caribbean-kalooki", 4, "2C 3C 4C 5C | 2D 3D 4D 5D | 9H 10H JH QH", True),
    ("caribbean-kalooki", 1, "7H 7S 7D | 8H 8S 8D | 9C 9D 9S | 2C 3C 4C 5C", True),  # more melds may follow
    ("super-kalooki", 5, "7H 7S 7D | 8H 8S 8D | 9C 9D 9S | 10C 10D 10S", True),
    ("super-kalooki", 7, "7H 7S 7D | 8H 8S 8D | 2C 3C 4C 5C | 2D 3D 4D 5D", True),
    ("super-kalooki", 9, "2H 3H 4H 5H | 2S 3S 4S 5S | 2D 3D 4D 5D | 2C 3C 4C 5C", True),
    ("baby-kalooki", 1, "7H 7S 7D | 8H 8S 8D", True),
    ("baby-kalooki", 2, "7H 7S 7D | 2C 3C 4C 5C", True),
    ("baby-kalooki", 3, "2C 3C 4C 5C | 2D 3D 4D 5D", True),
    ("baby-kalooki", 3, "2C 3C 4C 5C | 7D 7S 7H", False),
    # Russian Rummy: aces low only; more melds may go down with the contract
    ("russian-rummy", 1, "7H 7S 7D | 8H 8H PJ", True),
    ("russian-rummy", 2, "AC 2C 3C 4C", True),
    ("russian-rummy", 2, "JC QC KC AC", False),
    ("russian-rummy", 2, "5C 6C 7C", False),
    ("russian-rummy", 3, "7H 7S 7D | 8H 8S 8D | 2C 3C 4C 5C", True),
    ("russian-rummy", 4, "7H 7S 7D | 8H 8S 8D | 9C 9D 9S", True),
    ("russian-rummy", 5, "7H 7S 7D | 2C 3C 4C 5C | 9D 10D JD QD", True),
    # Telefunken: a limpio first, then exact sets, one joker per meld
    ("telefunken", 1, "7H 7S 7D", True),
    ("telefunken", 1, "7H 7S 7H", False),
    ("telefunken", 1, "7H 7S PJ", False),
    ("telefunken", 2, "7H 7H PJ | KS KC KD", True),
    ("telefunken", 2, "7H 7H 7D 7S | KS KC KD", False),
    ("telefunken", 3, "7H 7S 7D PJ", True),
    ("telefunken", 3, "7H 7S PJ PJ", False),
    ("telefunken", 4, "7H 7S 7D 7C | 9H 9S 9D PJ", True),
    ("telefunken", 5, "7H 7S 7D 7C 7H", True),
    ("telefunken", 6, "7H 7S 7D 7C 7H | 9H 9S 9D 9C PJ", True),
    # "on that turn or subsequent turns, he may make additional new sets and sequidillas"
    ("telefunken", 1, "5S 5H 5D | 6S 6H 6D", True),
    ("telefunken", 2, "5S 5H 5D | 6S 6H 6D | 7C 8C 9C", True),
    ("telefunken", 1, "5S 5H PJ | 6S 7S 8S", False),  # no limpio among them
    ("farmers-rummy", 3, "5S 5H 5D 5C | 9S 9H 9D", True),
    ("telefunken", 7, "7H 7S 7D | 2C 3C 4C 5C 6C 7C 8C 9C", True),
    ("telefunken", 7, "7H 7S 7D | 2C 3C 4C 5C 6C 7C", False),
    ("telefunken", 7, "7H 7S 7D | 2C 3C 4C 5C 6C 7C 8C", True),  # the contract itself: trio + 7
    # Farmer's Rummy: sets only, no wild in deal 1, more naturals than wilds
    ("farmers-rummy", 1, "7H 7S 7D", True),
    ("farmers-rummy", 1, "7H 7S 2D", False),
    ("farmers-rummy", 2, "7H 7S 2D | KS KC PJ", True),
    ("farmers-rummy", 3, "7H 7S 2D PJ", False),
    ("farmers-rummy", 3, "7H 7S 7D PJ", True),
    ("farmers-rummy", 4, "7H 7S 7D 2D | 9H 9S 9D 9C", True),
    ("farmers-rummy", 4, "7H 7S 7D 2D | 9H 9S 9D 9C 9H", False),
    ("farmers-rummy", 5, "7H 7S 7D 2D PJ", True),
    ("farmers-rummy", 6, "7H 7S 7D 7C 2D | 9H 9S 9D 9C 9H", True),
    ("farmers-rummy", 6, "7H 7S 7D 7C 2D | 9H 9S 9D 9C", False),
    ("farmers-rummy", 7, "7H 7S 7D 7C 2D PJ", True),
    ("farmers-rummy", 7, "7H 7S 7D 2C 2D PJ", False),
    ("farmers-rummy", 8, "7H 7S 7D 7C 7H 7S | 9H 9S 9D 9C 2C PJ", True),
    # Push: sets of 3-4 in distinct suits; runs of 3 are melds
    ("push", 1, "7H 7S 2D | KS KC PJ", True),
    ("push", 1, "7H 7H 7D | KS KC KD", False),
    ("push", 2, "7H 7S 7D | 5C 6C 7C 8C", True),
    ("push", 3, "5C 6C 7C 8C | AD 2D 3D 4D", True),
    ("push", 4, "7H 7S 7D | 8H 8S 8D | 9C 9D 9S", True),
    ("push", 5, "5C 6C 7C 8C 9C | 10D JD QD KD AD", True),
    ("push", 5, "5C 6C 7C 8C | 10D JD QD KD AD", False),
    # Onze: jokers and red aces wild, never more wilds than naturals, exactly the contract
    ("onze", 1, "7H 7S AH | KS KC PJ", True),
    ("onze", 1, "7H AD AH | KS KC PJ", False),
    ("onze", 2, "7H 7S 7D | 5C 6C AD PJ", True),
    ("onze", 2, "7H 7S 7D | 5C AD PJ AH", False),
    ("onze", 2, "7H 7S 7D | 5C 6C 7C 8C | 9D 9S 9C", False),
    ("onze", 3, "AC 2C 3C 4C | 9D 10D JD QD", True),
    ("onze", 3, "JC QC KC AC | 9D 10D JD QD", False),
    ("onze", 4, "7H 7S 7D | 8H 8S 8D | 9C 9D AH", True),
    ("onze", 5, "7H 7S 7D | 8H 8S 8D | 9C 10C JC QC", True),
    ("onze", 6, "AC 2C 3C 4C | 9D 10D JD QD | 7H 7S 7D", True),
    ("onze", 6, "AC 2C 3C 4C | 9D 10D JD QD", False),
    ("onze", 7, "AC 2C 3C 4C | 9D 10D JD QD | 5S 6S 7S 8S", True),
    # American Jokers
    ("american-jokers", 1, "7H 7S PJ", True),
    ("american-jokers", 1, "7H 7H 7S", False),
    ("american-jokers", 2, "QS KS AS", True),
    ("american-jokers", 2, "AS 2S 3S", False),
    ("american-jokers", 3, "JS QS KS AS", True),
    ("american-jokers", 4, "10S JS QS KS AS", True),
    ("american-jokers", 5, "9S 10S JS QS KS AS", True),
    ("american-jokers", 5, "9S 10S JS QS KS", False),
    ("american-jokers", 6, "10S JS QS KS | 5C 5D 5H | 2C 3C 4C | 8H 8D 8S", True),
    ("american-jokers", 6, "10S JS QS KS | 5C 5D 5H | 2C 3C 4C | 8H 8D", False),
    ("american-jokers-single", 6, "10S JS QS KS | 5C 5D 5H", True),
    ("american-jokers-alt", 1, "5C 5D 5H", True),
    ("american-jokers-alt", 1, "5C 6C 7C", True),
    ("american-jokers-alt", 1, "5C 5D 5H 5S", False),
    ("american-jokers-alt", 2, "10S JS QS | 5C 5D 5H", True),
    ("american-jokers-alt", 2, "10S JS QS", False),
    ("american-jokers-alt", 5, "10S JS QS KS | 5C 5D 5H | 2C 3C 4C | 8H 8D 8S", True),
    # Dummy Rummy: twelve goals; runs need not share a suit
    ("dummy-rummy", 1, "7H 7S 7D | KS KC PJ", True),
    ("dummy-rummy", 2, "7H 7S 7D | 5C 6D 7H 8S", True),
    ("dummy-rummy", 3, "7H 7S 7D 7C | KS KC 2D PJ", True),
    ("dummy-rummy", 4, "5C 6D 7H 8S | 9S 10H JD QC", True),
    ("dummy-rummy", 5, "7H 7S 7D 7C | 5C 6D 7H 8S", True),
    ("dummy-rummy", 6, "7H 7S 7D | KS KC KD | 5C 6D 7H 8S", True),
    ("dummy-rummy", 7, "7H 7S 7D | 3C 4D 5H 6S 7C 8D 9H", True),
    ("dummy-rummy", 8, "7H 7S 7D | 8H 8S 8D | 9C 9D 9S", True),
    ("dummy-rummy", 9, "7H 7S 7D 7C 7H | 9H 9S 9D 9C PJ", True),
    ("dummy-rummy", 10, "5C 6D 7H 8S 9S | 9S 10H JD QC KC", True),
    ("dummy-rummy", 11, "7H 7S 7D 7C 7H 7S 7D 7C", True),
    ("dummy-rummy", 11, "7H 7S 7D 7C 7H 7S 7D", False),
    ("dummy-rummy", 12, "AS 2H 3D 4C 5S 6H 7D 8C 9S 10H", True),
    ("dummy-rummy", 12, "KS AH 2D 3C 4S 5H 6D 7C 8S 9H", False),  # an ace at an end only
    ("dummy-rummy", 1, "7H 7S 7D | KS KC PJ | 9C 9D 9S", False),  # no melds beyond the goal
]


@pytest.mark.parametrize(("variant", "deal", "hand", "valid"), CONTRACT_CASES)
def test_contract_cases_from_the_texts(variant: str, deal: int, hand: str, valid: bool) -> None:
    ruling = contract(variant, deal, hand)
    assert ruling.valid is valid, ruling.reason
    if not valid:
        assert ruling.reason.startswith("does not meet") and ruling.violations


@pytest.mark.parametrize("variant", sorted({c[0] for c in CONTRACT_CASES}))
def test_every_deal_of_every_game_has_a_case(variant: str) -> None:
    dealt = {c[1] for c in CONTRACT_CASES if c[0] == variant}
    wanted = set(range(1, len(game(variant).deal_list) + 1))
    if variant not in ("jo", "progressive-rummy", "contract-twos-wild", "super-kalooki",
                       "american-jokers-single", "american-jokers-alt"):
        assert wanted <= dealt, f"{variant}: deals without a case: {sorted(wanted - dealt)}"


# --- first-meld points thresholds ---------------------------------------------------------

THRESHOLD_CASES = [
    ("kalooki-40", "10S JS QS | AH AD AC", True, 63),
    ("kalooki-40", "PJ 10S JS", False, 29),  # the joker stands for the nine, as laid
    ("kalooki-40", "10S JS PJ | 4C 4D 4H", True, 42),
    ("kalooki-40", "KS KH KD KC", True, 40),
    ("kalooki-40", "QS KS AS", False, 31),
    ("kalooki-40", "AS 2S 3S | KH KD KC", False, 30),  # aces are high only
    ("kalooki-40", "KH KH KD", False, 0),  # a set's suits differ
    ("kalooki-40", "KH KS KD KC PJ", False, 0),  # at most four in a set
    ("na-kalooki", "AS 2S 3S | KH KD KC | 5H 5D 5C", True, 65),
    ("na-kalooki", "AS 2S 3S | KH KD KC", False, 50),
    ("na-kalooki", "QH KH AH | PJ KD KC", True, 65),
    ("american-jokers-alt", "10S JS PJ | 5C 5D 5H", True, 45),
]


@pytest.mark.parametrize(("variant", "hand", "valid", "points"), THRESHOLD_CASES)
def test_first_meld_thresholds(variant: str, hand: str, valid: bool, points: int) -> None:
    deal = 2 if variant == "american-jokers-alt" else None
    ruling = contract(variant, deal, hand)
    assert (ruling.valid, ruling.points) == (valid, points), ruling.reason


def test_threshold_games_take_any_deal_number() -> None:
    assert contract("kalooki-40", 17, "10S JS QS | AH AD AC").valid


# --- penalty tables -----------------------------------------------------------------------

COUNT_CASES = [
    ("contract-rummy", "AS KS QS JS 10S 9S 2S PJ", 15 + 40 + 9 + 2 + 15),
    ("contract-twos-wild", "2S 3S PJ", 15 + 3 + 15),
    ("jo", "AS KS 5D PJ", 15 + 10 + 5 + 15),
    ("progressive-rummy", "AS PJ 9C", 15 + 25 + 9),
    ("king-rummy", "PJ AS KS 10D 7C", 25 + 15 + 10 + 10 + 7),
    ("shanghai", "PJ 2S AS KS 9D", 20 + 20 + 15 + 10 + 9),
    ("loba", "JS QS KS AS PJ 5D", 80),
    ("carioca", "AS KS QD JC 9H PJ", 20 + 30 + 9 + 50),
    ("sa-kaluki", "AS KS 9D PJ", 11 + 10 + 9 + 25),
    ("caribbean-kalooki", "AH AD AS AC KS 9D PJ", 1 + 1 + 15 + 15 + 10 + 9 + 50),
    ("super-kalooki", "AH PJ", 51),
    ("baby-kalooki", "AC PJ", 65),
    ("kalooki-40", "AS KS 9D PJ", 11 + 10 + 9 + 15),
    ("na-kalooki", "AS KS 9D PJ", 15 + 10 + 9 + 25),
    ("russian-rummy", "PJ AS KS QS JS 10S 2S 9D", 25 + 15 + 30 + 5 + 5 + 5),
    ("telefunken", "PJ AS KS 10D 2C", 15 + 11 + 10 + 10 + 2),
    ("farmers-rummy", "PJ 2S AS 8D 9D 10D KS 3C 7C", 50 + 20 + 20 + 40 + 10),
    ("push", "PJ 2S AS 10D KS 3C 9C", 20 + 20 + 15 + 20 + 10),
    ("onze", "PJ AH AD AS AC KS 10D 2C", 30 + 30 + 30 + 20 + 20 + 10 + 10 + 2),
    ("american-jokers", "PJ AS KS 10D 2C", 25 + 11 + 10 + 10 + 2),
    ("american-jokers-single", "PJ AS", 36),
    ("american-jokers-alt", "PJ AS", 36),
    ("dummy-rummy", "PJ 2S AS 10D KS 3C 9C", 50 + 50 + 15 + 20 + 10),
]


@pytest.mark.parametrize(("variant", "hand", "points"), COUNT_CASES)
def test_penalty_tables(variant: str, hand: str, points: int) -> None:
    assert count(variant, hand) == points


def test_every_game_has_a_penalty_case() -> None:
    assert {c[0] for c in COUNT_CASES} == set(TEXT_FACTS)


def test_bent_table_doubles_only_in_kalooki() -> None:
    assert count("caribbean-kalooki", "AS PJ", bent_table=True) == 130
    assert count("super-kalooki", "AS PJ", bent_table=True) == 130
    assert count("contract-rummy", "AS PJ", bent_table=True) == 30


def test_a_red_ace_in_a_meld_is_worth_what_its_chart_gives_it() -> None:
    """Kalooki's chart gives a red ace 1 and a black one 15: the melding value the contract
    reports takes each ace at its own value, as the count does (it took every ace at 15)."""
    from engine.variants import JudgeRequest, find

    v = find("caribbean-kalooki")
    got = v.judge(JudgeRequest("contract", groups=v.parse("AH AD AS | 8C 8S 8H | 9C 9S 9H"), deal=1))
    assert got.valid and got.points == 1 + 1 + 15 + 24 + 27
    assert count("caribbean-kalooki", "AH AD AS") == 17
    for four, worth in (("AH 2H 3H 4H", 10), ("AS 2S 3S 4S", 24), ("PJ 2H 3H 4H", 10)):  # a joker as AH: 1
        got = v.judge(JudgeRequest("contract", groups=v.parse(f"7H 7S 7D | 8C 8S 8H | {four}"), deal=2))
        assert got.valid and got.points == 21 + 24 + worth, four


def test_count_is_the_same_however_the_cards_are_grouped() -> None:
    assert count("loba", "JS QS KS | AS PJ 5D") == count("loba", "JS QS KS AS PJ 5D") == 80


def test_shanghai_long_run_may_be_split_to_meet_a_two_run_contract() -> None:
    from engine.variants import JudgeRequest, find

    v = find("shanghai")
    split = v.judge(JudgeRequest("contract", groups=v.parse("3S 4S 5S 6S 7S 8S 9S 10S | 5H 6H 7H 8H"), deal=7))
    assert split.valid and [len(g.cards) for g in split.groups] == [4, 4, 4]
    short = v.judge(JudgeRequest("contract", groups=v.parse("3S 4S 5S 6S 7S 8S 9S | 5H 6H 7H 8H"), deal=7))
    assert not short.valid


def test_only_a_run_is_split_and_only_into_runs() -> None:
    from engine.variants import JudgeRequest, find

    v = find("shanghai")

    def verdict(cards: str, deal: int):  # type: ignore[no-untyped-def]
        return v.judge(JudgeRequest("contract", groups=v.parse(cards), deal=deal))

    # two sets laid as one group are not "a long run": not two groups of 3
    assert not verdict("5S 5H 5C 5D 7S 7H 7C 7D", 1).valid
    # a set and a run laid together are not one run either
    assert not verdict("5S 5H 5C 5D 6S 7S 8S 9S", 2).valid
    twelve = verdict("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", 7)
    assert twelve.valid and twelve.reason.count("split in two") == 1


def test_wild_cards_of_one_rank_count_once_as_naturals() -> None:
    """Twos (Farmer's, Shanghai) and red aces (Onze) are wild; a group of them with jokers
    counts each once: as itself or as a wild card, never as both."""
    from engine.variants import JudgeRequest, find

    def verdict(game: str, mode: str, cards: str, deal: int | None = None):  # type: ignore[no-untyped-def]
        v = find(game)
        return v.judge(JudgeRequest(mode, groups=v.parse(cards), deal=deal))

    assert not verdict("farmers-rummy", "contract", "2S 2H PJ", 1).valid  # deal 1: no wild card
    assert not verdict("farmers-rummy", "meld", "2S PJ PJ").valid  # more naturals than wilds
    assert not verdict("farmers-rummy", "contract", "2S 2H PJ PJ", 3).valid
    assert verdict("farmers-rummy", "meld", "2S 2H 2D PJ").valid  # three twos as themselves
    refused = verdict("shanghai", "contract", "2S PJ PJ | 7S 7H 7D", 1)
    assert not refused.valid and "at most 1" in refused.reason  # the limit of its best reading
    assert not verdict("onze", "contract", "AH PJ PJ | 7S 7H 7D", 1).valid


def test_an_ace_is_low_or_high_in_one_run_never_both() -> None:
    from engine.variants import JudgeRequest, find

    v = find("contract-rummy")
    both = v.judge(JudgeRequest("meld", groups=v.parse("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")))
    assert not both.valid and "never both" in both.reason
    assert v.judge(JudgeRequest("meld", groups=v.parse("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"))).valid
    assert v.judge(JudgeRequest("meld", groups=v.parse("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"))).valid


def test_loba_s_exact_sizes_are_for_going_down_and_melds_grow_on_the_table() -> None:
    """Trios of exactly 3 and escaleras of exactly 4 go down; lay-offs extend them "far
    beyond", so a meld on the table (meld mode) is judged without the upper bound."""
    for variant in ("loba", "carioca"):
        assert ask(variant, "meld", "3H 4H 5H 6H 7H").valid
        assert ask(variant, "meld", "QH QS QD QC").valid
        assert not ask(variant, "meld", "QH QS").valid  # still a trio at least
        assert not ask(variant, "meld", "3H 4H 5H").valid  # and an escalera of four at least
        assert not contract(variant, 1, "5D 5H 5C 5S | QS QC QS").valid  # going down: exact


@pytest.mark.parametrize(("variant", "hand", "valid"), [
    ("loba", "7H PJ PJ", False),        # a trio went down as 3 with one joker at most
    ("loba", "8C PJ PJ PJ", False),
    ("loba", "7H 7S PJ PJ", True),      # 2 naturals, a joker laid on later
    ("loba", "5C 6C PJ PJ", False),     # an escalera went down as 4 with one joker
    ("loba", "5C 6C 7C PJ PJ", True),
    ("carioca", "7H PJ PJ", False),
    ("russian-rummy", "7H PJ PJ", True),  # new melds may go down later: no such floor
])
def test_meld_mode_takes_only_melds_that_can_lie_on_the_table(variant, hand, valid):
    """Loba and Carioca: every meld goes down with the contract, at its exact size with one
    joker at most; lay-offs add cards but take none away, so a meld on the table keeps the
    naturals it went down with."""
    assert ask(variant, "meld", hand).valid is valid


def test_a_sequence_over_its_wild_cap_says_so() -> None:
    """Shanghai's chart allows one wild card in a sequence of 4: a run made only with two is
    refused for that, not for a wild two read as a natural card of another suit."""
    ruling = contract("shanghai", 2, "7H 7S 7D | 5C 6C 2H PJ 9C")
    assert not ruling.valid and "too many wild cards: at most 1 in one meld" in ruling.reason


def test_the_judge_takes_bent_table_though_no_table_does(capsys) -> None:
    """``bent_table`` says one hand was bent: the judge's switch (doubling its count), not a
    house rule a table sets for every deal."""
    import json

    from engine.game.house_options import OptionError, check_options
    from tablekit.cli import main

    assert main(["judge", "--variant", "caribbean-kalooki", "--mode", "count", "--option", "bent_table=true",
                 "5H 9C KD"]) == 0
    assert json.loads(capsys.readouterr().out)["points"] == 48
    with pytest.raises(OptionError, match="bent_table"):
        check_options(game("caribbean-kalooki"), {"bent_table": True})
