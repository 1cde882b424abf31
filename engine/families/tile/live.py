"""Tile rummy refereed live: what the table calls during a game, checked and recorded.

The camera does not see the players' boards, so what the text has a player announce is a
*call* (:class:`engine.game.events.Called`) the table makes for the player (typed, touched, a
script's step, or, for the ace, a long press in the opening window). Each call is checked
here against the rules of :mod:`engine.families.tile.game_rules` and recorded in a
:class:`TileDeal`, which the tile policy keeps in the deal's state.

- ``double`` (the tile, once or as the pair): declared while the opening window is open.
  When the window closes, the declared doubles are matched high with high and low with low
  (:func:`~engine.families.tile.game_rules.exchange_doubles`) and the table is told who
  passes which tile to whom.
- ``ace``: the seat shows the twin of the tile turned up at the deal, in the opening window
  or in its own first turn before laying anything; it earns the ace bonus. Only one twin is
  in play, so only one seat can show it.
- ``meld`` (the groups laid): in the seat's own turn, never in the game's opening turn (the
  first player only throws). A seat that has not melded must lay a first meld of at least
  45 points with a run; after that each group only has to be a meld. Tiles laid count once
  the turn ends with the seat's press; when the turn clock runs out first, they go back to
  the board and the tile drawn is thrown instead, and the seat has not melded.
- the pool running out (the play menu's stock-out item): the first time the thrown tiles
  but the game's first are mixed into a new pool and play goes on; the next time the game
  ends with every board counted and nobody earning the closing bonus.

Rulings where the text is silent (beyond those of ``game_rules``):

- a twin of the ace found on a board at the end counts the ace's 50 only against the seat
  that showed it (showing proves it was on the board from the deal); on any other board it
  counts as the tile it is, since the table cannot tell whether it was dealt or drawn;
- a double of the ace's tile cannot be declared: its twin is the only copy in play;
- a first meld is laid in one call (the groups together), not built up over several.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from engine.cards import Groups
from engine.errors import NotationError
from engine.families.tile.game_rules import (
    DOUBLES_WINDOW_SECONDS,
    Exchange,
    check_double_declaration,
    double_class,
    exchange_doubles,
    game_over_by_pool,
)
from engine.families.tile.rules import check_first_meld, read_meld
from engine.game.state import DealState, FamilyDeal
from engine.tiles import Tile, parse_tile

CALL_DOUBLE: Final = "double"
CALL_ACE: Final = "ace"
CALL_MELD: Final = "meld"
CALLS: Final = (CALL_DOUBLE, CALL_ACE, CALL_MELD)
#: How many times the pool is rebuilt from the thrown tiles before the game ends.
POOL_REBUILDS: Final = 1


@dataclass(frozen=True, slots=True)
class TileDeal(FamilyDeal):
    """Tile rummy's record of one game: doubles, the ace, melds, the pool."""

    doubles: tuple[tuple[int, str], ...] = ()  # (seat, tile) in the order declared
    swaps: tuple[tuple[int, str, int, str], ...] = ()  # (seat, tile it gives, seat, tile it gives)
    window_over: bool = False
    ace_shown_by: int | None = None
    melded: tuple[int, ...] = ()  # seats whose first meld counts, in the order they melded
    laid_points: tuple[tuple[int, int], ...] = ()  # (seat, put-down points laid) per melded seat
    laying: tuple[tuple[str, ...], ...] = ()  # groups laid in the turn now on, not yet counted
    laying_seat: int | None = None
    laying_points: int = 0
    lapsed: int = 0  # melds that went back to the board when time ran out
    rebuilds: int = 0

    def points_laid(self, seat: int) -> int:
        return sum(p for s, p in self.laid_points if s == seat)


Answer = tuple[TileDeal | None, str]


def of(deal: DealState) -> TileDeal:
    """The tile record of ``deal`` (a fresh one before any call)."""
    return deal.family if isinstance(deal.family, TileDeal) else TileDeal()


def _tiles(cards: Groups) -> list[Tile] | str:
    try:
        return [parse_tile(t) for g in cards for t in g]
    except NotationError as exc:
        return str(exc)


def window_open(deal: DealState, t_ms: int) -> bool:
    return deal.window_until_ms is not None and t_ms <= deal.window_until_ms


# --- doubles -------------------------------------------------------------------------------


def declare_double(record: TileDeal, deal: DealState, seat: int, names: tuple[str, ...], cards: Groups,
                   window_ms: int, t_ms: int) -> Answer:
    """``seat`` declares a double (``cards``: the tile, or the pair)."""
    name = names[seat]
    if record.window_over or not window_open(deal, t_ms):
        return None, (f"doubles are declared only in the first {DOUBLES_WINDOW_SECONDS} seconds, "
                      "before the first turn")
    tiles = _tiles(cards)
    if isinstance(tiles, str):
        return None, f"{name}'s double: {tiles}"
    if not tiles or len(set(tiles)) != 1 or len(tiles) > 2:
        return None, f"{name}'s double: name one tile, or the pair of two identical tiles"
    tile = tiles[0]
    if not tile.is_joker and deal.wild and str(tile) == deal.wild:
        return None, f"{tile} cannot be a double: the other {tile} is the ace turned up at the deal"
    for other, text in record.doubles:
        if text == str(tile) and other != seat:
            return None, f"{tile} cannot be a double of {name}'s: {names[other]} declared that pair"
    started = (deal.window_until_ms or t_ms) - window_ms
    declared = [parse_tile(t) for s, t in record.doubles if s == seat] + [tile]
    held = [t for t in declared for _ in range(2)]  # the seat holds each pair it declares
    problems = check_double_declaration(held, declared, max(0, t_ms - started) / 1000)
    if problems:
        return None, f"{name}'s double: {problems[0]}"
    record = replace(record, doubles=(*record.doubles, (seat, str(tile))))
    return record, f"{name} declares a {double_class(tile)} double: {tile} {tile}"


def close_window(record: TileDeal, names: tuple[str, ...]) -> tuple[TileDeal, str]:
    """The window is over: declared doubles are matched and exchanged; the words for the table."""
    if record.window_over:
        return record, ""
    players = len(names)
    declared: list[list[Tile]] = [[] for _ in range(players)]
    for seat, text in record.doubles:
        declared[seat].append(parse_tile(text))
    hands = [[t for t in ts for _ in range(2)] for ts in declared]  # each declared pair is held
    _, swaps = exchange_doubles(hands, declared)
    record = replace(record, window_over=True, swaps=tuple(_swap(s) for s in swaps))
    if not record.doubles:
        return record, ""
    parts = [f"{names[s.seat_a]} gives {s.tile_a} to {names[s.seat_b]}, "
             f"{names[s.seat_b]} gives {s.tile_b} to {names[s.seat_a]}" for s in swaps]
    swapped = {(s.seat_a, s.tile_a) for s in swaps} | {(s.seat_b, s.tile_b) for s in swaps}
    alone = [f"{names[seat]}'s {text}" for seat, text in record.doubles
             if (seat, parse_tile(text)) not in swapped]
    text = "doubles exchanged: " + "; ".join(parts) if parts else "no doubles to exchange"
    if alone:
        text += f" ({', '.join(alone)}: no double of the same kind to swap with)"
    return record, text


def _swap(s: Exchange) -> tuple[int, str, int, str]:
    return (s.seat_a, str(s.tile_a), s.seat_b, str(s.tile_b))


# --- the ace -------------------------------------------------------------------------------


def show_ace(record: TileDeal, deal: DealState, seat: int, names: tuple[str, ...], cards: Groups,
             t_ms: int) -> Answer:
    """``seat`` shows the twin of the turned-up ace (``cards`` may name it, or be empty)."""
    name = names[seat]
    if not deal.wild:
        return None, "no tile was turned up at the deal: there is no ace to show"
    shown = record.ace_shown_by
    if shown == seat:
        return None, f"{name} has shown the ace already"
    if shown is not None:
        return None, f"{names[shown]} has shown the ace's twin already: there is only one in play"
    tiles = _tiles(cards)
    if isinstance(tiles, str):
        return None, f"{name}'s ace: {tiles}"
    if tiles and (len(tiles) != 1 or str(tiles[0]) != deal.wild):
        said = " ".join(map(str, tiles))
        return None, f"{said} is not the ace: the ace is the twin of the turned-up {deal.wild}"
    first_turn = deal.turn == seat and deal.turns_begun[seat] == 1 and record.laying_seat != seat
    if not window_open(deal, t_ms) and not first_turn:
        return None, (f"{name} can show the ace only in the opening window or at the start of "
                      "their own first turn")
    record = replace(record, ace_shown_by=seat)
    return record, f"{name} shows the ace {deal.wild}: 50 points"


# --- melds ---------------------------------------------------------------------------------


def lay(record: TileDeal, deal: DealState, seat: int, name: str, cards: Groups, t_ms: int) -> Answer:
    """``seat`` lays the groups ``cards`` on the table in its turn."""
    if seat != deal.turn:
        return None, f"{name} lays tiles only in their own turn"
    if deal.turn_count <= 1:
        return None, "the first player opens the game by throwing one tile: nothing is laid in that turn"
    if window_open(deal, t_ms):
        return None, "the doubles window is still open: play starts when it closes"
    tiles = _tiles(cards)
    if isinstance(tiles, str):
        return None, f"{name}'s meld: {tiles}"
    groups = [[parse_tile(t) for t in g] for g in cards if g]
    if not groups:
        return None, f"{name}'s meld: no tiles were named"
    laying = record.laying if record.laying_seat == seat else ()
    melded = seat in record.melded or bool(laying)
    if not melded:
        verdict = check_first_meld(groups)
        if not verdict.valid:
            return None, f"{name}'s first meld is refused: {'; '.join(verdict.problems)}"
        points = verdict.points
    else:
        readings = [read_meld(g) for g in groups]
        bad = [r for r in readings if not r.valid]
        if bad:
            return None, (f"{name}'s meld is refused: {' '.join(map(str, bad[0].tiles))} "
                          f"is not a meld: {bad[0].reason}")
        points = sum(r.value for r in readings)
    total = (record.laying_points if laying else 0) + points
    record = replace(record, laying=laying + tuple(tuple(g) for g in cards if g), laying_seat=seat,
                     laying_points=total)
    what = "first meld" if seat not in record.melded else "meld"
    return record, f"{name} lays a {what} of {points} points: it counts once a tile is thrown in time"


def turn_ended(record: TileDeal, seat: int, name: str, in_time: bool) -> tuple[TileDeal, str]:
    """The turn of ``seat`` is over: its tiles laid count, or go back when time ran out."""
    if record.laying_seat != seat or not record.laying:
        return replace(record, laying=(), laying_seat=None, laying_points=0), ""
    cleared = replace(record, laying=(), laying_seat=None, laying_points=0)
    if not in_time:
        text = (f"time ran out before {name} threw a tile: the tiles laid this turn go back to "
                f"the board and {name} throws the tile drawn")
        return replace(cleared, lapsed=record.lapsed + 1), text
    first = seat not in record.melded
    melded = record.melded if not first else (*record.melded, seat)
    points = (*record.laid_points, (seat, record.laying_points))
    text = f"{name} has melded ({record.laying_points} points)" if first else ""
    return replace(cleared, melded=melded, laid_points=points), text


# --- the pool ------------------------------------------------------------------------------


def pool_out(record: TileDeal) -> tuple[TileDeal, str] | None:
    """The pool ran out: rebuilt once (the record and the words), then the game ends (None)."""
    if game_over_by_pool(0, 1, record.rebuilds, POOL_REBUILDS):
        return None
    record = replace(record, rebuilds=record.rebuilds + 1)
    return record, ("the pool ran out: the thrown tiles, all but the game's first, are mixed into "
                    "a new pool and play goes on (when it runs out again the game ends, with no "
                    "closing bonus)")
