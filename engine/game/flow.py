"""The referee: ``apply(state, event) -> (state, effects)`` for every family.

Turns pass like a chess clock (a short press ends the turn), a long press declares a show,
the turn clock runs out into missed turns, and a lost box or camera pauses the clock. A show
walks through the declarer's verdict, then every other hand, each read by the camera,
correctable, and confirmed with OK before the deal's scores are written. What a family scores
is its :class:`~engine.game.policy.FamilyPolicy`.

An event that changes nothing returns the very same state object and no effects, so the app
can tell a Tick that mattered from one that did not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from engine.cards import parse_card
from engine.errors import TablekitError
from engine.game.effects import (
    Buzz,
    Effect,
    GameOver,
    Notice,
    ReadCut,
    ReadZone,
    SetLed,
    ShowVerdict,
    StartTimer,
    StopTimer,
    WriteScores,
)
from engine.game.events import (
    ButtonPressed,
    ButtonReleased,
    CameraLost,
    CameraRestored,
    Confirm,
    Correction,
    DealStarted,
    Declare,
    Drop,
    Event,
    LinkLost,
    LinkRestored,
    MenuPressed,
    TableRead,
    Tick,
    TimerExpired,
)
from engine.game.policy import (
    MISSED_TURNS,
    SITTING_OUT,
    WINNER,
    FamilyPolicy,
    SeatOutcome,
    policy_for,
)
from engine.game.setup import Game
from engine.game.state import (
    PLAYING,
    DealRecord,
    DealState,
    GameState,
    Groups,
    HandReading,
    Phase,
    SeatStatus,
    ShowStage,
    ShowState,
)
from engine.ruling import plain_number

#: A press held at least this long declares a show; shorter ends the turn.
LONG_PRESS_MS = 1500
#: The buzzer for a refused press and for a missed turn.
REFUSE_BUZZ_MS = 60
MISSED_BUZZ_MS = 400

Result = tuple[GameState, list[Effect]]
MENU_DROP = "drop"
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
    return handler(state, event)


# --- helpers ------------------------------------------------------------------------------


def _set(values: tuple[object, ...], index: int, value: object) -> tuple[object, ...]:
    return values[:index] + (value,) + values[index + 1:]


def _seti(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return values[:index] + (value,) + values[index + 1:]


def _name(state: GameState, seat: int) -> str:
    return state.game.seats[seat].name


def _policy(state: GameState) -> FamilyPolicy:
    return policy_for(state.game)


def _next_seat(after: int, allowed: Callable[[int], bool], n: int) -> int | None:
    for step in range(1, n + 1):
        seat = (after + step) % n
        if allowed(seat):
            return seat
    return None


def _refuse(state: GameState, text: str) -> Result:
    return state.with_notice(text), [Notice(text), Buzz(REFUSE_BUZZ_MS)]


def _turn_ms(state: GameState) -> int:
    return _policy(state).turn_seconds(state.game) * 1000


# --- deals and turns ----------------------------------------------------------------------


def _deal_started(state: GameState, event: Event) -> Result:
    assert isinstance(event, DealStarted)
    if state.phase not in ("setup", "deal-over"):
        return _refuse(state, "a deal is already under way" if state.phase != "game-over"
                       else "the game is over")
    if event.wild:
        try:
            wild = _cut_text(state.game, event.wild)
        except TablekitError as exc:
            return _refuse(state, f"cannot use {event.wild!r} as the cut card: {exc}")
    else:
        wild = ""
    game = state.game
    n = game.players
    alive = [not out for out in state.eliminated]
    if state.phase == "setup":
        dealer = state.dealer if alive[state.dealer] else _next_seat(state.dealer, lambda s: alive[s], n)
    else:
        dealer = _next_seat(state.dealer, lambda s: alive[s], n)
    assert dealer is not None
    first = _next_seat(dealer, lambda s: alive[s], n)
    assert first is not None
    status: tuple[SeatStatus, ...] = tuple(PLAYING if a else "out" for a in alive)
    zeros = (0,) * n
    deal = DealState(number=len(state.history) + 1, dealer=dealer, wild=wild, turn=first,
                     status=status, turns_played=zeros, turns_begun=_seti(zeros, first, 1),
                     missed_in_row=zeros, outcomes=("",) * n)
    deal = _start_clock(state, deal, event.t_ms)
    window = _policy(state).opening_window_ms
    if window and deal.deadline_ms is not None:
        deal = replace(deal, window_until_ms=event.t_ms + window, deadline_ms=deal.deadline_ms + window)
    text = f"deal {deal.number}: {_name(state, dealer)} deals, {_name(state, first)} plays first"
    if wild:
        text += f"; {wild} is the cut card"
    new = replace(state, phase="play", dealer=dealer, deal=deal, show=None, menu=(), notice=text)
    effects: list[Effect] = [SetLed(s, "on" if s == first else "off") for s in range(n)]
    effects += _clock_effects(new)
    effects.append(Notice(text))
    return new, effects


def _cut_text(game: Game, text: str) -> str:
    """The cut card (or turned-up tile) in canonical notation."""
    if game.variant.uses_tiles:
        from engine.tiles import parse_tile

        return str(parse_tile(text))
    return str(parse_card(text))


def _start_clock(state: GameState, deal: DealState, t_ms: int) -> DealState:
    if state.paused:
        return replace(deal, deadline_ms=None, paused_left_ms=_turn_ms(state))
    return replace(deal, deadline_ms=t_ms + _turn_ms(state), paused_left_ms=None)


def _clock_effects(state: GameState) -> list[Effect]:
    deal = state.deal
    if deal is None or deal.deadline_ms is None:
        return [StopTimer()]
    return [StartTimer(deal.turn, deal.deadline_ms)]


def _pass_turn(state: GameState, t_ms: int, effects: list[Effect]) -> Result:
    """Give the turn to the next seat still playing (or end the deal if one is left)."""
    deal = state.deal
    assert deal is not None
    playing = deal.playing()
    if len(playing) <= 1:
        return _finish_deal(state, playing[0] if playing else None, t_ms, effects)
    status = deal.status
    nxt = _next_seat(deal.turn, lambda s: status[s] == PLAYING, len(status))
    assert nxt is not None
    deal = replace(deal, turn=nxt, turn_count=deal.turn_count + 1, window_until_ms=None,
                   turns_begun=_seti(deal.turns_begun, nxt, deal.turns_begun[nxt] + 1))
    deal = _start_clock(state, deal, t_ms)
    new = replace(state, phase="play", deal=deal, show=None, menu=())
    previous = state.deal.turn if state.deal is not None else nxt
    leds: list[Effect] = [SetLed(previous, "off")] if previous != nxt else []
    return new, effects + leds + [SetLed(nxt, "on")] + _clock_effects(new)


def _end_turn(state: GameState, seat: int, t_ms: int) -> Result:
    deal = state.deal
    assert deal is not None
    if seat != deal.turn:
        return _refuse(state, f"it is {_name(state, deal.turn)}'s turn, not {_name(state, seat)}'s")
    if state.paused:
        return _refuse(state, f"play is paused: {state.pause_reason()}")
    deal = replace(deal, turns_played=_seti(deal.turns_played, seat, deal.turns_played[seat] + 1),
                   missed_in_row=_seti(deal.missed_in_row, seat, 0))
    return _pass_turn(replace(state, deal=deal, notice=""), t_ms, [])


def _missed_turn(state: GameState, t_ms: int) -> Result:
    deal = state.deal
    assert deal is not None
    seat = deal.turn
    missed = deal.missed_in_row[seat] + 1
    deal = replace(deal, missed_in_row=_seti(deal.missed_in_row, seat, missed))
    limit = _policy(state).missed_turn_limit
    effects: list[Effect] = [Buzz(MISSED_BUZZ_MS)]
    if limit is not None and missed >= limit and _policy(state).drop_outcome(state.game, deal, seat):
        text = f"{_name(state, seat)} missed {missed} turns in a row and is dropped"
        deal = replace(deal, status=_status(deal.status, seat, "dropped"),
                       outcomes=_outcome(deal.outcomes, seat, MISSED_TURNS))
    else:
        text = f"{_name(state, seat)} missed a turn" + (f" ({missed} of {limit})" if limit else "")
    effects.append(Notice(text))
    return _pass_turn(replace(state, deal=deal, notice=text), t_ms, effects)


def _status(values: tuple[SeatStatus, ...], seat: int, value: SeatStatus) -> tuple[SeatStatus, ...]:
    return values[:seat] + (value,) + values[seat + 1:]


def _outcome(values: tuple[str, ...], seat: int, value: str) -> tuple[str, ...]:
    return values[:seat] + (value,) + values[seat + 1:]


def _drop(state: GameState, seat: int, t_ms: int) -> Result:
    deal = state.deal
    if state.phase != "play" or deal is None:
        return _refuse(state, "nobody can drop now")
    if seat != deal.turn:
        return _refuse(state, f"{_name(state, seat)} can drop only on their own turn")
    outcome = _policy(state).drop_outcome(state.game, deal, seat)
    if outcome is None:
        return _refuse(state, f"{state.game.variant.name} allows no drop")
    text = f"{_name(state, seat)} drops ({outcome.replace('-', ' ')})"
    deal = replace(deal, status=_status(deal.status, seat, "dropped"),
                   outcomes=_outcome(deal.outcomes, seat, outcome))
    return _pass_turn(replace(state, deal=deal, notice=text), t_ms, [Notice(text)])


# --- buttons ------------------------------------------------------------------------------


def _pressed(state: GameState, event: Event) -> Result:
    assert isinstance(event, ButtonPressed)
    if not 0 <= event.seat < state.game.players:
        return state, []
    return replace(state, pressed_at=_set(state.pressed_at, event.seat, event.t_ms)), []  # type: ignore[arg-type]


def _released(state: GameState, event: Event) -> Result:
    assert isinstance(event, ButtonReleased)
    seat = event.seat
    if not 0 <= seat < state.game.players or state.pressed_at[seat] is None:
        return state, []
    held = event.t_ms - (state.pressed_at[seat] or 0)
    state = replace(state, pressed_at=_set(state.pressed_at, seat, None))  # type: ignore[arg-type]
    if state.phase != "play":
        return state, []
    if held >= LONG_PRESS_MS:
        return _declare(state, seat, event.t_ms)
    return _end_turn(state, seat, event.t_ms)


def _declare_event(state: GameState, event: Event) -> Result:
    assert isinstance(event, Declare)
    if state.phase != "play":
        return _refuse(state, "a show can be declared only during play")
    return _declare(state, event.seat, event.t_ms)


def _drop_event(state: GameState, event: Event) -> Result:
    assert isinstance(event, Drop)
    return _drop(state, event.seat, event.t_ms)


def _menu(state: GameState, event: Event) -> Result:
    assert isinstance(event, MenuPressed)
    if state.phase == "show" and state.show is not None:
        return _read_again(state)
    if state.phase != "play":
        return state, []
    if state.menu:
        return replace(state, menu=state.menu[1:] + state.menu[:1]), []
    return replace(state, menu=(MENU_DROP, MENU_CLOSE)), []


def _confirm(state: GameState, event: Event) -> Result:
    assert isinstance(event, Confirm)
    if state.phase == "play":
        deal = state.deal
        if not state.menu and deal is not None and deal.window_until_ms is not None and not state.paused:
            # OK closes the opening window early: the first turn's clock starts now
            deal = replace(deal, window_until_ms=None, deadline_ms=event.t_ms + _turn_ms(state))
            state = replace(state, deal=deal)
            return state, _clock_effects(state)
        if not state.menu:
            return state, []
        choice = state.menu[0]
        state = replace(state, menu=())
        if choice == MENU_DROP and state.deal is not None:
            return _drop(state, state.deal.turn, event.t_ms)
        return state, []
    if state.phase in ("setup", "deal-over"):
        return state, [ReadCut()]
    if state.phase == "show":
        return _confirm_show(state, event.t_ms)
    return state, []


# --- time and devices ---------------------------------------------------------------------


def _tick(state: GameState, event: Event) -> Result:
    assert isinstance(event, Tick | TimerExpired)
    deal = state.deal
    if state.phase != "play" or deal is None or deal.deadline_ms is None:
        return state, []
    if isinstance(event, TimerExpired):
        if event.seat != deal.turn:
            return state, []
    elif event.t_ms < deal.deadline_ms:
        return state, []
    return _missed_turn(state, max(event.t_ms, deal.deadline_ms))


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
            state = replace(state, deal=replace(deal, deadline_ms=None, paused_left_ms=left,
                                                window_until_ms=None))
            effects.append(StopTimer())
    elif was_paused and not state.paused:
        text = "play resumes"
        state = state.with_notice(text)
        effects.append(Notice(text))
        if state.phase == "play" and deal is not None and deal.paused_left_ms is not None:
            state = replace(state, deal=replace(deal, deadline_ms=t_ms + deal.paused_left_ms,
                                                paused_left_ms=None))
            effects += _clock_effects(state)
    return state, effects


# --- the show -----------------------------------------------------------------------------


def _declare(state: GameState, seat: int, t_ms: int) -> Result:
    deal = state.deal
    assert deal is not None
    if seat != deal.turn:
        return _refuse(state, f"{_name(state, seat)} can declare only on their own turn")
    if not state.camera_ok:
        return _refuse(state, "the camera is lost: a show cannot be read now")
    text = f"{_name(state, seat)} declares a show"
    deal = replace(deal, deadline_ms=None, paused_left_ms=None)
    new = replace(state, phase="show", deal=deal, show=ShowState(declarer=seat), menu=(), notice=text)
    return new, [StopTimer(), SetLed(seat, "fast"), Buzz(200), Notice(text), ReadZone(seat)]


def _looking_at(show: ShowState) -> int | None:
    if show.stage in ("reading", "verdict"):
        return show.declarer
    return show.pending[0] if show.pending else None


def _judge_declaration(state: GameState, groups: Groups) -> HandReading:
    deal = state.deal
    assert deal is not None and state.show is not None
    seat = state.show.declarer
    try:
        ruling = _policy(state).judge_show(state.game, deal, groups)
    except (TablekitError, ValueError) as exc:
        return HandReading(seat, groups, problem=str(exc))
    return HandReading(seat, groups, ruling)


def _judge_hand(state: GameState, seat: int, groups: Groups) -> HandReading:
    deal = state.deal
    assert deal is not None
    try:
        outcome, count, ruling = _policy(state).count_hand(state.game, deal, seat, groups)
    except (TablekitError, ValueError) as exc:
        return HandReading(seat, groups, problem=str(exc))
    return HandReading(seat, groups, ruling, points=count, outcome=outcome)


def _show_reading(state: GameState, seat: int, groups: Groups) -> Result:
    show = state.show
    assert show is not None
    if show.stage in ("reading", "verdict"):
        reading = _judge_declaration(state, groups)
        show = replace(show, stage="verdict", declaration=reading)
    else:
        reading = _judge_hand(state, seat, groups)
        show = replace(show, stage="hand-check", current=reading)
    valid = reading.ruling is not None and reading.ruling.valid
    reason = reading.problem or (reading.ruling.reason if reading.ruling else "")
    return replace(state, show=show), [ShowVerdict(seat, valid, reason)]


def _table_read(state: GameState, event: Event) -> Result:
    assert isinstance(event, TableRead)
    if state.phase != "show" or state.show is None or _looking_at(state.show) != event.zone:
        return state, []
    return _show_reading(state, event.zone, event.groups)


def _correction(state: GameState, event: Event) -> Result:
    assert isinstance(event, Correction)
    show = state.show
    if state.phase != "show" or show is None or _looking_at(show) != event.zone:
        return state, []
    reading = show.declaration if show.stage == "verdict" else show.current
    if reading is None or show.stage not in ("verdict", "hand-check"):
        return _refuse(state, "nothing has been read yet to correct")
    if event.card:
        try:
            card = str(parse_card(event.card)) if not state.game.variant.uses_tiles else event.card.upper()
            state.game.variant.parse(card)
        except TablekitError as exc:
            return _refuse(state, f"not a card: {exc}")
    groups = [list(g) for g in reading.groups]
    if event.group == len(groups) and event.card:
        groups.append([])
    if not 0 <= event.group < len(groups):
        return _refuse(state, f"there is no group {event.group + 1}")
    group = groups[event.group]
    if not 0 <= event.position <= len(group) or (event.position == len(group) and not event.card):
        return _refuse(state, f"group {event.group + 1} has no card {event.position + 1}")
    if event.position == len(group):
        group.append(card)
    elif event.card:
        group[event.position] = card
    else:
        del group[event.position]
    fixed = tuple(tuple(g) for g in groups if g)
    return _show_reading(state, event.zone, fixed)


def _read_again(state: GameState) -> Result:
    show = state.show
    assert show is not None
    seat = _looking_at(show)
    if seat is None:
        return state, []
    stage: ShowStage = "reading" if show.stage in ("reading", "verdict") else "hand-reading"
    new = replace(state, show=replace(show, stage=stage))
    return new, [ReadZone(seat)]


def _confirm_show(state: GameState, t_ms: int) -> Result:
    show = state.show
    deal = state.deal
    assert show is not None and deal is not None
    if show.stage == "verdict" and show.declaration is not None:
        reading = show.declaration
        if reading.ruling is not None and reading.ruling.valid:
            return _valid_show(state, t_ms)
        return _wrong_show(state, reading, t_ms)
    if show.stage == "hand-check" and show.current is not None:
        if show.current.problem:
            return _refuse(state, f"this hand cannot be counted ({show.current.problem}): "
                                  "MENU reads it again")
        show = replace(show, hands=show.hands + (show.current,), current=None,
                       pending=show.pending[1:], stage="hand-reading")
        state = replace(state, show=show)
        if show.pending:
            return state, [ReadZone(show.pending[0])]
        return _finish_deal(state, show.declarer if show.valid else None, t_ms, [])
    return state, []


def _valid_show(state: GameState, t_ms: int) -> Result:
    assert state.show is not None
    return _read_hands(state, f"{_name(state, state.show.declarer)} made a valid show", t_ms)


def _read_hands(state: GameState, text: str, t_ms: int) -> Result:
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
        return _finish_deal(state, winner, t_ms, [Notice(text)])
    return state, [Notice(text), ReadZone(pending[0])]


def _wrong_show(state: GameState, reading: HandReading, t_ms: int) -> Result:
    deal = state.deal
    assert deal is not None
    seat = reading.seat
    why = reading.problem or (reading.ruling.reason if reading.ruling else "")
    text = f"{_name(state, seat)} made a wrong show: {why}"
    policy = _policy(state)
    outcome = policy.wrong_show_outcome
    if policy.wrong_show_ends_deal:
        deal = replace(deal, outcomes=_outcome(deal.outcomes, seat, outcome or "wrong-show"))
        show = state.show
        assert show is not None
        state = replace(state, deal=deal, show=replace(show, valid=False))
        return _read_hands(state, text, t_ms)
    if outcome is not None:
        deal = replace(deal, status=_status(deal.status, seat, "wrong-show"),
                       outcomes=_outcome(deal.outcomes, seat, outcome))
    state = replace(state, deal=deal, show=None, phase="play", notice=text)
    effects: list[Effect] = [Notice(text), SetLed(seat, "off")]
    if outcome is None:
        # the declarer plays on: their turn goes on with a fresh clock
        deal = _start_clock(state, deal, t_ms)
        state = replace(state, deal=deal)
        return state, effects + [SetLed(seat, "on")] + _clock_effects(state)
    return _pass_turn(state, t_ms, effects)


def _finish_deal(state: GameState, winner: int | None, t_ms: int, effects: list[Effect]) -> Result:
    deal = state.deal
    assert deal is not None
    game = state.game
    policy = _policy(state)
    hands = {h.seat: h for h in (state.show.hands if state.show else ())}
    outcomes: list[SeatOutcome] = []
    for seat, status in enumerate(deal.status):
        if status == "out":
            outcomes.append(SeatOutcome(seat, SITTING_OUT))
        elif seat == winner:
            outcomes.append(SeatOutcome(seat, WINNER))
        elif deal.outcomes[seat]:
            outcomes.append(SeatOutcome(seat, deal.outcomes[seat]))
        elif seat in hands:
            outcomes.append(SeatOutcome(seat, hands[seat].outcome, hands[seat].points or 0))
        else:  # no hand read (cannot happen in a finished show): counts as winner-less loss
            outcomes.append(SeatOutcome(seat, "lost", 0))
    readings = {h.seat: h.groups for h in (state.show.hands if state.show else ())}
    if state.show is not None and state.show.declaration is not None:
        readings[state.show.declarer] = state.show.declaration.groups
    scores = policy.deal_scores(game, deal, outcomes, readings)
    past = [{s: sc for s, sc in enumerate(r.scores) if r.outcomes[s] != SITTING_OUT}
            for r in state.history]
    standings = policy.standings(game, past + [scores])
    n = game.players
    record = DealRecord(number=deal.number, dealer=deal.dealer, wild=deal.wild, winner=winner,
                        outcomes=tuple(o.outcome for o in outcomes),
                        counts=tuple(o.count for o in outcomes),
                        scores=tuple(scores.get(s, 0) for s in range(n)),
                        totals=standings.totals)
    over = standings.over or sum(not e for e in standings.eliminated) <= 1
    winners = standings.winners
    if over and not winners:
        alive = [s for s in range(n) if not standings.eliminated[s]]
        winners = tuple(alive)
    phase: Phase = "game-over" if over else "deal-over"
    text = (f"{_name(state, winner)} wins deal {deal.number}" if winner is not None
            else f"deal {deal.number} ends")
    new = replace(state, phase=phase, deal=replace(deal, deadline_ms=None, paused_left_ms=None),
                  history=state.history + (record,), totals=standings.totals,
                  eliminated=standings.eliminated, winners=winners if over else (), menu=(),
                  notice=text)
    out = list(effects) + [StopTimer()] + [SetLed(s, "off") for s in range(n)]
    out += [Notice(text), WriteScores(deal.number, tuple(plain_number(x) for x in record.scores),
                                      tuple(plain_number(x) for x in record.totals))]
    if over:
        out.append(GameOver(winners))
    return new, out


_HANDLERS: dict[type[Event], Callable[[GameState, Event], Result]] = {
    DealStarted: _deal_started,
    ButtonPressed: _pressed,
    ButtonReleased: _released,
    MenuPressed: _menu,
    Confirm: _confirm,
    Tick: _tick,
    TimerExpired: _tick,
    TableRead: _table_read,
    Correction: _correction,
    Declare: _declare_event,
    Drop: _drop_event,
    LinkLost: _devices,
    LinkRestored: _devices,
    CameraLost: _devices,
    CameraRestored: _devices,
}
