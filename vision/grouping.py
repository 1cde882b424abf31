"""Grouping cards into melds by how they lie: cards that touch or overlap form one group.

A card known only by a corner index (the rest hidden under its neighbour in a fan) is given
a reach of three quarters of an index size around that index, which spans the gap to the next
index in a fan or a row; whole-card boxes reach a small fraction of their size. (A full index
size joined separate melds whose indices came out with boxes too big, and half a size split
wide rows.)

Given the photo's card patches (``vision.table_regions``), two cards that lie on different
patches, with table showing between them, are never joined, however near their boxes reach:
a box drawn too big, or one whole-card box spanning two cards, would otherwise join two melds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from vision.reading import Box, DetectedCard
from vision.table_regions import CardRegions

#: How far a lone index reaches, in its own size, and a whole card, in its size.
INDEX_REACH: Final = 0.75
CARD_REACH: Final = 0.04


def _grow(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _overlap(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def connected(n: int, pairs: Iterable[tuple[int, int]]) -> list[list[int]]:
    """The groups of ``range(n)`` that ``pairs`` join, directly or through others: each group
    in ascending order, the groups by their first member."""
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in pairs:
        parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def reach(card: DetectedCard, index_reach: float = INDEX_REACH,
          card_reach: float = CARD_REACH) -> list[Box]:
    """The regions of the table a card occupies, grown by how far a neighbour may be."""
    regions = [_grow(b, index_reach * max(b[2] - b[0], b[3] - b[1])) for b in card.indices]
    size = max(card.box[2] - card.box[0], card.box[3] - card.box[1])
    regions.append(_grow(card.box, card_reach * size))
    return regions


def group_cards(cards: Sequence[DetectedCard], index_reach: float = INDEX_REACH,
                card_reach: float = CARD_REACH,
                regions: CardRegions | None = None) -> tuple[tuple[int, ...], ...]:
    """Groups of card positions (touching/overlapping cards together), sorted left to right
    within a group and by the group's leftmost card between groups. With ``regions``, cards
    on different card patches stay apart."""
    reaches = [reach(c, index_reach, card_reach) for c in cards]
    patches = [regions.card_patch(c) if regions is not None else 0 for c in cards]

    def touching(i: int, j: int) -> bool:
        if patches[i] and patches[j] and patches[i] != patches[j]:
            return False  # table shows between them
        return any(_overlap(a, b) for a in reaches[i] for b in reaches[j])

    pairs = ((i, j) for i in range(len(cards)) for j in range(i + 1, len(cards)) if touching(i, j))
    found = connected(len(cards), pairs)

    def left(i: int) -> float:
        return cards[i].box[0]

    ordered = [tuple(sorted(g, key=left)) for g in found]
    return tuple(sorted(ordered, key=lambda g: left(g[0])))
