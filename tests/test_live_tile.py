"""Tile rummy refereed live, through the game flow: each test quotes the line of the rule text
(shared rules, ``tile-rummy-romanian.txt``) it checks."""

from __future__ import annotations

from _game_fixtures import Driver, game, groups

from engine.game import (
    LONG_PRESS_MS,
    ButtonPressed,
    ButtonReleased,
    Called,
    DealStarted,
    Notice,
    Tick,
    event_from_json,
    replay,
)
from engine.game.effects import Buzz

NAMES = ["Ann", "Bo", "Cy"]
WINDOW_MS = 45_000


def dealt(ace: str = "R7") -> Driver:
    """Ann deals, Bo plays first (15 tiles); the doubles window is open."""
    d = Driver(game("tile-rummy", NAMES))
    d(DealStarted(ace, d.at(1000)))
    return d


def call(d: Driver, seat: int, what: str, tiles: str = "", after: int = 500) -> list:
    return d(Called(seat, what, groups(tiles) if tiles else (), d.at(after)))


def refused(effects: list) -> bool:
    return any(isinstance(e, Buzz) for e in effects)


def record(d: Driver):
    assert d.state.deal is not None
    return d.state.deal.family


def play_past_opening(d: Driver) -> None:
    """OK closes the window; Bo's opening throw; Cy is in turn."""
    d.ok()
    d.press(1)
    assert d.state.deal.turn == 2


# --- doubles --------------------------------------------------------------------------------


def test_doubles_declared_in_the_window_are_exchanged_low_for_low_when_it_closes():
    """"Any other player who has a double can exchange with the other. You can only change the
    double of the same value ("high double" to "high double" and " low double" to "low double")." """
    d = dealt()
    call(d, 1, "double", "B7 B7")
    call(d, 0, "double", "K12")
    call(d, 2, "double", "Y3 Y3")
    assert record(d).swaps == ()  # nothing is exchanged while the window is open
    effects = d.ok()
    assert record(d).swaps == ((1, "B7", 2, "Y3"),)
    said = [e.text for e in effects if isinstance(e, Notice)]
    assert any("Bo gives B7 to Cy, Cy gives Y3 to Bo" in t and "Ann's K12" in t for t in said)


def test_a_1_is_a_high_double_and_swaps_with_a_13():
    """"Tiles from 2 to 9 are low and from 10 to 13 they are high. Tile number 1 is considered
    a high double." """
    d = dealt()
    call(d, 0, "double", "Y1 Y1")
    call(d, 2, "double", "B5 B5")
    call(d, 1, "double", "K13 K13")
    d.ok()
    assert record(d).swaps == ((0, "Y1", 1, "K13"),)


def test_doubles_after_the_45_seconds_are_refused_and_the_window_closes_on_its_own():
    """"At first you have 45 seconds to declare doubles and to place your tiles on the board." """
    d = dealt()
    call(d, 1, "double", "B7 B7", after=10_000)
    call(d, 2, "double", "Y3 Y3", after=10_000)
    effects = d(Tick(d.at(WINDOW_MS)))  # past the window: the exchange happens on its own
    assert record(d).window_over and record(d).swaps == ((1, "B7", 2, "Y3"),)
    assert any(isinstance(e, Notice) and "doubles exchanged" in e.text for e in effects)
    late = call(d, 0, "double", "K12 K12")
    assert refused(late) and "first 45 seconds" in d.state.notice
    assert all(seat != 0 for seat, _ in record(d).doubles)


def test_a_double_is_a_pair_of_identical_tiles_and_never_of_jolys_or_the_ace():
    """"if a player has a pair of identical tiles (same number and same color), he may declare
    doubles" """
    d = dealt("R7")
    assert refused(call(d, 0, "double", "B7 Y7"))
    assert "identical" in d.state.notice
    assert refused(call(d, 0, "double", "JY JY"))
    assert "Jolys" in d.state.notice
    assert refused(call(d, 0, "double", "R7 R7"))  # the other R7 is the turned-up ace
    assert "ace" in d.state.notice
    call(d, 1, "double", "B4 B4")
    assert refused(call(d, 2, "double", "B4 B4"))  # only two B4s exist, and Bo holds both
    assert "Bo declared that pair" in d.state.notice
    assert [t for _, t in record(d).doubles] == ["B4"]


# --- the ace --------------------------------------------------------------------------------


def test_the_ace_shown_in_the_window_earns_50_and_counts_50_against_its_holder_only():
    """"Ace (if you have it from the beginning) = 50 points" """
    d = dealt("R7")
    d(ButtonPressed(2, d.at(500)))
    d(ButtonReleased(2, d.at(LONG_PRESS_MS + 100)))  # a long press in the window: Cy shows the ace
    assert record(d).ace_shown_by == 2 and d.state.phase == "play"
    assert "Cy shows the ace R7" in d.state.notice
    assert refused(call(d, 0, "ace", "R7"))  # there is one twin in play
    play_past_opening(d)
    # Cy closes; the twin R7 is on Ann's board at the end: drawn later, it is only a 7 there
    d.show(2, "K9 B9 Y9 | R10 R11 R12 | Y1",
           {0: "R7 K4", 1: "B2 B3"})
    scores = d.state.history[-1].scores
    assert scores[2] == 15 + 30 + 50 + 50  # laid, the closing bonus, the ace bonus
    assert scores[0] == -(5 + 5)  # R7 drawn later counts 5, not 50
    assert scores[1] == -(5 + 5)


def test_the_ace_kept_on_the_board_of_the_seat_that_showed_it_costs_50():
    """"Ace (if you have it from the beginning) = 50 points" """
    d = dealt("R7")
    call(d, 0, "ace")
    play_past_opening(d)
    d.show(2, "K9 B9 Y9 | R10 R11 R12 | Y1", {0: "R7 K4", 1: "B2 B3"})
    assert d.state.history[-1].scores[0] == 50 - (50 + 5)


def test_the_ace_is_shown_only_early_and_only_as_the_turned_up_tile():
    """"A single tile will remain ungrouped – it will be turned and will become the ace in the
    game." """
    d = dealt("R7")
    assert refused(call(d, 0, "ace", "R8"))
    assert "not the ace" in d.state.notice
    play_past_opening(d)
    assert refused(call(d, 0, "ace"))  # Ann's first turn has not come yet, the window is over
    d.press(2)
    call(d, 0, "ace")  # now it is Ann's first turn
    assert record(d).ace_shown_by == 0


# --- the first meld and its timer -----------------------------------------------------------


def test_a_first_meld_needs_a_run_and_45_points():
    """"For the first put down you must have at least one suite and 45 points." """
    d = dealt()
    play_past_opening(d)
    assert refused(call(d, 2, "meld", "K9 B9 Y9 | K10 B10 Y10"))  # 45 points, formations only
    assert "at least one run" in d.state.notice
    assert refused(call(d, 2, "meld", "R2 R3 R4 | K9 B9 Y9"))  # a run, but 30 points
    assert "only 30 points" in d.state.notice
    call(d, 2, "meld", "R10 R11 R12 | K9 B9 Y9")
    assert record(d).laying_points == 45
    d.press(2)
    assert record(d).melded == (2,) and "Cy has melded (45 points)" in d.state.notice


def test_the_opening_throw_lays_nothing_and_only_the_seat_in_turn_lays():
    """"The first player (who has 15 tiles) will start the game by putting down a tile they
    don't use." """
    d = dealt()
    d.ok()
    assert refused(call(d, 1, "meld", "R10 R11 R12 | K9 B9 Y9"))
    assert "throwing one tile" in d.state.notice
    d.press(1)
    assert refused(call(d, 0, "meld", "R10 R11 R12 | K9 B9 Y9"))
    assert "own turn" in d.state.notice


def test_a_meld_not_finished_by_a_throw_in_time_goes_back_to_the_board():
    """"if time runs out, the tiles will be back on the board and you will have to put down the
    last drawn tile." """
    d = dealt()
    play_past_opening(d)
    call(d, 2, "meld", "B1 B2 B3 B4 B5 B6 B7 B8 B9")
    effects = d.time_out()
    assert record(d).melded == () and record(d).lapsed == 1 and record(d).laying == ()
    assert any(isinstance(e, Notice) and "go back to the board" in e.text for e in effects)
    d.press(0)
    d.press(1)
    # still not melded: Cy's next meld must be a first meld again
    assert refused(call(d, 2, "meld", "K4 K5 K6"))
    assert "first meld" in d.state.notice


def cy_melded() -> Driver:
    """Past the opening throw, Cy's first meld of 45 (R10 R11 R12 | K9 B9 Y9) has counted."""
    d = dealt()
    play_past_opening(d)
    call(d, 2, "meld", "R10 R11 R12 | K9 B9 Y9")
    d.press(2)
    return d


def test_after_the_first_meld_any_valid_meld_may_be_laid():
    """"Can put down other suites / formations without having to meet the scale of 45 points." """
    d = cy_melded()
    d.press(0)
    d.press(1)
    call(d, 2, "meld", "Y4 K4 B4")
    assert record(d).laying_points == 15 and not d.state.notice.startswith("Cy's")
    assert refused(call(d, 2, "meld", "Y4 Y5 K6"))
    assert "not a meld" in d.state.notice
    d.press(2)
    assert record(d).points_laid(2) == 45 + 15


# --- the pool -------------------------------------------------------------------------------


def test_the_pool_is_rebuilt_once_then_the_game_ends_without_a_closing_bonus():
    """"If the drawing tiles are over, the put down tiles (except the first tile) are mixed and
    the game is resumed." """
    d = dealt()
    play_past_opening(d)
    d.menu()
    d.ok()
    assert d.state.phase == "play" and record(d).rebuilds == 1
    assert "mixed into a new pool" in d.state.notice
    d.menu()
    d.ok()  # "If all tiled are finished, the game ends without anyone getting the closing bonus."
    assert d.state.phase == "show"
    for seat, hand in ((2, "R10 R11 R12"), (0, "K4"), (1, "B2 B3")):
        assert d.state.show.pending[0] == seat
        d.read(seat, hand)
        d.ok()
    record_ = d.state.history[-1]
    # no meld was called in this game: the zones read are the only word on what was laid
    assert record_.winner is None and record_.scores == (-5, -10, 30)


# --- the journal ----------------------------------------------------------------------------


def test_calls_refused_or_answered_replay_from_the_journal():
    """"Doubles are distributed and changed automatically after declaring them and if there is
    double availability from other players." """
    d = dealt()
    call(d, 1, "double", "B7 B7")
    call(d, 2, "double", "B7")  # refused
    call(d, 2, "double", "Y3")
    call(d, 0, "ace")
    d.ok()
    d.press(1)
    call(d, 2, "meld", "R10 R11 R12 | K9 B9 Y9")
    d.press(2)
    again = replay(d.state.game, [event_from_json(e.to_json()) for e in d.log])
    assert again == d.state
    assert again.deal.family.swaps == ((1, "B7", 2, "Y3"),) and again.deal.family.melded == (2,)


def test_a_family_without_calls_refuses_them_in_words():
    """No rule line: the policy hook's neutral default, so a call reaching another family's game
    is refused with a reason instead of being ignored."""
    d = Driver(game("indian-pool-101"))
    d.deal()
    effects = d(Called(0, "double", groups("5H 5H"), d.at(500)))
    assert refused(effects) and "has no call" in d.state.notice


def test_a_joly_turned_up_is_no_ace_the_next_tile_turned_is():
    # The text (l.15) makes the turned tile the ace; a Joly has no number to be one. The deal
    # does not start on it (the players are told to turn the next tile), and does on that one.
    d = Driver(game("tile-rummy", NAMES))
    effects = d(DealStarted("JY", d.at(1000)))
    assert d.state.deal is None and refused(effects)
    assert any(isinstance(e, Notice) and "Joly" in e.text and "next tile" in e.text for e in effects)
    d(DealStarted("B4", d.at(500)))
    assert d.state.deal is not None and d.state.deal.wild == "B4"


# --- the end of the game scored from the called melds ------------------------------------------


def test_groups_a_melded_seat_kept_on_its_board_count_against_it():
    # text l.71: melds kept on the board for later are subtracted when another seat closes
    d = cy_melded()
    d.press(0)
    d.show(1, "K2 K3 K4 | Y11 B11 R11 | K5",
           {0: "Y4", 2: "R10 R11 R12 | K9 B9 Y9 | K4 B4 Y4 | JY R5 R6"})
    # Cy laid 45; K4 B4 Y4 JY R5 R6 never left its board: 5+5+5+50+5+5
    assert d.state.history[-1].scores[2] == 45 - 75


def test_tiles_added_to_another_seat_s_meld_score_for_the_seat_that_laid_them():
    # text l.104: a melded seat may add tiles to melds others put down; they are its put-down
    d = cy_melded()  # Cy: 45
    call(d, 0, "meld", "Y3 Y4 Y5 Y6 Y7 Y8 | K10 B10 Y10")  # Ann: 60
    d.press(0)
    d.press(1)
    d.press(2)
    call(d, 0, "add", "R10 R11 R12 | R13 R1")  # Ann adds 20 to Cy's run
    d.press(0)
    d.show(1, "K2 K3 K4 | Y11 B11 R11 | K5",  # the added tiles lie with Cy's run
           {2: "R10 R11 R12 R13 R1 | K9 B9 Y9", 0: "Y3 Y4 Y5 Y6 Y7 Y8 | K10 B10 Y10 | B2"})
    scores = d.state.history[-1].scores
    assert scores[0] == 60 + 20 - 5 and scores[2] == 45


def test_nobody_closes_in_the_opening_turn():
    # text l.30: the first player opens the game by throwing a tile it does not use
    d = dealt()
    d.ok()  # the doubles window closes; Bo's opening turn
    assert d.state.deal.turn == 1 and d.state.deal.turn_count == 1
    d.show(1, "R10 R11 R12 | K9 B9 Y9 | K2 K3 K4 | Y11 B11 R11 | K5", {})
    assert d.state.phase != "game-over" and "nobody closes" in d.state.notice


def test_a_wrong_close_plays_on_with_the_time_the_turn_had_left():
    # text l.45: the turn's 45 seconds are not given again by a close that is not one
    d = dealt()
    play_past_opening(d)
    deadline = d.state.deal.deadline_ms
    d.t = deadline - 5000  # 5 s left of Cy's turn
    d.declare(2)
    left = deadline - d.t  # what was left when the close was declared
    assert 0 < left <= 5000
    d.read(2, "K2 K5 | R3")
    d.ok()  # not a close: Cy plays on
    assert d.state.phase == "play" and d.state.deal.turn == 2
    assert d.state.deal.deadline_ms - d.t == left  # not 45 s again


def test_the_house_first_meld_threshold_holds_in_live_play_as_in_the_judge():
    d = Driver(game("tile-rummy", NAMES, options={"first_meld": 60}))
    d(DealStarted("R7", d.at(1000)))
    play_past_opening(d)
    assert refused(call(d, 2, "meld", "R10 R11 R12 | K9 B9 Y9"))  # 45: short of the table's 60
    assert "at least 60" in d.state.notice
    assert not refused(call(d, 2, "meld", "R10 R11 R12 | K9 B9 Y9 | K13 B13 Y13"))  # 75


def test_a_pause_in_the_doubles_window_leaves_the_first_turn_its_45_seconds():
    from engine.game import CameraLost, CameraRestored

    d = dealt()  # the window runs 45 s, then the first turn's 45
    d(CameraLost(d.at(9000)))
    assert d.state.deal.paused_left_ms == 45_000  # not the window's rest on top
    d(CameraRestored(d.at(10_000)))
    assert d.state.deal.deadline_ms - d.t == 45_000


def test_a_piece_broken_off_a_run_lying_where_the_run_lay_is_on_the_table_not_a_board():
    # text l.49-51: a melded seat breaks another's run with a tile of its own; the pieces stay
    # where the run lay, and neither is on the owner's board
    d = dealt()
    play_past_opening(d)
    call(d, 2, "meld", "K2 K3 K4 K5 K6 K7 | R10 R11 R12 R13")  # Cy: 70
    d.press(2)
    call(d, 0, "meld", "Y3 Y4 Y5 Y6 Y7 Y8 | K10 B10 Y10")  # Ann: 60
    d.press(0)
    d.press(1)
    d.press(2)
    call(d, 0, "break", "K2 K3 K4 K5 K6 K7 | K2 K3 K4 | K4 K5 K6 K7")  # Ann's K4: 5 more
    d.press(0)
    d.show(1, "K8 K9 K10 | Y11 B11 R11 | K5",
           {2: "K2 K3 K4 | K4 K5 K6 K7 | R10 R11 R12 R13", 0: "Y3 Y4 Y5 Y6 Y7 Y8 | K10 B10 Y10 | B2"})
    scores = d.state.history[-1].scores
    assert scores[2] == 70 and scores[0] == 60 + 5 - 5


def test_a_tile_is_taken_from_a_formation_of_four_into_a_new_meld_with_two_of_the_board():
    # text l.108: "If you have 2 tiles on the board that make up a suite / formation with any
    # put down tile, the player can take the tile"
    d = dealt()
    play_past_opening(d)
    call(d, 2, "meld", "R2 R3 R4 | K9 B9 Y9 R9 | K12 B12 Y12")
    d.press(2)
    d.press(0)
    d.press(1)
    assert not refused(call(d, 2, "break", "K9 B9 Y9 R9 | K9 B9 Y9 | R9 R10 R11"))
    assert refused(call(d, 2, "break", "R2 R3 R4 | R2 R3 | R4 R5 R6"))  # R2 R3 is no meld


def test_the_seat_that_closes_wins_even_when_another_scored_more():
    # text l.124: who gets rid of every tile "is automatically designated the winner"
    d = dealt()
    play_past_opening(d)
    call(d, 2, "meld", "R10 R11 R12 R13 | K10 B10 Y10 R10 | K11 B11 Y11 R11")  # Cy: 110
    d.press(2)
    d.press(0)
    d.show(1, "K2 K3 K4 | Y11 B11 R11 | K5",
           {2: "R10 R11 R12 R13 | K10 B10 Y10 R10 | K11 B11 Y11 R11", 0: "Y3"})
    record = d.state.history[-1]
    assert record.winner == 1 and record.scores[2] > record.scores[1]
    assert d.state.winners == (1,)
