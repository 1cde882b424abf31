"""The second look at a table read only in part (``vision/rescan.py``) and the detector's
input size, on hand-made readings and on a drawn scene."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detector import detect
from vision.errors import VisionError
from vision.reading import DetectedCard
from vision.rescan import fill_unread, needs_rescan
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


def test_a_card_already_read_is_not_added_twice_but_its_twin_from_another_deck_is() -> None:
    first = [card("7S", 0, 0), card("??", 300, 0, 0.3)]
    again = [card("7S", 10, 5), card("7S", 300, 0), card("8S", 330, 10)]
    got = fill_unread(first, again)
    assert sorted(c.card for c in got) == ["7S", "7S", "8S"]  # one ?? box spanned two cards
    assert "??" not in {c.card for c in got}


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
