"""Hands of cards held in a fan (``vision.synth.hand_layout``, ``held_hand``): the drawn
scenes of the training data (``synthetic_photos(hands=...)``) and the ``hand`` source of
``bench/bench_tables.py``."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.synth import CARD_H, CARD_W, WEBCAM_SIZES, dealt, draw_face, hand_layout, held_hand
from vision.train.dataset import synthetic_photos

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))


def _angle(quad: np.ndarray) -> float:
    top = quad[1] - quad[0]
    return math.atan2(top[1], top[0])


@pytest.mark.parametrize("n", [10, 18, 26])
def test_a_hand_turns_every_card_about_one_pivot_within_165_degrees(n: int) -> None:
    for seed in range(5):
        quads = hand_layout(n, np.random.default_rng(seed), 1.0)
        assert len(quads) == n
        steps = np.diff([_angle(q) for q in quads])
        assert np.allclose(steps, steps[0]) and 0.1 <= steps[0] <= 0.22
        assert steps[0] * (n - 1) <= 2.9 + 1e-9
        # the pivot is the one point every card's turn leaves where it is: the cards' sides
        # all stay the card's size, and their bottom ends lie near one another
        for q in quads:
            assert math.isclose(np.linalg.norm(q[1] - q[0]), CARD_W)
            assert math.isclose(np.linalg.norm(q[3] - q[0]), CARD_H)
        feet = np.array([(q[2] + q[3]) / 2 for q in quads])
        assert np.ptp(feet, axis=0).max() < 0.45 * CARD_H


def test_fingers_over_the_foot_hide_the_indices_they_cover() -> None:
    cards = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS"]
    for seed in range(6):
        image, placed = held_hand(np.random.default_rng(seed), (640, 480), cards, draw_face)
        assert image.shape == (480, 640, 3)
        assert [c.card for c in placed] == cards
        # the top card lies whole, but the index at its foot is under the fingers: only its
        # upper index shows
        foot = np.mean([(c.quad[2] + c.quad[3]) / 2 for c in placed], axis=0)
        (x0, y0, x1, y1), = placed[-1].visible_indices
        assert np.linalg.norm([(x0 + x1) / 2 - foot[0], (y0 + y1) / 2 - foot[1]]) > 0.5 * np.linalg.norm(
            placed[-1].quad[3] - placed[-1].quad[0])
        b, g, r = image[int(foot[1]), int(foot[0])].astype(int)
        assert r > b  # skin, not card paper, at the foot


def test_no_hands_draws_the_scenes_drawn_before_and_hands_draw_webcam_frames() -> None:
    before = synthetic_photos(5, 3, draw_face, crowded=0.3)
    same = synthetic_photos(5, 3, draw_face, crowded=0.3, hands=0.0)
    assert all(np.array_equal(a.image, b.image) and a.indices == b.indices for a, b in zip(before, same, strict=True))
    hands = synthetic_photos(6, 3, draw_face, hands=1.0)
    assert {p.image.shape[:2] for p in hands} <= {(640, 640), (480, 640), (720, 1280)}
    assert all(p.index_px and p.index_px > 0 for p in hands)  # crops are scaled by the index size
    assert sum(len(p.indices) for p in hands) >= 6


def test_the_bench_draws_a_webcam_frame_of_a_held_out_hand() -> None:
    import bench_tables

    image, cards = bench_tables.table(np.random.default_rng(2), "hand", (1280, 960))
    assert image.shape[1::-1] in WEBCAM_SIZES
    assert 10 <= len(cards) <= 26
    assert {c.group for c in cards} == {0}  # one hand, one meld
    assert any(c.visible_indices for c in cards)


def test_a_dealt_hand_holds_no_card_more_often_than_there_are_decks() -> None:
    from collections import Counter

    one = dealt(np.random.default_rng(1), 54)
    assert Counter(one) == Counter({**{c: 1 for c in one if c != "PJ"}, "PJ": 2}) and len(set(one)) == 53
    two = Counter(dealt(np.random.default_rng(2), 100, decks=2))
    assert max(n for c, n in two.items() if c != "PJ") <= 2 and two["PJ"] <= 4
    assert dealt(np.random.default_rng(3), 13, 2) == dealt(np.random.default_rng(3), 13, 2)
