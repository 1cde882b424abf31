"""Telling cards from the table by colour, and keeping melds apart where the table shows
between them (drawn tables with exact truth)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.assemble import assemble
from vision.detector import Detection
from vision.grouping import group_cards
from vision.labels import INDEX_CLASSES
from vision.rescan import turned
from vision.synth import read_perfectly, scene, touching_melds
from vision.table_regions import card_regions

MELDS = [["5H", "6H", "7H", "8H"], ["QS", "QD", "QC"], ["2C", "3C", "4C"]]


@pytest.mark.parametrize("seed", range(6))
def test_melds_with_table_between_them_stay_apart_however_far_the_boxes_reach(seed: int) -> None:
    image, cards = scene(np.random.default_rng(seed), (1100, 520), MELDS)
    found, melds = read_perfectly(cards)
    regions = card_regions(image)
    assert regions is not None
    # a reach of three index sizes joins neighbouring melds when only the boxes are seen...
    by_boxes = group_cards(found, index_reach=3.0)
    assert len(by_boxes) < len(MELDS)
    # ...but not when the table is seen between them
    got = group_cards(found, index_reach=3.0, regions=regions)
    touching = touching_melds(cards)
    for g in got:
        joined = {melds[i] for i in g}
        assert all(frozenset((a, b)) in touching for a in joined for b in joined if a < b)
    # and each meld is still one group
    for meld in set(melds):
        assert sum(any(melds[i] == meld for i in g) for g in got) == 1


def test_a_table_the_colour_of_the_cards_tells_nothing() -> None:
    image, _ = scene(np.random.default_rng(3), (900, 600), MELDS)
    white = np.full_like(image, 236)
    cv2.putText(white, "7", (400, 300), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (20, 20, 20), 2)
    assert card_regions(white) is None
    assert card_regions(np.zeros((8, 8, 3), np.uint8)) is None


def test_without_patches_grouping_goes_by_the_boxes() -> None:
    image, cards = scene(np.random.default_rng(5), (1500, 520), MELDS)
    found, _ = read_perfectly(cards)
    white = np.full_like(image, 236)
    assert group_cards(found, regions=card_regions(white)) == group_cards(found)


def test_patch_near_skips_patches_smaller_than_asked() -> None:
    image = np.zeros((400, 600, 3), np.uint8)
    image[:] = (40, 120, 30)                       # a green cloth
    cv2.rectangle(image, (100, 100), (260, 320), (245, 245, 245), -1)   # a card
    cv2.circle(image, (420, 200), 6, (245, 245, 245), -1)               # a crumb
    regions = card_regions(image)
    assert regions is not None
    card = regions.patch_near((110.0, 110.0, 130.0, 140.0), 0.5, 1000.0)
    assert card > 0
    assert regions.patch_near((410.0, 190.0, 430.0, 210.0), 0.5, 1000.0) == 0
    crumb = regions.patch_near((410.0, 190.0, 430.0, 210.0), 0.5, 10.0)
    assert crumb > 0 and crumb != card
    # a box off the image is on no patch
    assert regions.patch_near((900.0, 900.0, 950.0, 950.0), 0.5, 10.0) == 0


def test_two_alike_indices_with_table_between_them_are_two_cards() -> None:
    # two queens of hearts from two decks, lying apart on a green cloth with their indices a
    # card's diagonal apart: read as one card from the indices alone, two with the table seen
    image = np.zeros((400, 600, 3), np.uint8)
    image[:] = (40, 120, 30)
    cv2.rectangle(image, (60, 60), (200, 250), (245, 245, 245), -1)
    cv2.rectangle(image, (215, 60), (355, 250), (245, 245, 245), -1)
    probs = np.full(len(INDEX_CLASSES), 0.03 / (len(INDEX_CLASSES) - 1))
    probs[INDEX_CLASSES.index("QH")] = 0.97

    def index(x: float, y: float) -> Detection:
        return Detection("index", x, y, (x - 10, y - 15, x + 10, y + 15), 0.9, probs)

    found = [index(185, 90), index(230, 220)]   # 3.7 index sizes apart
    assert [c.card for c in assemble(found)] == ["QH"]
    apart = assemble(found, regions=card_regions(image))
    assert [c.card for c in apart] == ["QH", "QH"]


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_patches_turned_with_the_photo_are_the_patches_of_the_turned_photo(turn: int) -> None:
    image, _ = scene(np.random.default_rng(2), (1100, 520), MELDS)
    regions = card_regions(image)
    again = card_regions(turned(image, turn))
    assert regions is not None and again is not None
    mine = regions.turned(turn)
    assert mine.labels.shape == again.labels.shape
    assert np.mean((mine.labels > 0) == (again.labels > 0)) > 0.999
    assert mine.scale == pytest.approx(again.scale, rel=0.01)
