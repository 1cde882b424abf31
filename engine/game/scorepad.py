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
  it is no event: only the :class:`HandEntered` a confirmed draft makes is. So that a power
  cut does not lose what was entered, the table keeps a copy beside the journal
  (:func:`entry_record`) and takes it back on resuming (:func:`entry_from_record`), where the
  show still asks for that hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal, TypeGuard

from engine.cards import SUITS, parse_card, rank_text
from engine.errors import NotationError, TablekitError
from engine.game.deal_flow import Result, name_of, policy_of, refuse
from engine.game.effects import Notice, ShowVerdict
from engine.game.events import Event, HandEntered, TableRead
from engine.game.policy import ENTRY_LIMIT
from engine.game.show import judge_declaration, judge_hand, next_hand, valid_show, wrong_show
from engine.game.state import GameState, HandReading
from engine.ruling import Ruling
from engine.tiles import COLOURS, parse_tile

EntryKind = Literal["verdict", "points", "cards"]
EntryStage = Literal["entering", "confirming", "blocked"]
VERDICT: EntryKind = "verdict"
POINTS: EntryKind = "points"
#: The cards themselves, for a family that scores a deal from them (Open Rummy, tile rummy):
#: once confirmed they are posted as the camera's reading would be (a ``TableRead``, then the
#: OK that takes it), so the engine judges and scores them exactly as it would a reading.
CARDS: EntryKind = "cards"
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
        capped = f" (a higher count loses {limit}: enter {limit})" if limit < ENTRY_LIMIT else ""
        return f"a hand counts at most {limit} points in {game.variant.name}, not {points}{capped}"
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
    """A scorepad entry in progress (no event; a copy is kept beside the journal).

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
    #: The cards entered (kind CARDS), and whether they are the declarer's show.
    hand: HandDraft | None = None
    declared: bool = False

    def event(self, confirmed_by: int, t_ms: int) -> HandEntered:
        """The event this entry makes, confirmed by ``confirmed_by`` (kind CARDS makes a
        reading instead: :meth:`reading`)."""
        if self.kind == VERDICT:
            return HandEntered(self.seat, None, self.valid, self.by_seat, confirmed_by, t_ms)
        return HandEntered(self.seat, self.points, None, self.by_seat, confirmed_by, t_ms)

    def reading(self, t_ms: int) -> TableRead:
        """Kind CARDS: the cards as the camera's reading of the seat's zone would give them."""
        groups = self.hand.groups if self.hand is not None else ()
        return TableRead(self.seat, groups, t_ms)


def open_entry(state: GameState) -> Entry | None:
    """A fresh entry for the hand the show is asking for (None outside a show); blocked, saying
    why, when the game cannot score an entered count."""
    asked = wanted(state)
    if asked is None:
        return None
    seat, kind = asked
    if takes_cards(state):
        return Entry(seat, CARDS, hand=new_draft(_read_before(state, seat), state.game.variant.uses_tiles),
                     declared=kind == VERDICT)
    if kind == VERDICT:
        return Entry(seat, kind)
    limit = policy_of(state).max_hand_points(state.game)
    if limit is None:
        return Entry(seat, kind, stage=BLOCKED, problem=count_problem(state, 0))
    return Entry(seat, kind, limit=limit)


# --- the entry kept across a power cut -----------------------------------------------------------

#: The most a kept text may hold (a problem said), and the most cards a kept hand may (two
#: tile sets).
_RECORD_TEXT = 400
_RECORD_CARDS = 212


def entry_record(entry: Entry) -> dict[str, object]:
    """What is kept of an entry in progress (JSON-ready), for :func:`entry_from_record`."""
    out: dict[str, object] = {"seat": entry.seat, "kind": entry.kind, "declared": entry.declared,
                              "points": entry.points, "valid": entry.valid, "by_seat": entry.by_seat,
                              "stage": entry.stage, "typed": entry.typed, "problem": entry.problem}
    if entry.hand is not None:
        out["hand"] = draft_record(entry.hand)
    return out


def draft_record(hand: HandDraft) -> dict[str, object]:
    """What is kept of cards (tiles) being entered (JSON-ready), for :func:`draft_from_record`."""
    return {"groups": [list(g) for g in hand.groups], "cursor": list(hand.cursor),
            "typed": hand.typed, "problem": hand.problem}


def entry_from_record(state: GameState, record: object) -> Entry | None:
    """The entry ``record`` (:func:`entry_record`) kept, where the show still asks for the same
    hand: the entry the show would open now, with what the record held put back. None when
    the show asks for another hand (or none), or the record holds anything an entry could not
    (a count past the game's limit, a seat the game has not, a card the notation cannot
    read): the players then enter the hand again, as they would have."""
    fresh = open_entry(state)
    if fresh is None or fresh.stage == BLOCKED or not isinstance(record, dict):
        return None
    if (record.get("seat"), record.get("kind"), record.get("declared")) != (fresh.seat, fresh.kind, fresh.declared):
        return None
    seats = state.game.players
    by_seat, typed, points = record.get("by_seat"), record.get("typed"), record.get("points")
    stage, problem, valid = record.get("stage"), record.get("problem"), record.get("valid")
    if not (stage in (ENTERING, CONFIRMING) and isinstance(problem, str) and len(problem) <= _RECORD_TEXT
            and type(valid) is bool and (by_seat is None or _whole(by_seat, 0, seats - 1))
            and _whole(points, 0, fresh.limit if fresh.kind == POINTS else 0)):
        return None
    if not (typed is None or (isinstance(typed, str) and typed.isascii() and (typed.isdigit() or not typed)
                              and len(typed.lstrip("0")) <= MAX_DIGITS and fresh.kind == POINTS)):
        return None
    hand = fresh.hand
    if hand is not None:
        hand = draft_from_record(record.get("hand"), hand.tiles)
        if hand is None:
            return None
    return replace(fresh, points=points, valid=valid, by_seat=by_seat, stage=stage, typed=typed,
                   problem=problem, hand=hand)


def draft_from_record(record: object, tiles: bool) -> HandDraft | None:
    """The draft of cards (tiles) ``record`` (:func:`draft_record`) kept; None if it holds
    anything a draft could not."""
    if not isinstance(record, dict):
        return None
    groups, cursor = record.get("groups"), record.get("cursor")
    typed, problem = record.get("typed"), record.get("problem")
    if not (isinstance(groups, list) and all(isinstance(g, list) and g for g in groups)):
        return None
    if not all(isinstance(c, str) and _split(c, tiles) is not None for g in groups for c in g):
        return None
    hand: Hand = tuple(tuple(g) for g in groups)
    if sum(map(len, hand)) > _RECORD_CARDS:
        return None
    if not (isinstance(cursor, list) and len(cursor) == 2 and all(_whole(i, 0, _RECORD_CARDS) for i in cursor)
            and (cursor[0], cursor[1]) in slots(hand)):
        return None
    if not (typed is None or (isinstance(typed, str) and len(typed) <= 200 and typed.isprintable())):
        return None
    if not (isinstance(problem, str) and len(problem) <= _RECORD_TEXT):
        return None
    return HandDraft(hand, (cursor[0], cursor[1]), tiles, typed, problem)


def _whole(value: object, low: int, high: int) -> TypeGuard[int]:
    """Is ``value`` a whole number (not a truth value) from ``low`` to ``high``?"""
    return type(value) is int and low <= value <= high


def takes_cards(state: GameState) -> bool:
    """Does this game score a deal from the cards themselves (no count can stand for them)?
    Its scorepad then takes the cards, the declarer's and every other hand."""
    return policy_of(state).max_hand_points(state.game) is None


def _read_before(state: GameState, seat: int) -> Hand:
    """What the camera read of ``seat``'s zone before the players were asked (a reading that
    could not be counted): the cards to start from."""
    show = state.show
    if show is None:
        return ()
    for reading in (show.current, show.declaration):
        if reading is not None and reading.seat == seat and not reading.entered:
            return tuple(tuple(c for c in g if _split(c, state.game.variant.uses_tiles) is not None)
                         for g in reading.groups)
    return ()


def still_asked(state: GameState, entry: Entry) -> bool:
    """Is ``entry`` the one the show is asking for now?"""
    asked = wanted(state)
    if asked is None or asked[0] != entry.seat:
        return False
    if entry.kind == CARDS:
        return (asked[1] == VERDICT) == entry.declared
    return asked[1] == entry.kind


def judge(state: GameState, entry: Entry) -> HandReading | None:
    """The engine's ruling on the cards entered, as it would rule on a camera reading of them
    (None: no cards yet, or not a cards entry)."""
    hand = entry.hand
    if entry.kind != CARDS or hand is None or not hand.groups or not still_asked(state, entry):
        return None
    if entry.declared:
        return judge_declaration(state, hand.groups)
    return judge_hand(state, entry.seat, hand.groups)


def _with_hand(entry: Entry, hand: HandDraft, seat: int | None) -> Entry:
    changed = hand.groups != (entry.hand.groups if entry.hand is not None else ())
    return replace(entry, hand=hand, problem=hand.problem,
                   by_seat=seat if changed else entry.by_seat)


def edit(entry: Entry, change: Callable[[HandDraft], HandDraft], seat: int | None = None) -> Entry:
    """A change to a cards entry's draft (a key of the screen's, typing): ``seat`` made it
    (None: nobody's, as typing and the screen's keys are)."""
    if entry.stage != ENTERING or entry.hand is None:
        return entry
    return _with_hand(entry, change(entry.hand), seat)


def press(entry: Entry, seat: int, held_ms: int) -> Entry:
    """A seat's button while entering: a count goes up by one (held: by ten), a verdict flips."""
    if entry.stage != ENTERING:
        return entry
    if entry.kind == CARDS:
        return edit(entry, lambda d: draft_press(d, held_ms), seat)
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
    if entry.stage != ENTERING or entry.kind == CARDS:
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
    if entry.kind == CARDS:
        return edit(entry, lambda d: draft_move(d, 1), entry.by_seat)  # the box: the next slot
    if entry.kind == VERDICT:
        return replace(entry, valid=not entry.valid, problem="", typed=None)
    if entry.points <= 0:
        return replace(entry, problem="a hand cannot count less than 0 points", typed=None)
    return replace(entry, points=entry.points - 1, problem="", typed=None)


def finish(entry: Entry, state: GameState) -> Entry:
    """OK while entering: the entry waits for a second seat, or says why it cannot be taken."""
    if entry.stage != ENTERING:
        return entry
    if entry.kind == CARDS:
        return _finish_cards(entry, state)
    if entry.typed is not None:
        entry = finish_typing(entry, True)
    points = entry.points if entry.kind == POINTS else None
    valid = entry.valid if entry.kind == VERDICT else None
    problem = entry_problem(state, entry.seat, points, valid, entry.by_seat, None)
    if problem:
        return replace(entry, problem=problem)
    return replace(entry, stage=CONFIRMING, problem="")


def _finish_cards(entry: Entry, state: GameState) -> Entry:
    entry = edit(entry, lambda d: draft_typed(d, True))
    if entry.problem:
        return entry
    asked = wanted(state)
    if asked is None or not still_asked(state, entry):
        return replace(entry, problem="no hand is being asked for now")
    hand = entry.hand
    if hand is None or not hand.groups:
        whose = name_of(state, entry.seat)
        return replace(entry, problem=f"enter the {'tiles' if state.game.variant.uses_tiles else 'cards'} "
                                      f"of {whose}'s {'show' if entry.declared else 'hand'}")
    ruling = judge(state, entry)
    if ruling is not None and ruling.problem:
        return replace(entry, problem=f"this hand cannot be counted: {ruling.problem}")
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
    if entry.kind == CARDS:
        return edit(entry, lambda d: draft_type(d, text))
    if entry.stage != ENTERING or len(text) != 1:
        return entry
    key = text.lower()
    if entry.kind == VERDICT:
        if key in "vy":
            return replace(entry, valid=True, by_seat=None, problem="")
        if key in "wn":
            return replace(entry, valid=False, by_seat=None, problem="")
        return entry
    if not (key.isascii() and key.isdigit()):
        return entry
    typed = (entry.typed or "") + key
    if len(typed.lstrip("0")) > MAX_DIGITS:
        return replace(entry, problem=f"a hand counts at most {entry.limit} points here")
    return replace(entry, typed=typed, problem="")


def erase(entry: Entry) -> Entry:
    """Backspace: the last digit typed goes."""
    if entry.kind == CARDS:
        return edit(entry, draft_erase)
    if entry.stage != ENTERING or not entry.typed:
        return entry
    return replace(entry, typed=entry.typed[:-1], problem="")


def finish_typing(entry: Entry, keep: bool) -> Entry:
    """Return (``keep``) makes the typed digits the count; Escape forgets them."""
    if entry.kind == CARDS:
        return edit(entry, lambda d: draft_typed(d, keep))
    if entry.typed is None:
        return entry
    if not keep or not entry.typed:
        return replace(entry, typed=None)
    return replace(entry, points=int(entry.typed), by_seat=None, typed=None)


# --- cards entered by hand (a family that scores from the cards: Open Rummy, tile rummy) ---------

Hand = tuple[tuple[str, ...], ...]
Slot = tuple[int, int]  # (group, position); position == len(group): "a card added to the group",
#                         group == len(groups): "a new group"
JOKERS = {False: "PJ", True: "JY"}  # the joker as the notation writes it: cards, tiles
#: What separates groups when cards are typed (the notation's bar, or a slash: no shift key).
GROUP_KEYS = "|/"


@dataclass(frozen=True, slots=True)
class HandDraft:
    """Cards (or tiles) being entered by hand, in the game's notation: the scorepad's cards of
    a hand, a call's tiles. Pure; never journaled.

    ``cursor`` is the slot the box's seat buttons and the screen's keys change (see
    :data:`Slot`); ``typed`` the text typed at the keyboard so far (None: nothing typed), in
    the notation ("10H JH QH / KS KD KC"); ``problem`` why the last step was refused.
    """

    groups: Hand = ()
    cursor: Slot = (0, 0)
    tiles: bool = False
    typed: str | None = None
    problem: str = ""

    @property
    def count(self) -> int:
        return sum(len(g) for g in self.groups)

    @property
    def text(self) -> str:
        return hand_text(self.groups)


def hand_text(groups: Hand) -> str:
    return " | ".join(" ".join(g) for g in groups if g)


def new_draft(groups: Hand = (), tiles: bool = False) -> HandDraft:
    """A draft holding ``groups``, its cursor on a new group after them."""
    groups = tuple(tuple(g) for g in groups if g)
    return HandDraft(groups, (len(groups), 0), tiles)


def slots(groups: Hand) -> list[Slot]:
    """Every slot in order: each card, then each group's "add a card", then "a new group"."""
    out = [(g, i) for g, group in enumerate(groups) for i in range(len(group) + 1)]
    return out + [(len(groups), 0)]


def _split(card: str, tiles: bool) -> tuple[int, str] | None:
    """(rank or tile number, suit or colour) of ``card``; (0, "") for a joker; None: no card."""
    if not card:
        return None
    try:
        if tiles:
            tile = parse_tile(card)
            return (0, "") if tile.is_joker else (tile.number, tile.colour)
        item = parse_card(card)
        return (0, "") if item.is_joker else (item.rank, item.suit)
    except (TablekitError, ValueError):
        return None


def make_card(rank: int, suit: str, tiles: bool) -> str:
    """The notation of rank ``rank`` (1-13; 0 the joker) in suit (tile colour) ``suit``."""
    if rank == 0:
        return JOKERS[tiles]
    return f"{suit}{rank}" if tiles else f"{rank_text(rank)}{suit}"


def suits_of(tiles: bool) -> tuple[str, ...]:
    return COLOURS if tiles else SUITS


def next_card(card: str, tiles: bool, suit_step: bool) -> str:
    """What a seat's press makes of ``card``: a short press the next rank (A, 2 … K, the
    joker, then "" — the card goes — then A again), a held one the next suit (tile colour).
    No card yet: the first of the first suit."""
    suits = suits_of(tiles)
    parts = _split(card, tiles)
    if parts is None:
        return make_card(1, suits[0], tiles)
    rank, suit = parts
    if rank == 0:
        return make_card(1, suits[0], tiles) if suit_step else ""
    if suit_step:
        return make_card(rank, suits[(suits.index(suit) + 1) % len(suits)], tiles)
    return make_card(rank + 1, suit, tiles) if rank < 13 else JOKERS[tiles]


def _at(d: HandDraft) -> str | None:
    """The card under the cursor (None: an "add" slot)."""
    g, i = d.cursor
    if g < len(d.groups) and i < len(d.groups[g]):
        return d.groups[g][i]
    return None


def _put(d: HandDraft, card: str, *, stay: bool) -> HandDraft:
    """``card`` at the cursor: it replaces the card there, or is added at an "add" slot (the
    cursor then on it, or with ``stay`` False on the next "add" slot); "" takes the card away."""
    g, i = d.cursor
    groups = [list(x) for x in d.groups]
    if g == len(groups):
        if not card:
            return replace(d, problem="", typed=None)
        groups.append([card])
        cursor = (g, 0) if stay else (g, 1)
    elif i == len(groups[g]):
        if not card:
            return replace(d, problem="", typed=None)
        groups[g].append(card)
        cursor = (g, i) if stay else (g, i + 1)
    elif card:
        groups[g][i] = card
        cursor = (g, i)
    else:
        del groups[g][i]
        cursor = (g, i)
        if not groups[g]:
            del groups[g]
            cursor = (g, 0) if g < len(groups) else (len(groups), 0)
    return replace(d, groups=tuple(tuple(x) for x in groups), cursor=cursor, problem="", typed=None)


def _target(d: HandDraft) -> Slot | None:
    """The card a suit or removal is for: the one under the cursor, or on an "add" slot the
    card just before it (the card just entered)."""
    g, i = d.cursor
    if _at(d) is not None:
        return d.cursor
    if g < len(d.groups) and i > 0:
        return (g, i - 1)
    if g == len(d.groups) and g > 0:
        return (g - 1, len(d.groups[g - 1]) - 1)
    return None


def draft_press(d: HandDraft, held_ms: int) -> HandDraft:
    """A seat's button on the card under the cursor (see :func:`next_card`); on an "add" slot
    the first card is put there and the cursor stays on it."""
    return _put(d, next_card(_at(d) or "", d.tiles, held_ms >= HOLD_MS), stay=True)


def draft_move(d: HandDraft, step: int) -> HandDraft:
    """The cursor to the next (``step`` 1) or previous (-1) slot, round and round."""
    order = slots(d.groups)
    at = order.index(d.cursor) if d.cursor in order else len(order) - 1
    return replace(d, cursor=order[(at + step) % len(order)], problem="", typed=None)


def draft_goto(d: HandDraft, slot: Slot) -> HandDraft:
    """The cursor to ``slot`` (a tap on a card or an "add" slot); a slot not there is refused."""
    if slot not in slots(d.groups):
        return replace(d, problem="that card is not there any more")
    return replace(d, cursor=slot, problem="", typed=None)


def draft_rank(d: HandDraft, rank: int) -> HandDraft:
    """A rank key (1-13, 0 the joker): the card under the cursor takes it; on an "add" slot a
    card of that rank is added, in the suit of the card before it, and the cursor moves on."""
    suits = suits_of(d.tiles)
    card = _at(d)
    if card is not None:
        parts = _split(card, d.tiles)
        suit = parts[1] if parts is not None and parts[1] else suits[0]
        return _put(d, make_card(rank, suit, d.tiles), stay=True)
    before = _target(d)
    parts = _split(d.groups[before[0]][before[1]], d.tiles) if before is not None else None
    suit = parts[1] if parts is not None and parts[1] else suits[0]
    return _put(d, make_card(rank, suit, d.tiles), stay=False)


def draft_suit(d: HandDraft, suit: str) -> HandDraft:
    """A suit (tile colour) key: the card under the cursor, or the one just entered, takes it."""
    where = _target(d)
    if where is None:
        return replace(d, problem="enter a rank first, then its " + ("colour" if d.tiles else "suit"))
    g, i = where
    parts = _split(d.groups[g][i], d.tiles)
    if parts is None or parts[0] == 0:
        return replace(d, problem=f"a joker has no {'colour' if d.tiles else 'suit'}")
    groups = [list(x) for x in d.groups]
    groups[g][i] = make_card(parts[0], suit, d.tiles)
    return replace(d, groups=tuple(tuple(x) for x in groups), problem="", typed=None)


def draft_remove(d: HandDraft) -> HandDraft:
    """The card under the cursor (or the one just entered) goes."""
    where = _target(d)
    if where is None:
        return replace(d, problem="there is no card here to take away")
    return _put(replace(d, cursor=where), "", stay=True)


def draft_new_group(d: HandDraft) -> HandDraft:
    """The cursor to a new group after the last (the next card starts it)."""
    return replace(d, cursor=(len(d.groups), 0), problem="", typed=None)


def draft_type(d: HandDraft, text: str) -> HandDraft:
    """A key typed: letters, digits, a space (between cards), ``|`` or ``/`` (between groups);
    the first one starts from the cards entered so far."""
    if len(text) != 1 or not (text.isalnum() or text in " ," + GROUP_KEYS):
        return d
    typed = d.typed if d.typed is not None else (d.text + " " if d.groups else "")
    return replace(d, typed=(typed + text.upper())[:200], problem="")


def draft_erase(d: HandDraft) -> HandDraft:
    if not d.typed:
        return d
    return replace(d, typed=d.typed[:-1], problem="")


def parse_typed(text: str, tiles: bool) -> Hand:
    """Groups of cards from typed notation ("10h jh qh / ks kd kc"), each card as the notation
    writes it; raises TablekitError naming a word that is not a card."""
    groups: list[tuple[str, ...]] = []
    for part in text.replace("/", "|").split("|"):
        words = [w for w in part.replace(",", " ").split() if w]
        cards = []
        for word in words:
            try:
                cards.append(str(parse_tile(word) if tiles else parse_card(word)))
            except ValueError:
                raise NotationError(f"unknown {'tile' if tiles else 'card'} {word[:12]!r}") from None
        if cards:
            groups.append(tuple(cards))
    return tuple(groups)


def draft_typed(d: HandDraft, keep: bool) -> HandDraft:
    """Return (``keep``): the typed text becomes the cards (or the draft says which word is
    not a card, the text kept); Escape forgets it."""
    if d.typed is None:
        return d
    if not keep:
        return replace(d, typed=None, problem="")
    try:
        groups = parse_typed(d.typed, d.tiles)
    except TablekitError as exc:
        return replace(d, problem=f"not a {'tile' if d.tiles else 'card'}: {exc}")
    return replace(new_draft(groups, d.tiles), problem="")
