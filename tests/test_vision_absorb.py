"""A ``??`` lying as a read card's other corner is that corner read unsurely, not a card of
its own (``vision.assemble.absorb_unread``, ``AssemblyParams.absorb_unread``)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from bench_tables import networks, seen_table  # noqa: E402
from table_score import score_table  # noqa: E402

from engine.cards import UNREADABLE  # noqa: E402
from vision.assemble import DEFAULT_PARAMS, AssemblyParams, absorb_unread  # noqa: E402
from vision.reading import Box, DetectedCard  # noqa: E402

UP, DOWN, RIGHT = (0.0, -0.95), (0.0, 0.95), (0.95, 0.0)


def _card(name: str, *centres: tuple[float, float], size: float = 30.0) -> DetectedCard:
    boxes = tuple((x - size / 3, y - size / 2, x + size / 3, y + size / 2) for x, y in centres)
    box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    return DetectedCard(name, box, 0.95 if name != UNREADABLE else 0.3, boxes)


def test_a_unread_index_at_a_read_cards_other_corner_is_taken_into_it() -> None:
    read = _card("7H", (100, 100))
    corner = _card(UNREADABLE, (160, 200))  # 3.9 index sizes down the diagonal
    ups: dict[Box, tuple[float, float] | float | None] = {read.indices[0]: UP, corner.indices[0]: DOWN}
    out = absorb_unread([read, corner], AssemblyParams(absorb_unread=True), None, ups)
    assert [c.card for c in out] == ["7H"]
    assert out[0].indices == read.indices + corner.indices
    assert out[0].box == (read.box[0], read.box[1], corner.box[2], corner.box[3])
    # the turns unknown, the corners' places alone decide, as merge_corners does
    assert [c.card for c in absorb_unread([corner, read], AssemblyParams(absorb_unread=True), None, None)] == ["7H"]


def test_a_unread_index_that_lies_otherwise_stays_a_card_of_its_own() -> None:
    read = _card("7H", (100, 100))
    params = AssemblyParams(absorb_unread=True)
    # facing the same way a diagonal apart: the same corner of another card
    corner = _card(UNREADABLE, (160, 200))
    same = {read.indices[0]: UP, corner.indices[0]: UP}
    assert len(absorb_unread([read, corner], params, None, same)) == 2
    # pointing a quarter turn away: a neighbour in a fan
    across = {read.indices[0]: UP, corner.indices[0]: RIGHT}
    assert len(absorb_unread([read, corner], params, None, across)) == 2
    # the next card's index in a fan, under an index size away, or one far off the card
    for x, y in ((125, 100), (400, 420)):
        other = _card(UNREADABLE, (x, y))
        assert len(absorb_unread([read, other], params, None, {read.indices[0]: UP, other.indices[0]: DOWN})) == 2
    # a card read whole (no index) takes nothing, and a ?? with no index is left alone
    whole = replace(read, indices=())
    assert len(absorb_unread([whole, corner], params, None, None)) == 2
    bare = replace(corner, indices=())
    assert len(absorb_unread([read, bare], params, None, None)) == 2


def test_a_card_with_four_indices_takes_no_fifth() -> None:
    four = _card("9C", (100, 100), (160, 100), (100, 200), (160, 200))
    extra = _card(UNREADABLE, (220, 300))
    assert len(absorb_unread([four, extra], AssemblyParams(absorb_unread=True), None, None)) == 2


def test_the_reader_counts_a_drawn_tables_cards_once_where_a_corner_read_unsurely() -> None:
    """A drawn table (the benchmark's ``held-out`` source, seed 23, its first table) on which
    the reader leaves a card's second corner ``??`` beside the card read from its first: with
    ``absorb_unread`` (as shipped) the ``??`` is gone and the melds grouped exactly go up,
    while every card read stays as it was."""
    from vision.recognize import read_table

    image, cards, _ = seen_table(np.random.default_rng(23), "held-out", (1280, 960))
    nets = networks(None)
    assert DEFAULT_PARAMS.absorb_unread
    kept = read_table(image, pieces="cards", **nets)
    left = read_table(image, pieces="cards", params=replace(DEFAULT_PARAMS, absorb_unread=False), **nets)
    assert sum(not c.readable for c in kept.cards) < sum(not c.readable for c in left.cards)
    assert sorted(c.card for c in kept.cards if c.readable) == sorted(c.card for c in left.cards if c.readable)
    assert score_table(cards, kept).melds_hit > score_table(cards, left).melds_hit
