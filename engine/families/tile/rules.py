"""Tile rummy melds and tile values: runs, formations, the Joly ratio, the first meld, the close.

The 106-tile game (``tile-rummy``) configures the shared meld grammar of :mod:`engine.melds`;
only what is particular to tiles lives here.

- A *run* is three or more tiles of one colour in a row. A 1 sits either below the 2
  (1-2-3) or above the 13 (12-13-1), never between them (13-1-2), so a run holds at most
  13 tiles.
- A *formation* is three or four tiles of one number in distinct colours; four is full.
- A Joly stands for exactly one tile, and a meld holds at least two real tiles for every
  Joly in it. The order on the table fixes which tile a Joly stands for (``JY R10 R11`` is
  9-10-11); a run typed out of order is still read as a run, with its Jolys placed where
  the grammar finds room (the high end first).
- Put-down values (what a meld is worth on the table): 2–9 score 5, 10–13 score 10, a low 1
  scores 5, a high 1 (after 13) or a 1 in a formation scores 10; a Joly scores what it
  stands for.
- End-of-game values (tiles still on a player's board): 2–9 score 5, 10–13 score 10, a 1
  scores 25, a Joly 50, and the twin of the turned "ace" tile 50 when it was dealt to the
  player.
- A first meld needs at least one run and at least 45 points of put-down value.
- A close: every tile on the board lies in a valid meld, except at most one lone tile, the
  last one, which the closer throws to finish.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from engine.melds import (
    GroupRule,
    MeldCheck,
    MeldRules,
    SequenceRule,
    WildRule,
    check_group,
    check_sequence,
    printed_jokers_wild,
    to_piece,
)
from engine.tiles import COLOUR_NAMES, Tile

FIRST_MELD_POINTS: Final = 45
LONGEST_RUN: Final = 13
HIGH_ONE: Final = 14  # a 1 laid after the 13, as the grammar numbers it

TILE_MELD_RULES: Final = MeldRules(
    sequence=SequenceRule(min_len=3, max_len=LONGEST_RUN, ace="either", wrap=False, ordered=True),
    group=GroupRule(min_size=3, max_size=4, distinct_suits=True),
    wild=WildRule(min_natural=1, max_ratio=0.5),
)
_RUN_IN_TABLE_ORDER: Final = TILE_MELD_RULES.sequence
_RUN_ANY_ORDER: Final = replace(TILE_MELD_RULES.sequence, ordered=False) if TILE_MELD_RULES.sequence else None


# --- tile values ---------------------------------------------------------------------------


def put_down_value(number: int, in_run: bool) -> int:
    """What one tile standing for ``number`` is worth on the table (14 is a 1 after the 13)."""
    if number == 1:
        return 5 if in_run else 10
    if number == HIGH_ONE:
        return 10
    return 10 if number >= 10 else 5


def end_value(tile: Tile, ace: Tile | None = None, ace_dealt: bool = True) -> int:
    """What one tile left on a board costs at the end of the game.

    ``ace`` is the tile turned up at the deal; its twin counts 50 when it was dealt to the
    player (``ace_dealt``), otherwise its face value.
    """
    if tile.is_joker:
        return 50
    if ace is not None and ace_dealt and tile == ace:
        return 50
    if tile.number == 1:
        return 25
    return 10 if tile.number >= 10 else 5


def board_value(tiles: Iterable[Tile], ace: Tile | None = None, ace_dealt: bool = True) -> int:
    """The end-of-game value of every tile still on a board, melded or not."""
    return sum(end_value(t, ace, ace_dealt) for t in tiles)


# --- reading one group ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MeldReading:
    """One group of tiles as the rules read it: a run, a formation, or why it is neither."""

    tiles: tuple[Tile, ...]
    check: MeldCheck
    reason: str

    @property
    def valid(self) -> bool:
        return self.check.valid

    @property
    def is_run(self) -> bool:
        return self.check.is_sequence

    @property
    def is_formation(self) -> bool:
        return self.check.kind == "set"

    @property
    def kind(self) -> str:
        """The judge kind: ``pure-sequence`` (a run without Joly), ``sequence``, ``set``, ``invalid``."""
        return self.check.kind

    @property
    def jolys(self) -> int:
        return sum(1 for t in self.tiles if t.is_joker)

    @property
    def stands_for(self) -> tuple[int, ...]:
        """The number each tile stands for (14: a 1 after the 13); empty for an invalid group."""
        return tuple(n for n, _ in self.check.stands_for)

    @property
    def value(self) -> int:
        """Put-down value: the sum of what each tile stands for; 0 for an invalid group."""
        if not self.valid:
            return 0
        return sum(put_down_value(n, self.is_run) for n in self.stands_for)


def read_meld(tiles: Sequence[Tile]) -> MeldReading:
    """Read one group of tiles under the tile rules."""
    group = tuple(tiles)
    pieces = [to_piece(t, printed_jokers_wild) for t in group]
    rules = TILE_MELD_RULES
    assert _RUN_IN_TABLE_ORDER is not None and _RUN_ANY_ORDER is not None and rules.group is not None
    run = check_sequence(pieces, _RUN_IN_TABLE_ORDER, rules.wild)
    if not run.valid:
        run = check_sequence(pieces, _RUN_ANY_ORDER, rules.wild)
    if run.valid:
        return MeldReading(group, run, _run_words(run))
    formation = check_group(pieces, rules.group, rules.wild)
    if formation.valid:
        return MeldReading(group, formation, _formation_words(group, formation))
    return MeldReading(group, MeldCheck("invalid", ""), explain(group))


def _number_word(n: int) -> str:
    return "1" if n == HIGH_ONE else str(n)


def _run_words(check: MeldCheck) -> str:
    numbers = [n for n, _ in check.stands_for]
    colour = next((c for _, c in check.stands_for if c), "")
    lo, hi = min(numbers), max(numbers)
    jolys = f", with {_count(check.wilds, 'Joly', 'Jolys')}" if check.wilds else ""
    high = " (the 1 after the 13)" if hi == HIGH_ONE else ""
    return f"a run of {COLOUR_NAMES.get(colour, colour)} {_number_word(lo)} to {_number_word(hi)}{high}{jolys}"


def _formation_words(group: Sequence[Tile], check: MeldCheck) -> str:
    number = check.stands_for[0][0]
    full = " (full)" if len(group) == 4 else ""
    jolys = f", with {_count(check.wilds, 'Joly', 'Jolys')}" if check.wilds else ""
    return f"a formation of {number}s{full}{jolys}"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def explain(group: Sequence[Tile]) -> str:
    """Say in players' words why a group of tiles is neither a run nor a formation."""
    real = [t for t in group if not t.is_joker]
    jolys = len(group) - len(real)
    if len(group) < 3:
        return "a run or a formation needs at least 3 tiles"
    if not real:
        return "Jolys alone are not a meld"
    if jolys * 2 > len(real):
        return (f"too many Jolys: {_count(jolys, 'Joly needs', 'Jolys need')} at least "
                f"{2 * jolys} real tiles beside {'it' if jolys == 1 else 'them'}, "
                f"and there {'is' if len(real) == 1 else 'are'} {len(real)}")
    numbers = {t.number for t in real}
    colours = {t.colour for t in real}
    if len(numbers) == 1:
        number = real[0].number
        seen: set[str] = set()
        for t in real:
            if t.colour in seen:
                return f"a formation cannot hold two {COLOUR_NAMES[t.colour]} {number}s"
            seen.add(t.colour)
        if len(group) > 4:
            return "a formation holds at most 4 tiles, one of each colour"
        return f"not a formation of {number}s"
    if len(colours) > 1:
        return "a run must be all one colour, and a formation all one number"
    colour = COLOUR_NAMES[real[0].colour]
    if len(numbers) < len(real):
        dup = next(n for n in sorted(numbers) if sum(1 for t in real if t.number == n) > 1)
        return f"a run cannot hold two {colour} {dup}s"
    if len(group) > LONGEST_RUN:
        return f"a run holds at most {LONGEST_RUN} tiles"
    if 1 in numbers and 13 in numbers and 2 in numbers:
        return "a 1 goes before the 2 (1-2-3) or after the 13 (12-13-1), never between them (13-1-2)"
    with_joly = " even with the Joly" if jolys == 1 else " even with the Jolys" if jolys else ""
    return f"these {colour} tiles are not in a row{with_joly}"


def read_groups(groups: Iterable[Sequence[Tile]]) -> list[MeldReading]:
    return [read_meld(g) for g in groups]


# --- the first meld and the close ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MeldVerdict:
    """The answer for a set of groups laid at once (a first meld, or a close)."""

    valid: bool
    points: int
    readings: tuple[MeldReading, ...]
    problems: tuple[str, ...]
    closing_tile: Tile | None = None


def check_first_meld(groups: Iterable[Sequence[Tile]], threshold: int = FIRST_MELD_POINTS) -> MeldVerdict:
    """A first meld: every group valid, at least one run, put-down value at least ``threshold``."""
    readings = tuple(read_groups(groups))
    points = sum(r.value for r in readings)
    problems = [f"{_tiles(r.tiles)} is not a meld: {r.reason}" for r in readings if not r.valid]
    if not any(r.valid and r.is_run for r in readings):
        problems.append("a first meld needs at least one run; formations alone cannot open")
    if points < threshold:
        problems.append(f"only {points} points laid: a first meld needs at least {threshold}")
    return MeldVerdict(not problems, points, readings, tuple(problems))


def check_close(groups: Iterable[Sequence[Tile]], closing_tile_allowed: bool = True) -> MeldVerdict:
    """Going out: every tile in a valid meld, except one lone tile thrown to close.

    ``points`` is what the closer is left holding (end-of-game values outside the melds):
    0 for a valid close.
    """
    readings = tuple(read_groups(groups))
    lone = [r for r in readings if not r.valid and len(r.tiles) == 1]
    closing: Tile | None = None
    if closing_tile_allowed and len(lone) == 1:
        closing = lone[0].tiles[0]
    problems = []
    for r in readings:
        if r.valid or (closing is not None and r is lone[0]):
            continue
        problems.append(f"{_tiles(r.tiles)} is not a meld: {r.reason}")
    if len(lone) > 1 and closing_tile_allowed:
        problems.append(f"{len(lone)} lone tiles: only one, the last, may be thrown to close")
    if not problems:
        return MeldVerdict(True, 0, readings, (), closing)
    left = [t for r in readings if not r.valid for t in r.tiles]
    return MeldVerdict(False, board_value(left), readings, tuple(problems), closing)


def _tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(str(t) for t in tiles)
