"""Each Open Rummy turn rule with a legal and an illegal example, most from the rule text."""

from __future__ import annotations

from tests._open_fixtures import mentions, state, turn

# The text's discard-pile example, bottom to top: "club6 heart7 spadeQ heart6 spade4" with the
# "diamond9" it mentions under them. To use 6H and 7H a player takes the top four.
PILE = "9D 6C 7H QS 6H 4S"


# --- drawing ------------------------------------------------------------------------------

def test_draw_from_the_stock_open_and_discard() -> None:
    v = turn(state({}, "4C", 40), state({0: ["5S 6S 7S"]}, "4C KH", 39))
    assert v.valid and v.draw == "stock" and str(v.discard) == "KH"


def test_only_one_card_from_the_stock() -> None:
    v = turn(state({}, "4C", 40), state({0: ["5S 6S 7S"]}, "4C KH", 38))
    assert not v.valid and mentions(v, "only one card")


def test_taking_from_the_pile_to_open_the_heart_sequence() -> None:
    # take the top four (down to 6H) and open 6H 7H 2S with the spade two from hand
    v = turn(state({}, PILE), state({0: ["6H 7H 2S"]}, "9D 6C 4S"))
    assert v.valid and v.draw == "discard pile"
    assert [str(c) for c in v.taken] == ["7H", "QS", "6H", "4S"]
    # "or spade2-heart6-heart7", and more cards may be taken for later: 6C, or 6C and 9D
    assert turn(state({}, PILE), state({0: ["2S 6H 7H"]}, "9D KD")).valid
    assert turn(state({}, PILE), state({0: ["2S 6H 7H"]}, "KD")).valid


def test_taken_cards_may_instead_go_to_the_partners_sequence() -> None:
    # "add the spade2 and spadeQ" to the partner's spade8-spade9-spade10, keeping the hearts
    v = turn(state({2: ["8S 9S 10S"]}, PILE), state({2: ["8S 9S 10S 2S QS"]}, "9D 6C KD"))
    assert v.valid


def test_taking_from_the_pile_without_playing_a_taken_card() -> None:
    v = turn(state({}, PILE), state({0: ["8C 9C 10C"]}, "9D 6C 7H QS KD"))
    assert not v.valid and mentions(v, "without playing")


def test_taking_from_the_pile_and_the_stock_at_once() -> None:
    v = turn(state({}, PILE, 30), state({0: ["6H 7H 2S"]}, "9D 6C 4S", 29))
    assert not v.valid and mentions(v, "one draw")


def test_cards_under_the_top_cannot_be_pulled_out() -> None:
    v = turn(state({}, PILE), state({0: ["6C 7C 8C"]}, "9D 7H QS 6H 4S KD"))
    assert not v.valid and mentions(v, "under the top")


def test_first_player_may_keep_the_dealers_joker() -> None:
    v = turn(state({}, "PJ", 39), state({}, "9C", 39))
    assert v.valid and v.draw == "discard pile"


def test_later_the_turned_joker_only_comes_with_a_natural_card_played() -> None:
    # the first player left the joker; the next takes the whole pile and keeps it all
    v = turn(state({}, "PJ 9C", 38), state({}, "KD", 38), seat=1)
    assert not v.valid and mentions(v, "natural cards taken")
    played = turn(state({}, "PJ 9C", 38), state({1: ["9C 10C JC"]}, "KD", 38), seat=1)
    assert played.valid


def test_playing_only_the_taken_joker_is_not_enough() -> None:
    v = turn(state({}, "PJ 9C", 38), state({1: ["8D PJ 10D"]}, "KD", 38), seat=1)
    assert not v.valid and mentions(v, "natural cards taken")


# --- whose melds ----------------------------------------------------------------------------

def test_adding_to_the_partners_sequence() -> None:
    # North opens 5S 6S 7S; South adds 4S and 8S
    v = turn(state({0: ["5S 6S 7S"]}, "4C"), state({0: ["4S 5S 6S 7S 8S"]}, "4C KH", 29), seat=2)
    assert v.valid


def test_never_adding_to_an_opponents_sequence() -> None:
    v = turn(state({1: ["5S 6S 7S"]}, "4C"), state({1: ["5S 6S 7S 8S"]}, "4C KH", 29), seat=0)
    assert not v.valid and mentions(v, "opponent")


def test_never_replacing_an_opponents_joker() -> None:
    v = turn(state({1: ["5S PJ 7S"]}, "4C"), state({1: ["5S 6S 7S"]}, "4C KH", 29), seat=2)
    assert not v.valid and mentions(v, "opponent")


def test_new_melds_go_in_front_of_the_player() -> None:
    assert turn(state({}, "4C"), state({0: ["10S JS QS"]}, "4C KH", 29)).valid
    v = turn(state({}, "4C"), state({2: ["10S JS QS"]}, "4C KH", 29))
    assert not v.valid and mentions(v, "in front of seat 2")


def test_six_players_partners_are_every_other_seat() -> None:
    ok = turn(state({4: ["5S 6S 7S"]}, "4C", players=6), state({4: ["5S 6S 7S 8S"]}, "4C KH", 29, players=6),
              seat=0, players=6)
    assert ok.valid
    bad = turn(state({3: ["5S 6S 7S"]}, "4C", players=6), state({3: ["5S 6S 7S 8S"]}, "4C KH", 29, players=6),
               seat=0, players=6)
    assert not bad.valid


# --- joining, splitting, rearranging -----------------------------------------------------

def test_joining_two_sequences_of_one_player() -> None:
    # North's 5S 6S 7S (with South's 8S added) and 10S JS QS join by the 9S
    before = state({0: ["5S 6S 7S 8S", "10S JS QS"]}, "4C")
    v = turn(before, state({0: ["5S 6S 7S 8S 9S 10S JS QS"]}, "4C KH", 29), seat=2)
    assert v.valid and any(a.startswith("joined") for a in v.actions)


def test_never_joining_sequences_of_different_partners() -> None:
    before = state({0: ["5S 6S 7S 8S"], 2: ["10S JS QS"]}, "4C")
    v = turn(before, state({0: ["5S 6S 7S 8S 9S 10S JS QS"]}, "4C KH", 29))
    assert not v.valid and mentions(v, "different partners")


def test_overlapping_sequences_are_never_rearranged() -> None:
    # "diamond7-…-diamond10" and "diamond8-…-diamondJ" cannot become 7-J and 8-10
    before = state({0: ["7D 8D 9D 10D", "8D 9D 10D JD"]}, "4C")
    v = turn(before, state({0: ["7D 8D 9D 10D JD", "8D 9D 10D"]}, "4C KH", 29))
    assert not v.valid and mentions(v, "never split")
    legal = turn(before, state({0: ["7D 8D 9D 10D JD", "8D 9D 10D JD"]}, "4C KH", 29))
    assert legal.valid


def test_a_sequence_is_never_split() -> None:
    v = turn(state({0: ["5S 6S 7S 8S 9S 10S"]}, "4C"), state({0: ["5S 6S 7S", "8S 9S 10S"]}, "4C KH", 29))
    assert not v.valid and mentions(v, "split")


def test_joining_within_the_joker_limit() -> None:
    before = state({0: ["5C PJ 7C", "9C 2H JC"]}, "4C")
    v = turn(before, state({0: ["5C PJ 7C 8C 9C 2H JC"]}, "4C KH", 29))
    assert v.valid


def test_never_joining_sequences_that_held_more_than_three_jokers() -> None:
    # "club4-*-diamond2-club7" and "*-club10-heart2": even after the first joker is
    # replaced by club5, adding club8 cannot join them
    before = state({0: ["4C PJ 2D 7C", "PJ 10C 2H"]}, "4C")
    v = turn(before, state({0: ["4C 5C 2D 7C 8C PJ 10C 2H"]}, "4C KH", 29))
    assert not v.valid and mentions(v, "more than 3 jokers")


def test_the_joker_history_carries_over_between_turns() -> None:
    from engine.table import TableMeld, TableState

    melds = {0: (TableMeld(tuple(state({0: ["4C 5C 2D 7C"]}).melds[0][0].cards), True, 2),
                 TableMeld(tuple(state({0: ["PJ 10C 2H"]}).melds[0][0].cards), True, 2))}
    before = TableState(melds, tuple(state({}, "4C").discard), 30)
    v = turn(before, state({0: ["4C 5C 2D 7C 8C PJ 10C 2H"]}, "4C KH", 29))
    assert not v.valid and mentions(v, "can never be joined")


# --- jokers ---------------------------------------------------------------------------------

def test_printed_joker_replaced_goes_to_the_hand() -> None:
    v = turn(state({2: ["5S PJ 7S"]}, "4C"), state({2: ["5S 6S 7S"]}, "4C KH", 29))
    assert v.valid and [str(c) for c in v.returned] == ["PJ"]


def test_printed_joker_replaced_may_be_reused_at_once() -> None:
    v = turn(state({0: ["5S PJ 7S"]}, "4C"), state({0: ["5S 6S 7S", "9D PJ JD"]}, "4C KH", 29))
    assert v.valid and not v.returned


def test_a_joker_is_replaced_only_by_the_card_it_stands_for() -> None:
    wrong_card = turn(state({0: ["5S PJ 7S"]}, "4C"), state({0: ["5S 8S 7S"]}, "4C KH", 29))
    assert not wrong_card.valid
    by_joker = turn(state({0: ["5S PJ 7S"]}, "4C"), state({0: ["5S 2H 7S"]}, "4C KH", 29))
    assert not by_joker.valid and mentions(by_joker, "never by another joker")


def test_sliding_joker_slides_to_either_end() -> None:
    # "spade4-diamond2-spade6" with the spade5: the two moves to stand for 3S or 7S
    before = state({0: ["4S 2D 6S"]}, "4C")
    for after in ("2D 4S 5S 6S", "4S 5S 6S 2D"):
        assert turn(before, state({0: [after]}, "4C KH", 29)).valid


def test_sliding_joker_never_leaves_its_sequence() -> None:
    before = state({0: ["4S 2D 6S"]}, "4C")
    v = turn(before, state({0: ["4S 5S 6S"]}, "4C KH", 29))
    assert not v.valid and mentions(v, "must stay in that sequence")
    moved = turn(before, state({0: ["4S 5S 6S", "9H 10H 2D"]}, "4C KH", 29))
    assert not moved.valid


def test_partner_may_leave_the_slide_to_the_opener() -> None:
    v = turn(state({2: ["4S 2D 6S"]}, "4C"), state({2: ["4S 5S 6S", "2D"]}, "4C KH", 29), seat=0)
    assert v.valid and v.notes
    placed = turn(state({2: ["4S 5S 6S", "2D"]}, "4C KH"), state({2: ["4S 5S 6S 2D"]}, "4C KH 9C", 29),
                  seat=2)
    assert placed.valid
    own = turn(state({0: ["4S 2D 6S"]}, "4C"), state({0: ["4S 5S 6S", "2D"]}, "4C KH", 29), seat=0)
    assert not own.valid  # in one's own sequence the player decides alone, at once


def test_slide_beyond_a_complete_set() -> None:
    before = state({0: ["3H 4H 5H 6H 7H 8H 2C 10H JH QH KH AH"]}, "4C")
    v = turn(before, state({0: ["2C 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"]}, "4C KH", 29))
    assert v.valid


def test_no_joker_is_added_to_a_complete_set() -> None:
    before = state({0: ["3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"]}, "4C")
    v = turn(before, state({0: ["3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2C"]}, "4C KH", 29))
    assert not v.valid and mentions(v, "complete set")


def test_groups_take_only_their_rank_and_lose_the_suited_bonus() -> None:
    grown = turn(state({0: ["AC AC AC"]}, "4C"), state({0: ["AC AC AC AC"]}, "4C KH", 29))
    assert grown.valid and any("bonus" in n for n in grown.notes)
    assert grown.after is not None
    assert grown.after.melds[0][0].laid_whole is False
    joker = turn(state({0: ["AC AC AC"]}, "4C"), state({0: ["AC AC AC 2C"]}, "4C KH", 29))
    assert not joker.valid and mentions(joker, "no jokers")


# --- discarding -------------------------------------------------------------------------------

def test_exactly_one_discard() -> None:
    none = turn(state({}, "4C"), state({0: ["5S 6S 7S"]}, "4C", 29))
    assert not none.valid and mentions(none, "no discard")
    two = turn(state({}, "4C"), state({}, "4C KH QH", 29))
    assert not two.valid and mentions(two, "exactly one discard")


def test_emptying_the_hand_without_a_discard() -> None:
    # holding 5H 6H and drawing 7H: laying all three leaves nothing to discard
    v = turn(state({}, "4C"), state({0: ["5H 6H 7H"]}, "4C", 29))
    assert not v.valid and mentions(v, "never emptied")


def test_a_discarded_joker_kills_the_pile() -> None:
    assert turn(state({}, PILE), state({}, "", 29)).valid
    v = turn(state({}, PILE), state({}, PILE + " 2D", 29))
    assert not v.valid and mentions(v, "set aside")


def test_the_pile_after_a_kill_starts_again() -> None:
    v = turn(state({}, ""), state({}, "9H", 29), seat=1)
    assert v.valid and v.draw == "stock"


# --- the end of play ----------------------------------------------------------------------------

def test_ground_show_when_the_stock_is_empty() -> None:
    v = turn(state({0: ["5S 6S 7S"]}, "4C", 0), state({0: ["5S 6S 7S"]}, "4C", 0))
    assert v.valid and v.draw == "ground show"
    nothing = turn(state({}, "4C", 5), state({}, "4C", 5))
    assert not nothing.valid


def test_no_draw_from_an_empty_stock_but_the_pile_is_open() -> None:
    taken = turn(state({}, "4C 9S", 0), state({0: ["9S 10S JS"]}, "4C KD", 0))
    assert taken.valid


def test_two_readings_are_named() -> None:
    # without a stock count, "4C KH" -> "4C KH 5D" could be a stock draw, or taking KH,
    # playing it and discarding... only the stock draw is legal here
    v = turn(state({}, "4C KH", None), state({0: ["5S 6S 7S"]}, "4C KH 5D", None))
    assert v.valid and v.draw == "stock" and v.notes


def test_history_remembers_a_grown_suited_group() -> None:
    from engine.families.open_rummy.scoring import TeamTable
    from engine.families.open_rummy.turn_checks import TurnRules, record_turn
    from engine.table import TableHistory

    rules = TurnRules(players=4)
    history = TableHistory.start(state({}, "4C"))
    laid, history = record_turn(history, 0, state({0: ["AC AC AC"]}, "4C KH", 29), rules)
    assert laid.valid and TeamTable.from_state(history.current, 0).table_points() == 4.5 + 50
    grown, history = record_turn(history, 2, state({0: ["AC AC AC AC"]}, "4C KH 9D", 28), rules)
    assert grown.valid and len(history) == 3
    assert TeamTable.from_state(history.current, 0).table_points() == 6  # a value group now
    refused, same = record_turn(history, 1, state({0: ["AC AC AC AC AS"]}, "4C KH 9D 8D", 27), rules)
    assert not refused.valid and same is history


def test_a_meld_read_from_the_other_end_has_not_changed() -> None:
    v = turn(state({1: ["5S 6S 7S"], 0: ["9H 10H JH"]}, "4C"),
             state({1: ["7S 6S 5S"], 0: ["JH 10H 9H"]}, "4C KH", 29))
    assert v.valid and not v.actions


def test_a_killed_pile_leaves_two_readings_and_the_one_assumed_is_said() -> None:
    v = turn(state({}, "4C 9S", None), state({0: ["9S 10S JS"]}, "", None))
    assert v.valid and any("another legal reading" in n for n in v.notes)
    assert "assumed" in v.reason


def test_an_equal_meld_opened_while_the_old_one_takes_the_waiting_joker() -> None:
    # seat 3 opens a second PJ KC AC and places the two left aside for it at the old one's end
    before = state({3: ["7D 8D 9D 2D", "PJ KC AC", "2D", "JD QD KD"]}, "KH AC 3H", 19, players=6)
    after = state({3: ["PJ KC AC", "2D PJ KC AC", "7D 8D 9D 2D JD QD KD"]}, "KH 7S", 19, players=6)
    v = turn(before, after, seat=3, players=6)
    assert v.valid and any("placed the joker 2D" in a for a in v.actions)


def test_a_replaced_two_waits_while_an_equal_two_from_the_hand_is_added() -> None:
    before = state({1: ["4H 5H 6H 7H 8H 2D 10H JH 2C"]}, "QH 5C 3C", 28, players=6)
    after = state({1: ["2C", "4H 5H 6H 7H 8H 2D 10H JH QH 2C"]}, "QH 5C 3C 9S", 27, players=6)
    v = turn(before, after, seat=3, players=6)
    assert v.valid and any("left to its opener" in n for n in v.notes)
