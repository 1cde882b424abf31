"""Index boxes sized again by the box network (``vision.index_boxes``): the targets it is taught
in its crop's frame, the shipped network on drawn indices, and how the reader uses it."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.classifier import crop_index, zoom_box
from vision.detector import Detection
from vision.index_boxes import (
    CONTEXT,
    DEFAULT_BOXES,
    MAX_CHANGE,
    crop_target,
    fit_boxes,
    fitted_boxes,
    from_crop,
)
from vision.labels import INDEX_CLASSES
from vision.recognize import read_table
from vision.synth import scene
from vision.train.box_crops import SIZE_JITTER, background_boxes, box_crops
from vision.train.dataset import Photo


def _index(box: tuple[float, float, float, float], kind: str = "index") -> Detection:
    probs = np.full(len(INDEX_CLASSES), 1.0 / len(INDEX_CLASSES))
    return Detection(kind, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, box, 0.9, probs)


@pytest.mark.parametrize("seen", [(100.0, 50.0, 140.0, 110.0), (100.0, 50.0, 180.0, 80.0)])
def test_a_box_comes_back_from_its_target(seen: tuple[float, float, float, float]) -> None:
    index = (112.0, 58.0, 131.0, 91.0)
    back = from_crop(seen, np.array(crop_target(seen, index)))
    assert back == pytest.approx(index, abs=1e-6)


@pytest.mark.parametrize("seen", [(40.0, 30.0, 100.0, 120.0), (30.0, 40.0, 120.0, 100.0)])
def test_the_target_is_where_the_index_shows_in_the_crop(seen: tuple[float, float, float, float]) -> None:
    # a bright square drawn at the true index: the crop (turned a quarter when the box is
    # wide) shows it where the target says, as shares of the crop from its middle
    image = np.zeros((200, 200, 3), np.uint8)
    index = (75.0, 85.0, 95.0, 105.0)
    cv2.rectangle(image, (75, 85), (94, 104), (255, 255, 255), -1)
    crop = crop_index(image, seen)
    ys, xs = np.nonzero(crop[..., 0] > 128)
    h, w = crop.shape[:2]
    # crop_index adds a margin around the box it is given, so the shares are of the box
    # within the crop: 1 / (1 + 2 * margin) of it
    from vision.classifier import CROP_MARGIN
    inner = 1.0 / (1.0 + 2 * CROP_MARGIN)
    shown_x = ((xs.mean() + 0.5) / w - 0.5) / inner
    shown_y = ((ys.mean() + 0.5) / h - 0.5) / inner
    target = crop_target(seen, index)
    assert shown_x == pytest.approx(target[0], abs=0.03)
    assert shown_y == pytest.approx(target[1], abs=0.03)
    assert (target[0] > 0.1) != (seen[2] - seen[0] > seen[3] - seen[1])  # the turn moved it


def test_the_training_targets_follow_the_jitter() -> None:
    image = np.full((300, 300, 3), 200, np.uint8)
    photo = Photo("one", image, [(150.0, 150.0, 20.0, 32.0, 0)], [], [], True, False)
    _, targets = box_crops([photo], np.random.default_rng(3), per_index=600, background=0)
    # the index's log size over the grown box: -log(CONTEXT) less the jitter's
    assert targets[:, 2:].mean() == pytest.approx(-math.log(CONTEXT), abs=0.03)
    assert targets[:, 2:].std() == pytest.approx(SIZE_JITTER, rel=0.15)
    # offsets both ways (half of the crops are turned half round, with their offsets)
    assert abs(targets[:, :2].mean()) < 0.02 and targets[:, :2].std() > 0.03


def test_boxes_on_no_index_are_taught_to_stay_as_they_are() -> None:
    image = np.full((400, 400, 3), 200, np.uint8)
    indices = [(100.0, 100.0, 20.0, 32.0, 0), (300.0, 300.0, 20.0, 32.0, 5)]
    partial = [(300.0, 100.0, 20.0, 32.0, 7, 0.6, 0.4)]
    photo = Photo("two", image, indices, [], [], True, False, partial=partial)
    boxes = background_boxes(photo, np.random.default_rng(5), 40)
    assert len(boxes) >= 20
    for x0, y0, x1, y1 in boxes:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        assert all(max(abs(cx - ix), abs(cy - iy)) > 20 for ix, iy, *_ in (*indices, *partial))
    _, targets = box_crops([photo], np.random.default_rng(5), per_index=0, background=10)
    assert len(targets) == 10
    assert np.allclose(targets[:, :2], 0.0, atol=1e-6)
    assert np.allclose(targets[:, 2:], -math.log(CONTEXT), atol=1e-6)
    # a photo labelled with whole cards only: no box on a card, whose indices are not labelled
    cards = Photo("ranks", image, [], [(200.0, 200.0, 120.0, 170.0, 3)], [], False, True)
    for x0, y0, x1, y1 in background_boxes(cards, np.random.default_rng(6), 30):
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        assert abs(cx - 200) > 60 or abs(cy - 200) > 85


def test_no_network_leaves_the_boxes_alone() -> None:
    dets = [_index((10, 10, 30, 40)), _index((50, 50, 150, 200), "card")]
    image = np.zeros((240, 240, 3), np.uint8)
    assert fit_boxes(image, dets, None) == dets
    assert fit_boxes(image, dets, DEFAULT_BOXES.with_name("missing.onnx")) == dets


#: The drawn cards of ``_drawn_indices``, every one with an index showing.
DRAWN = ("7H", "QS", "10D", "AC", "KD")


def _drawn_indices() -> tuple[np.ndarray, list[tuple[float, float, float, float]]]:
    rng = np.random.default_rng(6)
    image, cards = scene(rng, (640, 480), [list(DRAWN[:3]), list(DRAWN[3:])])
    assert sorted(c.card for c in cards if c.visible_indices) == sorted(DRAWN)
    boxes = [b for c in cards for b in c.visible_indices]
    assert len(boxes) >= 5
    return image, boxes


def _log_error(boxes: list[tuple[float, ...]], truth: list[tuple[float, ...]]) -> float:
    return float(np.median([abs(math.log((b[2] - b[0]) / (t[2] - t[0]))) + abs(math.log((b[3] - b[1]) / (t[3] - t[1])))
                            for b, t in zip(boxes, truth, strict=True)]))


@pytest.mark.parametrize("factor", [1.6, 0.65])
def test_the_network_sizes_boxes_too_big_or_too_small_nearer_the_index(factor: float) -> None:
    image, truth = _drawn_indices()
    off = [zoom_box(b, factor) for b in truth]
    fitted = fitted_boxes(image, off)
    assert _log_error(fitted, truth) < 0.5 * _log_error(off, truth)


def test_a_box_only_sized_keeps_its_centre_and_stays_within_bounds() -> None:
    image, truth = _drawn_indices()
    dets = [_index(zoom_box(b, 1.6)) for b in truth]
    fitted = fit_boxes(image, dets, move=False)
    for d, f in zip(dets, fitted, strict=True):
        assert (f.x, f.y) == (d.x, d.y)
        assert (f.box[0] + f.box[2]) / 2 == pytest.approx(d.x) and (f.box[1] + f.box[3]) / 2 == pytest.approx(d.y)
        ratio = (f.box[2] - f.box[0]) / (d.box[2] - d.box[0])
        assert 1 / MAX_CHANGE - 1e-9 <= ratio <= MAX_CHANGE + 1e-9
        assert f.box != d.box
    # as the reader fits them: placed where the network sees the index too, nearer its centre
    moved = fit_boxes(image, dets)
    assert any((m.x, m.y) != (d.x, d.y) for m, d in zip(moved, dets, strict=True))
    for m in moved:
        assert (m.box[0] + m.box[2]) / 2 == pytest.approx(m.x) and (m.box[1] + m.box[3]) / 2 == pytest.approx(m.y)


def test_the_reader_reads_a_drawn_table_with_and_without_the_box_network() -> None:
    image, _ = _drawn_indices()
    with_boxes = read_table(image, pieces="cards")
    without = read_table(image, pieces="cards", box_weights=None)
    assert sorted(c.card for c in with_boxes.cards) == sorted(DRAWN)
    assert sorted(c.card for c in without.cards) == sorted(DRAWN)
    # the boxes the reading reports are the fitted ones, not the detector's
    assert [c.indices for c in with_boxes.cards] != [c.indices for c in without.cards]


def test_whole_cards_pass_through_as_they_are() -> None:
    image, truth = _drawn_indices()
    card = _index((50, 50, 150, 200), "card")
    index = _index(zoom_box(truth[0], 1.6))
    fitted = fit_boxes(image, [card, index, card])
    assert fitted[0] is card and fitted[2] is card
    assert fitted[1].box != index.box


def test_the_one_command_trains_the_box_network_before_the_8_bit_copies() -> None:
    from pathlib import Path

    from vision.train.__main__ import STAGES, parser, stages  # imports without the training extra

    planned = dict(stages(parser().parse_args(["--out", "w", "--seed", "2"])))
    argv = planned["boxes"]
    assert argv[:2] == ["vision.train.train_boxes", "--out"]
    assert argv[argv.index("--out") + 1] == str(Path("w") / DEFAULT_BOXES.name)
    assert argv[argv.index("--seed") + 1] == "2" and "--background" not in argv
    # the copies' ranges are measured on the crops the fitted boxes frame
    assert list(STAGES).index("boxes") < list(STAGES).index("int8")


def test_boxes_fitted_once_an_image_are_taken_from_the_cache() -> None:
    image, truth = _drawn_indices()
    cache: dict[tuple[object, ...], np.ndarray] = {}
    first = fitted_boxes(image, truth[:3], cache=cache)
    assert len(cache) == 3
    # the cached outputs are used as they are: a black image would fit other boxes
    again = fitted_boxes(np.zeros_like(image), truth[:3], cache=cache)
    assert again == first
    fitted_boxes(image, truth[:4], cache=cache)
    assert len(cache) == 4


def test_a_second_pass_fits_the_first_pass_s_boxes_again() -> None:
    image, truth = _drawn_indices()
    dets = [_index(zoom_box(b, 1.6)) for b in truth]
    once = fit_boxes(image, dets, passes=1)
    cache: dict[tuple[object, ...], np.ndarray] = {}
    twice = fit_boxes(image, dets, passes=2, cache=cache)
    # the network was shown the detector's boxes, then the boxes it gave for them
    assert len(cache) == 2 * len(dets)
    assert all(("box", str(DEFAULT_BOXES), o.box) in cache for o in once)
    assert twice != once
    start = _log_error([d.box for d in dets], truth)
    assert _log_error([t.box for t in twice], truth) < 0.5 * start
    assert _log_error([o.box for o in once], truth) < 0.5 * start
