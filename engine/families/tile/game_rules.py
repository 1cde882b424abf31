"""Tile rummy deal and game rules as pure functions: the deal, doubles, the ace, turns checked, scores.

Everything here takes plain data (tiles, hands, who melded) and returns plain data or a list
of problems in players' words; nothing reads a clock or draws at random on its own (a
``random.Random`` is passed in where tiles are mixed). A later game flow folds these into a
state machine.

Rulings where the rule text is silent (see also :mod:`engine.families.tile.rules`):

- The deal: the first tile of the shuffled set is turned up as the "ace" and stays face up
  out of play; the other 105 make fifteen piles of seven. Each seat takes one pile per round
  for two rounds; the first seat also takes the top tile of the next pile, for 15 tiles.
  What is left of the piles, in order, is the pool to draw from.
- Doubles: a pair of Jolys is not a double (a Joly has no number or colour). Declared
  doubles are matched in seat order, each with the first unmatched double of the same class
  (high: 1 and 10–13; low: 2–9) held by another seat; matched seats swap one tile of the
  pair. A double finds at most one partner; an unmatched double stays.
- The pool is rebuilt from the thrown tiles (all but the game's very first throw) once;
  when it runs dry again, or there is nothing to rebuild it from, the game ends with no
  closing bonus (``max_rebuilds`` changes that).
- The closing bonus is not given a value by the text: 50 by default (``closing_bonus``).
- Equal final scores share a place (1, 1, 3 …).
- The ace's twin is shown at the start of the seat's first turn, before anything else.
- A tile is taken from a meld on the table only when the meld it leaves stays valid.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from engine.errors import PlayerCountError
from engine.families.tile.rules import FIRST_MELD_POINTS, board_value, check_first_meld, read_meld
from engine.tiles import Tile, full_tile_set

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
PILE_SIZE: Final = 7
HAND_SIZE: Final = 14
FIRST_HAND_SIZE: Final = 15
DOUBLES_WINDOW_SECONDS: Final = 45
ACE_BONUS: Final = 50
CLOSING_BONUS: Final = 50

DoubleClass = Literal["high", "low"]


# --- the deal ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal:
    """The tiles after the deal: one board per seat (seat 0 starts), the pool, the ace."""

    hands: tuple[tuple[Tile, ...], ...]
    pool: tuple[Tile, ...]
    ace: Tile


def shuffled_set(rng: random.Random) -> list[Tile]:
    """The 106 tiles in an order drawn from ``rng``."""
    tiles = full_tile_set()
    rng.shuffle(tiles)
    return tiles


def deal(tiles: Sequence[Tile], players: int) -> Deal:
    """Deal an ordered 106-tile set to ``players`` seats (see the module notes for the order).
    The first numbered tile is turned up as the ace: a Joly turned up goes back among the
    rest in its place (it has no number to be the ace)."""
    check_players(players)
    if sorted(tiles) != sorted(full_tile_set()):
        raise ValueError("a deal needs the full set of 106 tiles")
    turned = next(i for i, t in enumerate(tiles) if not t.is_joker)
    ace = tiles[turned]
    rest = list(tiles[:turned]) + list(tiles[turned + 1:])
    piles = [rest[i:i + PILE_SIZE] for i in range(0, len(rest), PILE_SIZE)]
    hands: list[list[Tile]] = [[] for _ in range(players)]
    for round_ in range(2):
        for seat in range(players):
            hands[seat].extend(piles[round_ * players + seat])
    spare = piles[2 * players:]
    hands[0].append(spare[0][0])
    spare[0] = spare[0][1:]
    pool = tuple(t for pile in spare for t in pile)
    return Deal(tuple(tuple(h) for h in hands), pool, ace)


def check_players(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PlayerCountError(f"tile rummy seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")


# --- doubles -------------------------------------------------------------------------------


def double_class(tile: Tile) -> DoubleClass:
    """High doubles are 1 and 10–13; low doubles are 2–9."""
    if tile.is_joker:
        raise ValueError("a Joly has no number: two Jolys are not a double")
    return "high" if tile.number == 1 or tile.number >= 10 else "low"


def doubles_in(hand: Sequence[Tile]) -> list[Tile]:
    """Every tile the hand holds twice (each pair once), Jolys excluded."""
    counts = Counter(t for t in hand if not t.is_joker)
    return sorted(t for t, n in counts.items() if n >= 2)


def check_double_declaration(hand: Sequence[Tile], declared: Sequence[Tile], seconds: float) -> list[str]:
    """Problems with a seat's declared doubles: too late, not a pair it holds, declared twice."""
    problems = []
    if seconds > DOUBLES_WINDOW_SECONDS:
        problems.append(f"doubles are declared in the first {DOUBLES_WINDOW_SECONDS} seconds only")
    held = set(doubles_in(hand))
    for tile, n in Counter(declared).items():
        if tile.is_joker:
            problems.append("two Jolys are not a double")
        elif tile not in held:
            problems.append(f"{tile} is not a double on this board")
        elif n > 1:
            problems.append(f"the double {tile} is declared once")
    return problems


@dataclass(frozen=True, slots=True)
class Exchange:
    """Two seats swap one tile of their doubles of the same class."""

    seat_a: int
    tile_a: Tile
    seat_b: int
    tile_b: Tile


def exchange_doubles(hands: Sequence[Sequence[Tile]], declared: Sequence[Sequence[Tile]]
                     ) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Exchange, ...]]:
    """Match declared doubles high-for-high and low-for-low and swap one tile of each pair.

    ``declared[seat]`` lists the doubles that seat declared, in the order declared. Returns
    the boards after the swaps and the swaps made.
    """
    queue = [(seat, tile) for seat, tiles in enumerate(declared) for tile in tiles
             if not tile.is_joker and tile in doubles_in(hands[seat])]
    used = [False] * len(queue)
    swaps: list[Exchange] = []
    for i, (seat, tile) in enumerate(queue):
        if used[i]:
            continue
        for j in range(i + 1, len(queue)):
            other_seat, other = queue[j]
            if used[j] or other_seat == seat or double_class(other) != double_class(tile):
                continue
            used[i] = used[j] = True
            swaps.append(Exchange(seat, tile, other_seat, other))
            break
    boards = [list(h) for h in hands]
    for s in swaps:
        boards[s.seat_a].remove(s.tile_a)
        boards[s.seat_b].remove(s.tile_b)
        boards[s.seat_a].append(s.tile_b)
        boards[s.seat_b].append(s.tile_a)
    return tuple(tuple(b) for b in boards), tuple(swaps)


# --- the ace -------------------------------------------------------------------------------


def ace_bonus(dealt: Sequence[Tile], ace: Tile, shown: Tile | None, turn: int) -> int:
    """50 when the seat shows the ace's twin, dealt to it, during its first turn (``turn`` 1)."""
    if shown is None or shown != ace or turn != 1 or ace not in dealt:
        return 0
    return ACE_BONUS


# --- checks on a turn ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnFacts:
    """What the referee knows about the seat whose turn it is."""

    melded: bool  # melded in an earlier turn
    melds_now: bool = False  # lays its first meld in this turn
    board_size: int = HAND_SIZE  # tiles on the seat's board at the start of the action


def check_take_discard(facts: TurnFacts, tile: Tile, first_meld: Sequence[Sequence[Tile]] = (),
                       opening_throw: bool = False, threshold: int = FIRST_MELD_POINTS) -> list[str]:
    """Taking the last thrown tile instead of drawing.

    A seat that has melded may always take it. One that has not may take it only to use it
    in a first meld laid in the same turn (``first_meld``, of ``threshold`` points). The first
    seat's opening throw is never taken.
    """
    if opening_throw:
        return ["the first tile thrown in the game is out of play"]
    if facts.melded:
        return []
    if not first_meld:
        return [f"{tile} may be taken before your first meld only to meld with it at once"]
    if not any(tile in g for g in first_meld):
        return [f"{tile} was taken but is not in the first meld"]
    verdict = check_first_meld(first_meld, threshold)
    return [] if verdict.valid else list(verdict.problems)


def check_add(facts: TurnFacts, own_meld: bool) -> list[str]:
    """Adding a tile to a meld on the table (the added result is checked with :func:`check_regroup`)."""
    if not facts.melded and not facts.melds_now:
        return ["you cannot add to melds on the table before your first meld"]
    if facts.melds_now and not facts.melded and not own_meld:
        return ["in the turn of your first meld you may add only to your own melds"]
    return []


def check_regroup(before: Sequence[Sequence[Tile]], added: Sequence[Tile],
                  after: Sequence[Sequence[Tile]]) -> list[str]:
    """Table melds rearranged with ``added`` tiles from a board: same tiles, every group valid."""
    problems = []
    want = Counter(t for g in before for t in g) + Counter(added)
    got = Counter(t for g in after for t in g)
    if want != got:
        missing = want - got
        extra = got - want
        if missing:
            problems.append("tiles went missing from the table: " + " ".join(map(str, sorted(missing.elements()))))
        if extra:
            problems.append("tiles appeared from nowhere: " + " ".join(map(str, sorted(extra.elements()))))
    for g in after:
        r = read_meld(g)
        if not r.valid:
            problems.append(f"{' '.join(map(str, g))} is not a meld: {r.reason}")
    return problems


def check_break(facts: TurnFacts, run: Sequence[Tile], used: Sequence[Tile],
                after: Sequence[Sequence[Tile]]) -> list[str]:
    """Breaking a meld on the table with tiles from the board: a run split or cut, or a tile
    taken from a formation of four (the text's "take the tile" with two of one's own).

    Only after melding, and not with one or two tiles on the board; the meld must be a meld,
    and the tiles used must end up in valid melds with its tiles (a formation of three left
    with two is none).
    """
    problems = []
    if not facts.melded:
        problems.append("you cannot break a run before your first meld")
    if facts.board_size <= 2:
        problems.append("with one or two tiles on your board you cannot break a run")
    meld = read_meld(run)
    if not meld.valid:
        problems.append(f"{' '.join(map(str, run))} is not a meld to break")
    elif not meld.is_run and len(after) < 2:
        problems.append(f"{' '.join(map(str, run))} is a formation: a tile is taken from it into a new meld "
                        "(tiles only added to it are an add)")
    if not used:
        problems.append("a run is broken with a tile from your board")
    return problems + check_regroup([run], used, after)


def check_take_from_table(facts: TurnFacts, meld: Sequence[Tile], taken: Tile,
                          own: Sequence[Tile], new_group: Sequence[Tile]) -> list[str]:
    """Taking a tile from a meld on the table to make a new meld with two of your tiles.

    Allowed after melding; the meld left behind and the new meld must both be valid.
    """
    problems = []
    if not facts.melded:
        problems.append("you cannot take tiles from the table before your first meld")
    if taken not in meld:
        problems.append(f"{taken} is not in that meld")
        return problems
    if len(own) < 2:
        problems.append("a tile is taken from the table only with two of your own tiles")
    left = list(meld)
    left.remove(taken)
    problems += check_regroup([meld], own, [left, new_group])
    return problems


def must_play_drawn(facts: TurnFacts) -> bool:
    """Before the first meld a board stays at 14 tiles: what is drawn must be thrown or melded."""
    return not facts.melded


Action = Literal["show-ace", "draw", "take", "meld", "add", "break", "take-from-table", "throw", "close"]
_TABLE_ACTIONS: Final = frozenset({"meld", "add", "break", "take-from-table"})


def check_turn_actions(actions: Sequence[Action], opening_turn: bool = False) -> list[str]:
    """The order of what a seat does in one turn.

    The game's opening turn (the first seat, 15 tiles) is only a throw, with the ace shown
    first if the seat wishes. Every other turn starts with a draw from the pool or the taking
    of the last thrown tile, lays tiles only after that, and ends with one throw (or a close).
    """
    acts = [a for a in actions if a != "show-ace"]
    problems: list[str] = []
    if "show-ace" in actions and actions[0] != "show-ace":
        problems.append("the ace is shown at the start of the turn")
    if opening_turn:
        if acts != ["throw"]:
            problems.append("the first player opens the game by throwing one tile, without drawing")
        return problems
    if not acts or acts[0] not in ("draw", "take"):
        problems.append("a turn starts by drawing a tile or taking the last thrown one")
    if sum(a in ("draw", "take") for a in acts) > 1:
        problems.append("one tile is drawn or taken per turn")
    if not acts or acts[-1] not in ("throw", "close"):
        problems.append("a turn ends by throwing a tile (or closing)")
    if sum(a in ("throw", "close") for a in acts) > 1:
        problems.append("one tile is thrown per turn")
    return problems


def meld_timed_out(board: Sequence[Tile], laid: Sequence[Sequence[Tile]], drawn: Tile
                   ) -> tuple[tuple[Tile, ...], Tile]:
    """A meld counts only once the turn's throw is made in time; otherwise it lapses.

    ``board`` is what the seat still holds, ``laid`` what it put down this turn. The laid
    tiles go back to the board and the tile drawn this turn is thrown. Returns (board after,
    tile thrown).
    """
    back = list(board) + [t for g in laid for t in g]
    if drawn not in back:
        raise ValueError(f"{drawn} was not drawn onto this board")
    back.remove(drawn)
    return tuple(back), drawn


# --- the pool ------------------------------------------------------------------------------


def rebuild_pool(thrown: Sequence[Tile], rng: random.Random, opening_throw_kept_out: bool = True
                 ) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
    """Mix the thrown tiles into a new pool; the game's first throw (``thrown[0]``) stays out.

    Returns (new pool, tiles left out of play).
    """
    out = tuple(thrown[:1]) if opening_throw_kept_out else ()
    mixed = list(thrown[len(out):])
    rng.shuffle(mixed)
    return tuple(mixed), out


def game_over_by_pool(pool_size: int, thrown_available: int, rebuilds_done: int, max_rebuilds: int = 1) -> bool:
    """True when nothing is left to draw and the pool may not (or cannot) be rebuilt."""
    if pool_size > 0:
        return False
    return rebuilds_done >= max_rebuilds or thrown_available == 0


# --- the end of the game -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatResult:
    """What one seat did in the game, as plain data."""

    laid: int = 0  # put-down value of every tile it laid on the table
    board: tuple[Tile, ...] = ()  # tiles still on its board
    ace_shown: bool = False
    ace_dealt: bool = False  # the ace's twin was on its board from the deal
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Standing:
    seat: int
    score: int
    place: int
    laid: int
    left: int
    bonus: int


@dataclass(frozen=True, slots=True)
class GameScoring:
    """Scoring switches for the points the text leaves open."""

    closing_bonus: int = CLOSING_BONUS
    ace_bonus: int = ACE_BONUS


def seat_score(result: SeatResult, ace: Tile | None, scoring: GameScoring = GameScoring()
               ) -> tuple[int, int, int]:
    """(score, value left on the board, bonus) for one seat: laid + bonuses − board left."""
    left = board_value(result.board, ace, result.ace_dealt)
    bonus = scoring.ace_bonus if result.ace_shown else 0
    if result.closed:
        bonus += scoring.closing_bonus
    return result.laid + bonus - left, left, bonus


def standings(results: Sequence[SeatResult], ace: Tile | None, scoring: GameScoring = GameScoring()
              ) -> list[Standing]:
    """Final places by score, best first; a game that ran out of tiles gives no closing bonus."""
    closers = [i for i, r in enumerate(results) if r.closed]
    if len(closers) > 1:
        raise ValueError("only one seat can close a game")
    rows = []
    for seat, r in enumerate(results):
        score, left, bonus = seat_score(r, ace, scoring)
        rows.append((seat, score, r.laid, left, bonus))
    rows.sort(key=lambda row: (-row[1], row[0]))
    out: list[Standing] = []
    for i, (seat, score, laid, left, bonus) in enumerate(rows):
        place = out[-1].place if out and out[-1].score == score else i + 1
        out.append(Standing(seat, score, place, laid, left, bonus))
    return out
