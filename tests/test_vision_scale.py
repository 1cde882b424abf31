"""Choosing the detector's input size from the photo (``vision/scale.py``), the second looks
moved to that size, and counting cards printed with four corner indices
(``vision.assemble.merge_corners``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.assemble import (
    DEFAULT_PARAMS,
    AssemblyParams,
    assemble,
    merge_corners,
    one_card_corners,
)
from vision.detector import INPUT_SIZE, Detection
from vision.labels import CARD_CLASSES, INDEX_CLASSES
from vision.reading import DetectedCard
from vision.rescan import RESCAN_LOOKS, at_size
from vision.scale import MAX_SIZE, TARGET_INDEX, choose_size, index_size, next_size, size_for


def _found(kind: str, long_side: float, score: float = 0.9, x: float = 100) -> Detection:
    n = len(INDEX_CLASSES) if kind == "index" else len(CARD_CLASSES)
    w = long_side * (0.6 if kind == "index" else 0.7)
    return Detection(kind, x, 100, (x - w / 2, 100 - long_side / 2, x + w / 2, 100 + long_side / 2),
                     score, np.full(n, 1.0 / n))


def test_small_indices_send_the_photo_to_a_larger_input_at_the_learnt_index_size() -> None:
    # a 1280-pixel table whose indices are 40 px: 12 px at the default 384, too small
    first = [_found("index", 40), _found("index", 42), _found("index", 38)]
    size = choose_size(1280, first)
    assert size % 32 == 0 and size > INPUT_SIZE
    assert abs(40 * size / 1280 - TARGET_INDEX) <= 32 * 40 / 1280  # within one step of 32


def test_indices_big_enough_at_the_default_size_keep_it() -> None:
    assert choose_size(640, [_found("index", 60), _found("index", 64)]) == INPUT_SIZE
    assert choose_size(640, []) == INPUT_SIZE  # nothing to measure by


def test_whole_cards_measure_the_photo_when_no_index_is_sure() -> None:
    first = [_found("card", 150), _found("index", 30, score=0.2)]
    assert index_size(first) == 150 * 0.22
    assert choose_size(1280, first) > INPUT_SIZE


def test_the_size_is_bounded_by_the_photo_and_the_largest_input() -> None:
    assert size_for(2.0, 4000) == MAX_SIZE
    assert size_for(2.0, 500) == 512  # never past the photo's own size (rounded up to 32)
    assert size_for(500.0, 1280) == INPUT_SIZE


def test_a_calibrated_view_gives_the_size_from_its_scale_without_looking() -> None:
    # 2 px per mm: a 20 mm index is 40 px
    assert choose_size(1600, [], px_per_mm=2.0) == size_for(40.0, 1600)
    assert choose_size(1600, [], px_per_mm=2.0) > INPUT_SIZE


def test_second_looks_move_to_the_chosen_size_and_drop_the_close_up_ones() -> None:
    assert at_size(RESCAN_LOOKS, INPUT_SIZE) == RESCAN_LOOKS
    moved = at_size(RESCAN_LOOKS, 800)
    assert moved and all(look.size == 800 for look in moved)
    # only the looks that reuse the first reading's detections: no turned or despeckled image
    assert all(not look.turn and not look.denoise for look in moved)
    assert any(look.sharpest for look in moved)


def _index(card: str, x: float, y: float, size: float = 20.0) -> Detection:
    probs = np.full(len(INDEX_CLASSES), 0.03 / (len(INDEX_CLASSES) - 1))
    probs[INDEX_CLASSES.index(card)] = 0.97
    return Detection("index", x, y, (x - size / 3, y - size / 2, x + size / 3, y + size / 2), 0.9, probs)


def _corners(card: str, x: float, y: float, w: float = 40.0, h: float = 56.0) -> list[Detection]:
    """The four index centres of one card printed in every corner (index size 20)."""
    return [_index(card, x, y), _index(card, x + w, y), _index(card, x + w, y + h), _index(card, x, y + h)]


def test_a_card_with_an_index_in_each_corner_is_one_card() -> None:
    assert [c.card for c in assemble(_corners("8D", 100, 100))] == ["8D"]
    # three of its corners in view (the fourth under another card)
    assert [c.card for c in assemble(_corners("8D", 100, 100)[:3])] == ["8D"]
    # its two top corners alone, a card's width apart
    assert [c.card for c in assemble(_corners("8D", 100, 100)[:2])] == ["8D"]


def test_alike_cards_of_two_decks_stay_two_however_their_corners_lie() -> None:
    # fanned a little apart: their indices closer than a card's short side
    cards = assemble([_index("8D", 100, 100), _index("8D", 118, 102)])
    assert [c.card for c in cards] == ["8D", "8D"]
    # two four-corner cards side by side, a card's width and more apart
    cards = assemble(_corners("8D", 100, 100) + _corners("8D", 240, 100))
    assert [c.card for c in cards] == ["8D", "8D"]


def test_corners_off_a_rectangle_are_not_one_card() -> None:
    params = AssemblyParams()
    box = (0.0, 0.0, 13.0, 20.0)

    def at(x: float, y: float) -> tuple[float, float, float, float]:
        return (x + box[0], y + box[1], x + box[2], y + box[3])

    assert one_card_corners([at(0, 0), at(40, 0), at(40, 56)], params)
    assert not one_card_corners([at(0, 0), at(40, 0), at(80, 10)], params)  # a row, not a corner
    assert one_card_corners([at(0, 0), at(40, 0), at(40, 56), at(0, 56)], params)
    assert not one_card_corners([at(0, 0), at(40, 0), at(80, 56), at(0, 56)], params)


def test_merging_corners_can_be_switched_off() -> None:
    a = DetectedCard("8D", (0, 0, 20, 20), 0.9, ((0.0, 0.0, 13.0, 20.0),))
    b = DetectedCard("8D", (40, 0, 60, 20), 0.9, ((40.0, 0.0, 53.0, 20.0),))
    assert len(merge_corners([a, b], DEFAULT_PARAMS)) == 1
    assert len(merge_corners([a, b], replace(DEFAULT_PARAMS, corner_side=0))) == 2
    other = replace(b, card="8H")
    assert len(merge_corners([a, other], DEFAULT_PARAMS)) == 2


def test_a_close_up_is_read_at_a_smaller_size_and_a_usual_photo_at_the_default() -> None:
    # indices measured 120 px at 384 on a 640 photo: a close-up, sent down to where they
    # span about the target; 60 px on the same photo (36 at 384) stays at the default
    from vision.scale import LARGE_INDEX, SMALLEST

    big = [_found("index", 200), _found("index", 210)]
    assert 205 * INPUT_SIZE / 640 > LARGE_INDEX
    assert SMALLEST <= choose_size(640, big) < INPUT_SIZE
    assert choose_size(640, big, smallest=INPUT_SIZE) == INPUT_SIZE
    assert choose_size(640, [_found("index", 60), _found("index", 64)]) == INPUT_SIZE


def test_a_photo_where_nothing_was_found_is_looked_at_one_level_finer() -> None:
    assert next_size(INPUT_SIZE, 1280) == 2 * INPUT_SIZE
    assert next_size(INPUT_SIZE, 640) is None  # no finer than the photo itself
    assert next_size(MAX_SIZE, 4000) is None


def test_a_wide_shot_of_a_table_is_read_at_the_size_its_indices_need() -> None:
    # a 1280×960 drawn table of four melds whose indices are a few dozen pixels: at the
    # fixed 384 they shrink below what the detector learnt and most cards are lost; read at
    # the size chosen from a first look, every card with an index in view is read
    import cv2

    from vision.recognize import read_table
    from vision.synth import scene

    groups = [["5H", "6H", "7H", "8H"], ["KS", "KD", "KC"], ["9C", "10C", "JC", "QC"], ["2D", "2S", "2H"]]
    image, cards = scene(np.random.default_rng(2), (1280, 960), groups, scale=0.34, per_row=2)
    image = cv2.GaussianBlur(image, (3, 3), 0.7)
    want = {c.card for c in cards if c.visible_indices}
    chosen = [c.card for c in read_table(image).cards if c.readable]
    fixed = [c.card for c in read_table(image, size=INPUT_SIZE).cards if c.readable]
    # every card with an index in view, and nothing that is not on the table (a card the
    # drawing counts as covered may show enough of an index to be read)
    assert want <= set(chosen) <= {c.card for c in cards}
    assert len(chosen) == len(set(chosen))
    assert len(fixed) < len(want) / 2


def _four_corner_scene(seed: int) -> tuple[np.ndarray, list]:  # type: ignore[type-arg]
    """A drawn 960×720 table of three cards (4S, 9H, QD) of a deck with an index in every corner."""
    from vision.deck_styles import DeckStyle, styled_face
    from vision.synth import scene

    red, black = (30, 25, 200), (25, 25, 25)
    style = DeckStyle("standard", (235, 242, 246), {"H": red, "D": red, "S": black, "C": black},
                      None, 0, 38.0, 2, 4)
    return scene(np.random.default_rng(seed), (960, 720), [["4S"], ["9H"], ["QD"]],
                 draw=lambda card, rng: styled_face(card, style, rng), scale=0.8)


def test_a_deck_printed_with_four_corner_indices_is_counted_once_a_card() -> None:
    # three cards of a deck with an index in every corner, read by the whole recognizer:
    # without the four-corner rule some are counted twice (two diagonals, two cards)
    from vision.recognize import read_table

    doubled = 0
    for seed in (0, 2):
        image, cards = _four_corner_scene(seed)
        assert sorted(c.card for c in cards if c.visible_indices) == ["4S", "9H", "QD"]
        assert sorted(c.card for c in read_table(image).cards if c.readable) == ["4S", "9H", "QD"]
        off = read_table(image, params=replace(DEFAULT_PARAMS, corner_side=0))
        doubled += sum(c.readable for c in off.cards) - 3
    assert doubled > 0


def test_a_deck_of_light_ink_on_black_cards_is_read_as_it_lies() -> None:
    # the detector learnt light-on-dark decks among its drawn designs: it reads these on the
    # photo itself, and the peaks of the photo's negative add no second card
    from vision.deck_styles import DeckStyle, styled_face
    from vision.recognize import read_table
    from vision.synth import scene

    light, warm = (235, 235, 235), (110, 110, 250)
    style = DeckStyle("light-on-dark", (28, 24, 22), {"H": warm, "D": warm, "S": light, "C": light},
                      None, 1, 40.0, 2, 2)
    for seed in (1, 2):
        image, cards = scene(np.random.default_rng(seed), (960, 720), [["4S", "5S", "6S"], ["KH", "KC"]],
                             draw=lambda card, rng: styled_face(card, style, rng), scale=0.7)
        want = sorted(c.card for c in cards if c.visible_indices)
        assert want == ["4S", "5S", "6S", "KC", "KH"]
        assert sorted(c.card for c in read_table(image, negative_score=1.0).cards if c.readable) == want
        assert sorted(c.card for c in read_table(image, negative_score=0.3).cards if c.readable) == want


def test_an_index_found_in_the_photo_and_in_its_negative_is_one_detection() -> None:
    # a four-corner deck's queen of diamonds: at the default size the photo's own peak on its
    # lower-left index is weak and its negative's firmer (0.39 and 0.45 on most processors,
    # 0.412 and 0.418 on one with AVX-512's kernels); with the negative's bar between them,
    # the two are one index
    from vision.detector import detect, detect_both

    image, _ = _four_corner_scene(0)

    def near(found: list[Detection]) -> list[Detection]:
        return [d for d in found if d.kind == "index" and 700 < d.x < 800 and 500 < d.y < 620]

    (own,) = near(detect(image, 0.1))
    (negative,) = near(detect(255 - image, 0.3))
    bar = (own.score + negative.score) / 2
    (both,) = near(detect_both(image, 0.1, negative_score=bar))
    assert both.label == "QD" and both.score == max(own.score, negative.score)
    if own.score < negative.score:  # the negative's peak clears the bar and joins the photo's own
        assert np.allclose(both.probs, (own.score * own.probs + negative.score * negative.probs)
                           / (own.score + negative.score))
    else:  # the photo's own is the firm one: the negative's peak is not taken at all
        assert np.array_equal(both.probs, own.probs)
