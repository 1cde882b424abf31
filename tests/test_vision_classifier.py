"""The crop stage: indices and cards are cut out upright at a fixed size for the classifiers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.classifier import CARD_H, CARD_W, CROP_H, CROP_W, crop_card, crop_index, crop_size
from vision.errors import VisionError
from vision.synth import draw_face


def test_index_crop_is_upright_and_fixed_size() -> None:
    face = draw_face("7D", np.random.default_rng(2))
    crop = crop_index(face.image, face.indices[0])
    assert crop.shape == (CROP_H, CROP_W, 3)
    # a card lying sideways: its index box is wider than tall and is turned back upright
    sideways = np.ascontiguousarray(np.rot90(face.image, 1))
    x0, y0, x1, y1 = face.indices[0]
    h = face.image.shape[0]
    turned = crop_index(sideways, (y0, face.image.shape[1] - x1, y1, face.image.shape[1] - x0))
    assert turned.shape == (CROP_H, CROP_W, 3)
    assert h > 0


def test_card_crop_is_portrait() -> None:
    img = np.zeros((100, 300, 3), np.uint8)
    assert crop_card(img, (10, 10, 200, 90)).shape == (CARD_H, CARD_W, 3)
    assert crop_card(img, (10, 5, 60, 95)).shape == (CARD_H, CARD_W, 3)


def test_index_crop_size_comes_from_the_file_beside_the_weights(tmp_path: Path) -> None:
    weights = tmp_path / "indexnet.onnx"
    assert crop_size(weights) == (CROP_W, CROP_H)
    (tmp_path / "indexnet.json").write_text('{"crop": [32, 56]}')
    assert crop_size(weights) == (32, 56)
    face = draw_face("QS", np.random.default_rng(3))
    assert crop_index(face.image, face.indices[0], (32, 56)).shape == (56, 32, 3)
    broken = tmp_path / "broken.onnx"
    (tmp_path / "broken.json").write_text('{"size": 3}')
    with pytest.raises(VisionError, match="broken.json"):
        crop_size(broken)


def test_an_index_crop_the_classifier_doubts_loses_score() -> None:
    from vision.classifier import _reread
    from vision.detector import Detection
    from vision.labels import INDEX_CLASSES

    n = len(INDEX_CLASSES)
    d = Detection("index", 10, 10, (0, 0, 20, 30), 0.8, np.full(n, 1 / n))
    sure = np.full(n + 1, 0.0)
    sure[3] = 0.9
    sure[-1] = 0.1
    doubt = sure.copy()
    doubt[3], doubt[-1] = 0.6, 0.4
    dropped = doubt.copy()
    dropped[3], dropped[-1] = 0.4, 0.6
    out = _reread([d, d, d], "index", np.stack([sure, doubt, dropped]), 0.5, 0.0, 2.0)
    assert len(out) == 2
    assert out[0].score == pytest.approx(0.8 * 0.9 ** 2)
    assert out[1].score == pytest.approx(0.8 * 0.6 ** 2)
    assert int(np.argmax(out[0].probs)) == 3 and out[0].probs.sum() == pytest.approx(1.0)


def test_whole_card_boxes_come_from_a_card_s_two_labelled_corners() -> None:
    from vision.labels import CARD_CLASSES, index_class
    from vision.train.dataset import cards_from_corner_pairs

    q, k = index_class("QH"), index_class("7C")
    # QH: upright corners at (100, 100) and (300, 400); 7C far to the right
    found = [(100.0, 100.0, 20.0, 40.0, q), (300.0, 400.0, 20.0, 40.0, q),
             (600.0, 100.0, 20.0, 40.0, k), (800.0, 400.0, 20.0, 40.0, k)]
    cards = cards_from_corner_pairs(found)
    assert cards is not None
    (cx, cy, w, h, rank), (_, _, _, _, other) = cards
    assert CARD_CLASSES[rank] == "Q" and CARD_CLASSES[other] == "7"
    assert (cx, cy) == (200.0, 250.0)
    assert w == pytest.approx(220 + 2 * 6) and h == pytest.approx(340 + 2 * 6)
    # a card showing one corner only, or two corners too close to be opposite: no card boxes
    assert cards_from_corner_pairs(found[:3]) is None
    assert cards_from_corner_pairs([(100.0, 100.0, 20.0, 40.0, q), (130.0, 100.0, 20.0, 40.0, q)]) is None


def test_an_unsure_index_is_read_both_ways_and_the_reads_averaged(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.classifier as C
    from vision.detector import Detection
    from vision.labels import INDEX_CLASSES

    n = len(INDEX_CLASSES)
    image = np.zeros((100, 100, 3), np.uint8)
    image[:50] = 255  # the upper half light: the crop's first row tells which way it was read
    d = Detection("index", 50, 50, (40, 35, 60, 65), 0.8, np.full(n, 1 / n))
    sureness = {"value": 0.6}
    calls: list[int] = []

    def fake(crops: list[np.ndarray], weights: Path, n_out: int = n + 1) -> np.ndarray:
        calls.append(len(crops))
        out = np.zeros((len(crops), n + 1))
        for row, crop in zip(out, crops, strict=True):
            row[INDEX_CLASSES.index("6H" if crop[0].mean() > 128 else "9H")] = sureness["value"]
            row[-1] = 1.0 - sureness["value"]
        return out

    monkeypatch.setattr(C, "classify_crops", fake)
    weights = Path(C.__file__).with_name("weights") / "indexnet.onnx"
    one = C.refine_indices(image, [d], weights, both_ways=False, zooms=())[0]
    both = C.refine_indices(image, [d], weights, zooms=())[0]
    assert one.probs[INDEX_CLASSES.index("6H")] == pytest.approx(1.0)
    assert both.probs[INDEX_CLASSES.index("6H")] == pytest.approx(0.5)
    assert both.probs[INDEX_CLASSES.index("9H")] == pytest.approx(0.5)
    # a first read sure enough is not read turned: one crop, not two
    sureness["value"] = 0.95
    calls.clear()
    sure = C.refine_indices(image, [d], weights, zooms=())[0]
    assert calls == [1] and sure.probs[INDEX_CLASSES.index("6H")] == pytest.approx(1.0)
    calls.clear()
    every = C.refine_indices(image, [d], weights, zooms=(), turn_unsure=1.01)[0]
    assert calls == [1, 1] and every.probs[INDEX_CLASSES.index("6H")] == pytest.approx(0.5)


def test_reads_kept_in_a_cache_are_not_made_again(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.classifier as C
    from vision.detector import Detection
    from vision.labels import INDEX_CLASSES

    n = len(INDEX_CLASSES)
    image = np.full((100, 100, 3), 200, np.uint8)
    found = [Detection("index", 50, 50, (40, 35, 60, 65), 0.8, np.full(n, 1 / n)),
             Detection("index", 20, 20, (10, 5, 30, 35), 0.8, np.full(n, 1 / n))]
    calls: list[int] = []

    def fake(crops: list[np.ndarray], weights: Path, n_out: int = n + 1) -> np.ndarray:
        calls.append(len(crops))
        out = np.zeros((len(crops), n + 1))
        out[:, INDEX_CLASSES.index("QS")] = 0.5
        out[:, -1] = 0.5
        return out

    monkeypatch.setattr(C, "classify_crops", fake)
    weights = Path(C.__file__).with_name("weights") / "indexnet.onnx"
    cache: C.Reads = {}
    first = C.refine_indices(image, found, weights, cache=cache)
    made = sum(calls)
    assert made == 2 * 2 * (1 + len(C.ZOOMS))  # two indices, both ways, each box and its zooms
    again = C.refine_indices(image, found, weights, cache=cache, sharpest=True)
    assert sum(calls) == made  # the second look at the same peaks made no new read
    assert [d.label for d in again] == [d.label for d in first] == ["QS", "QS"]
    C.refine_indices(image, found[:1], weights, cache=cache, turn_unsure=0.4)
    assert sum(calls) > made  # read another way: not taken from the cache


def test_an_unsure_index_is_read_in_the_other_lightness_and_the_surer_read_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.classifier as C
    from vision.detector import Detection
    from vision.labels import INDEX_CLASSES

    n = len(INDEX_CLASSES)
    image = np.full((100, 100, 3), 30, np.uint8)  # a dark card: its negative is pale
    d = Detection("index", 50, 50, (40, 35, 60, 65), 0.8, np.full(n, 1 / n))
    calls: list[str] = []

    def fake(crops: list[np.ndarray], weights: Path, n_out: int = n + 1) -> np.ndarray:
        out = np.zeros((len(crops), n + 1))
        for row, crop in zip(out, crops, strict=True):
            pale = crop.mean() > 128
            calls.append("pale" if pale else "dark")
            row[INDEX_CLASSES.index("7C")] = 0.9 if pale else 0.3  # read surely only when pale
            row[INDEX_CLASSES.index("7S")] = 0.0 if pale else 0.4
            row[-1] = 1.0 - row[:-1].sum()
        return out

    monkeypatch.setattr(C, "classify_crops", fake)
    weights = Path(C.__file__).with_name("weights") / "indexnet.onnx"
    off = C.refine_indices(image, [d], weights, zooms=(), negative_unsure=0.0)[0]
    assert off.label == "7S" and "pale" not in calls
    on = C.refine_indices(image, [d], weights, zooms=(), negative_unsure=0.7)[0]
    assert on.label == "7C" and on.probs.max() == pytest.approx(1.0)
    # a read already sure enough is not read again
    calls.clear()
    C.refine_indices(image, [d], weights, zooms=(), negative_unsure=0.2)
    assert "pale" not in calls

