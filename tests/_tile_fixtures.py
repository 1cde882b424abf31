"""Shared helpers for the tile rummy tests: tile text, judge calls, hypothesis strategies."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from engine.families.tile.variants import TILE_RUMMY
from engine.notation import parse_tiles
from engine.ruling import Ruling
from engine.tiles import COLOURS, JOLY, Tile
from engine.variants.base import JudgeRequest


def tiles(text: str) -> list[Tile]:
    """A flat list of tiles from judge notation (group bars ignored)."""
    return [t for g in parse_tiles(text) for t in g]


def groups(text: str) -> list[list[Tile]]:
    return [list(g) for g in parse_tiles(text)]


def judge(mode: str, hand: str, players: int | None = None, **options: Any) -> Ruling:
    """Ask the tile-rummy variant a judge question directly (no command line)."""
    request = JudgeRequest(mode=mode, groups=TILE_RUMMY.parse(hand), players=players, options=options)
    return TILE_RUMMY.judge(request)


def put_down_expected(number: int, in_run: bool) -> int:
    """The value table written out independently of the engine (14 = a 1 after the 13)."""
    if number == 1:
        return 5 if in_run else 10
    return 5 if 2 <= number <= 9 else 10


@st.composite
def runs(draw: st.DrawFn) -> tuple[list[Tile], list[int]]:
    """A valid run in table order, some tiles replaced by Jolys within the 1-in-3 ratio.

    Returns the tiles and the number each position stands for (14 for a 1 after the 13).
    """
    colour = draw(st.sampled_from(COLOURS))
    length = draw(st.integers(3, 13))
    start = draw(st.integers(1, 14 - length + 1))
    numbers = list(range(start, start + length))
    max_jolys = min(2, length // 3)
    jolys = draw(st.integers(0, max_jolys))
    places = draw(st.lists(st.integers(0, length - 1), min_size=jolys, max_size=jolys, unique=True))
    if draw(st.booleans()):
        numbers.reverse()
    laid = [JOLY if i in places else Tile(1 if n == 14 else n, colour) for i, n in enumerate(numbers)]
    return laid, numbers


@st.composite
def formations(draw: st.DrawFn) -> tuple[list[Tile], int]:
    """A valid formation: one number, 3 or 4 distinct colours, at most one Joly."""
    number = draw(st.integers(1, 13))
    size = draw(st.integers(3, 4))
    colours = draw(st.permutations(COLOURS))[:size]
    laid = [Tile(number, c) for c in colours]
    if draw(st.booleans()):
        laid[draw(st.integers(0, size - 1))] = JOLY
    return laid, number


def any_group() -> st.SearchStrategy[list[Tile]]:
    """Any 1–8 tiles a single set could hold (at most two of each, two Jolys)."""
    pool = [Tile(n, c) for c in COLOURS for n in range(1, 14)] * 2 + [JOLY, JOLY]
    return st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=8, unique=True).map(
        lambda idx: [pool[i] for i in idx])


@st.composite
def near_melds(draw: st.DrawFn) -> list[Tile]:
    """A run or formation with up to three tiles swapped for Jolys or Jolys slipped in anywhere,
    with no regard for the Joly ratio: groups on both sides of the rules."""
    base = draw(runs())[0] if draw(st.booleans()) else draw(formations())[0]
    laid = [t for t in base if not t.is_joker]
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(laid)))
        if draw(st.booleans()) and at < len(laid):
            laid[at] = JOLY
        else:
            laid.insert(at, JOLY)
    return laid


def groups_to_judge() -> st.SearchStrategy[list[Tile]]:
    return st.one_of(any_group(), near_melds())
