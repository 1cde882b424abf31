"""The referee's flow: turns, the turn clock, missed turns, drops, pauses, shows and corrections."""

from __future__ import annotations

import pytest
from _game_fixtures import (
    FULL_COUNT,
    LOSER_58,
    NO_PURE,
    SECOND_VALID,
    VALID_SHOW,
    Driver,
    game,
)

from engine.game import (
    LONG_PRESS_MS,
    TURN_SECONDS,
    ButtonPressed,
    ButtonReleased,
    Buzz,
    CameraLost,
    CameraRestored,
    DealStarted,
    GameOver,
    LinkLost,
    LinkRestored,
    ReadCut,
    ReadZone,
    SetLed,
    SetupError,
    ShowVerdict,
    StartTimer,
    StopTimer,
    Tick,
    TimerExpired,
    WriteScores,
    new_game,
)


def started(variant: str = "indian-pool-101", names=("Asha", "Ravi", "Meera"), **kw) -> Driver:
    d = Driver(game(variant, names, **kw))
    d.deal()
    return d


def test_setup_refuses_a_table_the_variant_cannot_seat():
    with pytest.raises(SetupError, match="2 to 6 players"):
        game(names=["Solo"])
    with pytest.raises(ValueError):
        game(names=["A", "B"], first_dealer=5)


def test_ok_before_the_first_deal_asks_for_the_cut_card():
    d = Driver(game())
    assert d.ok() == [ReadCut()]
    assert d.state.phase == "setup"


def test_the_seat_left_of_the_dealer_plays_first_with_a_45_second_clock():
    d = Driver(game(first_dealer=1))
    effects = d.deal("5D")
    deal = d.state.deal
    assert d.state.phase == "play" and deal.dealer == 1 and deal.turn == 2
    assert deal.deadline_ms == d.t + TURN_SECONDS * 1000
    assert StartTimer(2, deal.deadline_ms) in effects
    assert SetLed(2, "on") in effects and SetLed(0, "off") in effects


def test_turn_seconds_can_be_set_per_table():
    d = started(turn_seconds=30)
    assert d.state.deal.deadline_ms == d.t + 30_000


def test_a_short_press_passes_the_turn_like_a_chess_clock():
    d = started()
    effects = d.press(1)
    assert d.state.deal.turn == 2
    assert SetLed(1, "off") in effects and SetLed(2, "on") in effects
    assert d.state.deal.turns_played == (0, 1, 0)
    assert d.state.deal.deadline_ms == d.t + 45_000


def test_a_press_out_of_turn_is_refused_with_a_buzz():
    d = started()
    before = d.state.deal
    effects = d.press(0)
    assert d.state.deal == before
    assert any(isinstance(e, Buzz) for e in effects)
    assert "Ravi's turn" in d.state.notice


def test_a_long_press_declares_a_show_and_asks_the_camera():
    d = started()
    effects = d.press(1, LONG_PRESS_MS)
    assert d.state.phase == "show" and d.state.show.declarer == 1
    assert ReadZone(1) in effects and StopTimer() in effects


def test_a_press_just_under_the_long_press_ends_the_turn():
    d = started()
    d.press(1, LONG_PRESS_MS - 1)
    assert d.state.phase == "play" and d.state.deal.turn == 2


def test_a_release_without_a_press_changes_nothing():
    d = started()
    before = d.state
    d(ButtonReleased(1, d.at(10)))
    assert d.state is before


def test_a_tick_before_the_deadline_returns_the_same_state():
    d = started()
    before = d.state
    assert d(Tick(d.state.deal.deadline_ms - 1)) == []
    assert d.state is before


def test_running_out_of_time_is_a_missed_turn_and_the_next_seat_plays():
    d = started()
    deadline = d.state.deal.deadline_ms
    d.time_out()
    deal = d.state.deal
    assert deal.turn == 2 and deal.missed_in_row[1] == 1
    assert deal.deadline_ms == deadline + 45_000


def test_timer_expired_for_the_wrong_seat_is_ignored():
    d = started()
    before = d.state
    d(TimerExpired(0, d.at(1)))
    assert d.state is before
    d(TimerExpired(1, d.at(1)))
    assert d.state.deal.turn == 2


def test_three_missed_turns_in_a_row_drop_a_player_as_a_middle_drop():
    d = started(names=("Asha", "Ravi"))
    # Ravi (seat 1) plays first; he lets his clock run out three times while Asha plays
    for _ in range(2):
        d.time_out()
        d.press(0)
    assert d.state.deal.missed_in_row[1] == 2
    d.time_out()
    assert d.state.phase == "deal-over"
    record = d.state.history[-1]
    assert record.outcomes == ("winner", "missed-turns")
    assert record.scores == (0, 40)


def test_a_press_resets_the_missed_turn_count():
    d = started(names=("Asha", "Ravi"))
    d.time_out()
    d.press(0)
    d.press(1)
    assert d.state.deal.missed_in_row[1] == 0


def test_a_drop_on_the_first_turn_is_a_first_drop_and_later_a_middle_drop():
    d = started()
    d.drop(1)  # Ravi, before any turn of his
    assert d.state.deal.outcomes[1] == "first-drop"
    d.press(2)
    d.press(0)
    d.press(2)
    d.drop(0)  # Asha has played a turn
    assert d.state.phase == "deal-over"
    assert d.state.history[-1].scores == (40, 20, 0)
    assert d.state.history[-1].winner == 2


def test_pool_201_drops_cost_25_and_50():
    d = started("indian-pool-201")
    d.drop(1)
    d.press(2)
    d.press(0)
    d.drop(2)
    assert d.state.history[-1].scores == (0, 25, 50)


def test_menu_then_ok_drops_the_player_whose_turn_it_is():
    d = started()
    d.menu()
    assert d.state.menu[0] == "drop"
    d.ok()
    assert d.state.deal.status[1] == "dropped"
    d.menu()
    d.menu()  # to "close"
    d.ok()
    assert d.state.deal.status[2] == "playing" and not d.state.menu


def test_deals_rummy_allows_no_drop():
    d = started("indian-deals")
    d.drop(1)
    assert d.state.deal.status[1] == "playing"
    assert "allows no drop" in d.state.notice


def test_dropping_out_of_turn_is_refused():
    d = started()
    d.drop(0)
    assert d.state.deal.status[0] == "playing"


def test_a_lost_box_pauses_the_clock_and_its_return_resumes_it():
    d = started()
    deadline = d.state.deal.deadline_ms
    lost_at = d.at(10_000)
    effects = d(LinkLost(lost_at))
    assert d.state.paused and d.state.deal.deadline_ms is None
    assert d.state.deal.paused_left_ms == deadline - lost_at
    assert StopTimer() in effects
    d(Tick(deadline + 60_000))  # time passes while paused: no missed turn
    assert d.state.deal.turn == 1
    back = d.at(120_000)
    d(LinkRestored(back))
    assert d.state.deal.deadline_ms == back + (deadline - lost_at)


def test_presses_held_when_the_box_is_lost_are_forgotten():
    d = started()
    d(ButtonPressed(1, d.at(10)))
    d(LinkLost(d.at(10)))
    assert d.state.pressed_at == (None, None, None)


def test_a_lost_camera_pauses_play_and_refuses_a_show():
    d = started()
    d(CameraLost(d.at(10)))
    assert d.state.pause_reason() == "camera lost"
    d.declare(1)
    assert d.state.phase == "play"
    d(CameraRestored(d.at(10)))
    assert not d.state.paused


def test_a_valid_show_reads_every_other_hand_before_scores_are_written():
    d = started()
    for seat in (1, 2, 0):
        d.press(seat)
    d.declare(1)
    effects = d.read(1, VALID_SHOW)
    assert effects == [ShowVerdict(1, True, d.state.show.declaration.ruling.reason)]
    assert d.state.show.stage == "verdict"
    effects = d.ok()
    assert ReadZone(2) in effects  # clockwise from the declarer
    d.read(2, LOSER_58)
    assert d.state.show.stage == "hand-check"
    assert ReadZone(0) in d.ok()
    d.read(0, FULL_COUNT)
    effects = d.ok()
    record = d.state.history[-1]
    assert record.winner == 1 and record.outcomes == ("lost", "winner", "lost")
    assert record.scores[0] == 80 and 0 < record.scores[2] <= 58
    assert any(isinstance(e, WriteScores) and e.scores == record.scores for e in effects)
    assert d.state.phase == "deal-over"


def test_losers_are_counted_as_arranged_when_the_table_says_so():
    d = started(options={"count": "arranged"})
    d.declare(1)
    d.read(1, VALID_SHOW)
    d.ok()
    d.read(2, LOSER_58)
    assert d.state.show.current.points == 58


def test_a_loser_who_never_had_a_turn_pays_half_as_a_deal_show():
    d = started(options={"count": "arranged"})
    d.show(1, VALID_SHOW, {2: LOSER_58, 0: FULL_COUNT})
    record = d.state.history[-1]
    assert record.outcomes == ("deal-show", "winner", "deal-show")
    assert record.scores == (40, 0, 29)


def test_a_loser_with_a_valid_hand_pays_two():
    d = started(options={"count": "arranged"})
    d.press(1)
    d.press(2)
    d.press(0)
    d.show(1, VALID_SHOW, {2: SECOND_VALID, 0: FULL_COUNT})
    record = d.state.history[-1]
    assert record.outcomes == ("lost", "winner", "second-valid")
    assert record.scores == (80, 0, 2)


def test_a_wrong_show_costs_80_and_play_goes_on_without_the_declarer():
    d = started()
    d.declare(1)
    d.read(1, NO_PURE)
    assert d.state.show.declaration.ruling.valid is False
    d.ok()
    assert d.state.phase == "play"
    assert d.state.deal.status[1] == "wrong-show" and d.state.deal.turn == 2
    d.drop(2)
    record = d.state.history[-1]
    assert record.winner == 0 and record.scores == (0, 80, 20)


def test_a_misread_card_is_corrected_before_the_verdict_is_confirmed():
    d = started()
    d.declare(1)
    d.read(1, VALID_SHOW.replace("QS", "QH").replace("QC QC", "QC"))
    d.read(1, "4H 5H 6H 7H | KC QC PJ | QD QD QC | 7S 7D 7C")
    assert not d.state.show.declaration.ruling.valid
    d.correct(1, 2, 1, "QS")
    assert d.state.show.declaration.groups[2] == ("QD", "QS", "QC")
    assert d.state.show.declaration.ruling.valid


def test_a_correction_can_remove_or_add_a_card_and_bad_ones_are_refused():
    d = started()
    d.declare(1)
    d.read(1, "4H 5H 6H 7H 8H | KC QC PJ | QD QS QC | 7S 7D 7C")
    d.correct(1, 0, 4, "")
    assert d.state.show.declaration.groups[0] == ("4H", "5H", "6H", "7H")
    d.correct(1, 1, 3, "JC")
    assert d.state.show.declaration.groups[1] == ("KC", "QC", "PJ", "JC")
    before = d.state.show
    d.correct(1, 9, 0, "2C")
    d.correct(1, 0, 0, "ZZ")
    assert d.state.show == before


def test_a_show_that_cannot_be_judged_is_not_confirmed_but_read_again():
    # a card the camera could not read is no proof of a wrong show: OK is refused (as for a
    # hand that cannot be counted) until the zone is read again, or the card put right
    d = started()
    d.declare(1)
    d.read(1, "4H 5H 6H | 7H ?? 9H")
    assert d.state.show.declaration.problem
    d.ok()
    assert d.state.deal.status[1] == "playing" and d.state.phase == "show"
    assert "cannot be judged" in d.state.notice
    assert d.menu() == [ReadZone(1)]
    d.read(1, NO_PURE)  # read again: judged, and a wrong show
    d.ok()
    assert d.state.deal.status[1] == "wrong-show"


def test_menu_during_a_verdict_reads_the_zone_again():
    d = started()
    d.declare(1)
    d.read(1, NO_PURE)
    assert d.menu() == [ReadZone(1)]
    assert d.state.show.stage == "reading"
    d.read(1, VALID_SHOW)
    assert d.state.show.declaration.ruling.valid


def test_a_reading_of_another_zone_is_ignored():
    d = started()
    d.declare(1)
    before = d.state
    d.read(2, VALID_SHOW)
    assert d.state is before


def test_a_hand_that_cannot_be_counted_must_be_read_again():
    d = started()
    d.declare(1)
    d.read(1, VALID_SHOW)
    d.ok()
    d.read(2, "4H XX")  # not cards
    assert d.state.show.current.problem
    d.ok()
    assert d.state.show.stage == "hand-check"
    assert d.menu() == [ReadZone(2)]


def test_the_dealer_rotates_clockwise_skipping_eliminated_players():
    d = started()
    assert d.state.deal.dealer == 0
    d.drop(1)
    d.drop(2)
    d.deal("9C")
    assert d.state.deal.dealer == 1 and d.state.deal.turn == 2


def test_a_deal_cannot_start_while_one_is_under_way_or_with_a_bad_cut():
    d = started()
    before = d.state.deal
    d(DealStarted("5D", d.at(1)))
    assert d.state.deal == before
    d2 = Driver(game())
    d2(DealStarted("ZZ", 5))
    assert d2.state.phase == "setup"


def test_the_points_game_ends_after_one_deal():
    d = started("indian-points", names=("Asha", "Ravi"))
    d.drop(1)
    assert d.state.phase == "game-over" and d.state.winners == (0,)
    assert any(isinstance(e, GameOver) for e in d.effects)


def test_new_game_has_no_deal_and_zero_totals():
    s = new_game(game())
    assert s.phase == "setup" and s.deal is None and s.totals == (0, 0, 0)


def test_a_wrong_show_confirmed_while_play_is_paused_keeps_the_time_that_was_left():
    from engine.game import LinkLost, LinkRestored

    d = started("contract-rummy")  # a show that is not one lets the declarer play on
    seat = d.state.deal.turn
    d.t = d.state.deal.deadline_ms - 5000
    d.declare(seat)
    left = d.state.deal.paused_left_ms
    assert 0 < left <= 5000
    d(LinkLost(d.at(100)))
    d.read(seat, "5H 6H 7H")
    d.ok()  # not the deal's contract, confirmed while the box is lost
    d(LinkRestored(d.at(100)))
    assert d.state.deal.deadline_ms - d.t == left  # not a fresh 45 s


def test_a_miscounted_declaration_is_still_a_wrong_show_once_confirmed():
    # 10 cards read, all readable: the player's show, not the camera's fault
    d = started()
    d.declare(1)
    d.read(1, "4H 5H 6H 7H | KC QC PJ | 7S 7D 7C")  # melds that would pass, 3 cards short
    assert d.state.show.declaration.problem and not d.state.show.declaration.unread
    d.ok()
    assert d.state.deal.status[1] == "wrong-show"
