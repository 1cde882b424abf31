"""The call panel: what a seat calls at the table (tile rummy: a double, the ace, a meld; the
contract games' own calls: Telefunken's chip, Dummy Rummy's goal and floating discard, King
Rummy's joker, American Jokers' upcard, Push's push), from the keyboard or by touch, instead of
only from scripts and ``Table.call``.

The panel is the screen's own (no event): the seat calling, the call picked, the tiles
entered (the scorepad's :class:`~engine.game.scorepad.HandDraft`; cards in a card game). Like
the scorepad's entry, a copy is kept beside the journal at each change (:func:`panel_record`),
and a table resumed after a power cut opens it again as it was while play is still on
(:func:`panel_from_record`). Each call is asked of the
engine as it stands (:func:`engine.game.flow.answer_call`, pure), so the panel shows whether
the rules take it now or why not; "Call" posts the :class:`~engine.game.events.Called` event,
journaled whether the rules take it or refuse it, and the panel shows their answer.

Keyboard: K opens it in play; Left/Right the seat, Up/Down or Tab the call, the tiles typed
in the notation ("B7 B7", "R10 R11 R12 / K9 B9 Y9"; the footer gives what the chosen call
names, with an example: :data:`HINTS`), Return calls, Escape forgets what was
typed or closes it. Touch: the play screen's "Calls" button, then the panel's buttons and keys.

The box has no keys to type with: a seat's button held while OK is pressed makes that seat's
call (:func:`box_call`, see :mod:`tablekit.box_input`), the first of the game's calls the
rules take now with nothing named (the players' word for what they laid or put in place).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from display.viewmodel import CallOption, CallsView
from engine.families.contract import live as contract
from engine.families.tile import live
from engine.game import Buzz, Game, GameState
from engine.game import scorepad as pad
from engine.game.flow import answer_call
from engine.game.policy import policy_for
from tablekit.handpad import hand_view

#: Each call in words, and whether it names tiles (the ace may, but needs not: it is one tile).
LABELS: dict[str, tuple[str, bool]] = {
    live.CALL_DOUBLE: ("declare a double", True),
    live.CALL_ACE: ("show the ace", False),
    live.CALL_MELD: ("lay a meld", True),
    live.CALL_TAKE: ("take the last tile thrown", True),
    live.CALL_ADD: ("add tiles to a meld", True),
    live.CALL_BREAK: ("break a run", True),
    # the contract games': the cards named may be left out (the players' word), except a meld
    contract.CALL_UPCARD: ("take the upcard offered", False),
    contract.CALL_CHIP: ("cut exactly: the extra chip", False),
    contract.CALL_GOAL: ("lay my goal (the melds)", True),
    contract.CALL_JOKER: ("take the joker (the card put in)", True),
    contract.CALL_PUSH: ("push the upcard on", False),
    contract.CALL_EXTEND: ("call out the discard", False),
    contract.CALL_FLOAT: ("play my last card and float", False),
}
#: What to type for each tile call, with an example (groups apart with "/").
HINTS: dict[str, str] = {
    live.CALL_DOUBLE: "the pair (B7 B7)",
    live.CALL_ACE: "the ace's twin, or nothing",
    live.CALL_MELD: "the groups (R10 R11 R12 / K9 B9 Y9)",
    live.CALL_TAKE: "the tile taken, then the groups laid with it (R5 / R3 R4 R5 R6)",
    live.CALL_ADD: "the meld as it lies, then the tiles added (R10 R11 R12 / R13)",
    live.CALL_BREAK: "the run as it lies, then what it becomes (Y3 Y4 Y5 Y6 / Y3 Y4 Y5 / Y5 Y6 Y7)",
}
PROMPT = ("←/→: seat · ↑/↓: call · type the tiles (B7 B7, R10 R11 R12 / K9 B9 Y9) · "
          "Return: call · Esc: close")
CARD_PROMPT = ("←/→: seat · ↑/↓: call · type the cards (7H 7S 7D / 3C 4C 5C 6C), or none · "
               "Return: call · Esc: close")


def family_calls(game: Game) -> tuple[str, ...]:
    """The calls the game's family offers on the panel (none but tile rummy's so far)."""
    return policy_for(game).panel_calls(game)


@dataclass(frozen=True, slots=True)
class CallPanel:
    seat: int
    call: str
    hand: pad.HandDraft
    said: str = ""
    refused: bool = False


def open_panel(state: GameState, seat: int | None = None) -> CallPanel | None:
    """A panel for ``seat`` (by default the seat in turn), or None: no calls in this game, or
    not in play."""
    calls = family_calls(state.game)
    deal = state.deal
    if not calls or state.phase != "play" or deal is None:
        return None
    chosen = seat if seat is not None and 0 <= seat < state.game.players else deal.turn
    window = deal.window_until_ms is not None
    first = live.CALL_DOUBLE if window else live.CALL_MELD
    tiles = state.game.variant.uses_tiles
    return CallPanel(chosen, first if first in calls else calls[0], pad.new_draft((), tiles))


#: The longest answer of the rules a kept panel may hold (a line or two; a contract game's
#: longest reasons run past 300 characters).
_SAID_CHARS = 2000


def panel_record(panel: CallPanel) -> dict[str, object]:
    """What is kept of an open panel (JSON-ready), for :func:`panel_from_record`."""
    return {"seat": panel.seat, "call": panel.call, "hand": pad.draft_record(panel.hand),
            "said": panel.said, "refused": panel.refused}


def panel_from_record(state: GameState, record: object) -> CallPanel | None:
    """The panel ``record`` kept, opened again as it was; None when play is not on, or the
    record holds anything a panel could not (a seat the game has not, a call it does not
    offer, a tile the notation cannot read): the players then open it again."""
    fresh = open_panel(state)
    if fresh is None or not isinstance(record, dict):
        return None
    seat, call, said, refused = (record.get(k) for k in ("seat", "call", "said", "refused"))
    if not (type(seat) is int and 0 <= seat < state.game.players and call in family_calls(state.game)
            and isinstance(said, str) and len(said) <= _SAID_CHARS and type(refused) is bool):
        return None
    hand = pad.draft_from_record(record.get("hand"), fresh.hand.tiles)
    if hand is None:
        return None
    return CallPanel(seat, str(call), hand, said, refused)


def box_call(state: GameState, seat: int, t_ms: int) -> str:
    """The call ``seat``'s button held with OK makes now: the first of the game's calls the
    rules take with nothing named; when none would, the first (so its refusal, with the
    reason, is what the table hears). "" where the game has no calls or play is not on."""
    calls = family_calls(state.game)
    if not calls or state.phase != "play" or state.deal is None:
        return ""
    for call in calls:
        new, effects = answer_call(state, seat, call, (), t_ms)
        if not any(isinstance(e, Buzz) for e in effects):
            return call
    return calls[0]


def trial(state: GameState, panel: CallPanel, call: str, t_ms: int) -> tuple[bool, str]:
    """Would the rules take ``call`` by the panel's seat with its tiles now, and their words."""
    hand = pad.draft_typed(panel.hand, True)  # what is typed counts as entered
    if hand.problem:
        return False, hand.problem
    tiles = hand.groups if LABELS.get(call, ("", True))[1] or hand.groups else ()
    new, effects = answer_call(state, panel.seat, call, tiles, t_ms)
    refused = any(isinstance(e, Buzz) for e in effects)
    return not refused, new.notice


def view(state: GameState, panel: CallPanel, t_ms: int) -> CallsView:
    calls = family_calls(state.game)
    options = []
    for call in calls:
        label, names_tiles = LABELS.get(call, (call, True))
        ready, words = trial(state, panel, call, t_ms)
        options.append(CallOption(call, label, ready, "" if ready else words, names_tiles))
    chosen = calls.index(panel.call) if panel.call in calls else 0
    prompt = tile_prompt(panel.call) if state.game.variant.uses_tiles else CARD_PROMPT
    return CallsView(tuple(s.name for s in state.game.seats), panel.seat, tuple(options), chosen,
                     hand_view(panel.hand), panel.said, panel.refused, prompt)


def tile_prompt(call: str) -> str:
    """The footer for a tile call: what to type for ``call``, with an example."""
    hint = HINTS.get(call)
    if hint is None:
        return PROMPT
    return f"←/→: seat · ↑/↓: call · type {hint} · Return: call · Esc: close"


def step_seat(state: GameState, panel: CallPanel, step: int) -> CallPanel:
    return replace(panel, seat=(panel.seat + step) % state.game.players, said="", refused=False)


def step_call(state: GameState, panel: CallPanel, step: int) -> CallPanel:
    calls = family_calls(state.game)
    at = calls.index(panel.call) if panel.call in calls else 0
    return replace(panel, call=calls[(at + step) % len(calls)], said="", refused=False)
