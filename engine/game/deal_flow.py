"""Deals and turns: dealing, the turn clock, passing the turn, drops, missed turns, deal ends.

The pieces of the referee's flow that every phase uses; :mod:`engine.game.flow` dispatches
events to them and :mod:`engine.game.show` builds on them.
"""

from __future__ import annotations

from dataclasses import replace

from engine.cards import parse_card
from engine.errors import NotationError, TablekitError
from engine.game.effects import (
    Buzz,
    Effect,
    GameOver,
    Notice,
    ReadTable,
    SetLed,
    StartTimer,
    StopTimer,
    WriteScores,
)
from engine.game.events import (
    DealStarted,
    Event,
)
from engine.game.policy import (
    MISSED_TURNS,
    SITTING_OUT,
    WINNER,
    FamilyPolicy,
    SeatOutcome,
    policy_for,
)
from engine.game.seats import next_seat
from engine.game.setup import Game
from engine.game.state import (
    PLAYING,
    DealRecord,
    DealState,
    GameState,
    Phase,
    SeatStatus,
    TableWatch,
)
from engine.ruling import plain_number

#: The buzzer for a refused press and for a missed turn.
REFUSE_BUZZ_MS = 60
MISSED_BUZZ_MS = 400

Result = tuple[GameState, list[Effect]]

def set_at(values: tuple[object, ...], index: int, value: object) -> tuple[object, ...]:
    return values[:index] + (value,) + values[index + 1:]


def set_int(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return values[:index] + (value,) + values[index + 1:]


def name_of(state: GameState, seat: int) -> str:
    return state.game.seats[seat].name


def policy_of(state: GameState) -> FamilyPolicy:
    return policy_for(state.game)


def refuse(state: GameState, text: str) -> Result:
    return state.with_notice(text), [Notice(text), Buzz(REFUSE_BUZZ_MS)]


def turn_ms(state: GameState) -> int:
    return policy_of(state).turn_seconds(state.game) * 1000


# --- deals and turns ----------------------------------------------------------------------


def deal_started(state: GameState, event: Event) -> Result:
    assert isinstance(event, DealStarted)
    if state.phase not in ("setup", "deal-over"):
        return refuse(state, "a deal is already under way" if state.phase != "game-over"
                       else "the game is over")
    if event.wild:
        try:
            wild = cut_text(state.game, event.wild)
        except TablekitError as exc:
            return refuse(state, f"cannot use {event.wild!r} as the cut card: {exc}")
    else:
        wild = ""
    game = state.game
    n = game.players
    policy = policy_of(state)
    alive = [not out for out in state.eliminated]

    def in_game(seat: int) -> bool:
        return alive[seat]

    dealer = next_deal_dealer(state)
    first = policy.first_player(game, dealer, in_game)
    assert first is not None
    status: tuple[SeatStatus, ...] = tuple(PLAYING if a else "out" for a in alive)
    zeros = (0,) * n
    deal = DealState(number=len(state.history) + 1, dealer=dealer, wild=wild, turn=first,
                     status=status, turns_played=zeros, turns_begun=set_int(zeros, first, 1),
                     missed_in_row=zeros, outcomes=("",) * n)
    deal = start_clock(state, deal, event.t_ms)
    watching = policy_of(state).watches_turns(game)
    if watching:
        deal = replace(deal, watch=TableWatch())
    family = policy.family_deal(state, deal.number)
    if family is not None:
        deal = replace(deal, family=family)
    window, _ = policy.opening_window(game, deal.number)
    if window and deal.deadline_ms is not None:
        deal = replace(deal, window_until_ms=event.t_ms + window, deadline_ms=deal.deadline_ms + window)
    text = f"deal {deal.number}: {name_of(state, dealer)} deals, {name_of(state, first)} plays first"
    if wild:
        text += f"; {wild} is the cut card"
    new = replace(state, phase="play", dealer=dealer, deal=deal, show=None, menu=(), notice=text,
                  redeal=None)
    effects: list[Effect] = [SetLed(s, "on" if s == first else "off") for s in range(n)]
    effects += clock_effects(new)
    effects.append(Notice(text))
    if watching:
        effects.append(ReadTable())  # the table as dealt: what the first turn is checked against
    return new, effects


def next_deal_dealer(state: GameState) -> int:
    """Who deals the coming deal: the deal passes the way the game's policy says; before the
    first deal, and after a void deal (phase "setup" again), the dealer in place deals."""
    alive = [not out for out in state.eliminated]

    def in_game(seat: int) -> bool:
        return alive[seat]

    policy = policy_of(state)
    if state.phase == "setup" and alive[state.dealer]:
        return state.dealer
    dealer = policy.next_dealer(state.game, state.dealer, in_game)
    assert dealer is not None
    return dealer


def cut_text(game: Game, text: str) -> str:
    """The cut card (or turned-up tile) in canonical notation."""
    if game.variant.uses_tiles:
        from engine.tiles import parse_tile

        tile = parse_tile(text)
        if tile.is_joker:  # docs/tile-rummy.md: the Joly goes back, the next tile is turned
            raise NotationError("a Joly has no number, so it cannot be the ace: "
                                "put it back and turn up the next tile")
        return str(tile)
    return str(parse_card(text))


def start_clock(state: GameState, deal: DealState, t_ms: int) -> DealState:
    if state.paused:
        return replace(deal, deadline_ms=None, paused_left_ms=turn_ms(state))
    return replace(deal, deadline_ms=t_ms + turn_ms(state), paused_left_ms=None)


def clock_effects(state: GameState) -> list[Effect]:
    deal = state.deal
    if deal is None or deal.deadline_ms is None:
        return [StopTimer()]
    return [StartTimer(deal.turn, deal.deadline_ms)]


def pass_turn(state: GameState, t_ms: int, effects: list[Effect], ended_by: int | None = None
              ) -> Result:
    """Give the turn to the next seat still playing (or end the deal if one is left).

    ``ended_by``: the seat that ended its turn with a press, whose turn the table's next
    reading checks (families that check turns); any other passing of the turn (a missed
    turn, a drop) only has the table read afresh.
    """
    state, said = end_window(state)
    effects = effects + said
    deal = state.deal
    assert deal is not None
    playing = deal.playing()
    if len(playing) <= 1:
        return finish_deal(state, playing[0] if playing else None, t_ms, effects)
    status = deal.status
    step = policy_of(state).turn_step(state.game)
    nxt = next_seat(deal.turn, lambda s: status[s] == PLAYING, len(status), step)
    assert nxt is not None
    watch = None if deal.watch is None else after_turn(deal.watch, ended_by, deal.turn_count == 1)
    deal = replace(deal, turn=nxt, turn_count=deal.turn_count + 1, window_until_ms=None,
                   turns_begun=set_int(deal.turns_begun, nxt, deal.turns_begun[nxt] + 1),
                   watch=watch)
    deal = start_clock(state, deal, t_ms)
    new = replace(state, phase="play", deal=deal, show=None, menu=())
    previous = state.deal.turn if state.deal is not None else nxt
    leds: list[Effect] = [SetLed(previous, "off")] if previous != nxt else []
    read: list[Effect] = [ReadTable()] if watch is not None else []
    return new, effects + leds + [SetLed(nxt, "on")] + clock_effects(new) + read


def end_window(state: GameState) -> Result:
    """Close the opening window (tile rummy's doubles) if it is open: the family answers what
    was called in it (doubles exchanged); the table is told what came of it."""
    deal = state.deal
    if deal is None or deal.window_until_ms is None:
        return state, []
    deal, text = policy_of(state).window_closed(state.game, replace(deal, window_until_ms=None))
    state = replace(state, deal=deal)
    if not text:
        return state, []
    return state.with_notice(text), [Notice(text)]


def after_turn(watch: TableWatch, ended_by: int | None, first_turn: bool) -> TableWatch:
    """The watch once a turn passes: the next reading checks ``ended_by``'s turn when the
    table before it is known; else (no press, no reading before, or the reading after the
    last turn never came) the next reading only shows the table as it now lies."""
    if ended_by is None or watch.table is None or watch.due is not None:
        return TableWatch(known=watch.table or watch.known)  # what the melds were is kept
    return TableWatch(watch.table, due=ended_by, first_turn=first_turn)


def end_turn(state: GameState, seat: int, t_ms: int) -> Result:
    deal = state.deal
    assert deal is not None
    if seat != deal.turn:
        return refuse(state, f"it is {name_of(state, deal.turn)}'s turn, not {name_of(state, seat)}'s")
    if state.paused:
        return refuse(state, f"play is paused: {state.pause_reason()}")
    deal = replace(deal, turns_played=set_int(deal.turns_played, seat, deal.turns_played[seat] + 1),
                   missed_in_row=set_int(deal.missed_in_row, seat, 0))
    deal, text = policy_of(state).turn_ended(state.game, deal, seat, in_time=True)
    said: list[Effect] = [Notice(text)] if text else []
    return pass_turn(replace(state, deal=deal, notice=text), t_ms, said, ended_by=seat)


def missed_turn(state: GameState, t_ms: int) -> Result:
    deal = state.deal
    assert deal is not None
    seat = deal.turn
    missed = deal.missed_in_row[seat] + 1
    deal = replace(deal, missed_in_row=set_int(deal.missed_in_row, seat, missed))
    deal, lapsed = policy_of(state).turn_ended(state.game, deal, seat, in_time=False)
    limit = policy_of(state).missed_turn_limit
    effects: list[Effect] = [Buzz(MISSED_BUZZ_MS)]
    if limit is not None and missed >= limit and policy_of(state).drop_outcome(state.game, deal, seat):
        text = f"{name_of(state, seat)} missed {missed} turns in a row and is dropped"
        deal = replace(deal, status=with_status(deal.status, seat, "dropped"),
                       outcomes=with_outcome(deal.outcomes, seat, MISSED_TURNS))
    else:
        count = "" if not limit else f" ({missed} of {limit})" if missed < limit else f" ({missed} in a row)"
        text = f"{name_of(state, seat)} missed a turn{count}"
    if lapsed:
        text += f"; {lapsed}"
    effects.append(Notice(text))
    return pass_turn(replace(state, deal=deal, notice=text), t_ms, effects)


def with_status(values: tuple[SeatStatus, ...], seat: int, value: SeatStatus) -> tuple[SeatStatus, ...]:
    return values[:seat] + (value,) + values[seat + 1:]


def with_outcome(values: tuple[str, ...], seat: int, value: str) -> tuple[str, ...]:
    return values[:seat] + (value,) + values[seat + 1:]


def drop(state: GameState, seat: int, t_ms: int) -> Result:
    deal = state.deal
    if state.phase != "play" or deal is None:
        return refuse(state, "nobody can drop now")
    if seat != deal.turn:
        return refuse(state, f"{name_of(state, seat)} can drop only on their own turn")
    outcome = policy_of(state).drop_outcome(state.game, deal, seat)
    if outcome is None:
        return refuse(state, f"{state.game.variant.name} allows no drop")
    text = f"{name_of(state, seat)} drops ({outcome.replace('-', ' ')})"
    deal = replace(deal, status=with_status(deal.status, seat, "dropped"),
                   outcomes=with_outcome(deal.outcomes, seat, outcome))
    return pass_turn(replace(state, deal=deal, notice=text), t_ms, [Notice(text)])


def finish_deal(state: GameState, winner: int | None, t_ms: int, effects: list[Effect]) -> Result:
    deal = state.deal
    assert deal is not None
    game = state.game
    policy = policy_of(state)
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
    declaration = state.show.declaration if state.show is not None else None
    if declaration is not None and declaration.ruling is not None:  # a misread counts nothing
        readings[declaration.seat] = declaration.groups
    scores = policy.deal_scores(game, deal, outcomes, readings)
    past = [{s: sc for s, sc in enumerate(r.scores) if r.outcomes[s] != SITTING_OUT}
            for r in state.history]
    standings = policy.standings(game, past + [scores], [r.winner for r in state.history] + [winner])
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
    text = (f"{name_of(state, winner)} wins deal {deal.number}" if winner is not None
            else f"deal {deal.number} ends")
    new = replace(state, phase=phase, deal=replace(deal, deadline_ms=None, paused_left_ms=None),
                  history=state.history + (record,), totals=standings.totals,
                  eliminated=standings.eliminated, winners=winners if over else (), menu=(),
                  notice=text, carried=deal.family)
    out = list(effects) + [StopTimer()] + [SetLed(s, "off") for s in range(n)]
    out += [Notice(text), WriteScores(deal.number, tuple(plain_number(x) for x in record.scores),
                                      tuple(plain_number(x) for x in record.totals))]
    if over:
        out.append(GameOver(winners))
    return new, out


def void_deal(state: GameState, t_ms: int) -> Result:
    """The deal is void (Kalooki: the stock ran out a second time): nothing is read or
    scored, and the same dealer deals the same deal (the same contract) again. The game goes
    back to waiting for the deal, as before the first one, so the next DealStarted keeps the
    dealer; the void deal leaves no record, so its number comes round again."""
    deal = state.deal
    assert deal is not None
    n = state.game.players
    text = (f"deal {deal.number} is void ({policy_of(state).stock_out_label}): no scores; "
            f"{name_of(state, deal.dealer)} deals it again")
    new = replace(state, phase="setup", dealer=deal.dealer, deal=None, show=None, menu=(),
                  notice=text, redeal=deal.number, carried=deal.family)
    return new, [StopTimer()] + [SetLed(s, "off") for s in range(n)] + [Notice(text)]
