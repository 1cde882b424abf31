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
  45 points (the house rule ``first_meld``: ``TileDeal.first_meld``) with a run; after that each group only has to be a meld. Tiles laid count once
  the turn ends with the seat's press; when the turn clock runs out first, they go back to
  the board and the tile drawn is thrown instead, and the seat has not melded.
- ``take`` (the last thrown tile, alone, then any groups laid with it): instead of drawing,
  at the start of the seat's turn. A seat that has melded may always take it. One that has
  not may take it only to lay it at once in its first meld: the groups of that first meld
  follow the tile in the same call, and the tile must be in one of them. The game's opening
  throw is out of play and is never taken.
- ``add`` (the meld as it lies on the table, then the tiles added from the board): only
  after melding; in the turn of its first meld a seat adds only to its own melds.
- ``break`` (the meld as it lies on the table, then the groups it becomes with the tiles
  from the board): a run split or cut, or a tile taken from a formation of four into a new
  meld with two of the board's (the text's rule 4 after the first meld); only after melding,
  never with one or two tiles left on the board; in the turn of its first meld a seat breaks
  only its own melds.
- the pool running out (the play menu's stock-out item): the first time the thrown tiles
  but the game's first are mixed into a new pool and play goes on; the next time the game
  ends with every board counted and nobody earning the closing bonus. Until the turn in
  which it was rebuilt ends with a throw, no thrown tile is left to ``take``.
- the close (a long press, the zone read): a seat whose first meld has not counted lays every
  tile in its closing turn, so what it lays then is its first meld and must make at least
  the first meld's points with a run (:func:`closing_first_meld`); otherwise the close is
  not valid. Nobody closes in the opening turn.

Until its first meld counts, a seat's board stays at 14 tiles: it draws one and throws one
each turn, and nothing leaves the board for the table but the first meld itself; a first
meld that lapses leaves the seat unmelded, with its tiles back on the board.

Rulings where the text is silent (beyond those of ``game_rules``):

- a twin of the ace found on a board at the end counts the ace's 50 only against the seat
  that showed it (showing proves it was on the board from the deal); on any other board it
  counts as the tile it is, since the table cannot tell whether it was dealt or drawn;
- a double of the ace's tile cannot be declared: its twin is the only copy in play;
- a first meld is laid in one call (the groups together), not built up over several;
- the table keeps, from the calls, each meld laid and the seat that laid it (tiles added
  to a meld keep its owner; in a broken run, the groups holding the breaker's tiles become
  the breaker's): that is how it knows whose meld a tile is added to;
- the board is counted from the calls too: 14 at the start of each turn (the first
  player's opening 15 less its opening throw), one more once the turn's tile is drawn or
  taken, less every tile laid, added or used to break;
- what is laid, added or broken in a turn counts only once the turn ends in time, like a
  meld: when time runs out it all goes back, and a tile taken is thrown back;
- in the turn of a first meld, breaking another seat's run is sticking a tile into it, and
  is refused like adding to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from engine.cards import Groups
from engine.errors import NotationError
from engine.families.tile.game_rules import (
    DOUBLES_WINDOW_SECONDS,
    HAND_SIZE,
    Exchange,
    TurnFacts,
    check_add,
    check_break,
    check_double_declaration,
    check_take_discard,
    double_class,
    exchange_doubles,
    game_over_by_pool,
)
from engine.families.tile.rules import FIRST_MELD_POINTS, check_first_meld, read_meld
from engine.game.state import DealState, FamilyDeal
from engine.tiles import Tile, parse_tile

CALL_DOUBLE: Final = "double"
CALL_ACE: Final = "ace"
CALL_MELD: Final = "meld"
CALL_TAKE: Final = "take"
CALL_ADD: Final = "add"
CALL_BREAK: Final = "break"
CALLS: Final = (CALL_DOUBLE, CALL_ACE, CALL_MELD, CALL_TAKE, CALL_ADD, CALL_BREAK)
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
    #: The melds on the table whose turn counted: (the seat that owns it, its tiles).
    table: tuple[tuple[int, tuple[str, ...]], ...] = ()
    #: The table as the turn now on leaves it (the laying seat's), None when it changed nothing.
    laying_table: tuple[tuple[int, tuple[str, ...]], ...] | None = None
    took: str = ""  # the last thrown tile taken in the turn now on
    laying_tiles: int = 0  # tiles gone from the laying seat's board in the turn now on
    off_board: tuple[tuple[int, int], ...] = ()  # (seat, tiles put on the table) per counted turn
    rebuilt_turn: int = 0  # the turn (turn_count) in which the pool was last rebuilt; 0 never
    #: The put-down points a first meld needs (the house rule ``first_meld``; the text's 45).
    first_meld: int = FIRST_MELD_POINTS

    def points_laid(self, seat: int) -> int:
        return sum(p for s, p in self.laid_points if s == seat)

    @property
    def melds_called(self) -> bool:
        """Does the table call its melds in this game (one has counted or lapsed, or is being
        laid)? Then the record, not the zones read at the end, says who has melded."""
        return bool(self.melded or self.lapsed or self.laying)

    def tiles_put_down(self, seat: int) -> int:
        return sum(n for s, n in self.off_board if s == seat)

    def acting(self, seat: int) -> bool:
        """Has ``seat`` done anything this turn the table was told of (taken, laid, added, broken)?"""
        return self.laying_seat == seat and bool(self.laying or self.took or self.laying_table is not None)

    def table_now(self, seat: int) -> tuple[tuple[int, tuple[str, ...]], ...]:
        """The table as ``seat`` sees it in its turn: with what it laid, added or broke so far."""
        if self.laying_seat == seat and self.laying_table is not None:
            return self.laying_table
        return self.table


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

Table = tuple[tuple[int, tuple[str, ...]], ...]


def _in_turn(deal: DealState, seat: int, name: str, doing: str, t_ms: int) -> str:
    """Why ``seat`` cannot act on the table now ("" when it can): its own turn, after the
    opening throw, once the doubles window is over."""
    if seat != deal.turn:
        return f"{name} {doing} only in their own turn"
    if deal.turn_count <= 1:
        return "the first player opens the game by throwing one tile: nothing is laid in that turn"
    if window_open(deal, t_ms):
        return "the doubles window is still open: play starts when it closes"
    return ""


def _groups(cards: Groups) -> list[list[Tile]] | str:
    tiles = _tiles(cards)
    if isinstance(tiles, str):
        return tiles
    return [[parse_tile(t) for t in g] for g in cards if g]


def _words(tiles: Sequence[Tile] | Sequence[str]) -> str:
    return " ".join(map(str, tiles))


def _key(tiles: Sequence[Tile]) -> tuple[str, ...]:
    return tuple(str(t) for t in tiles)


def _started(record: TileDeal, seat: int) -> TileDeal:
    """The record with the turn now on being ``seat``'s (what another seat left is cleared)."""
    if record.laying_seat == seat:
        return record
    return replace(record, laying=(), laying_seat=seat, laying_points=0, laying_table=None, took="",
                   laying_tiles=0)


def _melds_now(record: TileDeal, seat: int) -> bool:
    """``seat`` lays its first meld in the turn now on (it has not melded before)."""
    return seat not in record.melded and record.laying_seat == seat and bool(record.laying)


def board_size(record: TileDeal, seat: int) -> int:
    """Tiles on ``seat``'s board in its turn, once it has drawn (see the module's rulings)."""
    now = record.laying_tiles if record.laying_seat == seat else 0
    return HAND_SIZE + 1 - record.tiles_put_down(seat) - now


def _check_melds(record: TileDeal, seat: int, name: str, groups: list[list[Tile]]) -> int | str:
    """The put-down points of ``groups`` laid by ``seat`` now, or why they are refused."""
    if seat not in record.melded and not _melds_now(record, seat):
        verdict = check_first_meld(groups, record.first_meld)
        if not verdict.valid:
            return f"{name}'s first meld is refused: {'; '.join(verdict.problems)}"
        return verdict.points
    readings = [read_meld(g) for g in groups]
    bad = [r for r in readings if not r.valid]
    if bad:
        return f"{name}'s meld is refused: {_words(bad[0].tiles)} is not a meld: {bad[0].reason}"
    return sum(r.value for r in readings)


def _laid(record: TileDeal, seat: int, groups: list[list[Tile]], points: int) -> TileDeal:
    """``record`` (``seat``'s turn started) with ``groups`` laid as new melds of ``seat``."""
    new = tuple(_key(g) for g in groups)
    return replace(record, laying=record.laying + new, laying_points=record.laying_points + points,
                   laying_table=record.table_now(seat) + tuple((seat, g) for g in new),
                   laying_tiles=record.laying_tiles + sum(len(g) for g in groups))


def lay(record: TileDeal, deal: DealState, seat: int, name: str, cards: Groups, t_ms: int) -> Answer:
    """``seat`` lays the groups ``cards`` on the table in its turn."""
    problem = _in_turn(deal, seat, name, "lays tiles", t_ms)
    if problem:
        return None, problem
    groups = _groups(cards)
    if isinstance(groups, str):
        return None, f"{name}'s meld: {groups}"
    if not groups:
        return None, f"{name}'s meld: no tiles were named"
    record = _started(record, seat)
    what = "first meld" if seat not in record.melded and not _melds_now(record, seat) else "meld"
    points = _check_melds(record, seat, name, groups)
    if isinstance(points, str):
        return None, points
    record = _laid(record, seat, groups, points)
    return record, f"{name} lays a {what} of {points} points: it counts once a tile is thrown in time"


def take(record: TileDeal, deal: DealState, seat: int, name: str, cards: Groups, t_ms: int) -> Answer:
    """``seat`` takes the last thrown tile instead of drawing (``cards``: the tile alone, then
    the groups laid with it; before its first meld, that first meld, the tile in it)."""
    problem = _in_turn(deal, seat, name, "takes the last thrown tile", t_ms)
    if problem:
        return None, problem
    groups = _groups(cards)
    if isinstance(groups, str):
        return None, f"{name}'s take: {groups}"
    if not groups or len(groups[0]) != 1:
        return None, (f"{name}'s take: name the last thrown tile alone, then any groups laid with it "
                      "(R5 / R3 R4 R5 R6)")
    tile, meld = groups[0][0], groups[1:]
    if record.rebuilt_turn and record.rebuilt_turn == deal.turn_count:
        return None, (f"{name} cannot take {tile}: the thrown tiles went into the new pool when it was "
                      "rebuilt this turn, so none is left to take until the next throw")
    if record.acting(seat):
        return None, (f"{name} cannot take {tile} now: the last thrown tile is taken instead of "
                      "drawing, at the start of the turn, before anything is laid")
    melded = seat in record.melded
    problems = check_take_discard(TurnFacts(melded=melded), tile, meld, opening_throw=deal.turn_count == 2,
                                  threshold=record.first_meld)
    if problems:
        if not melded and not meld:
            return None, (f"{name} has not melded yet: {tile}, the last tile thrown, may be taken only "
                          "to lay it at once in the first meld (name the first meld after the tile)")
        return None, f"{name} cannot take {tile}: {problems[0]}"
    record = replace(_started(record, seat), took=str(tile))
    if not meld:
        return record, f"{name} takes {tile}, the last tile thrown, instead of drawing"
    points = _check_melds(record, seat, name, meld)
    if isinstance(points, str):
        return None, points
    what = "meld" if melded else "first meld"
    record = _laid(record, seat, meld, points)
    return record, (f"{name} takes {tile}, the last tile thrown, and lays a {what} of {points} points "
                    "with it: it counts once a tile is thrown in time")


def _find(table: Table, tiles: Sequence[Tile], seat: int) -> int | None:
    """Where the meld ``tiles`` lies in ``table`` (the seat's own first), None: not there."""
    key = _key(tiles)
    same = Counter(key)
    found = [i for i, (_, g) in enumerate(table) if g == key] or \
        [i for i, (_, g) in enumerate(table) if Counter(g) == same]
    own = [i for i in found if table[i][0] == seat]
    return (own or found)[0] if found else None


def _not_melded(name: str, doing: str) -> str:
    return (f"{name} has not melded yet: until the first meld the board stays at {HAND_SIZE} tiles "
            f"and no tile leaves it but in the first meld, so {name} cannot {doing}")


@dataclass(frozen=True)
class _OnTable:
    """A meld a seat names on the table to change it, and what the change is made with."""

    groups: list[list[Tile]]
    table: Table
    at: int
    owner: int
    melded: bool
    melds_now: bool


def _meld_on_table(record: TileDeal, deal: DealState, seat: int, name: str, cards: Groups,
                   t_ms: int, verb: str, doing: str, shape: str) -> _OnTable | str:
    """The common checks of adding to and breaking a meld on the table: in turn, the groups
    readable (the first the meld as it lies; ``shape`` says what the rest must be, e.g.
    "one group", "groups"), the seat melded or melding now, the meld on the table. The meld
    and its owner, or the refusal."""
    problem = _in_turn(deal, seat, name, doing, t_ms)
    if problem:
        return problem
    groups = _groups(cards)
    if isinstance(groups, str):
        return f"{name}'s {verb}: {groups}"
    if (len(groups) != 2) if shape == "one group" else (len(groups) < 2):
        example = ("R10 R11 R12 / R13" if shape == "one group"
                   else "Y3 Y4 Y5 Y6 / Y3 Y4 Y5 / Y5 K5 B5 / Y6")
        then = ("the tiles added from the board" if shape == "one group"
                else "the groups it becomes with the tiles from the board")
        what = "meld" if shape == "one group" else "run"
        return f"{name}'s {verb}: name the {what} as it lies on the table, then {then} ({example})"
    melded = seat in record.melded
    melds_now = _melds_now(record, seat)
    if not melded and not melds_now:
        return _not_melded(name, "add tiles to the melds on the table" if verb == "add"
                           else "break a run on the table")
    table = record.table_now(seat)
    at = _find(table, groups[0], seat)
    if at is None:
        return f"{name}'s {verb}: {_words(groups[0])} is not a meld on the table"
    return _OnTable(groups, table, at, table[at][0], melded, melds_now)


def add(record: TileDeal, deal: DealState, seat: int, names: tuple[str, ...], cards: Groups,
        t_ms: int) -> Answer:
    """``seat`` adds tiles from its board to a meld on the table (``cards``: the meld as it
    lies, then the tiles added)."""
    name = names[seat]
    found = _meld_on_table(record, deal, seat, name, cards, t_ms, "add", "adds tiles to the table",
                           "one group")
    if isinstance(found, str):
        return None, found
    (meld, added), table, at, owner = found.groups, found.table, found.at, found.owner
    if check_add(TurnFacts(melded=found.melded, melds_now=found.melds_now), own_meld=owner == seat):
        return None, (f"{name} melds for the first time this turn: tiles go only on {name}'s own melds "
                      f"now, on {names[owner]}'s from {name}'s next turn")
    grown = read_meld([*meld, *added])
    if not grown.valid:
        return None, f"{name}'s add is refused: {_words(grown.tiles)} is not a meld: {grown.reason}"
    points = grown.value - read_meld(meld).value
    record = _started(record, seat)
    new_table = table[:at] + ((owner, _key(grown.tiles)),) + table[at + 1:]
    record = replace(record, laying_table=new_table, laying_points=record.laying_points + points,
                     laying_tiles=record.laying_tiles + len(added))
    whose = "their own" if owner == seat else f"{names[owner]}'s"
    return record, (f"{name} adds {_words(added)} to {whose} {_words(meld)}: it counts once a tile is "
                    "thrown in time")


def break_run(record: TileDeal, deal: DealState, seat: int, names: tuple[str, ...], cards: Groups,
              t_ms: int) -> Answer:
    """``seat`` breaks a run on the table with tiles from its board (``cards``: the run as it
    lies, then the groups it becomes)."""
    name = names[seat]
    found = _meld_on_table(record, deal, seat, name, cards, t_ms, "break", "breaks a run", "groups")
    if isinstance(found, str):
        return None, found
    run, after = found.groups[0], found.groups[1:]
    table, at, owner = found.table, found.at, found.owner
    if found.melds_now and owner != seat:
        return None, (f"{name} melds for the first time this turn: only {name}'s own runs may be broken "
                      f"now, {names[owner]}'s from {name}'s next turn")
    used = list((Counter(_key([t for g in after for t in g])) - Counter(_key(run))).elements())
    facts = TurnFacts(melded=True, board_size=board_size(record, seat))
    problems = check_break(facts, run, [parse_tile(t) for t in used], after)
    if problems:
        return None, f"{name}'s break is refused: {problems[0]}"
    left = Counter(_key(run))
    pieces: list[tuple[int, tuple[str, ...]]] = []
    for g in after:
        key = _key(g)
        if Counter(key) <= left:
            left -= Counter(key)
            pieces.append((owner, key))
        else:
            pieces.append((seat, key))
    points = sum(read_meld(g).value for g in after) - read_meld(run).value
    record = _started(record, seat)
    record = replace(record, laying_table=table[:at] + tuple(pieces) + table[at + 1:],
                     laying_points=record.laying_points + points,
                     laying_tiles=record.laying_tiles + len(used))
    into = " | ".join(_words(g) for g in after)
    return record, (f"{name} breaks {_words(run)} with {' '.join(used)} into {into}: it counts once a "
                    "tile is thrown in time")


def turn_ended(record: TileDeal, seat: int, name: str, in_time: bool) -> tuple[TileDeal, str]:
    """The turn of ``seat`` is over: its tiles laid count, or go back when time ran out."""
    cleared = replace(record, laying=(), laying_seat=None, laying_points=0, laying_table=None, took="",
                      laying_tiles=0)
    if record.laying_seat != seat or not record.acting(seat):
        return cleared, ""
    changed = bool(record.laying) or record.laying_table is not None
    if not in_time:
        drawn = f"{record.took}, the tile taken," if record.took else "the tile drawn"
        if not changed:
            return cleared, f"time ran out before {name} threw a tile: {name} throws {drawn} back"
        text = (f"time ran out before {name} threw a tile: the tiles laid this turn go back to "
                f"the board and {name} throws {drawn}")
        return replace(cleared, lapsed=record.lapsed + 1), text
    if not changed:
        return cleared, ""
    first = seat not in record.melded and bool(record.laying)
    melded = record.melded if not first else (*record.melded, seat)
    points = (*record.laid_points, (seat, record.laying_points))
    table = record.laying_table if record.laying_table is not None else record.table
    off = (*record.off_board, (seat, record.laying_tiles))
    text = f"{name} has melded ({record.laying_points} points)" if first else ""
    return replace(cleared, melded=melded, laid_points=points, table=table, off_board=off), text


# --- the pool ------------------------------------------------------------------------------


def pool_out(record: TileDeal, turn_count: int) -> tuple[TileDeal, str] | None:
    """The pool ran out in turn ``turn_count``: rebuilt once (the record and the words), then
    the game ends (None). The thrown tiles went into the new pool, so nothing is left to take
    until the next throw."""
    if game_over_by_pool(0, 1, record.rebuilds, POOL_REBUILDS):
        return None
    record = replace(record, rebuilds=record.rebuilds + 1, rebuilt_turn=turn_count)
    return record, ("the pool ran out: the thrown tiles, all but the game's first, are mixed into "
                    "a new pool and play goes on (when it runs out again the game ends, with no "
                    "closing bonus)")


# --- the close -----------------------------------------------------------------------------


def closing_first_meld(record: TileDeal, seat: int, name: str, cards: Groups) -> str:
    """Why ``seat``'s close (``cards``: its zone as read) cannot stand as its first meld ("":
    it can, or the seat melded before, or lays its first meld in this very turn, already
    checked). The lone tile thrown to close is not laid, so it does not count."""
    if seat in record.melded or _melds_now(record, seat):
        return ""
    groups = _groups(cards)
    if isinstance(groups, str):
        return ""  # the judge's own reading says what is wrong with the tiles
    laid = [g for g in groups if read_meld(g).valid]
    verdict = check_first_meld(laid, record.first_meld)
    if verdict.valid:
        return ""
    return (f"{name} has not melded before: what is laid to close is {name}'s first meld, and "
            f"{'; '.join(verdict.problems)}")
