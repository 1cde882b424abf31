"""Cards entered by hand, on the screen: the scorepad's cards of a hand, and a call's tiles.

The draft itself is the engine's (:class:`engine.game.scorepad.HandDraft`); here are what the
screen's keys do to it (:func:`hand_key`, from the regions the screen marks) and the view of
it (:func:`hand_view`), and the scorepad's screen when it takes the cards (:func:`cards_view`):
a game that scores a deal from the cards themselves (Open Rummy, tile rummy) asks for the
cards, the declarer's and every other hand, and shows the engine's ruling on them as they
are entered, as it would rule on the camera's reading of them.
"""

from __future__ import annotations

from collections.abc import Callable

from display.viewmodel import HandPadView, ScorepadView
from engine.game import GameState
from engine.game import scorepad as pad
from tablekit.present import players_words

Change = Callable[[pad.HandDraft], pad.HandDraft]

CARDS_PROMPT = ("a seat's button: next rank · hold it: next suit · MENU: next card · OK: done · "
                "or type them: 10H JH QH / KS KD KC")
TILES_PROMPT = ("a seat's button: next number · hold it: next colour · MENU: next tile · OK: done · "
                "or type them: R10 R11 R12 / B7 Y7 K7")
CONFIRM_PROMPT = "another seat's button: confirm · MENU: change them"


def hand_key(target: str) -> Change | None:
    """What a tap on ``target`` (a region the screen marked) does to a draft (None: not one of
    the draft's keys)."""
    parts = target.split(":")
    if len(parts) < 2 or parts[0] != "pad":
        return None
    kind, rest = parts[1], parts[2:]
    try:
        if kind == "rank" and len(rest) == 1:
            rank = int(rest[0])
            if 0 <= rank <= 13:
                return lambda d: pad.draft_rank(d, rank)
        elif kind == "suit" and len(rest) == 1:
            suit = rest[0]
            return lambda d: pad.draft_suit(d, suit) if suit in pad.suits_of(d.tiles) else d
        elif kind == "slot" and len(rest) == 2:
            slot = (int(rest[0]), int(rest[1]))
            return lambda d: pad.draft_goto(d, slot)
    except ValueError:
        return None
    if kind == "remove" and not rest:
        return pad.draft_remove
    if kind == "group" and not rest:
        return pad.draft_new_group
    return None


def hand_view(draft: pad.HandDraft, *, ruling: str = "", valid: bool | None = None,
              editable: bool = True) -> HandPadView:
    return HandPadView(draft.groups, draft.cursor if editable else None, draft.tiles,
                       draft.typed if editable else None, ruling, valid, editable)


def ruling_words(state: GameState, entry: pad.Entry) -> tuple[str, bool | None]:
    """The engine's word on the cards entered so far, and its colour."""
    reading = pad.judge(state, entry)
    if reading is None:
        return "", None
    if reading.problem:
        return players_words(f"cannot be counted: {reading.problem}"), False
    ruling = reading.ruling
    name = state.game.seats[entry.seat].name
    if entry.declared:
        if ruling is not None and ruling.valid:
            return "a valid show", True
        reason = ruling.reason if ruling is not None else ""
        return players_words(f"wrong show: {reason}" if reason else "wrong show"), False
    points = reading.points if reading.points is not None else 0
    shown = int(points) if int(points) == points else float(points)
    return f"{name}'s hand: {shown} points", None


def cards_view(state: GameState, entry: pad.Entry, why: str = "") -> ScorepadView:
    """The scorepad taking the cards of ``entry``'s seat."""
    names = [s.name for s in state.game.seats]
    who = names[entry.seat]
    tiles = state.game.variant.uses_tiles
    things = "tiles" if tiles else "cards"
    hand = entry.hand or pad.new_draft((), tiles)
    confirming = entry.stage == pad.CONFIRMING
    words, valid = ruling_words(state, entry)
    by = names[entry.by_seat] if entry.by_seat is not None else ""
    if entry.declared:
        title, question = f"{who}'s show", f"Which {things} does {who} show?"
    else:
        title, question = f"{who}'s hand", f"Which {things} are in {who}'s hand?"
    if confirming:
        others = [(s, n) for s, n in enumerate(names) if s != entry.by_seat]
        confirm_by = f"{', '.join(n for _, n in others)}: press your button to confirm these {things}"
        prompt = CONFIRM_PROMPT
    else:
        others = []
        confirm_by = "then a different seat's button confirms"
        prompt = TILES_PROMPT if tiles else CARDS_PROMPT
    count = hand.count
    value = f"{count} {things[:-1] if count == 1 else things}"
    return ScorepadView(who, title, question, value, valid, f"{things} as the camera would read them",
                        f"entered by {by}" if by else "", confirm_by, confirming,
                        hand.typed is not None, players_words(entry.problem), why, prompt, None,
                        tuple(others),
                        hand_view(hand, ruling=words, valid=valid, editable=not confirming))
