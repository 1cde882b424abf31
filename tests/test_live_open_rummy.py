"""Open Rummy scored at the live table (engine.game.flow), against open-rummy-marwari.txt.

The deal is driven event by event: each turn ends with a press and the camera's reading of the
whole table (TableSeen), checked as that seat's turn; the deal then ends in a ground show (the
stock-out item) or a show, and every zone is read.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from _game_fixtures import Driver, game

from engine.game import DealStarted, TableSeen
from engine.notation import split_groups

PLAYERS = ("Ann", "Bo", "Cy", "Di")  # teams: Ann & Cy (seats 0, 2), Bo & Di (seats 1, 3)


def seen(d: Driver, melds: dict[int, list[str]], discard: str, stock: int) -> TableSeen:
    per_seat = tuple(tuple(tuple(split_groups(g)[0]) for g in melds.get(s, [])) for s in range(4))
    return TableSeen(per_seat, tuple(discard.split()), stock, d.at(300))


def play(d: Driver, tables: list[tuple[dict[int, list[str]], str, int]]) -> None:
    """Each seat in turn ends its turn and the camera reads the table it left: all legal."""
    for melds, discard, stock in tables:
        d.end_turn()
        d(seen(d, melds, discard, stock))
        assert d.state.phase == "play" and d.state.deal.watch.check is None, d.state.notice


def read_zones(d: Driver, zones: dict[int, str]) -> None:
    for _ in range(4 * len(zones) + 4):
        if d.state.phase != "show":
            break
        show = d.state.show
        if show.stage == "hand-reading":
            d.read(show.pending[0], zones[show.pending[0]])
        else:
            d.ok()
    assert d.state.phase != "show", d.state.notice


def ground_show(d: Driver, zones: dict[int, str]) -> tuple[Fraction, Fraction]:
    d.menu()
    assert d.state.menu[0] == "stock-out"
    d.ok()
    read_zones(d, zones)
    record = d.state.history[-1]
    assert record.scores[0] == record.scores[2] and record.scores[1] == record.scores[3]
    assert d.replayed() == d.state
    return Fraction(record.scores[0]), Fraction(record.scores[1])


def four_deck_deal() -> Driver:
    d = Driver(game("open-rummy", PLAYERS))
    d(DealStarted("", d.at(1000)))
    d(seen(d, {}, "6C", 3))  # the table late in the deal: three cards left in the stock
    assert d.state.notice.startswith("the table does not look as dealt")  # said (39 are dealt) ...
    assert d.state.phase == "play"  # ... and played on as it lies
    return d


BO_OPENS = ({1: ["3D 3D 3D"]}, "6C 9S", 2)  # a suited group of three Threes, laid whole
CY_OPENS = ({1: ["3D 3D 3D"], 2: ["9H 10H JH"]}, "6C 9S KD", 1)
DI_ADDS = ({1: ["3D 3D 3D 3D"], 2: ["9H 10H JH"]}, "6C 9S KD 4D", 0)  # the fourth 3D, later
DI_DRAWS = ({1: ["3D 3D 3D"], 2: ["9H 10H JH"]}, "6C 9S KD 4D", 0)  # Di only draws and discards


def test_a_suited_group_added_to_later_loses_its_bonus_at_the_table():
    """open-rummy-marwari.txt: "Further Aces could be added to this set but if this is done it is
    reduced from a suited group to a value group. It no longer qualifies for a bonus even if the
    card added is the fourth clubA." (also: "A set of Threes or Aces only qualifies for the
    suited group bonus if it was opened all at once by a single player and has had no cards
    added to it.")"""
    d = four_deck_deal()
    play(d, [BO_OPENS, CY_OPENS, DI_ADDS])
    ours, theirs = ground_show(d, {0: "KC", 1: "3D 3D 3D 3D", 2: "9H 10H JH", 3: "JC"})
    # Bo & Di: four Threes (a half each), no bonus, plus the KC left in Ann's hand
    assert theirs == 4 * Fraction(1, 2) + 1
    assert ours == 3 + 1  # Cy's 9H 10H JH plus the JC left in Di's hand


def test_a_suited_group_grown_in_the_last_turn_before_the_show_loses_its_bonus():
    """open-rummy-marwari.txt: "4 suited 3s (opened in a single turn) 75" — a fourth Three added
    to three on the table (read at the show with more cards than the table last saw) is not."""
    d = four_deck_deal()
    play(d, [BO_OPENS, CY_OPENS, DI_DRAWS])
    _, theirs = ground_show(d, {0: "KC", 1: "3D 3D 3D 3D", 2: "9H 10H JH", 3: "JC"})
    assert theirs == 4 * Fraction(1, 2) + 1


def test_melds_still_in_a_losing_hand_score_for_the_opponents_not_as_table():
    """open-rummy-marwari.txt: "Points for cards on the table. Each team scores for all the cards
    they have placed on the table in sequences or sets." and "Points for unplayed cards. Each
    team scores for all the unplayed cards in their opponents' hands."

    Cy laid 9H 10H JH on the table; the 4S 5S 6S read beside it at the end never was: it is
    still in Cy's hand, so it scores for Bo & Di.
    """
    d = four_deck_deal()
    play(d, [BO_OPENS, CY_OPENS, DI_DRAWS])
    ours, theirs = ground_show(d, {0: "KC", 1: "3D 3D 3D", 2: "9H 10H JH | 4S 5S 6S | KD", 3: "JC"})
    assert ours == 3 + 1  # only the sequence Cy laid, plus the JC in Di's hand
    # Bo's three 3D, laid whole and never added to, keep their bonus ("3 suited 3s 25")
    assert theirs == 3 * Fraction(1, 2) + 25 + (1 + 3 * Fraction(1, 2) + 1)  # + KC, 4S 5S 6S, KD
    counts = d.state.history[-1].counts
    assert counts[2] == 3 * Fraction(1, 2) + 1  # Cy's hand: 4S 5S 6S and KD


SUITS_RUN = "3{s} 4{s} 5{s} 6{s} 7{s} 8{s} 9{s} 10{s} J{s} Q{s} K{s} A{s}"
OPEN_SHOW = SUITS_RUN.format(s="S") + " | " + SUITS_RUN.format(s="H")


def test_after_a_valid_show_a_losing_partners_hand_melds_pay_the_opponents():
    """open-rummy-marwari.txt: "Each team scores for all the unplayed cards in their opponents'
    hands." — a sequence Ann still holds when Bo shows is unplayed, not on the table."""
    d = Driver(game("open-rummy-2deck", PLAYERS))
    d(DealStarted("", d.at(1000)))
    d(seen(d, {}, "6C", 25))
    play(d, [({}, "6C 9S", 24), ({2: ["7D 8D 9D"]}, "6C 9S KD", 23), ({2: ["7D 8D 9D"]}, "6C 9S KD 4D", 22),
             ({2: ["7D 8D 9D"]}, "6C 9S KD 4D QC", 21)])
    bo = d.state.deal.turn
    assert bo == 1
    d.declare(bo)
    d.read(bo, OPEN_SHOW)
    d.ok()
    read_zones(d, {0: "10C JC QC", 2: "7D 8D 9D | KC", 3: "4C"})
    record = d.state.history[-1]
    assert record.winner == 1
    show_table = 2 * (4 * Fraction(1, 2) + 7 + Fraction(3, 2)) + 2 * 20 + 20  # two pure sets + show
    assert record.scores[1] == show_table + (3 + 1)  # + Ann's 10C JC QC and Cy's KC
    assert record.scores[0] == 3 + Fraction(1, 2)  # Cy's 7D 8D 9D on the table + Di's 4C
    assert d.replayed() == d.state


def test_play_ends_with_a_ground_show_after_the_turn_that_began_with_the_stock_empty():
    """open-rummy-marwari.txt: "If the draw pile becomes empty, the next player has the option
    either to end the play and declare an immediate ground show, or to draw from the discard
    pile and play a normal turn. If this player does not declare a show at the end of their
    turn the play automatically ends at that point with a ground show." """
    d = four_deck_deal()
    play(d, [BO_OPENS, CY_OPENS, DI_DRAWS])  # Di drew the stock's last card
    assert d.state.phase == "play" and d.state.deal.turn == 0
    # Ann takes Di's 4D from the pile, lays it at once with her 5D 6D, and discards 7C
    d.end_turn()
    d(seen(d, {0: ["4D 5D 6D"], 1: ["3D 3D 3D"], 2: ["9H 10H JH"]}, "6C 9S KD 7C", 0))
    assert d.state.phase == "show" and "ground show" in d.state.notice
    read_zones(d, {0: "4D 5D 6D | KC", 1: "3D 3D 3D", 2: "9H 10H JH", 3: "JC"})
    record = d.state.history[-1]
    assert record.winner is None and record.scores[0] == record.scores[2]


def test_a_missed_turn_forgets_nothing_the_table_knew_of_its_melds():
    """A suited group that grew keeps no bonus when a turn passes unchecked (a missed turn
    starts the camera's watch afresh): the table read after it takes what the last one knew.
    And a turn that began with the stock empty ends play with a ground show, missed or not."""
    d = four_deck_deal()
    play(d, [BO_OPENS, CY_OPENS, DI_ADDS])  # the fourth 3D added: no bonus any more
    assert [m.laid_whole for m in d.state.deal.watch.table.melds[1]] == [False]
    d.time_out()  # Ann's clock runs out with the stock empty
    d(seen(d, *DI_ADDS))  # the table read again after the turn passed
    assert d.state.phase == "show" and "ground show" in d.state.notice
    read_zones(d, {0: "KC", 1: "3D 3D 3D 3D", 2: "9H 10H JH", 3: "JC"})
    record = d.state.history[-1]
    assert Fraction(record.scores[1]) == 4 * Fraction(1, 2) + 1  # no suited-group bonus


def test_a_partner_s_meld_lying_whole_in_its_zone_is_never_taken_by_the_declarer_s_longer_run():
    """open-rummy-marwari.txt: "Each team scores for all the cards they have placed on the
    table" — Di's 9H 10H JH, seen on the table, stays table though Bo's show holds a run
    of hearts 3–A (two decks: both can lie on the table)."""
    d = Driver(game("open-rummy-2deck", PLAYERS))
    d(DealStarted("", d.at(1000)))
    d(seen(d, {}, "6C", 25))
    play(d, [({}, "6C 9S", 24), ({}, "6C 9S KD", 23), ({3: ["9H 10H JH"]}, "6C 9S KD 4D", 22),
             ({3: ["9H 10H JH"]}, "6C 9S KD 4D QC", 21)])
    bo = d.state.deal.turn
    d.declare(bo)
    d.read(bo, OPEN_SHOW)
    d.ok()
    read_zones(d, {0: "4C", 2: "5C", 3: "9H 10H JH | KC"})
    record = d.state.history[-1]
    show_table = 2 * (4 * Fraction(1, 2) + 7 + Fraction(3, 2)) + 2 * 20 + 20  # two pure sets + show
    assert record.scores[1] == show_table + 3 + 1  # + Di's sequence on the table, Ann's and Cy's cards
    assert record.scores[0] == 1  # Di's KC


@pytest.mark.parametrize(("melds", "discard", "stock", "problem"), [
    ({}, "6C", 24, "the stock holds 24 cards, where the deal leaves 25"),
    ({}, "6C 9S", 25, "2 card(s) face up, where the deal turns up one"),
    ({1: ["3D 4D 5D"]}, "6C", 25, "1 meld(s) already on the table, where none lie after the deal"),
])
def test_the_deal_s_first_reading_is_checked_against_what_the_deal_leaves(melds, discard, stock, problem):
    """open-rummy-marwari.txt: after the deal the rest of the pack is the stock and one card is
    turned up; a first reading that is not so (a card too many in a hand, a meld left from the
    last deal) is said with a buzz, and play goes on with the table as it lies."""
    from engine.game import Buzz

    d = Driver(game("open-rummy-2deck", PLAYERS))
    d(DealStarted("", d.at(1000)))
    effects = d(seen(d, melds, discard, stock))
    assert d.state.phase == "play" and d.state.deal.watch.check is None
    assert d.state.notice == f"the table does not look as dealt: {problem}: check the hands and the stock"
    assert any(isinstance(e, Buzz) for e in effects)
    assert d.state.deal.watch.table is not None  # the first turn is checked against it
    assert d.replayed() == d.state


def test_a_first_reading_as_dealt_says_nothing():
    d = Driver(game("open-rummy-2deck", PLAYERS))
    d(DealStarted("", d.at(1000)))
    notice = d.state.notice
    d(seen(d, {}, "6C", 25))
    assert d.state.phase == "play" and d.state.deal.watch.table is not None and d.state.notice == notice
