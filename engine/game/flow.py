"""The referee: ``apply(state, event) -> (state, effects)`` for every family.

Turns pass like a chess clock (a short press ends the turn), a long press declares a show,
the turn clock runs out into missed turns, and a lost box or camera pauses the clock. This
module dispatches each event; dealing and turns live in :mod:`engine.game.deal_flow`, the show
(verdict, corrections, every other hand, confirmation with OK) in :mod:`engine.game.show`,
hands the players enter when the camera reads none in :mod:`engine.game.scorepad`,
checking each turn against the camera's reading of the table in
:mod:`engine.game.table_checks`.
What a family scores is its :class:`~engine.game.policy.FamilyPolicy`.

An event that changes nothing returns the very same state object and no effects, so the app
can tell a Tick that mattered from one that did not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from engine.cards import Groups
from engine.game import claims
from engine.game.deal_flow import (
    Result,
    clock_effects,
    deal_started,
    drop,
    end_turn,
    end_window,
    missed_turn,
    refuse,
    set_at,
    turn_ms,
)
from engine.game.effects import (
    Effect,
    Notice,
    ReadCut,
    SetLed,
    StopTimer,
)
from engine.game.events import (
    ButtonPressed,
    ButtonReleased,
    Called,
    CameraLost,
    CameraRestored,
    ClaimMade,
    Confirm,
    Correction,
    DealStarted,
    Declare,
    Drop,
    Event,
    HandEntered,
    LinkLost,
    LinkRestored,
    MenuPressed,
    TableRead,
    TableSeen,
    Tick,
    TimerExpired,
)
from engine.game.policy import (
    policy_for,
)
from engine.game.scorepad import hand_entered
from engine.game.setup import Game
from engine.game.show import confirm_show, correction, declare, read_again, stock_out, table_read
from engine.game.state import (
    PLAYING,
    GameState,
)
from engine.game.table_checks import accept_turn, read_table_again, table_seen

#: A press held at least this long declares a show; shorter ends the turn.
LONG_PRESS_MS = 1500
MENU_DROP = "drop"
MENU_STOCK_OUT = "stock-out"
MENU_CLOSE = "close"


def new_game(game: Game) -> GameState:
    """The state before the first deal."""
    n = game.players
    standings = policy_for(game).standings(game, [])
    return GameState(game=game, phase="setup", dealer=game.first_dealer, totals=standings.totals,
                     eliminated=(False,) * n, pressed_at=(None,) * n)


def replay(game: Game, events: Sequence[Event]) -> GameState:
    """The state after folding ``events`` into a new game (the journal's restore)."""
    state = new_game(game)
    for event in events:
        state, _ = apply(state, event)
    return state


def apply(state: GameState, event: Event) -> Result:
    """Fold one event into the state; answer with what the app should do."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        return state, []
    new, effects = handler(state, event)
    if state.claims is not None and state.claims.waiting and new is not state:
        # claims not answered when the turn passed (or the deal ended) lapse: lights out
        effects = effects + claims.lapsed_leds(state, new, state.game.claim_rules)
    return new, effects


# --- buttons ------------------------------------------------------------------------------


def _pressed(state: GameState, event: Event) -> Result:
    assert isinstance(event, ButtonPressed)
    if not 0 <= event.seat < state.game.players:
        return state, []
    return replace(state, pressed_at=set_at(state.pressed_at, event.seat, event.t_ms)), []  # type: ignore[arg-type]


def _released(state: GameState, event: Event) -> Result:
    assert isinstance(event, ButtonReleased)
    seat = event.seat
    if not 0 <= seat < state.game.players or state.pressed_at[seat] is None:
        return state, []
    held = event.t_ms - (state.pressed_at[seat] or 0)
    state = replace(state, pressed_at=set_at(state.pressed_at, seat, None))  # type: ignore[arg-type]
    if state.phase != "play":
        return state, []
    rules = state.game.claim_rules
    blocked = claims.in_turn_blocked(state, rules, seat)
    if blocked is not None:
        return refuse(state, blocked)
    if held >= LONG_PRESS_MS:
        call = window_call(state, seat, held, event.t_ms)
        if call:  # a long press in the opening window is the family's call (tile rummy: the ace)
            return answer_call(state, seat, call, (), event.t_ms)
        return declare(state, seat, event.t_ms)
    deal = state.deal
    if deal is not None and seat != deal.turn:
        call = policy_for(state.game).press_call(state, seat)
        if call:  # out of turn, the family's call (American Jokers: taking the first upcard)
            return answer_call(state, seat, call, (), event.t_ms)
    if rules is not None and deal is not None and seat != deal.turn:
        return claims.claim(state, rules, seat, event.t_ms)  # out of turn: a claim on the upcard
    return end_turn(state, seat, event.t_ms)


def is_claim_press(state: GameState, seat: int, t_ms: int) -> bool:
    """Would ``seat``'s button coming up now be a claim (a short press out of turn, in play, in
    a game with claims)? The table then journals it as a :class:`ClaimMade`."""
    deal = state.deal
    if state.phase != "play" or deal is None or not 0 <= seat < state.game.players or seat == deal.turn:
        return False
    since = state.pressed_at[seat] if seat < len(state.pressed_at) else None
    if since is None or t_ms - since >= LONG_PRESS_MS:
        return False
    if policy_for(state.game).press_call(state, seat):
        return False  # the family's call, not a claim
    return state.game.claim_rules is not None


def window_call(state: GameState, seat: int, held: int, t_ms: int) -> str:
    """The call a press held ``held`` ms and let go at ``t_ms`` makes: the family's window
    call (:attr:`FamilyPolicy.window_press_call`) for a long press while the opening window
    is open, else ""."""
    deal = state.deal
    if state.phase != "play" or deal is None or held < LONG_PRESS_MS:
        return ""
    if deal.window_until_ms is None or t_ms > deal.window_until_ms:
        return ""
    return policy_for(state.game).window_press_call


def is_window_call_press(state: GameState, seat: int, t_ms: int) -> str:
    """Would ``seat``'s button coming up now be the family's window call? The table then
    journals it as a :class:`Called` ("" when it would not)."""
    if not 0 <= seat < state.game.players or seat >= len(state.pressed_at):
        return ""
    since = state.pressed_at[seat]
    if since is None:
        return ""
    return window_call(state, seat, t_ms - since, t_ms)


def answer_call(state: GameState, seat: int, call: str, cards: Groups, t_ms: int) -> Result:
    """``seat``'s call, answered by the family's rules; refused with the reason when the
    game does not allow it now."""
    deal = state.deal
    name = state.game.seats[seat].name
    if state.phase != "play" or deal is None:
        return refuse(state, f"{name} cannot call {call[:20]!r} now: only during play")
    if state.paused:
        return refuse(state, f"play is paused: {state.pause_reason()}")
    if deal.status[seat] != PLAYING:
        return refuse(state, f"{name} is out of this deal")
    said: list[Effect] = []
    if deal.window_until_ms is not None and t_ms > deal.window_until_ms:
        state, said = end_window(state)  # the window ran out before this call came
        deal = state.deal
        assert deal is not None
    new, text = policy_for(state.game).answer_state_call(state, seat, call, cards, t_ms)
    if new is None:
        refused, buzz = refuse(state, text)
        return refused, said + buzz
    moved = new.deal is not None and new.deal.turn != deal.turn
    effects = said + [Notice(text)]
    if moved:  # the call gave the turn to another seat (the first upcard taken): its clock
        assert new.deal is not None
        effects += [SetLed(deal.turn, "off"), SetLed(new.deal.turn, "on")] + clock_effects(new)
    return replace(new, notice=text), effects


def _call_event(state: GameState, event: Event) -> Result:
    """A seat's call (:class:`Called`): a double, the ace, tiles laid."""
    assert isinstance(event, Called)
    seat = event.seat
    if not 0 <= seat < state.game.players:
        return state, []
    return answer_call(_let_go(state, seat), seat, event.call, event.cards, event.t_ms)


def _let_go(state: GameState, seat: int) -> GameState:
    """``state`` with ``seat``'s button no longer held: its press became a call or a claim."""
    if state.pressed_at and state.pressed_at[seat] is not None:
        return replace(state, pressed_at=set_at(state.pressed_at, seat, None))  # type: ignore[arg-type]
    return state


def _claim_event(state: GameState, event: Event) -> Result:
    """A claim out of turn (a seat's short press while another seat is in turn)."""
    assert isinstance(event, ClaimMade)
    seat = event.seat
    if not 0 <= seat < state.game.players:
        return state, []
    state = _let_go(state, seat)
    rules = state.game.claim_rules
    if rules is None:
        return refuse(state, f"{state.game.variant.name} has no claims out of turn")
    deal = state.deal
    if state.phase != "play" or deal is None:
        return refuse(state, f"no {rules.name} now: only during play")
    if seat == deal.turn:
        return refuse(state, f"it is {state.game.seats[seat].name}'s own turn: the upcard is theirs to draw")
    return claims.claim(state, rules, seat, event.t_ms)


def _declare_event(state: GameState, event: Event) -> Result:
    assert isinstance(event, Declare)
    if state.phase != "play":
        return refuse(state, "a show can be declared only during play")
    blocked = claims.in_turn_blocked(state, state.game.claim_rules, event.seat)
    if blocked is not None:
        return refuse(state, blocked)
    return declare(state, event.seat, event.t_ms)


def _drop_event(state: GameState, event: Event) -> Result:
    assert isinstance(event, Drop)
    return drop(state, event.seat, event.t_ms)


def _menu(state: GameState, event: Event) -> Result:
    assert isinstance(event, MenuPressed)
    if state.phase == "show" and state.show is not None:
        return read_again(state)
    if state.phase == "turn-check":
        return read_table_again(state)
    if state.phase != "play":
        return state, []
    rules = state.game.claim_rules
    if claims.waiting(state, rules):
        assert rules is not None
        return claims.keep(state, rules, event.t_ms)  # the player in turn keeps the upcard
    if state.menu:
        return replace(state, menu=state.menu[1:] + state.menu[:1]), []
    policy = policy_for(state.game)
    items = [MENU_DROP] if state.deal is not None and policy.drop_outcome(
        state.game, state.deal, state.deal.turn) is not None else []
    items += [MENU_STOCK_OUT] if policy.stock_out_label and not _stock_left(state) else []
    buy = claims.menu_item(state, rules)
    items += [buy] if buy is not None else []
    items += list(policy.menu_calls(state))
    return replace(state, menu=(*items, MENU_CLOSE)), []


def _stock_left(state: GameState) -> int:
    """The cards the camera last saw in the stock, where it watches the table (0: none seen,
    or not known)."""
    deal = state.deal
    watch = deal.watch if deal is not None else None
    table = watch.table if watch is not None else None
    return table.stock if table is not None and table.stock is not None and table.stock > 0 else 0


def _confirm(state: GameState, event: Event) -> Result:
    assert isinstance(event, Confirm)
    if state.phase == "play":
        deal = state.deal
        rules = state.game.claim_rules
        if not state.menu and claims.waiting(state, rules):
            assert rules is not None
            return claims.grant(state, rules, event.t_ms)  # the claim goes through
        if not state.menu and deal is not None and deal.window_until_ms is not None and not state.paused:
            # OK closes the opening window early: the first turn's clock starts now
            state, said = end_window(state)
            assert state.deal is not None
            state = replace(state, deal=replace(state.deal, deadline_ms=event.t_ms + turn_ms(state)))
            return state, said + clock_effects(state)
        if not state.menu:
            return state, []
        choice = state.menu[0]
        state = replace(state, menu=())
        if choice == MENU_DROP and state.deal is not None:
            return drop(state, state.deal.turn, event.t_ms)
        if choice == MENU_STOCK_OUT:
            left = _stock_left(state)
            if left:
                cards = "card" if left == 1 else "cards"
                return refuse(state, f"the camera sees {left} {cards} in the stock: it has not run out")
            return stock_out(state, event.t_ms)
        if choice == claims.MENU_CLAIM and rules is not None:
            return claims.buy_in_turn(state, rules, event.t_ms)
        if state.deal is not None and choice in policy_for(state.game).menu_calls(state):
            return answer_call(state, state.deal.turn, choice, (), event.t_ms)
        return state, []
    if state.phase in ("setup", "deal-over"):
        return state, [ReadCut()]
    if state.phase == "show":
        return confirm_show(state, event.t_ms)
    if state.phase == "turn-check":
        return accept_turn(state, event.t_ms)
    return state, []


# --- time and devices ---------------------------------------------------------------------


def _tick(state: GameState, event: Event) -> Result:
    assert isinstance(event, Tick | TimerExpired)
    deal = state.deal
    if state.phase != "play" or deal is None or deal.deadline_ms is None:
        return state, []
    if isinstance(event, Tick) and deal.window_until_ms is not None and event.t_ms >= deal.window_until_ms:
        return end_window(state)  # the opening window's time is up
    if isinstance(event, TimerExpired):
        if event.seat != deal.turn:
            return state, []
    elif event.t_ms < deal.deadline_ms:
        return state, []
    return missed_turn(state, max(event.t_ms, deal.deadline_ms))


def _devices(state: GameState, event: Event) -> Result:
    was_paused = state.paused
    if isinstance(event, LinkLost | LinkRestored):
        state = replace(state, link_ok=isinstance(event, LinkRestored))
        if isinstance(event, LinkLost):
            state = replace(state, pressed_at=(None,) * state.game.players)
    elif isinstance(event, CameraLost | CameraRestored):
        state = replace(state, camera_ok=isinstance(event, CameraRestored))
    t_ms = getattr(event, "t_ms", 0)
    deal = state.deal
    effects: list[Effect] = []
    if state.paused and not was_paused:
        text = f"paused: {state.pause_reason()}"
        state = state.with_notice(text)
        effects.append(Notice(text))
        if state.phase == "play" and deal is not None and deal.deadline_ms is not None:
            left = max(0, deal.deadline_ms - t_ms)
            if deal.window_until_ms is not None:  # the window's own time is not the turn's
                left = max(0, left - max(0, deal.window_until_ms - t_ms))
            state, said = end_window(state)  # a pause ends the opening window
            assert state.deal is not None
            state = replace(state, deal=replace(state.deal, deadline_ms=None, paused_left_ms=left))
            effects += said + [StopTimer()]
    elif was_paused and not state.paused:
        text = "play resumes"
        state = state.with_notice(text)
        effects.append(Notice(text))
        if state.phase == "play" and deal is not None and deal.paused_left_ms is not None:
            state = replace(state, deal=replace(deal, deadline_ms=t_ms + deal.paused_left_ms,
                                                paused_left_ms=None))
            effects += clock_effects(state)
    return state, effects


_HANDLERS: dict[type[Event], Callable[[GameState, Event], Result]] = {
    DealStarted: deal_started,
    ButtonPressed: _pressed,
    ButtonReleased: _released,
    MenuPressed: _menu,
    Confirm: _confirm,
    Tick: _tick,
    TimerExpired: _tick,
    TableRead: table_read,
    TableSeen: table_seen,
    Correction: correction,
    Declare: _declare_event,
    Drop: _drop_event,
    LinkLost: _devices,
    LinkRestored: _devices,
    CameraLost: _devices,
    CameraRestored: _devices,
    HandEntered: hand_entered,
    ClaimMade: _claim_event,
    Called: _call_event,
}

