"""Tile rummy's limits before and around the first meld, refereed live through the game flow:
the last thrown tile taken, the board kept at 14 tiles, runs broken, tiles added to other
seats' melds, and the end count of a seat whose first meld never counted.

Each test names the line of the shared rule text ``tile-rummy-romanian.txt`` it checks, with
the rule said in our own words. Every refusal is checked the same way: the buzzer, the reason
on the table's notice, the deal exactly as it was, and the journal replaying to the same state.
"""

from __future__ import annotations

from dataclasses import replace

from _game_fixtures import Driver
from test_live_tile import call, dealt, play_past_opening, record, refused

from engine.game.effects import Notice


def refused_with(d: Driver, seat: int, what: str, tiles: str, words: str) -> None:
    """``seat``'s call is refused with ``words`` in the reason, and nothing but the notice
    changes."""
    before = d.state
    effects = call(d, seat, what, tiles)
    assert refused(effects), d.state.notice
    assert words in d.state.notice, d.state.notice
    assert any(isinstance(e, Notice) and words in e.text for e in effects)  # on the table's screen
    assert replace(d.state, notice=before.notice) == before  # nothing else changes
    assert d.replayed() == d.state  # journaled, and refused again when replayed


def taken(d: Driver, seat: int, what: str, tiles: str) -> None:
    effects = call(d, seat, what, tiles)
    assert not refused(effects), d.state.notice


def cy_melds(d: Driver, meld: str = "Y3 Y4 Y5 Y6 Y7 Y8 | K10 B10 R10") -> None:
    """From the deal: the window closed, Bo's opening throw, Cy lays a first meld and throws."""
    play_past_opening(d)
    taken(d, 2, "meld", meld)
    d.press(2)
    assert record(d).melded == (2,)


# --- the last thrown tile -------------------------------------------------------------------


def test_before_melding_the_last_thrown_tile_is_taken_only_to_lay_it_in_the_first_meld():
    """Line 73 (and again line 112): a seat that has not melded may take the tile the seat
    before it threw only when that tile goes into its first meld."""
    d = dealt()
    play_past_opening(d)
    d.press(2)  # Cy throws; Ann is in turn and has not melded
    refused_with(d, 0, "take", "R5", "may be taken only to lay it at once in the first meld")
    refused_with(d, 0, "take", "R5 | R10 R11 R12 | K9 B9 Y9", "R5 was taken but is not in the first meld")
    refused_with(d, 0, "take", "R5 | R3 R4 R5 | K9 B9 Y9", "a first meld needs at least 45")
    taken(d, 0, "take", "R5 | R3 R4 R5 R6 | K10 B10 Y10")
    assert record(d).took == "R5" and record(d).laying_points == 50
    assert "Ann takes R5" in d.state.notice and "first meld of 50 points" in d.state.notice
    d.press(0)
    assert record(d).melded == (0,) and record(d).took == ""
    assert d.replayed() == d.state


def test_the_opening_throw_is_never_taken():
    """Line 30: the tile the first player throws to open the game is out of play for good."""
    d = dealt()
    play_past_opening(d)
    refused_with(d, 2, "take", "R5 | R3 R4 R5 R6 | K10 B10 Y10", "the first tile thrown in the game is out of play")


def test_after_melding_the_last_thrown_tile_may_be_taken_and_kept_but_first_in_the_turn():
    """Line 106: once melded, a seat may take the last thrown tile instead of drawing, with no
    need to lay it at once. Line 35: the draw (or the take) comes before anything else."""
    d = dealt()
    cy_melds(d)
    d.press(0)
    d.press(1)
    taken(d, 2, "take", "K4")
    assert record(d).took == "K4" and record(d).laying == ()
    refused_with(d, 2, "take", "B4", "at the start of the turn")
    d.press(2)
    d.press(0)
    d.press(1)
    taken(d, 2, "meld", "Y9 K9 B9")
    refused_with(d, 2, "take", "B4", "at the start of the turn")


# --- 14 tiles and no break before melding ---------------------------------------------------


def test_before_melding_the_board_stays_at_14_so_nothing_is_added_to_the_table():
    """Line 114: until its first meld a seat's board is fixed at 14 tiles (it may not break a
    run either); nothing leaves the board but the first meld and the turn's throw."""
    d = dealt()
    cy_melds(d)
    refused_with(d, 0, "add", "K10 B10 R10 | Y10", "until the first meld the board stays at 14 tiles")
    refused_with(d, 0, "add", "Y3 Y4 Y5 Y6 Y7 Y8 | Y9", "cannot add tiles to the melds on the table")
    d.press(0)
    d.press(1)
    taken(d, 2, "add", "K10 B10 R10 | Y10")  # Cy has melded: the formation grows to four
    assert "Cy adds Y10 to their own K10 B10 R10" in d.state.notice
    d.press(2)
    assert (2, ("K10", "B10", "R10", "Y10")) in record(d).table


def test_no_run_is_broken_before_the_first_meld():
    """Line 114: a seat that has not melded may not break a run on the table; line 49: once
    melded it may, with a tile from its board, every group it makes a meld (line 51)."""
    d = dealt()
    cy_melds(d)
    broken = "Y3 Y4 Y5 Y6 Y7 Y8 | Y3 Y4 Y5 | Y5 Y6 Y7 Y8"
    refused_with(d, 0, "break", broken, "cannot break a run on the table")
    taken(d, 0, "meld", "R10 R11 R12 | K9 B9 Y9")
    d.press(0)
    d.press(1)
    d.press(2)
    refused_with(d, 0, "break", "Y3 Y4 Y5 Y6 Y7 Y8 | Y3 Y4 Y5 | Y6 Y7 Y8", "a run is broken with a tile from your board")
    taken(d, 0, "break", broken)
    d.press(0)
    table = record(d).table
    assert (2, ("Y3", "Y4", "Y5")) in table and (0, ("Y5", "Y6", "Y7", "Y8")) in table
    assert ("Y3", "Y4", "Y5", "Y6", "Y7", "Y8") not in [g for _, g in table]
    assert d.replayed() == d.state


def test_no_run_is_broken_with_one_or_two_tiles_on_the_board():
    """Line 118: with one or two tiles left on its board a seat may not break."""
    d = dealt()
    cy_melds(d, "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13")  # 13 of its 15 tiles laid
    d.press(0)
    d.press(1)  # Cy threw one and drew one: two tiles on its board
    refused_with(d, 2, "break", "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 | B1 B2 B3 B4 | "
                 "B4 B5 B6 B7 B8 B9 B10 B11 B12 B13", "one or two tiles")


# --- the turn of the first meld -------------------------------------------------------------


def test_in_the_turn_of_its_first_meld_a_seat_adds_only_to_its_own_melds():
    """Line 116: in the turn it first melds, a seat may not stick tiles on the melds of
    other players; it may from its next turn on."""
    d = dealt()
    cy_melds(d)
    taken(d, 0, "meld", "R10 R11 R12 | K9 B9 Y9")
    refused_with(d, 0, "add", "K10 B10 R10 | Y10", "on Cy's from Ann's next turn")
    refused_with(d, 0, "break", "Y3 Y4 Y5 Y6 Y7 Y8 | Y3 Y4 Y5 | Y5 Y6 Y7 Y8", "only Ann's own runs")
    taken(d, 0, "add", "R10 R11 R12 | R13")  # its own run, laid this turn: allowed
    d.press(0)
    d.press(1)
    d.press(2)
    taken(d, 0, "add", "K10 B10 R10 | Y10")  # the next turn: Cy's melds too
    assert "Ann adds Y10 to Cy's K10 B10 R10" in d.state.notice
    d.press(0)
    assert (2, ("K10", "B10", "R10", "Y10")) in record(d).table
    assert record(d).points_laid(0) == 45 + 10 + 10


def test_tiles_added_when_time_runs_out_go_back_with_the_meld():
    """Line 45: a seat is melded only once it throws in time; otherwise what it laid that
    turn returns to its board (here, tiles added to a meld go back with it)."""
    d = dealt()
    cy_melds(d)
    taken(d, 0, "meld", "R10 R11 R12 | K9 B9 Y9")
    taken(d, 0, "add", "R10 R11 R12 | R13")
    d.time_out()
    assert record(d).melded == (2,) and record(d).lapsed == 1
    assert [g for _, g in record(d).table] == [("Y3", "Y4", "Y5", "Y6", "Y7", "Y8"), ("K10", "B10", "R10")]


# --- the end count --------------------------------------------------------------------------


def test_a_seat_whose_first_meld_lapsed_counts_its_groups_against_it_at_the_end():
    """Line 45: a first meld not finished in time goes back to the board and the seat has not
    melded; line 71: groups kept on the board are subtracted when another player ends the game.
    A seat that did meld still scores its melds as laid."""
    d = dealt("R7")
    cy_melds(d, "R10 R11 R12 | K9 B9 Y9")
    taken(d, 0, "meld", "B1 B2 B3 B4 B5 B6 B7 B8 B9")
    d.time_out()  # Ann's first meld goes back to her board
    assert record(d).melded == (2,)
    d.show(1, "K2 K3 K4 | Y11 B11 R11 | K5", {0: "B1 B2 B3 B4 B5 B6 B7 B8 B9 | Y4", 2: "R10 R11 R12 | K9 B9 Y9 | K13"})
    scores = d.state.history[-1].scores
    assert scores[0] == -(25 + 8 * 5 + 5)  # nothing laid: the run is on her board, the 1 at 25
    assert scores[2] == 30 + 15 - 10  # Cy melded: its melds are laid, the K13 is left
    assert scores[1] == 15 + 30 + 50  # Bo closes


def test_a_lapsed_first_meld_counts_against_its_seat_when_the_pool_ends_the_game():
    """Line 45: when time runs out before the throw, the tiles laid go back to the board and
    the seat has not melded; line 122: the pool used up a second time ends the game with
    every board counted."""
    d = dealt()
    play_past_opening(d)
    taken(d, 2, "meld", "R10 R11 R12 | K9 B9 Y9")
    d.time_out()  # Cy's first meld goes back to the board
    for _ in range(2):  # the pool runs out: rebuilt once, then the game ends
        d.menu()
        d.ok()
    for seat, hand in ((0, "K4"), (1, "B2 B3"), (2, "R10 R11 R12 | K9 B9 Y9")):
        assert d.state.show.pending[0] == seat
        d.read(seat, hand)
        d.ok()
    assert d.state.history[-1].scores == (-5, -10, -(30 + 15))


# --- a close by a seat that has not melded --------------------------------------------------


def _close(d: Driver, seat: int, zone: str) -> None:
    d.declare(seat)
    d.read(seat, zone)
    d.ok()


def test_a_seat_that_never_melded_closes_only_with_a_first_meld_s_worth():
    """Line 69 (and line 39): the first put-down needs at least one run and 45 points. A seat
    that closes without having melded lays everything in that turn, so its close is its first
    meld: formations alone, or too few points, do not close; the seat plays on."""
    d = dealt()
    cy_melds(d)  # the table calls its melds; Ann has not melded
    assert d.state.deal.turn == 0
    _close(d, 0, "K9 B9 Y9 | K4 B4 Y4 | R2")  # formations only
    assert d.state.phase == "play" and d.state.deal.turn == 0, d.state.notice
    assert "Ann has not melded before" in d.state.notice and "at least one run" in d.state.notice
    _close(d, 0, "R3 R4 R5 | K4 B4 Y4 | R2")  # a run, but 30 points
    assert d.state.phase == "play", d.state.notice
    assert "a first meld needs at least 45" in d.state.notice
    _close(d, 0, "R10 R11 R12 | K9 B9 Y9 | R2")  # 45 with a run: the close stands
    assert d.state.phase == "show" and d.state.show.valid, d.state.notice
    assert d.replayed() == d.state


def test_a_seat_that_melded_before_closes_with_whatever_groups_are_left():
    """Line 102: after the first meld, later groups need not make 45 points; closing with a
    small formation and the last tile is a close."""
    d = dealt()
    cy_melds(d)
    d.press(0)
    d.press(1)
    _close(d, 2, "K4 B4 Y4 | R2")
    assert d.state.phase == "show" and d.state.show.valid, d.state.notice


def test_a_first_meld_laid_in_the_closing_turn_is_checked_when_laid_not_again_at_the_close():
    """Line 69: the first meld laid in the turn (45 with a run, checked then) is the seat's;
    the rest it lays to close need only be melds."""
    d = dealt()
    cy_melds(d)
    taken(d, 0, "meld", "R10 R11 R12 | K9 B9 Y9")
    _close(d, 0, "K4 B4 Y4 | R2")
    assert d.state.phase == "show" and d.state.show.valid, d.state.notice


# --- the pool rebuilt ------------------------------------------------------------------------


def test_after_the_pool_is_rebuilt_no_thrown_tile_is_left_to_take_until_the_next_throw():
    """Line 120: when the pool runs out the thrown tiles (but the first) are mixed into a new
    pool, so the pile of thrown tiles is empty: taking the last thrown tile (line 106) waits
    for the next throw."""
    d = dealt()
    cy_melds(d)
    d.press(0)
    d.press(1)  # Cy, who has melded, is in turn
    d.menu()
    d.ok()  # the pool ran out: rebuilt
    assert record(d).rebuilds == 1
    refused_with(d, 2, "take", "K4", "none is left to take until the next throw")
    d.press(2)  # Cy throws
    taken(d, 0, "take", "K4 | R10 R11 R12 | K4 B4 Y4")
    assert record(d).took == "K4"
    assert d.replayed() == d.state
