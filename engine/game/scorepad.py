"""The scorepad: the players enter a hand the camera did not read, and a second seat confirms.

When there is no camera, or it gives no reading, or its reading of a hand cannot be counted,
the table asks the players instead, as a club's scoring terminal does: one entry, then a
different seat confirms it. Two halves live here, both pure:

- the event, :class:`~engine.game.events.HandEntered`, folded in by :func:`hand_entered`.
  It is checked against the game (:func:`entry_problem`): the seat must be the one the show
  is asking for; the declarer's show takes a verdict, a losing hand a count from 0 to the
  family's most (:meth:`~engine.game.policy.FamilyPolicy.max_hand_points`); the seat that
  confirms is not the one that entered. A refused entry changes nothing but the table's
  notice, which says why. An accepted one is taken as a reading confirmed with OK would be,
  so it is journaled and replays like one.
- the draft, :class:`Entry`, and the steps that change it (a seat's press or hold, MENU,
  OK, digits typed at the keyboard). The table keeps the draft while the players enter;
  nothing of it is journaled: only the :class:`HandEntered` a confirmed draft makes is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from engine.game.deal_flow import Result, name_of, policy_of, refuse
from engine.game.effects import Notice, ShowVerdict
from engine.game.events import Event, HandEntered
from engine.game.show import next_hand, valid_show, wrong_show
from engine.game.state import GameState, HandReading
from engine.ruling import Ruling

EntryKind = Literal["verdict", "points"]
EntryStage = Literal["entering", "confirming", "blocked"]
VERDICT: EntryKind = "verdict"
POINTS: EntryKind = "points"
ENTERING: EntryStage = "entering"
CONFIRMING: EntryStage = "confirming"
BLOCKED: EntryStage = "blocked"  # the game cannot take this entry (its scores need the cards)

#: A seat's button held at least this long steps the count by :data:`BIG_STEP` (else by one).
HOLD_MS = 800
BIG_STEP = 10
#: Digits a count may have when typed.
MAX_DIGITS = 3

ENTERED_REASON = "as the table entered it"


# --- what the show asks for ------------------------------------------------------------------


def wanted(state: GameState) -> tuple[int, EntryKind] | None:
    """The seat whose hand the show is waiting for and what it takes: the declarer's show a
    verdict, every other hand its count. None outside a show."""
    show = state.show
    if state.phase != "show" or show is None:
        return None
    if show.stage in ("reading", "verdict"):
        return show.declarer, VERDICT
    if show.pending:
        return show.pending[0], POINTS
    return None


def count_problem(state: GameState, points: int | None) -> str:
    """Why ``points`` cannot be a losing hand's count in this game ("" when it can)."""
    game = state.game
    limit = policy_of(state).max_hand_points(game)
    if limit is None:
        return (f"{game.variant.name} scores a deal from the cards themselves: "
                "they must be read, not entered")
    if points is None:
        return "enter the points the hand counts"
    if points < 0:
        return "a hand cannot count less than 0 points"
    if points > limit:
        return f"a hand counts at most {limit} points in {game.variant.name}, not {points}"
    return ""


def entry_problem(state: GameState, seat: int, points: int | None, valid: bool | None,
                  by_seat: int | None, confirmed_by: int | None) -> str:
    """Why this entry cannot be taken now ("" when it can); ``confirmed_by`` None checks an
    entry not confirmed yet."""
    asked = wanted(state)
    if asked is None:
        return "no hand is being asked for now"
    players = state.game.players
    if not 0 <= seat < players:
        return f"there is no seat {seat + 1}"
    if asked[0] != seat:
        return f"{name_of(state, asked[0])}'s hand is asked for, not {name_of(state, seat)}'s"
    for who in (by_seat, confirmed_by):
        if who is not None and not 0 <= who < players:
            return f"there is no seat {who + 1}"
    if asked[1] == VERDICT:
        if valid is None:
            return f"say whether {name_of(state, seat)}'s show is valid"
    else:
        problem = count_problem(state, points)
        if problem:
            return problem
    if confirmed_by is not None and confirmed_by == by_seat:
        return f"{name_of(state, confirmed_by)} entered it: a different seat must confirm"
    return ""


# --- the event -------------------------------------------------------------------------------


def hand_entered(state: GameState, event: Event) -> Result:
    """A confirmed entry: the declarer's verdict, or a losing hand's count."""
    assert isinstance(event, HandEntered)
    problem = entry_problem(state, event.seat, event.points, event.valid, event.by_seat,
                            event.confirmed_by)
    if problem:
        return refuse(state, problem)
    asked = wanted(state)
    show = state.show
    deal = state.deal
    assert asked is not None and show is not None and deal is not None
    seat = event.seat
    if asked[1] == VERDICT:
        valid = bool(event.valid)
        reason = f"{'a valid show' if valid else 'wrong show'}, {ENTERED_REASON}"
        reading = HandReading(seat, (), Ruling(valid, 0, (), reason), entered=True)
        state = replace(state, show=replace(show, stage="verdict", declaration=reading))
        if valid:
            new, effects = valid_show(state, event.t_ms)
        else:
            new, effects = wrong_show(state, reading, event.t_ms)
        return new, [ShowVerdict(seat, valid, reason), *effects]
    assert event.points is not None
    outcome, count = policy_of(state).entered_hand(state.game, deal, seat, event.points)
    hand = HandReading(seat, (), None, points=count, outcome=outcome, entered=True)
    text = f"{name_of(state, seat)}'s hand: {event.points} points, {ENTERED_REASON}"
    return next_hand(state.with_notice(text), hand, event.t_ms, [Notice(text)])


# --- the draft the table keeps while the players enter -------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """A scorepad entry in progress (never journaled).

    ``points`` (a losing hand) or ``valid`` (the declarer's show) is what it says now;
    ``by_seat`` the seat whose button last changed it (None: nobody's, or typed at the
    keyboard); ``typed`` the digits typed so far while the keyboard types (None: it does not);
    ``problem`` why the last step was refused; ``limit`` the most a count may be.
    """

    seat: int
    kind: EntryKind
    points: int = 0
    valid: bool = True
    by_seat: int | None = None
    stage: EntryStage = ENTERING
    typed: str | None = None
    problem: str = ""
    limit: int = 0

    def event(self, confirmed_by: int, t_ms: int) -> HandEntered:
        """The event this entry makes, confirmed by ``confirmed_by``."""
        if self.kind == VERDICT:
            return HandEntered(self.seat, None, self.valid, self.by_seat, confirmed_by, t_ms)
        return HandEntered(self.seat, self.points, None, self.by_seat, confirmed_by, t_ms)


def open_entry(state: GameState) -> Entry | None:
    """A fresh entry for the hand the show is asking for (None outside a show); blocked, saying
    why, when the game cannot score an entered count."""
    asked = wanted(state)
    if asked is None:
        return None
    seat, kind = asked
    if kind == VERDICT:
        return Entry(seat, kind)
    limit = policy_of(state).max_hand_points(state.game)
    if limit is None:
        return Entry(seat, kind, stage=BLOCKED, problem=count_problem(state, 0))
    return Entry(seat, kind, limit=limit)


def press(entry: Entry, seat: int, held_ms: int) -> Entry:
    """A seat's button while entering: a count goes up by one (held: by ten), a verdict flips."""
    if entry.stage != ENTERING:
        return entry
    if entry.kind == VERDICT:
        return replace(entry, valid=not entry.valid, by_seat=seat, problem="", typed=None)
    step = BIG_STEP if held_ms >= HOLD_MS else 1
    if entry.points + step > entry.limit:
        return replace(entry, points=entry.limit if entry.points < entry.limit else entry.points,
                       by_seat=seat, typed=None,
                       problem=f"a hand counts at most {entry.limit} points here")
    return replace(entry, points=entry.points + step, by_seat=seat, problem="", typed=None)


def nudge(entry: Entry, step: int) -> Entry:
    """A tap on the screen's steps (-1, +1, +10; on a verdict, a flip): like a seat's button,
    but nobody's, as a number typed at the keyboard is."""
    if entry.stage != ENTERING:
        return entry
    if entry.kind == VERDICT:
        return replace(entry, valid=not entry.valid, by_seat=None, problem="", typed=None)
    points = entry.points + step
    if points < 0:
        return replace(entry, problem="a hand cannot count less than 0 points", typed=None)
    if points > entry.limit:
        return replace(entry, points=entry.limit, by_seat=None, typed=None,
                       problem=f"a hand counts at most {entry.limit} points here")
    return replace(entry, points=points, by_seat=None, problem="", typed=None)


def step_back(entry: Entry) -> Entry:
    """MENU: while entering, a count goes down by one (a verdict flips); while waiting for
    the confirmation, back to entering (the entry is wrong)."""
    if entry.stage == CONFIRMING:
        return replace(entry, stage=ENTERING, problem="")
    if entry.stage != ENTERING:
        return entry
    if entry.kind == VERDICT:
        return replace(entry, valid=not entry.valid, problem="", typed=None)
    if entry.points <= 0:
        return replace(entry, problem="a hand cannot count less than 0 points", typed=None)
    return replace(entry, points=entry.points - 1, problem="", typed=None)


def finish(entry: Entry, state: GameState) -> Entry:
    """OK while entering: the entry waits for a second seat, or says why it cannot be taken."""
    if entry.stage != ENTERING:
        return entry
    if entry.typed is not None:
        entry = finish_typing(entry, True)
    points = entry.points if entry.kind == POINTS else None
    valid = entry.valid if entry.kind == VERDICT else None
    problem = entry_problem(state, entry.seat, points, valid, entry.by_seat, None)
    if problem:
        return replace(entry, problem=problem)
    return replace(entry, stage=CONFIRMING, problem="")


def confirm(entry: Entry, seat: int) -> Entry | None:
    """A seat's button while the entry waits: None when ``seat`` may confirm it (the table
    then posts :meth:`Entry.event`), else the entry saying why not."""
    if entry.stage != CONFIRMING:
        return entry
    if entry.by_seat is not None and seat == entry.by_seat:
        return replace(entry, problem="the seat that entered it cannot confirm it: another seat's button")
    return None


# --- typing at the keyboard ------------------------------------------------------------------


def type_key(entry: Entry, text: str) -> Entry:
    """A key typed while entering: digits make the count (a verdict takes V/Y for valid and
    W/N for a wrong show); anything else is ignored."""
    if entry.stage != ENTERING or len(text) != 1:
        return entry
    key = text.lower()
    if entry.kind == VERDICT:
        if key in "vy":
            return replace(entry, valid=True, by_seat=None, problem="")
        if key in "wn":
            return replace(entry, valid=False, by_seat=None, problem="")
        return entry
    if not key.isdigit():
        return entry
    typed = (entry.typed or "") + key
    if len(typed.lstrip("0")) > MAX_DIGITS:
        return replace(entry, problem=f"a hand counts at most {entry.limit} points here")
    return replace(entry, typed=typed, problem="")


def erase(entry: Entry) -> Entry:
    """Backspace: the last digit typed goes."""
    if entry.stage != ENTERING or not entry.typed:
        return entry
    return replace(entry, typed=entry.typed[:-1], problem="")


def finish_typing(entry: Entry, keep: bool) -> Entry:
    """Return (``keep``) makes the typed digits the count; Escape forgets them."""
    if entry.typed is None:
        return entry
    if not keep or not entry.typed:
        return replace(entry, typed=None)
    return replace(entry, points=int(entry.typed), by_seat=None, typed=None)
