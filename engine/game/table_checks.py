"""Turn checks in a live game: each turn against the camera's reading of the whole table.

In a family that checks turns (Open Rummy), a short press that ends a turn also asks the
camera to read the whole table (ReadTable); the TableSeen that answers is checked as that
seat's turn against the reading before it, by the same rules as the judge's turn mode.

- A legal turn: its table is what the next turn is checked against; play never stops.
- An illegal turn (a meld broken, a card vanished, no discard…): play stops on the turn-check
  screen, which names the rules broken. OK accepts the turn as it lies (the table as read
  becomes the one the next turn is checked against); MENU reads the table again once the
  player has put it right, and a legal reading then lets play go on. The seat on turn gets
  a fresh turn clock either way.
- The deal's first reading sets the table the first turn is checked against; one that does
  not look as the deal leaves it (a meld, other than one card turned up, another stock) is
  said with a buzz and play goes on: a notice, not a stop, since a camera that miscounts the
  stock must not hold the table up, and games journaled before this check replay as they were.
- A reading with nothing to check against (one after a missed turn, one
  after a reading that never came) only sets the table; one the decks cannot have produced
  (a misread card) stops play like an illegal turn when a turn is due, else is passed over,
  as is a reading nobody asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.errors import TablekitError
from engine.game.deal_flow import (
    Result,
    clock_effects,
    name_of,
    policy_of,
    start_clock,
)
from engine.game.effects import Buzz, Effect, Notice, ReadTable, SetLed, StopTimer
from engine.game.events import Event, TableSeen
from engine.game.show import stock_out
from engine.game.state import GameState, TableWatch, TurnCheck
from engine.table import TableState

#: The buzzer when a turn is found illegal.
ILLEGAL_BUZZ_MS = 300
#: The buzzer when the deal's first reading does not look as dealt.
DEALT_BUZZ_MS = 150


def table_seen(state: GameState, event: Event) -> Result:
    assert isinstance(event, TableSeen)
    deal = state.deal
    if state.phase not in ("play", "turn-check") or deal is None or deal.watch is None:
        return state, []
    watch = deal.watch
    try:
        after: TableState | None = policy_of(state).read_table(
            state.game, event.melds, event.discard, event.stock)
        problem = ""
    except TablekitError as exc:
        after, problem = None, str(exc)
    if watch.table is None:
        if after is None:
            return state, []  # nothing to check, nothing usable: wait for the next reading
        table = after.with_history(watch.known)
        state = replace(state, deal=replace(deal, watch=TableWatch(table)))
        if watch.known is None and watch.due is None and deal.turn_count == 1:
            # the deal's first reading, against what the deal leaves: said, and play goes on
            # (the first turn is checked against the table as it lies)
            problems = policy_of(state).dealt_table_problems(state.game, after)
            if problems:
                text = f"the table does not look as dealt: {_short(problems)}: check the hands and the stock"
                return state.with_notice(text), [Buzz(DEALT_BUZZ_MS), Notice(text)]
        return _last_turn_over(state, watch.known, [], event.t_ms)  # a turn passed unchecked
    if watch.due is None:
        return state, []  # no turn ended since the table was last read: nothing to check
    seat = watch.due
    if after is None:
        reason = f"the table could not be read: {problem}"
        return _stop(state, event.t_ms, TurnCheck(seat, reason, (reason,)))
    verdict = policy_of(state).check_turn(state.game, watch.table, after, seat, watch.first_turn)
    if not verdict.valid:
        return _stop(state, event.t_ms, TurnCheck(seat, verdict.reason, verdict.violations, after))
    table = verdict.after if verdict.after is not None else after
    if state.phase == "turn-check":
        state, effects = _go_on(state, TableWatch(table), f"{name_of(state, seat)}'s turn is put right: "
                                "play goes on", event.t_ms)
    else:
        state, effects = replace(state, deal=replace(deal, watch=TableWatch(table))), []
    return _last_turn_over(state, watch.table, effects, event.t_ms)


def _last_turn_over(state: GameState, before: TableState | None, effects: list[Effect], t_ms: int) -> Result:
    """After a turn that began with the stock empty: where the family ends play so (Open
    Rummy's text: the player after the draw pile runs out shows, or play ends at the end of
    their turn with a ground show), the deal ends with its stock-out show."""
    if before is None or before.stock != 0 or state.phase != "play" or not policy_of(state).stock_out_label:
        return state, effects
    state, more = stock_out(state, t_ms)
    return state, effects + more


def _stop(state: GameState, t_ms: int, check: TurnCheck) -> Result:
    """Play stops on the turn-check screen (or stays there with the newest reading)."""
    deal = state.deal
    assert deal is not None and deal.watch is not None
    again = deal.watch.check
    if again is not None and state.phase == "turn-check":
        check = replace(check, reads=again.reads + 1)
    name = name_of(state, check.seat)
    text = (f"{name}'s turn is still not legal" if check.reads > 1
            else f"{name}'s turn is not legal") + f": {_short(check.violations)}"
    deal = replace(deal, deadline_ms=None, paused_left_ms=None, window_until_ms=None,
                   watch=replace(deal.watch, check=check))
    new = replace(state, phase="turn-check", deal=deal, menu=(), notice=text)
    effects: list[Effect] = [StopTimer(), SetLed(deal.turn, "off"), SetLed(check.seat, "fast"),
                             Buzz(ILLEGAL_BUZZ_MS), Notice(text)]
    return new, effects


def _short(violations: Sequence[str]) -> str:
    """The first rule broken, in a few words (the screen lists them all)."""
    first = violations[0].split(":", 1)[0] if violations else "a rule was broken"
    return first + (f" (and {len(violations) - 1} more)" if len(violations) > 1 else "")


def _go_on(state: GameState, watch: TableWatch, text: str, t_ms: int) -> Result:
    """Back to play: the seat on turn starts a fresh turn clock."""
    deal = state.deal
    assert deal is not None and deal.watch is not None and deal.watch.check is not None
    seat = deal.watch.check.seat
    deal = start_clock(state, replace(deal, watch=watch), t_ms)
    new = replace(state, phase="play", deal=deal, notice=text)
    effects: list[Effect] = [Notice(text), SetLed(seat, "off"), SetLed(deal.turn, "on")]
    return new, effects + clock_effects(new)


def accept_turn(state: GameState, t_ms: int) -> Result:
    """OK on the turn-check screen: the turn stands as it lies on the table."""
    deal = state.deal
    assert deal is not None and deal.watch is not None and deal.watch.check is not None
    check = deal.watch.check
    text = f"the table accepts {name_of(state, check.seat)}'s turn as it lies"
    before = deal.watch.table
    after = check.after.with_history(before) if check.after is not None else None
    state, effects = _go_on(state, TableWatch(after, known=None if after else before), text, t_ms)
    return _last_turn_over(state, before, effects, t_ms)


def read_table_again(state: GameState) -> Result:
    """MENU on the turn-check screen: the player has put the table right; read it again."""
    deal = state.deal
    assert deal is not None and deal.watch is not None and deal.watch.check is not None
    text = f"reading the table again after {name_of(state, deal.watch.check.seat)}'s turn"
    return state.with_notice(text), [Notice(text), ReadTable()]
