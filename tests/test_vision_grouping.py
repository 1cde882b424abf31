"""Pairing corner indices into physical cards and grouping cards into melds (synthetic fans)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.assemble import AssemblyParams, assemble, pair_indices
from vision.detector import Detection
from vision.grouping import group_cards
from vision.labels import INDEX_CLASSES
from vision.reading import UNREADABLE, DetectedCard
from vision.synth import scene


def _index(card: str, x: float, y: float, size: float = 20.0, p: float = 0.97) -> Detection:
    probs = np.full(len(INDEX_CLASSES), (1 - p) / (len(INDEX_CLASSES) - 1))
    probs[INDEX_CLASSES.index(card)] = p
    box = (x - size / 3, y - size / 2, x + size / 3, y + size / 2)
    return Detection("index", x, y, box, 0.9, probs)


def test_two_corners_of_one_card_are_one_card() -> None:
    cards = assemble([_index("QH", 100, 100), _index("QH", 250, 300)])
    assert [c.card for c in cards] == ["QH"]


def test_identical_cards_from_two_decks_in_a_fan_are_two_cards() -> None:
    cards = assemble([_index("7C", 100, 100), _index("7C", 124, 104)])
    assert [c.card for c in cards] == ["7C", "7C"]


def test_a_doubtful_read_is_reported_as_unreadable() -> None:
    cards = assemble([_index("5D", 100, 100, p=0.3)])
    assert cards[0].card == UNREADABLE


def test_pairing_keeps_each_index_once() -> None:
    found = [_index("KS", 100, 100), _index("KS", 250, 300), _index("KS", 400, 100),
             _index("KS", 550, 300)]
    groups = pair_indices(found, AssemblyParams())
    assert sorted(len(g) for g in groups) == [2, 2]


def _truth_cards(cards: list) -> tuple[list[DetectedCard], list[int]]:
    out, groups = [], []
    for c in cards:
        if not c.visible_indices:
            continue
        xs = [b[0] for b in c.visible_indices] + [b[2] for b in c.visible_indices]
        ys = [b[1] for b in c.visible_indices] + [b[3] for b in c.visible_indices]
        out.append(DetectedCard(c.card, (min(xs), min(ys), max(xs), max(ys)), 1.0,
                                tuple(c.visible_indices)))
        groups.append(c.group)
    return out, groups


@pytest.mark.parametrize("seed", range(8))
def test_fans_and_rows_group_as_laid_out(seed: int) -> None:
    rng = np.random.default_rng(seed)
    melds = [["5H", "6H", "7H", "8H"], ["QS", "QD", "QC"], ["2C", "3C", "4C"]]
    _, cards = scene(rng, (1500, 520), melds)
    found, truth = _truth_cards(cards)
    got = group_cards(found)
    as_sets = sorted(sorted(truth[i] for i in g) for g in got)
    # every predicted group holds one meld only, and every meld is one group
    assert all(len(set(g)) == 1 for g in as_sets)
    assert len(got) == len({t for t in truth})
