"""Tile rummy melds and values: each rule with the rule text's own example, then properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.families.tile.rules import (
    board_value,
    check_close,
    check_first_meld,
    end_value,
    put_down_value,
    read_meld,
)
from engine.tiles import JOLY, Tile
from tests._tile_fixtures import formations, groups, groups_to_judge, put_down_expected, runs, tiles

# --- runs ("suites") ------------------------------------------------------------------------


def test_a_run_is_three_or_more_tiles_of_one_colour_in_a_row() -> None:
    r = read_meld(tiles("Y3 Y4 Y5"))
    assert r.valid and r.is_run and r.kind == "pure-sequence"
    assert r.reason == "a run of yellow 3 to 5"
    assert not read_meld(tiles("Y3 Y4")).valid
    assert read_meld(tiles("Y3 Y4")).reason == "a run or a formation needs at least 3 tiles"


def test_the_1_low_example_1_2_3() -> None:
    r = read_meld(tiles("R1 R2 R3"))
    assert r.is_run and r.stands_for == (1, 2, 3)


def test_the_1_high_example_12_13_1() -> None:
    r = read_meld(tiles("R12 R13 R1"))
    assert r.is_run and r.stands_for == (12, 13, 14)


def test_the_1_in_the_middle_example_13_1_2_is_not_a_run() -> None:
    r = read_meld(tiles("R13 R1 R2"))
    assert not r.valid
    assert "never between them (13-1-2)" in r.reason


def test_a_run_cannot_hold_both_a_low_and_a_high_1() -> None:
    whole = "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13"
    assert read_meld(tiles(whole)).valid
    assert not read_meld(tiles(whole + " B1")).valid
    # nor can a Joly stand for the second 1
    assert not read_meld(tiles("JY B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 JY")).valid


def test_a_run_is_all_one_colour() -> None:
    r = read_meld(tiles("R5 B6 K7"))
    assert not r.valid and "one colour" in r.reason


def test_a_gap_in_a_run_is_explained() -> None:
    assert read_meld(tiles("R5 R7 R9")).reason == "these red tiles are not in a row"


# --- formations ---------------------------------------------------------------------------


def test_the_formation_example_blue_yellow_red_7() -> None:
    r = read_meld(tiles("B7 Y7 R7"))
    assert r.valid and r.is_formation and r.kind == "set"
    assert r.reason == "a formation of 7s"


def test_a_formation_has_distinct_colours() -> None:
    r = read_meld(tiles("K9 R9 K9"))
    assert not r.valid and r.reason == "a formation cannot hold two black 9s"


def test_a_full_formation_of_4_cannot_be_extended() -> None:
    assert read_meld(tiles("R4 B4 K4 Y4")).reason == "a formation of 4s (full)"
    r = read_meld(tiles("R4 B4 K4 Y4 JY"))
    assert not r.valid and "at most 4 tiles" in r.reason


# --- Jolys --------------------------------------------------------------------------------


def test_the_joly_example_black_9_red_9_joly() -> None:
    r = read_meld(tiles("K9 R9 JY"))
    assert r.valid and r.is_formation and r.jolys == 1
    assert r.stands_for == (9, 9, 9)


def test_a_joly_takes_the_place_it_is_laid_in() -> None:
    assert read_meld(tiles("JY R10 R11")).stands_for == (9, 10, 11)
    assert read_meld(tiles("R10 R11 JY")).stands_for == (10, 11, 12)
    assert read_meld(tiles("R5 JY R7")).stands_for == (5, 6, 7)


def test_the_ratio_example_two_jolys_need_four_real_tiles() -> None:
    assert read_meld(tiles("JY JY R3 R4 R5 R6")).valid
    r = read_meld(tiles("JY JY R3 R4 R5"))
    assert not r.valid
    assert r.reason == "too many Jolys: 2 Jolys need at least 4 real tiles beside them, and there are 3"
    assert not read_meld(tiles("JY R3")).valid
    assert not read_meld(tiles("JY JY JY")).valid


def test_one_joly_needs_two_real_tiles() -> None:
    assert read_meld(tiles("JY R3 R4")).valid
    assert read_meld(tiles("R3 B3 JY Y3")).valid


# --- values -------------------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "points"), [
    ("R2 R3 R4", 15),  # 2-9: 5 each
    ("R10 R11 R12", 30),  # 10-13: 10 each
    ("R1 R2 R3", 15),  # a 1 in 1-2-3: 5
    ("R12 R13 R1", 30),  # a 1 in 12-13-1: 10
    ("R1 B1 K1", 30),  # a 1 in a formation: 10
    ("JY R10 R11", 25),  # the Joly is a 9: 5
    ("R8 R9 JY", 20),  # the Joly is a 10: 10
    ("R12 R13 JY", 30),  # the Joly is a high 1: 10
    ("K1 R1 JY", 30),  # the Joly is a 1 in a formation: 10
])
def test_put_down_values(hand: str, points: int) -> None:
    assert read_meld(tiles(hand)).value == points


def test_end_of_game_values() -> None:
    assert [end_value(t) for t in tiles("R2 Y9 B10 K13 R1 JY")] == [5, 5, 10, 10, 25, 50]


def test_the_ace_twin_dealt_from_the_start_counts_50() -> None:
    ace = Tile(7, "B")
    assert end_value(Tile(7, "B"), ace) == 50
    assert end_value(Tile(7, "B"), ace, ace_dealt=False) == 5
    assert end_value(Tile(7, "R"), ace) == 5
    assert board_value(tiles("B7 R1 JY"), ace) == 125


# --- the first meld -----------------------------------------------------------------------


def test_first_meld_of_45_with_a_run() -> None:
    v = check_first_meld(groups("R10 R11 R12 | B7 Y7 K7"))
    assert v.valid and v.points == 45 and v.problems == ()


def test_formations_alone_cannot_open() -> None:
    v = check_first_meld(groups("B10 Y10 K10 | R7 B7 Y7"))
    assert not v.valid and v.points == 45
    assert v.problems == ("a first meld needs at least one run; formations alone cannot open",)


def test_runs_alone_may_open() -> None:
    assert check_first_meld(groups("R10 R11 R12 | K11 K12 K13")).valid


def test_first_meld_below_45_is_refused() -> None:
    v = check_first_meld(groups("R10 R11 R12"))
    assert not v.valid and v.points == 30
    assert "only 30 points" in v.problems[0]


def test_an_invalid_group_spoils_a_first_meld() -> None:
    v = check_first_meld(groups("R10 R11 R12 | B7 Y7 K7 | R2 R5 R9"))
    assert not v.valid and v.points == 45
    assert v.problems[0].startswith("R2 R5 R9 is not a meld")


# --- the close ----------------------------------------------------------------------------


def test_a_close_may_throw_one_last_tile() -> None:
    v = check_close(groups("R1 R2 R3 | B7 Y7 K7 | R9"))
    assert v.valid and v.points == 0 and v.closing_tile == Tile(9, "R")


def test_a_close_with_every_tile_melded() -> None:
    v = check_close(groups("R1 R2 R3 | B7 Y7 K7"))
    assert v.valid and v.closing_tile is None


def test_a_close_with_two_lone_tiles_is_refused_and_counts_what_is_left() -> None:
    v = check_close(groups("R1 R2 R3 | B7 Y7 K7 | R9 | K1"))
    assert not v.valid and v.points == 30
    assert v.problems[-1] == "2 lone tiles: only one, the last, may be thrown to close"


def test_a_close_without_the_lone_tile_allowance() -> None:
    assert not check_close(groups("R1 R2 R3 | R9"), closing_tile_allowed=False).valid


# --- properties ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(groups_to_judge())
def test_every_accepted_group_obeys_the_joly_ratio(group: list[Tile]) -> None:
    r = read_meld(group)
    jolys = sum(t.is_joker for t in group)
    if r.valid:
        assert 2 * jolys <= len(group) - jolys
        assert 3 <= len(group) <= 13
        assert r.value == sum(put_down_expected(n, r.is_run) for n in r.stands_for)
    elif 2 * jolys > len(group) - jolys and len(group) >= 3 and jolys < len(group):
        assert r.reason.startswith("too many Jolys")


@settings(max_examples=300, deadline=None)
@given(groups_to_judge())
def test_an_accepted_run_never_holds_a_1_in_the_middle(group: list[Tile]) -> None:
    r = read_meld(group)
    if r.valid and r.is_run:
        numbers = sorted(r.stands_for)
        assert numbers == list(range(numbers[0], numbers[0] + len(group)))
        assert not (1 in numbers and 14 in numbers)


@settings(max_examples=300, deadline=None)
@given(runs())
def test_a_run_with_jolys_is_read_as_laid_and_valued_by_what_each_tile_stands_for(
        run: tuple[list[Tile], list[int]]) -> None:
    laid, numbers = run
    r = read_meld(laid)
    assert r.valid and r.is_run
    assert list(r.stands_for) == numbers
    assert r.value == sum(put_down_expected(n, True) for n in numbers)
    assert r.value == sum(put_down_value(n, True) for n in r.stands_for)


@settings(max_examples=200, deadline=None)
@given(formations())
def test_a_formation_is_valued_by_its_number(formation: tuple[list[Tile], int]) -> None:
    laid, number = formation
    r = read_meld(laid)
    assert r.valid and r.is_formation
    assert r.value == len(laid) * put_down_expected(number, False)


@settings(max_examples=200, deadline=None)
@given(runs(), st.randoms(use_true_random=False))
def test_a_run_without_jolys_laid_out_of_order_is_still_a_run(run: tuple[list[Tile], list[int]],
                                                             rng: random.Random) -> None:
    laid, numbers = run
    real = [t for t in laid if t != JOLY]
    if len(real) < len(laid):
        return
    mixed = list(real)
    rng.shuffle(mixed)
    r = read_meld(mixed)
    assert r.is_run
    assert sorted(n % 13 for n in r.stands_for) == sorted(n % 13 for n in numbers)
    if len(laid) < 13:  # all thirteen numbers out of order: the 1 may be read low or high
        assert r.value == read_meld(laid).value
