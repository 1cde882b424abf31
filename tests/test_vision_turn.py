"""Which way each corner index faces (``indexturn.onnx``), and pairing by it: a card's two
printed indices face opposite ways, the same corner of two alike cards the same way."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from bench_index_turn import corner_pairs  # noqa: E402

from vision.assemble import (  # noqa: E402
    AssemblyParams,
    assemble,
    drop_twins,
    facing,
    one_card_corners,
    pair_indices,
)
from vision.classifier import DEFAULT_TURN, read_turns  # noqa: E402
from vision.detector import Detection  # noqa: E402
from vision.labels import INDEX_CLASSES  # noqa: E402
from vision.synth import SceneCard, draw_face  # noqa: E402
from vision.train.turns import TURNED, UPRIGHT, index_ups, turn_label  # noqa: E402

PHOTOS = Path(__file__).parent / "data" / "photos" / "cards-corners"


def _index(card: str, x: float, y: float, upright: float | None, size: float = 20.0) -> Detection:
    probs = np.full(len(INDEX_CLASSES), 0.03 / (len(INDEX_CLASSES) - 1))
    probs[INDEX_CLASSES.index(card)] = 0.97
    box = (x - size / 3, y - size / 2, x + size / 3, y + size / 2)
    return Detection("index", x, y, box, 0.9, probs, upright)


def test_the_label_follows_the_crops_quarter_turn() -> None:
    tall, wide = (0, 0, 10, 20), (0, 0, 20, 10)
    assert turn_label(tall, np.array([0.0, -1.0])) == UPRIGHT
    assert turn_label(tall, np.array([0.0, 1.0])) == TURNED
    # a wide box is turned a quarter clockwise: an index pointing left ends up upright
    assert turn_label(wide, np.array([-1.0, 0.0])) == UPRIGHT
    assert turn_label(wide, np.array([1.0, 0.0])) == TURNED
    # near the diagonal the crop's turn could go either way: no label
    assert turn_label(tall, np.array([0.8, -0.6])) is None


def test_a_cards_top_index_points_to_its_top_edge_and_its_bottom_one_away() -> None:
    quad = np.array([[100, 100], [170, 100], [170, 200], [100, 200]], np.float32)
    card = SceneCard("5H", 0, quad, ((102, 102, 114, 122), (156, 178, 168, 198)))
    (top, up_top), (bottom, up_bottom) = index_ups([card])
    assert top == (102, 102, 114, 122) and up_top[1] < -0.99
    assert bottom == (156, 178, 168, 198) and up_bottom[1] > 0.99
    # the same card lying upside down: its bottom index, printed turned, now stands at the
    # top pointing up, so the image's indices point as before
    turned = SceneCard("5H", 0, quad[[2, 3, 0, 1]], card.visible_indices)
    assert [round(float(u[1])) for _, u in index_ups([turned])] == [-1, 1]
    # lying on its side, its top edge to the right: the index at the left (its bottom one)
    # points left
    side = SceneCard("5H", 0, quad[[1, 2, 3, 0]], ((102, 102, 122, 114), (148, 186, 168, 198)))
    assert [round(float(u[0])) for _, u in index_ups([side])] == [-1, 1]


def test_alike_indices_facing_the_same_way_are_two_cards() -> None:
    # two sevens of clubs from two decks a card's diagonal apart, both standing upright
    a, b = _index("7C", 100, 100, 0.98), _index("7C", 145, 160, 0.97)
    assert facing(a, b, 0.9) == "same"
    assert [c.card for c in assemble([a, b])] == ["7C", "7C"]
    # facing opposite ways they are one card's two corners
    assert [c.card for c in assemble([a, replace(b, upright=0.03)])] == ["7C"]
    # turns read unsurely, or not at all, leave pairing to distance and reads
    assert [c.card for c in assemble([replace(a, upright=0.7), b])] == ["7C"]
    assert [c.card for c in assemble([replace(a, upright=None), b])] == ["7C"]
    assert [c.card for c in assemble([a, b], AssemblyParams(turn_sure=1.01))] == ["7C"]


def test_turns_of_boxes_turned_differently_are_not_compared() -> None:
    a = _index("7C", 100, 100, 0.98)
    b = replace(_index("7C", 145, 160, 0.98), box=(135, 153, 155, 167))  # wider than tall
    assert facing(a, b, 0.9) is None


def test_opposite_corners_nearer_than_a_diagonal_pair_only_when_allowed() -> None:
    # a jumbo index: the card's corners 1.4 index sizes apart
    a, b = _index("JS", 100, 100, 0.98, 40), _index("JS", 110, 155, 0.02, 40)
    assert len(pair_indices([a, b], AssemblyParams())) == 2
    assert len(pair_indices([a, b], AssemblyParams(turned_pair_min=1.2))) == 1
    # the same corner of two alike cards so near stays two cards whatever the bound
    assert len(pair_indices([a, replace(b, upright=0.98)], AssemblyParams(turned_pair_min=1.2))) == 2


def test_two_ends_of_a_long_side_facing_opposite_ways_are_one_four_corner_card() -> None:
    # a card printed in all four corners, seen down the strip a row leaves uncovered: its top
    # and bottom indices on one long side, 1.2 index sizes apart (under corner_side)
    top, bottom = _index("JS", 100, 100, 0.98, 40), _index("JS", 100, 148, 0.03, 40)
    boxes = [top.box, bottom.box]
    assert one_card_corners(boxes, AssemblyParams(), [0.98, 0.03])
    assert [c.card for c in assemble([top, bottom])] == ["JS"]
    # the turns unknown or unsure, or the bound at corner_side: two cards, as before
    assert not one_card_corners(boxes, AssemblyParams(), None)
    assert not one_card_corners(boxes, AssemblyParams(), [0.98, 0.3])
    assert not one_card_corners(boxes, AssemblyParams(turned_side=1.5), [0.98, 0.03])
    # the same corner of two alike cards so near faces the same way: two cards
    assert len(assemble([top, replace(bottom, upright=0.98)])) == 2
    # nearer than turned_side: two cards whatever their turns
    near = _index("JS", 100, 136, 0.03, 40)
    assert len(assemble([top, near])) == 2


def test_four_corners_of_a_narrow_card_are_one_card_only_as_a_true_rectangle() -> None:
    # a four-corner card whose index centres lie 1.3 index sizes apart across its short side
    # and 1.9 down its long side, read as two diagonal pairs: one card
    s = 40
    tl, br = _index("7S", 100, 100, 0.98, s), _index("7S", 152, 176, 0.02, s)
    tr, bl = _index("7S", 152, 100, 0.98, s), _index("7S", 100, 176, 0.02, s)
    boxes = [tl.box, br.box, tr.box, bl.box]
    ups = [0.98, 0.02, 0.98, 0.02]
    assert one_card_corners(boxes, AssemblyParams(), ups)
    assert not one_card_corners(boxes, AssemblyParams(four_side=1.5), ups)
    # two alike cards side by side, each read by its diagonal (1.2 index sizes apart): the
    # two farthest pairs share an index, so no two diagonals: two cards
    shifted = [tl.box, br.box, _index("7S", 148, 100, 0.98, s).box, _index("7S", 200, 176, 0.02, s).box]
    assert not one_card_corners(shifted, AssemblyParams(), ups)
    # a figure a little off a rectangle (its diagonals 11% apart) with a side under
    # corner_side: not one card at four_square, which the looser corner_square would allow
    skewed = [tl.box, _index("7S", 170, 176, 0.02, s).box, tr.box, bl.box]
    assert not one_card_corners(skewed, AssemblyParams(), ups)
    assert one_card_corners(skewed, AssemblyParams(four_square=0.2), ups)
    # sides under four_side stay two cards however true the rectangle
    narrow = [tl.box, br.box, (117, 80, 143, 120), (65, 156, 91, 196)]
    assert not one_card_corners(narrow, AssemblyParams(), ups)


def test_one_index_found_twice_is_one_card_and_faint_twins_add_nothing() -> None:
    # two sure peaks read alike a third of the index's width apart: one printed index
    strong = _index("KC", 100, 100, None, 40)
    twin = replace(_index("KC", 106, 102, None, 40), score=0.6)
    assert [c.card for c in assemble([strong, twin])] == ["KC"]
    assert len(assemble([strong, twin], AssemblyParams(twin=0.0))) == 2
    # peaks read as different cards, or farther than half the short side, stay
    other = replace(_index("KD", 106, 102, None, 40), score=0.6)
    assert len(drop_twins([strong, other], 0.5, 0.6)) == 2
    apart = replace(_index("KC", 120, 100, None, 40), score=0.6)
    assert len(drop_twins([strong, apart], 0.5, 0.6)) == 2
    # an unsure read is never taken for the twin of a sure one
    unsure = replace(twin, probs=np.full(len(INDEX_CLASSES), 1 / len(INDEX_CLASSES)))
    assert len(drop_twins([strong, unsure], 0.5, 0.6)) == 2
    # the stronger peak is kept, and its score is not raised
    kept = drop_twins([twin, strong], 0.5, 0.6)
    assert kept == [strong]


@pytest.mark.skipif(not DEFAULT_TURN.is_file(), reason="no shipped turn weights")
def test_the_shipped_turn_network_reads_a_drawn_cards_two_corners_opposite_ways() -> None:
    rng = np.random.default_rng(3)
    reads = []
    for card in ("7C", "QH", "10D", "AS"):
        face = draw_face(card, rng)
        image = cv2.copyMakeBorder(face.image, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=(60, 90, 40))
        boxes = [(x0 + 20, y0 + 20, x1 + 20, y1 + 20) for x0, y0, x1, y1 in face.indices]
        top, bottom = sorted(boxes, key=lambda b: b[1])
        p_top, p_bottom = read_turns(image, [top, bottom])
        reads.append((p_top, p_bottom))
        # the card lying upside down: the same indices, each now facing the other way
        flipped = np.ascontiguousarray(image[::-1, ::-1])
        h, w = flipped.shape[:2]
        q_top = read_turns(flipped, [(w - top[2], h - top[3], w - top[0], h - top[1])])[0]
        reads.append((1 - q_top, p_bottom))
    assert all(up > 0.5 > down for up, down in reads), reads


@pytest.mark.skipif(not DEFAULT_TURN.is_file(), reason="no shipped turn weights")
def test_the_shipped_turn_network_reads_real_cards_corners_opposite_ways() -> None:
    # the photos kept in the repository: each card whose two opposite corners are labelled
    labels = json.loads((PHOTOS / "labels.json").read_text())
    opposite = pairs = 0
    for name, boxes in labels.items():
        image = cv2.imread(str(PHOTOS / "images" / name))
        for a, c in corner_pairs(boxes, image.shape[1], image.shape[0]):
            pa, pc = read_turns(image, [a, c])
            pairs += 1
            opposite += (pa >= 0.5) != (pc >= 0.5)
    assert pairs >= 8
    assert opposite >= 0.85 * pairs, (opposite, pairs)


def test_a_four_corner_cards_corners_fit_only_with_their_own_turns() -> None:
    def box(x: float, y: float) -> tuple[float, float, float, float]:
        return (x - 7, y - 10, x + 7, y + 10)

    tl, tr, bl, br = box(110, 115), box(150, 115), box(110, 175), box(150, 175)
    params = AssemblyParams()
    # the top two stand upright, the bottom two turned: one card
    assert one_card_corners([tl, tr, bl, br], params, [0.98, 0.97, 0.02, 0.03])
    assert one_card_corners([tl, tr, bl, br], params, None)
    # each facing the same way as the corner across the diagonal: not one card's corners
    assert not one_card_corners([tl, tr, bl, br], params, [0.98, 0.02, 0.03, 0.97])
    # three facing one way never lie on one card
    assert not one_card_corners([tl, tr, bl], params, [0.98, 0.97, 0.96])
    assert one_card_corners([tl, tr, bl], params, [0.98, 0.97, 0.02])
    # two alone facing the same way a card's diagonal apart are two cards' same corner
    assert not one_card_corners([tl, br], params, [0.98, 0.97])
    assert one_card_corners([tl, br], params, [0.98, 0.03])


def test_eight_directions_label_the_way_an_index_points_in_its_crop() -> None:
    tall, wide = (0, 0, 10, 20), (0, 0, 20, 10)
    assert turn_label(tall, np.array([0.0, -1.0]), 8) == 0  # upright
    assert turn_label(tall, np.array([1.0, 0.0]), 8) == 2  # a quarter turn clockwise
    assert turn_label(tall, np.array([0.0, 1.0]), 8) == 4  # half round
    assert turn_label(tall, np.array([0.8, -0.6]), 8) == 1  # near the diagonal: labelled too
    # a wide box's crop is turned a quarter clockwise: an index pointing left stands upright
    assert turn_label(wide, np.array([-1.0, 0.0]), 8) == 0


def test_the_ways_read_come_back_to_the_image_from_the_crops_turn() -> None:
    from vision.classifier import ups_of

    tall, wide = (0, 0, 10, 20), (0, 0, 20, 10)
    right = np.zeros((1, 8), np.float32)
    right[0, 2] = 1.0  # pointing right in its crop
    assert np.allclose(ups_of(right, [tall]), [[1.0, 0.0]], atol=1e-6)
    # in a wide box's crop (turned a quarter clockwise) right is the image's up
    assert np.allclose(ups_of(right, [wide]), [[0.0, -1.0]], atol=1e-6)
    unsure = np.full((1, 8), 1 / 8, np.float32)
    assert np.hypot(*ups_of(unsure, [tall])[0]) < 1e-6  # no way more than another: no length


def test_indices_pointing_a_quarter_turn_apart_never_pair() -> None:
    # two alike cards of two decks in a fan, their upper indices a card's diagonal apart
    a = replace(_index("7C", 100, 100, 0.98), upright=None, up=(0.0, -0.97))
    b = replace(_index("7C", 145, 160, 0.98), upright=None, up=(0.95, -0.1))
    assert facing(a, b, 0.9) == "across"
    assert len(pair_indices([a, b], AssemblyParams())) == 2
    assert len(pair_indices([a, b], AssemblyParams(across=False))) == 1  # distance and reads decide
    # pointing opposite ways they are one card's two corners, in boxes of any shape
    c = replace(b, up=(0.05, 0.96), box=(135, 153, 155, 167))
    assert facing(a, c, 0.9) == "opposite"
    assert len(pair_indices([a, c], AssemblyParams())) == 1
    # within 60 degrees they point the same way: the same corner of two cards
    assert facing(a, replace(b, up=(0.5, -0.8)), 0.9) == "same"
    # read unsurely: not known, so distance and reads decide, as before
    assert facing(a, replace(b, up=(0.3, 0.2)), 0.9) is None


@pytest.mark.skipif(not DEFAULT_TURN.is_file(), reason="no shipped turn weights")
def test_the_shipped_turn_network_reads_the_way_a_turned_cards_indices_point() -> None:
    from vision.classifier import read_ups, turn_directions

    if turn_directions() <= 2:
        pytest.skip("the shipped turn network tells two directions")
    rng = np.random.default_rng(5)
    hits = total = 0
    for card, degrees in (("7C", 30), ("QH", 75), ("10D", 120), ("AS", 200), ("5S", 290), ("KD", 340)):
        face = draw_face(card, rng)
        h, w = face.image.shape[:2]
        side = int(np.hypot(w, h)) + 40
        m = cv2.getRotationMatrix2D((w / 2, h / 2), -degrees, 1.0)  # clockwise in the image
        m[:, 2] += (side - w) / 2, (side - h) / 2
        image = cv2.warpAffine(face.image, m, (side, side), borderValue=(60, 90, 40))
        a = np.radians(degrees)
        for x0, y0, x1, y1 in face.indices:
            corners = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]], np.float64) @ m.T
            box = (*corners.min(axis=0), *corners.max(axis=0))
            top = (y0 + y1) / 2 < h / 2  # the top index points to the card's top edge
            want = np.array([np.sin(a), -np.cos(a)]) * (1 if top else -1)
            got = read_ups(image, [box])[0]
            total += 1
            hits += float(got @ want) / max(float(np.hypot(*got)), 1e-9) > 0.7
    assert hits >= 0.9 * total, (hits, total)
