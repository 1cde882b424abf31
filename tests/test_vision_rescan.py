"""The second looks at a table read only in part (``vision/rescan.py``), the detector's input
size and the sharpest zoomed read, on hand-made readings and on drawn scenes."""

from __future__ import annotations

from functools import partial

import cv2
import numpy as np
import pytest

from vision.classifier import sharpest_reads
from vision.detector import INPUT_SIZE, detect
from vision.errors import VisionError
from vision.reading import DetectedCard
from vision.recognize import read_table
from vision.rescan import (
    RESCAN_LOOKS,
    Look,
    despeckle,
    fill_unread,
    needs_rescan,
    turn_back,
    turned,
)
from vision.synth import scene


def card(name: str, x: float, y: float, confidence: float = 0.9, w: float = 60, h: float = 90) -> DetectedCard:
    return DetectedCard(name, (x, y, x + w, y + h), confidence)


def test_a_reading_needs_a_second_look_only_when_empty_or_with_an_unread_card() -> None:
    assert needs_rescan([])
    assert needs_rescan([card("5H", 0, 0), card("??", 100, 0, 0.3)])
    assert not needs_rescan([card("5H", 0, 0), card("6H", 100, 0)])


def test_a_confident_card_read_again_replaces_the_unread_card_it_lies_on() -> None:
    first = [card("5H", 0, 0), card("??", 200, 0, 0.3)]
    again = [card("5H", 2, 1), card("QS", 205, 4, 0.8)]
    got = fill_unread(first, again)
    assert sorted(c.card for c in got) == ["5H", "QS"]
    assert [c.box for c in got if c.card == "5H"] == [first[0].box]  # the first read is kept


def test_doubtful_or_misplaced_cards_of_the_second_look_are_left_out() -> None:
    first = [card("5H", 0, 0), card("??", 200, 0, 0.3)]
    again = [card("KD", 200, 0, 0.55),      # too doubtful
             card("9C", 500, 300, 0.95),    # where the first reading saw nothing
             card("??", 200, 0, 0.9)]       # unread again
    got = fill_unread(first, again)
    assert [c.card for c in got] == ["5H", "??"]


def test_when_nothing_was_found_every_confident_card_of_the_second_look_counts() -> None:
    got = fill_unread([], [card("2C", 0, 0), card("3C", 100, 0), card("4C", 200, 0, 0.4)])
    assert [c.card for c in got] == ["2C", "3C"]


def test_when_nothing_was_read_a_confident_card_elsewhere_counts_and_the_unread_one_stays() -> None:
    first = [card("??", 0, 0, 0.3)]                     # e.g. a box on the hand holding the card
    again = [card("AS", 300, 200, 0.7), card("KD", 600, 0, 0.5)]
    got = fill_unread(first, again)
    assert sorted(c.card for c in got) == ["??", "AS"]
    # once a card is read, a card found elsewhere by a later look is not taken
    assert [c.card for c in fill_unread(got, [card("9C", 600, 300)])] == [c.card for c in got]


def test_a_card_already_read_is_not_added_twice_but_its_twin_from_another_deck_is() -> None:
    first = [card("7S", 0, 0), card("??", 300, 0, 0.3)]
    again = [card("7S", 10, 5), card("7S", 300, 0), card("8S", 330, 10)]
    got = fill_unread(first, again)
    assert sorted(c.card for c in got) == ["7S", "7S", "8S"]  # one ?? box spanned two cards
    assert "??" not in {c.card for c in got}


def test_a_card_read_whole_again_on_or_around_a_card_read_is_that_card() -> None:
    # a king read from both its indices, and a ghost box around it left unread
    king = DetectedCard("KH", (100, 100, 300, 400), 0.99, ((100, 100, 130, 140), (270, 360, 300, 400)))
    first = [king, card("??", 40, 40, 0.3, w=330, h=430)]
    around = DetectedCard("JH", (40, 40, 370, 470), 0.7)    # the whole king, read as a jack
    inside = DetectedCard("KD", (150, 150, 260, 330), 0.65)  # its court art
    assert [c.card for c in fill_unread(first, [around, inside])] == ["KH", "??"]
    # a card the second look read from an index there is another card
    index = DetectedCard("5C", (40, 40, 370, 470), 0.9, ((45, 45, 70, 80),))
    assert sorted(c.card for c in fill_unread(first, [index])) == ["5C", "KH"]
    # a whole card around a much smaller read card (an index seen alone) may be another card
    lone = DetectedCard("3S", (300, 420, 330, 460), 0.9, ((300, 420, 330, 460),))
    wide = DetectedCard("QC", (250, 380, 560, 800), 0.8)
    got = fill_unread([lone, card("??", 250, 380, 0.3, w=310, h=420)], [wide])
    assert sorted(c.card for c in got) == ["3S", "QC"]


def test_unread_cards_nothing_replaces_stay_so_no_card_is_lost() -> None:
    first = [card("??", 0, 0, 0.3), card("??", 400, 0, 0.3)]
    got = fill_unread(first, [card("JD", 5, 5)])
    assert sorted(c.card for c in got) == ["??", "JD"]


def test_the_detector_finds_a_drawn_index_at_a_smaller_input_size_in_image_pixels() -> None:
    image, cards = scene(np.random.default_rng(3), (640, 480), [["7H", "8H", "9H"]])
    indices = [box for c in cards for box in c.visible_indices]
    assert indices
    for size in (384, 256):
        found = [d for d in detect(image, 0.3, size=size) if d.kind == "index"]
        for x0, y0, x1, y1 in indices:
            near = [d for d in found if x0 - (x1 - x0) <= d.x <= x1 + (x1 - x0)
                    and y0 - (y1 - y0) <= d.y <= y1 + (y1 - y0)]
            assert near, f"no index near {(x0, y0, x1, y1)} at input size {size}"
    with pytest.raises(VisionError, match="multiple of 32"):
        detect(image, size=250)


def test_the_sharpest_read_is_taken_only_where_it_names_the_class_of_the_mean() -> None:
    # two indices, three boxes each; classes: A, B, "not an index"
    views = np.array([
        [[0.50, 0.30, 0.20], [0.45, 0.40, 0.15]],
        [[0.90, 0.05, 0.05], [0.10, 0.85, 0.05]],   # surest box: A for the first, B for the second
        [[0.60, 0.20, 0.20], [0.80, 0.05, 0.15]],
    ])
    got = sharpest_reads(views)
    assert got.shape == (2, 3)
    assert got[0].tolist() == views[1, 0].tolist()             # A is also the mean's class
    assert np.allclose(got[1], views[:, 1].mean(axis=0))        # B is not: one box cannot outvote
    assert got[1].argmax() == 0


def test_despeckling_clears_isolated_specks_and_keeps_printed_strokes() -> None:
    image = np.full((60, 60, 3), 235, np.uint8)
    cv2.line(image, (10, 30), (50, 30), (20, 20, 20), 3)         # a stroke of a printed index
    rng = np.random.default_rng(0)
    ys, xs = rng.integers(0, 60, 80), rng.integers(0, 60, 80)
    specked = image.copy()
    specked[ys, xs] = rng.choice([0, 255], (80, 1))
    clean = despeckle(specked)
    away = np.ones((60, 60), bool)
    away[26:35, :] = False
    assert np.count_nonzero(np.abs(specked.astype(int) - image).max(axis=2)[away] > 60) > 20
    assert np.count_nonzero(np.abs(clean.astype(int) - image).max(axis=2)[away] > 60) == 0
    assert (clean[30, 15:45] < 60).all()                           # the stroke is still there


def test_the_looks_go_from_cheap_to_thorough_and_all_read_the_image() -> None:
    sizes = [look.size for look in RESCAN_LOOKS]
    assert all(s % 32 == 0 for s in sizes)
    # the looks at 256 and at 192 paid on no held-out source (the close-ups are read at a
    # smaller size chosen from the first look instead, vision.scale)
    assert all(s == INPUT_SIZE for s in sizes)
    # the despeckled look ships dropped: it paid on one held-out source (the webcam photos)
    assert not any(look.denoise for look in RESCAN_LOOKS)
    assert [look.sharpest for look in RESCAN_LOOKS].index(True) < [look.turn for look in RESCAN_LOOKS].index(1)


def test_in_a_drawn_fan_the_sharpest_look_reads_an_index_the_first_reading_left_unread() -> None:
    image, cards = scene(np.random.default_rng(225), (1280, 960))
    image = cv2.GaussianBlur(image, (3, 3), 0.8)
    want = {c.card for c in cards if c.visible_indices}
    # (the look alone, without the box network: with it the first reading reads them all)
    assert "??" not in [c.card for c in read_table(image, rescan=()).cards]
    plain = partial(read_table, box_weights=None)
    first = [c.card for c in plain(image, rescan=()).cards]
    assert "??" in first
    again = [c.card for c in plain(image, rescan=(Look(384, sharpest=True),)).cards]
    assert again.count("??") < first.count("??")
    assert set(first) - {"??"} < set(again) - {"??"} <= want


@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_a_box_found_on_a_turned_image_is_turned_back_to_the_image_as_it_was(turn: int) -> None:
    image = np.zeros((120, 200), np.uint8)
    box = (30, 10, 70, 90)
    image[box[1]:box[3], box[0]:box[2]] = 255
    seen = turned(image, turn)
    ys, xs = np.nonzero(seen)
    found = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
    assert turn_back(found, turn, (200, 120)) == box
    assert seen.shape == ((200, 120) if turn % 2 else (120, 200))
