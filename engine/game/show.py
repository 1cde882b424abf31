"""The show: the declarer's verdict, corrections and re-reads, then every other hand.

A show is read by the camera zone by zone; each reading is judged by the family's policy,
can be corrected card by card or read again (MENU), and is confirmed with OK.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.cards import Groups, parse_card
from engine.errors import NotationError, TablekitError
from engine.game.deal_flow import (
    Result,
    clock_effects,
    finish_deal,
    name_of,
    pass_turn,
    policy_of,
    refuse,
    start_clock,
    void_deal,
    with_outcome,
    with_status,
)
from engine.game.effects import (
    Buzz,
    Effect,
    Notice,
    ReadZone,
    SetLed,
    ShowVerdict,
    StopTimer,
)
from engine.game.events import (
    Correction,
    Event,
    TableRead,
)
from engine.game.policy import EmptyReadingError
from engine.game.state import (
    PLAYING,
    GameState,
    HandReading,
    ShowStage,
    ShowState,
)
from engine.ruling import Ruling


def declare(state: GameState, seat: int, t_ms: int) -> Result:
    deal = state.deal
    assert deal is not None
    if seat != deal.turn:
        return refuse(state, f"{name_of(state, seat)} can declare only on their own turn")
    if not state.camera_ok:
        return refuse(state, "the camera is lost: a show cannot be read now")
    text = f"{name_of(state, seat)} declares a show"
    # the turn clock stops with what was left on it (a show found wrong plays on from there)
    left = deal.paused_left_ms if deal.deadline_ms is None else max(0, deal.deadline_ms - t_ms)
    deal = replace(deal, deadline_ms=None, paused_left_ms=left)
    new = replace(state, phase="show", deal=deal, show=ShowState(declarer=seat), menu=(), notice=text)
    return new, [StopTimer(), SetLed(seat, "fast"), Buzz(200), Notice(text), ReadZone(seat)]


def looking_at(show: ShowState) -> int | None:
    if show.stage in ("reading", "verdict"):
        return show.declarer
    return show.pending[0] if show.pending else None


def judge_declaration(state: GameState, groups: Groups) -> HandReading:
    deal = state.deal
    assert deal is not None and state.show is not None
    seat = state.show.declarer
    try:
        ruling = policy_of(state).judge_seat_show(state.game, deal, seat, groups)
    except (NotationError, EmptyReadingError) as exc:  # a card not read, or none at all
        return HandReading(seat, groups, problem=str(exc), unread=True)
    except (TablekitError, ValueError) as exc:
        return HandReading(seat, groups, problem=str(exc))
    floor = policy_of(state).show_floor(state, seat)
    shown = sum(len(g) for g in groups)
    if ruling.valid and floor is not None and shown < floor[0]:
        ruling = Ruling(False, ruling.points, ruling.groups, f"{floor[1]}, not {shown}")
    return HandReading(seat, groups, ruling)


def judge_hand(state: GameState, seat: int, groups: Groups) -> HandReading:
    deal = state.deal
    assert deal is not None
    try:
        outcome, count, ruling = policy_of(state).count_hand(state.game, deal, seat, groups)
    except (TablekitError, ValueError) as exc:
        return HandReading(seat, groups, problem=str(exc))
    return HandReading(seat, groups, ruling, points=count, outcome=outcome)


def show_reading(state: GameState, seat: int, groups: Groups) -> Result:
    show = state.show
    assert show is not None
    if show.stage in ("reading", "verdict"):
        reading = judge_declaration(state, groups)
        show = replace(show, stage="verdict", declaration=reading)
    else:
        reading = judge_hand(state, seat, groups)
        show = replace(show, stage="hand-check", current=reading)
    valid = reading.ruling is not None and reading.ruling.valid
    reason = reading.problem or (reading.ruling.reason if reading.ruling else "")
    return replace(state, show=show), [ShowVerdict(seat, valid, reason)]


def table_read(state: GameState, event: Event) -> Result:
    assert isinstance(event, TableRead)
    if state.phase != "show" or state.show is None or looking_at(state.show) != event.zone:
        return state, []
    return show_reading(state, event.zone, event.groups)


def correction(state: GameState, event: Event) -> Result:
    assert isinstance(event, Correction)
    show = state.show
    if state.phase != "show" or show is None or looking_at(show) != event.zone:
        return state, []
    reading = show.declaration if show.stage == "verdict" else show.current
    if reading is None or show.stage not in ("verdict", "hand-check"):
        return refuse(state, "nothing has been read yet to correct")
    if event.card:
        try:
            card = str(parse_card(event.card)) if not state.game.variant.uses_tiles else event.card.upper()
            state.game.variant.parse(card)
        except TablekitError as exc:
            return refuse(state, f"not a card: {exc}")
    groups = [list(g) for g in reading.groups]
    if event.group == len(groups) and event.card:
        groups.append([])
    if not 0 <= event.group < len(groups):
        return refuse(state, f"there is no group {event.group + 1}")
    group = groups[event.group]
    if not 0 <= event.position <= len(group) or (event.position == len(group) and not event.card):
        return refuse(state, f"group {event.group + 1} has no card {event.position + 1}")
    if event.position == len(group):
        group.append(card)
    elif event.card:
        group[event.position] = card
    else:
        del group[event.position]
    fixed = tuple(tuple(g) for g in groups if g)
    return show_reading(state, event.zone, fixed)


def read_again(state: GameState) -> Result:
    show = state.show
    assert show is not None
    seat = looking_at(show)
    if seat is None:
        return state, []
    stage: ShowStage = "reading" if show.stage in ("reading", "verdict") else "hand-reading"
    new = replace(state, show=replace(show, stage=stage))
    return new, [ReadZone(seat)]


def confirm_show(state: GameState, t_ms: int) -> Result:
    show = state.show
    deal = state.deal
    assert show is not None and deal is not None
    if show.stage == "verdict" and show.declaration is not None:
        reading = show.declaration
        if reading.ruling is None and reading.unread:  # a card not read is no wrong show
            return refuse(state, f"this declaration cannot be judged ({reading.problem}): "
                                  "MENU reads it again")
        if reading.ruling is not None and reading.ruling.valid:
            return valid_show(state, t_ms)
        return wrong_show(state, reading, t_ms)
    if show.stage == "hand-check" and show.current is not None:
        if show.current.problem:
            return refuse(state, f"this hand cannot be counted ({show.current.problem}): "
                                  "MENU reads it again")
        return next_hand(state, show.current, t_ms, [])
    return state, []


def next_hand(state: GameState, hand: HandReading, t_ms: int, effects: list[Effect]) -> Result:
    """``hand`` (read, or entered on the scorepad) is confirmed: on to the next seat's hand,
    or the deal's end after the last."""
    show = state.show
    assert show is not None
    show = replace(show, hands=show.hands + (hand,), current=None,
                   pending=show.pending[1:], stage="hand-reading")
    state = replace(state, show=show)
    if show.pending:
        return state, effects + [ReadZone(show.pending[0])]
    return finish_deal(state, show.declarer if show.valid else None, t_ms, effects)


def stock_out(state: GameState, t_ms: int) -> Result:
    """The stock (or pool) ran out: nobody showed, and every seat still playing is read."""
    deal = state.deal
    assert deal is not None
    goes_on = policy_of(state).stock_out_goes_on(state.game, deal)
    if goes_on is not None:  # the family renews the stock (tile rummy's one rebuilt pool)
        deal, text = goes_on
        return replace(state, deal=deal, menu=(), notice=text), [Notice(text)]
    if policy_of(state).stock_out_voids(state.game):
        return void_deal(state, t_ms)
    n = len(deal.status)
    seats = tuple(s for s in ((deal.turn + k) % n for k in range(n)) if deal.status[s] == PLAYING)
    text = f"{policy_of(state).stock_out_label}: every hand is read"
    show = ShowState(declarer=deal.turn, valid=False, stage="hand-reading", pending=seats)
    deal = replace(deal, deadline_ms=None, paused_left_ms=None)
    state = replace(state, phase="show", deal=deal, show=show, menu=(), notice=text)
    return state, [StopTimer(), Notice(text), ReadZone(seats[0])]


def valid_show(state: GameState, t_ms: int) -> Result:
    assert state.show is not None
    return read_hands(state, f"{name_of(state, state.show.declarer)} made a valid show", t_ms)


def read_hands(state: GameState, text: str, t_ms: int) -> Result:
    """After a show that ends the deal: read every other seat still playing, clockwise."""
    show = state.show
    deal = state.deal
    assert show is not None and deal is not None
    n = len(deal.status)
    others = [(show.declarer + k) % n for k in range(1, n)]
    pending = tuple(s for s in others if deal.status[s] == PLAYING)
    state = replace(state, show=replace(show, stage="hand-reading", pending=pending), notice=text)
    winner = show.declarer if show.valid else None
    if not pending:
        return finish_deal(state, winner, t_ms, [Notice(text)])
    return state, [Notice(text), ReadZone(pending[0])]


_WRONG_SHOW = re.compile(r"wrong show\b", re.IGNORECASE)


def wrong_show_text(name: str, why: str) -> str:
    """"Bo made a wrong show: …", saying "wrong show" once when the judge's reason already
    starts with it ("wrong show (80 points): …" becomes "Bo made a wrong show (80 points): …")."""
    head = f"{name} made a wrong show"
    said = _WRONG_SHOW.match(why)
    if said is not None:
        return head + why[said.end():]
    return f"{head}: {why}" if why else head


def wrong_show(state: GameState, reading: HandReading, t_ms: int) -> Result:
    deal = state.deal
    assert deal is not None
    seat = reading.seat
    why = reading.problem or (reading.ruling.reason if reading.ruling else "")
    text = wrong_show_text(name_of(state, seat), why)
    policy = policy_of(state)
    outcome = policy.wrong_show_outcome
    if policy.wrong_show_ends_deal:
        deal = replace(deal, outcomes=with_outcome(deal.outcomes, seat, outcome or "wrong-show"))
        show = state.show
        assert show is not None
        state = replace(state, deal=deal, show=replace(show, valid=False))
        return read_hands(state, text, t_ms)
    if outcome is not None:
        deal = replace(deal, status=with_status(deal.status, seat, "wrong-show"),
                       outcomes=with_outcome(deal.outcomes, seat, outcome))
    state = replace(state, deal=deal, show=None, phase="play", notice=text)
    effects: list[Effect] = [Notice(text), SetLed(seat, "off")]
    if outcome is None:
        # the declarer plays on: their turn goes on with the time it had left (a wrong show
        # never buys a fresh clock)
        left = deal.paused_left_ms
        deal = start_clock(state, deal, t_ms)
        if left is not None and deal.deadline_ms is not None:
            deal = replace(deal, deadline_ms=t_ms + left)
        elif left is not None:  # paused meanwhile: the clock stays stopped with what was left
            deal = replace(deal, paused_left_ms=left)
        state = replace(state, deal=deal)
        return state, effects + [SetLed(seat, "on")] + clock_effects(state)
    return pass_turn(state, t_ms, effects)


