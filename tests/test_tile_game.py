"""Tile rummy deal and game rules: the deal, doubles, the ace, turn checks, the pool, places."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import PlayerCountError, TablekitError
from engine.families.tile.game_rules import (
    ACE_BONUS,
    DOUBLES_WINDOW_SECONDS,
    GameScoring,
    SeatResult,
    TurnFacts,
    ace_bonus,
    check_add,
    check_break,
    check_double_declaration,
    check_take_discard,
    check_take_from_table,
    check_turn_actions,
    deal,
    double_class,
    doubles_in,
    exchange_doubles,
    game_over_by_pool,
    meld_timed_out,
    must_play_drawn,
    rebuild_pool,
    seat_score,
    shuffled_set,
    standings,
)
from engine.tiles import JOLY, Tile, full_tile_set
from tests._tile_fixtures import groups, tiles

MELDED = TurnFacts(melded=True)
NOT_MELDED = TurnFacts(melded=False)

# --- the set and the deal -----------------------------------------------------------------


def test_the_set_is_106_tiles_two_of_each_and_two_jolys() -> None:
    full = full_tile_set()
    assert len(full) == 106
    counts = Counter(full)
    assert counts[JOLY] == 2
    assert all(n == 2 for t, n in counts.items() if t != JOLY) and len(counts) == 53


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal_gives_15_to_the_first_player_and_14_to_the_others(players: int) -> None:
    d = deal(shuffled_set(random.Random(players)), players)
    assert [len(h) for h in d.hands] == [15] + [14] * (players - 1)
    assert len(d.pool) == 106 - 1 - 15 - 14 * (players - 1)


def test_the_deal_turns_up_one_tile_as_the_ace_and_deals_piles_of_7() -> None:
    order = shuffled_set(random.Random(7))
    d = deal(order, 2)
    assert d.ace == order[0]
    piles = [order[1 + 7 * i: 8 + 7 * i] for i in range(15)]
    assert d.hands[0] == tuple(piles[0] + piles[2] + piles[4][:1])
    assert d.hands[1] == tuple(piles[1] + piles[3])
    assert d.pool == tuple(piles[4][1:] + [t for p in piles[5:] for t in p])


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4))
def test_the_deal_accounts_for_every_tile(seed: int, players: int) -> None:
    d = deal(shuffled_set(random.Random(seed)), players)
    every = [t for h in d.hands for t in h] + list(d.pool) + [d.ace]
    assert Counter(every) == Counter(full_tile_set())


@pytest.mark.parametrize("players", [1, 5])
def test_tile_rummy_seats_2_to_4(players: int) -> None:
    with pytest.raises(PlayerCountError) as err:
        deal(full_tile_set(), players)
    assert isinstance(err.value, TablekitError) and isinstance(err.value, ValueError)


def test_a_deal_needs_the_whole_set() -> None:
    with pytest.raises(ValueError):
        deal(full_tile_set()[:-1], 2)


# --- doubles ------------------------------------------------------------------------------


def test_2_to_9_are_low_doubles_10_to_13_and_1_are_high() -> None:
    assert [double_class(Tile(n, "R")) for n in (2, 9)] == ["low", "low"]
    assert [double_class(Tile(n, "R")) for n in (10, 13, 1)] == ["high", "high", "high"]
    with pytest.raises(ValueError):
        double_class(JOLY)


def test_doubles_are_pairs_of_the_same_number_and_colour() -> None:
    assert doubles_in(tiles("R5 R5 B5 K12 K12 JY JY Y3")) == [Tile(5, "R"), Tile(12, "K")]


def test_doubles_are_declared_within_45_seconds_and_must_be_held() -> None:
    hand = tiles("R5 R5 B5 K12 K12")
    assert check_double_declaration(hand, tiles("R5 K12"), DOUBLES_WINDOW_SECONDS) == []
    late = check_double_declaration(hand, tiles("R5"), DOUBLES_WINDOW_SECONDS + 0.5)
    assert late == ["doubles are declared in the first 45 seconds only"]
    assert check_double_declaration(hand, tiles("B5"), 3) == ["B5 is not a double on this board"]


def test_doubles_are_exchanged_high_for_high_and_low_for_low() -> None:
    hands = [tiles("R5 R5 K12 K12 Y3"), tiles("B7 B7 Y2"), tiles("Y1 Y1 R9")]
    declared = [tiles("R5 K12"), tiles("B7"), tiles("Y1")]
    after, swaps = exchange_doubles(hands, declared)
    assert [(s.seat_a, str(s.tile_a), s.seat_b, str(s.tile_b)) for s in swaps] == [
        (0, "R5", 1, "B7"), (0, "K12", 2, "Y1")]
    assert Counter(after[0]) == Counter(tiles("R5 B7 K12 Y1 Y3"))
    assert Counter(after[1]) == Counter(tiles("B7 R5 Y2"))
    assert Counter(after[2]) == Counter(tiles("Y1 K12 R9"))


def test_a_double_without_a_partner_of_its_class_stays() -> None:
    hands = [tiles("R5 R5"), tiles("B11 B11")]
    after, swaps = exchange_doubles(hands, [tiles("R5"), tiles("B11")])
    assert swaps == () and after == (tuple(hands[0]), tuple(hands[1]))


def test_a_seat_does_not_exchange_with_itself() -> None:
    hands = [tiles("R5 R5 B6 B6"), tiles("K1")]
    _, swaps = exchange_doubles(hands, [tiles("R5 B6"), []])
    assert swaps == ()


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 4))
def test_exchanges_keep_every_tile_and_match_classes(seed: int, players: int) -> None:
    d = deal(shuffled_set(random.Random(seed)), players)
    declared = [doubles_in(h) for h in d.hands]
    after, swaps = exchange_doubles(d.hands, declared)
    assert Counter(t for h in after for t in h) == Counter(t for h in d.hands for t in h)
    assert [len(h) for h in after] == [len(h) for h in d.hands]
    for s in swaps:
        assert s.seat_a != s.seat_b and double_class(s.tile_a) == double_class(s.tile_b)


# --- the ace ------------------------------------------------------------------------------


def test_the_ace_twin_shown_in_the_first_turn_earns_50() -> None:
    ace = Tile(8, "Y")
    dealt = tiles("Y8 R1 B2")
    assert ace_bonus(dealt, ace, Tile(8, "Y"), turn=1) == ACE_BONUS == 50
    assert ace_bonus(dealt, ace, Tile(8, "Y"), turn=2) == 0
    assert ace_bonus(tiles("R1 B2"), ace, Tile(8, "Y"), turn=1) == 0
    assert ace_bonus(dealt, ace, None, turn=1) == 0


# --- taking the last thrown tile ----------------------------------------------------------


def test_after_melding_the_last_thrown_tile_may_always_be_taken() -> None:
    assert check_take_discard(MELDED, Tile(4, "R")) == []


def test_before_melding_it_is_taken_only_to_meld_with_it_at_once() -> None:
    r12 = Tile(12, "R")
    assert check_take_discard(NOT_MELDED, r12) == ["R12 may be taken before your first meld only to meld with it at once"]
    assert check_take_discard(NOT_MELDED, r12, groups("R10 R11 R12 | B7 Y7 K7")) == []
    assert check_take_discard(NOT_MELDED, r12, groups("R10 R11 R12")) == [
        "only 30 points laid: a first meld needs at least 45"]
    assert check_take_discard(NOT_MELDED, r12, groups("K10 K11 K12 | B7 Y7 K7")) == [
        "R12 was taken but is not in the first meld"]


def test_the_first_tile_thrown_in_the_game_is_never_taken() -> None:
    assert check_take_discard(MELDED, Tile(4, "R"), opening_throw=True) == [
        "the first tile thrown in the game is out of play"]


def test_before_the_first_meld_the_board_stays_at_14() -> None:
    assert must_play_drawn(NOT_MELDED) and not must_play_drawn(MELDED)


# --- adding, breaking, taking from the table ----------------------------------------------


def test_adding_to_melds_waits_for_the_first_meld_and_others_melds_for_the_next_turn() -> None:
    assert check_add(NOT_MELDED, own_meld=True) == ["you cannot add to melds on the table before your first meld"]
    melding = TurnFacts(melded=False, melds_now=True)
    assert check_add(melding, own_meld=True) == []
    assert check_add(melding, own_meld=False) == ["in the turn of your first meld you may add only to your own melds"]
    assert check_add(MELDED, own_meld=False) == []


def test_the_breaking_example_yellow_5_makes_3_4_5_yellow() -> None:
    run = tiles("Y3 Y4 Y5 Y6 Y7 Y8")
    after = groups("Y3 Y4 Y5 | Y5 Y6 Y7 Y8")
    assert check_break(MELDED, run, tiles("Y5"), after) == []


def test_a_break_must_leave_only_valid_melds_and_the_same_tiles() -> None:
    run = tiles("Y3 Y4 Y5 Y6 Y7 Y8")
    problems = check_break(MELDED, run, tiles("Y5"), groups("Y3 Y4 Y5 | Y5 Y6 Y7"))
    assert problems == ["tiles went missing from the table: Y8"]
    problems = check_break(MELDED, run, tiles("Y5"), groups("Y3 Y4 Y5 | Y5 Y6 Y7 Y8 Y9"))
    assert problems == ["tiles appeared from nowhere: Y9"]
    problems = check_break(MELDED, tiles("Y3 Y4 Y5 Y6 Y7"), tiles("Y4"), groups("Y3 Y4 | Y4 Y5 Y6 Y7"))
    assert problems == ["Y3 Y4 is not a meld: a run or a formation needs at least 3 tiles"]


def test_no_break_before_melding_or_with_one_or_two_tiles_on_the_board() -> None:
    run, after = tiles("Y3 Y4 Y5 Y6 Y7 Y8"), groups("Y3 Y4 Y5 | Y5 Y6 Y7 Y8")
    assert check_break(NOT_MELDED, run, tiles("Y5"), after) == ["you cannot break a run before your first meld"]
    assert check_break(TurnFacts(melded=True, board_size=2), run, tiles("Y5"), after) == [
        "with one or two tiles on your board you cannot break a run"]


def test_a_formation_is_broken_only_by_taking_a_tile_from_it_into_a_new_meld() -> None:
    # text l.108: two tiles of the board make a meld with a tile put down: the tile is taken
    problems = check_break(MELDED, tiles("R5 B5 K5"), tiles("Y5"), groups("R5 B5 K5 Y5"))
    assert problems and "is an add" not in problems[0] and "tiles only added" in problems[0]
    four = tiles("R9 B9 K9 Y9")
    assert check_break(MELDED, four, tiles("R10 R11"), groups("B9 K9 Y9 | R9 R10 R11")) == []
    three = tiles("R9 B9 K9")  # two left behind are no meld
    assert check_break(MELDED, three, tiles("R10 R11"), groups("B9 K9 | R9 R10 R11"))
    assert check_break(MELDED, tiles("R9 K3 Y7"), tiles("R10"), groups("R9 R10 | K3 Y7"))[0] == \
        "R9 K3 Y7 is not a meld to break"


def test_a_table_tile_taken_with_two_of_your_own_makes_a_new_meld() -> None:
    meld = tiles("K4 K5 K6 K7")
    assert check_take_from_table(MELDED, meld, Tile(7, "K"), tiles("R7 B7"), tiles("K7 R7 B7")) == []
    problems = check_take_from_table(MELDED, tiles("K4 K5 K6"), Tile(6, "K"), tiles("R6 B6"), tiles("K6 R6 B6"))
    assert problems == ["K4 K5 is not a meld: a run or a formation needs at least 3 tiles"]
    assert check_take_from_table(NOT_MELDED, meld, Tile(7, "K"), tiles("R7 B7"), tiles("K7 R7 B7")) == [
        "you cannot take tiles from the table before your first meld"]


# --- the pool -----------------------------------------------------------------------------


def test_the_pool_is_rebuilt_from_the_thrown_tiles_except_the_first() -> None:
    thrown = tiles("R1 B2 K3 Y4 R5")
    pool, out = rebuild_pool(thrown, random.Random(3))
    assert out == (Tile(1, "R"),)
    assert Counter(pool) == Counter(thrown[1:])


def test_the_game_ends_when_the_pool_runs_dry_and_cannot_be_rebuilt() -> None:
    assert not game_over_by_pool(pool_size=3, thrown_available=0, rebuilds_done=5)
    assert not game_over_by_pool(pool_size=0, thrown_available=10, rebuilds_done=0)
    assert game_over_by_pool(pool_size=0, thrown_available=10, rebuilds_done=1)
    assert game_over_by_pool(pool_size=0, thrown_available=0, rebuilds_done=0)


# --- scores and places --------------------------------------------------------------------


def test_a_seat_scores_what_it_laid_plus_bonuses_minus_what_is_left() -> None:
    ace = Tile(8, "Y")
    closer = SeatResult(laid=120, closed=True, ace_shown=True)
    assert seat_score(closer, ace) == (120 + 50 + 50, 0, 100)
    loser = SeatResult(laid=60, board=tuple(tiles("R1 JY Y8 K13")), ace_dealt=True)
    assert seat_score(loser, ace) == (60 - (25 + 50 + 50 + 10), 135, 0)
    assert seat_score(closer, ace, GameScoring(closing_bonus=100))[0] == 270


def test_places_follow_the_scores_and_ties_share_a_place() -> None:
    results = [SeatResult(laid=50, board=tuple(tiles("R5"))), SeatResult(laid=90, closed=True),
               SeatResult(laid=45), SeatResult(laid=40, board=tuple(tiles("JY")))]
    table = standings(results, ace=None)
    assert [(s.seat, s.score, s.place) for s in table] == [(1, 140, 1), (0, 45, 2), (2, 45, 2), (3, -10, 4)]


def test_a_game_that_runs_out_of_tiles_gives_no_closing_bonus() -> None:
    results = [SeatResult(laid=50), SeatResult(laid=70)]
    assert [s.bonus for s in standings(results, ace=None)] == [0, 0]


def test_only_one_seat_closes() -> None:
    with pytest.raises(ValueError):
        standings([SeatResult(closed=True), SeatResult(closed=True)], ace=None)


# --- the order of a turn, and a meld that runs out of time --------------------------------


def test_the_opening_turn_is_a_single_throw() -> None:
    assert check_turn_actions(["throw"], opening_turn=True) == []
    assert check_turn_actions(["show-ace", "throw"], opening_turn=True) == []
    assert check_turn_actions(["draw", "throw"], opening_turn=True) == [
        "the first player opens the game by throwing one tile, without drawing"]


def test_a_turn_draws_first_and_throws_last() -> None:
    assert check_turn_actions(["draw", "meld", "add", "throw"]) == []
    assert check_turn_actions(["take", "meld", "close"]) == []
    assert check_turn_actions(["meld", "draw", "throw"]) == ["a turn starts by drawing a tile or taking the last thrown one"]
    assert check_turn_actions(["draw", "meld"]) == ["a turn ends by throwing a tile (or closing)"]
    assert check_turn_actions(["draw", "take", "throw"]) == ["one tile is drawn or taken per turn"]
    assert check_turn_actions(["draw", "show-ace", "throw"]) == ["the ace is shown at the start of the turn"]


def test_a_meld_not_finished_in_time_goes_back_and_the_drawn_tile_is_thrown() -> None:
    board = tiles("K2 B9 R4")
    laid = groups("R10 R11 R12 | B7 Y7 K7")
    after, thrown = meld_timed_out(board, laid, Tile(4, "R"))
    assert thrown == Tile(4, "R")
    assert Counter(after) == Counter(tiles("K2 B9 R10 R11 R12 B7 Y7 K7"))
    with pytest.raises(ValueError):
        meld_timed_out(board, laid, Tile(5, "R"))


def test_a_joly_on_top_of_the_set_goes_back_and_the_next_tile_is_the_ace() -> None:
    order = shuffled_set(random.Random(7))
    order.remove(JOLY)
    order.insert(0, JOLY)
    d = deal(order, 3)
    assert d.ace == order[1] and not d.ace.is_joker
    every = [t for h in d.hands for t in h] + list(d.pool) + [d.ace]
    assert Counter(every) == Counter(full_tile_set())  # the Joly is in play
