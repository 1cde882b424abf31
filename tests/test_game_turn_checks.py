"""Turn checks in a live Open Rummy game: each turn against the camera's reading of the table.

The flow is driven event by event: a short press ends a turn and asks for a reading of the
whole table (ReadTable); the TableSeen that answers is checked as that seat's turn. Illegal
turns stop play on the turn-check screen until the table accepts them (OK) or the player puts
the table right and it is read again (MENU).
"""

from __future__ import annotations

import random

from _game_fixtures import Driver, game

from engine.families.open_rummy.play import new_deal, play_turn
from engine.game import (
    Buzz,
    Confirm,
    DealStarted,
    GameState,
    MenuPressed,
    Notice,
    ReadTable,
    SetLed,
    StartTimer,
    StopTimer,
    TableSeen,
    Tick,
    event_from_json,
)
from engine.notation import split_groups
from engine.table import TableState
from tablekit.journal import Journal

PLAYERS = ["Ann", "Bo", "Cy", "Di"]  # Ann deals; Bo (seat 1) plays first


def seen(melds: dict[int, list[str]], discard: str, stock: int | None, players: int = 4,
         t_ms: int = 0) -> TableSeen:
    """A reading of the whole table, in the notation the camera hands the game."""
    per_seat = tuple(tuple(tuple(split_groups(g)[0]) for g in melds.get(s, [])) for s in range(players))
    return TableSeen(per_seat, tuple(discard.split()), stock, t_ms)


def from_state(table: TableState, players: int, t_ms: int = 0) -> TableSeen:
    melds = tuple(tuple(tuple(str(c) for c in m.cards) for m in table.seat_melds(s)) for s in range(players))
    return TableSeen(melds, tuple(str(c) for c in table.discard), table.stock, t_ms)


# A short deal on the two-deck table: the camera's readings after each turn.
DEALT = seen({}, "6C", 25)
BO_OPENS = seen({1: ["5S 6S 7S"]}, "6C 9H", 24)  # Bo draws, opens a sequence, discards 9H
CY_DRAWS = seen({1: ["5S 6S 7S"]}, "6C 9H KD", 23)  # Cy draws and discards
DI_BREAKS = seen({1: ["5S 6S"]}, "6C 9H KD 4D", 22)  # Di pulls 7S off his partner's meld
DI_ADDS = seen({1: ["5S 6S 7S 8S"]}, "6C 9H KD 4D", 22)  # what Di may do: add to it
ANN_TOUCHES = seen({1: ["5S 6S 7S 8S 9S"]}, "6C 9H KD 4D 3C", 21)  # an opponent's meld


def started() -> Driver:
    d = Driver(game("open-rummy-2deck", PLAYERS))
    effects = d(DealStarted("", d.at(1000)))
    assert ReadTable() in effects  # the table as dealt: what Bo's turn is checked against
    d(_at(d, DEALT))
    return d


def _at(d: Driver, event: TableSeen) -> TableSeen:
    return TableSeen(event.melds, event.discard, event.stock, d.at(300))


def phase(d: Driver) -> str:
    return d.state.phase


def di_broke_a_meld() -> Driver:
    """A started deal in which Bo opened, Cy drew and Di's turn broke a meld (now checked)."""
    d = started()
    d.end_turn()
    d(_at(d, BO_OPENS))
    d.end_turn()
    d(_at(d, CY_DRAWS))
    d.end_turn()
    d(_at(d, DI_BREAKS))
    return d


def test_legal_turns_pass_silently_and_each_becomes_the_table_to_check_against():
    d = started()
    assert d.state.deal.watch.table is not None and d.state.deal.watch.due is None
    effects = d.end_turn()  # Bo
    assert effects[-1] == ReadTable() and d.state.deal.watch.due == 1
    assert d.state.deal.watch.first_turn  # the deal's first turn
    assert d(_at(d, BO_OPENS)) == []  # legal: nothing to do
    watch = d.state.deal.watch
    assert phase(d) == "play" and watch.due is None and watch.check is None
    assert [str(m) for m in watch.table.seat_melds(1)] == ["5S 6S 7S"]
    d.end_turn()  # Cy
    assert not d.state.deal.watch.first_turn
    d(_at(d, CY_DRAWS))
    d.end_turn()  # Di adds to his partner's meld: allowed
    d(_at(d, DI_ADDS))
    assert phase(d) == "play" and d.state.deal.turn == 0 and d.state.deal.deadline_ms is not None
    assert d.replayed() == d.state


def test_an_illegal_turn_stops_play_with_the_reason_until_the_table_accepts_it():
    d = started()
    d.end_turn()
    d(_at(d, BO_OPENS))
    d.end_turn()
    d(_at(d, CY_DRAWS))
    d.end_turn()  # Di
    assert d.state.deal.turn == 0 and d.state.deal.deadline_ms is not None  # Ann's clock runs
    effects = d(_at(d, DI_BREAKS))
    state: GameState = d.state
    assert phase(d) == "turn-check"
    check = state.deal.watch.check
    assert check.seat == 3 and not check.reason.startswith("drew")
    assert any("taken off the table" in v for v in check.violations)
    assert "Di's turn is not legal" in state.notice
    assert StopTimer() in effects and SetLed(3, "fast") in effects and Buzz(300) in effects
    assert any(isinstance(e, Notice) and "not legal" in e.text for e in effects)
    assert state.deal.deadline_ms is None  # Ann's clock waits
    # nothing else moves while the table settles it: no presses, no missed turns
    d.press(0)
    d(Tick(d.at(120_000)))
    assert d.state.deal.turn == 0 and phase(d) == "turn-check"
    effects = d(Confirm(d.at(500)))  # OK: the turn stands as it lies
    assert phase(d) == "play" and d.state.deal.watch.check is None
    assert [str(m) for m in d.state.deal.watch.table.seat_melds(1)] == ["5S 6S"]
    assert "accepts Di's turn" in d.state.notice
    assert StartTimer(0, d.t + 45_000) in effects  # Ann gets a fresh turn clock
    assert effects.index(SetLed(3, "off")) < effects.index(SetLed(0, "on"))
    # the next turn is checked against the accepted table
    d.end_turn()
    d(_at(d, seen({1: ["5S 6S"]}, "6C 9H KD 4D 3C", 21)))
    assert phase(d) == "play"
    assert d.replayed() == d.state


def test_a_turn_put_right_and_read_again_lets_play_go_on():
    d = di_broke_a_meld()
    effects = d(MenuPressed(d.at(500)))  # Di puts the 7S back; the table is read again
    assert effects[-1] == ReadTable() and phase(d) == "turn-check"
    d(_at(d, DI_BREAKS))  # not yet
    assert d.state.deal.watch.check.reads == 2 and "still not legal" in d.state.notice
    d(MenuPressed(d.at(500)))
    effects = d(_at(d, DI_ADDS))
    assert phase(d) == "play" and "put right" in d.state.notice
    assert StartTimer(0, d.t + 45_000) in effects and SetLed(0, "on") in effects
    assert [str(m) for m in d.state.deal.watch.table.seat_melds(1)] == ["5S 6S 7S 8S"]
    # and Ann, the opponent, may not touch that meld
    d.end_turn()
    d(_at(d, ANN_TOUCHES))
    assert phase(d) == "turn-check"
    assert any("opponent" in v for v in d.state.deal.watch.check.violations)
    assert d.replayed() == d.state


def test_a_vanished_card_and_an_unreadable_table_both_stop_play():
    d = started()
    d.end_turn()
    d(_at(d, BO_OPENS))
    d.end_turn()
    d(_at(d, seen({1: ["5S 6S 7S"]}, "6C 9H", 23)))  # Cy drew but no discard lies on the pile
    assert phase(d) == "turn-check"
    assert any("no discard" in v for v in d.state.deal.watch.check.violations)
    d(Confirm(d.at(500)))
    d.end_turn()  # Di; the camera cannot tell one card
    d(_at(d, TableSeen(((), (("5S", "6S", "7S"),), (), ()), ("6C", "9H", "??"), 22)))
    check = d.state.deal.watch.check
    assert phase(d) == "turn-check" and check.after is None
    assert check.reason.startswith("the table could not be read")
    d(Confirm(d.at(500)))  # go on unchecked: the next reading only shows the table
    assert d.state.deal.watch.table is None
    d.end_turn()
    d(_at(d, seen({1: ["5S 6S 7S"]}, "6C 9H 3H 5D", 20)))
    assert phase(d) == "play" and d.state.deal.watch.table is not None
    assert d.replayed() == d.state


def test_only_a_turn_ended_with_a_press_after_a_known_table_is_checked():
    d = started()
    d.time_out()  # Bo misses his turn: whatever he did is not judged
    assert d.state.deal.watch.due is None and d.state.deal.watch.table is None
    d(_at(d, BO_OPENS))
    assert phase(d) == "play" and d.state.deal.watch.table is not None
    d.end_turn()  # Cy; the camera never answers
    d.end_turn()  # Di: the table before his turn is not known, so nothing is checked
    assert d.state.deal.watch.due is None and d.state.deal.watch.table is None
    d(_at(d, DI_BREAKS))
    assert phase(d) == "play"
    # a reading nobody asked for changes nothing
    before = d.state
    d(_at(d, DI_ADDS))
    assert d.state is before


def test_the_house_can_turn_checks_off_and_other_families_never_ask():
    off = Driver(game("open-rummy-2deck", PLAYERS, options={"turn_checks": False}))
    effects = off(DealStarted("", off.at(1000)))
    assert ReadTable() not in effects and off.state.deal.watch is None
    assert ReadTable() not in off.end_turn()
    off(_at(off, DI_BREAKS))
    assert off.state.phase == "play"
    indian = Driver(game())
    assert ReadTable() not in indian.deal() and ReadTable() not in indian.end_turn()


def test_a_whole_deal_of_generated_legal_turns_is_never_stopped():
    rng = random.Random(7)
    table = new_deal(rng, players=4, decks=2, dealt=21)
    table.seat = 1  # left of the dealer
    d = Driver(game("open-rummy-2deck", PLAYERS))
    d(DealStarted("", d.at(1000)))
    d(from_state(table.state(), 4, d.at(100)))
    played = 0
    while not table.over and played < 40:
        seat = table.seat
        assert d.state.deal.turn == seat
        _, after = play_turn(table, rng)
        d.end_turn()
        d(from_state(after, 4, d.at(100)))
        assert d.state.phase == "play", d.state.notice
        played += 1
    assert played >= 10
    assert d.replayed() == d.state


def test_turn_checks_are_journaled_and_restored_exactly():
    d = di_broke_a_meld()
    for event in d.log:
        assert event_from_json(event.to_json()) == event
    with Journal(":memory:") as journal:
        gid = journal.new_game(d.state.game, 0)
        for event in d.log:
            journal.append(gid, event)
        restored = journal.restore(gid)
    assert restored == d.state and restored.phase == "turn-check"
    assert restored.deal.watch.check.violations == d.state.deal.watch.check.violations
