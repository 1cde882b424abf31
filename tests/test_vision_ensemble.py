"""The shipped index classifier is two classifiers joined (``vision.train.ensemble``): taken
apart and joined again it is the same model, and it reads crops as the mean of its two."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest

from vision.classifier import CROP_H, CROP_W, DEFAULT_CLASSIFIER, classify_crops
from vision.inference import load_network
from vision.tiles import draw_tile
from vision.train.ensemble import join, members, part


def test_the_joined_classifier_reads_as_the_mean_of_its_two(tmp_path: Path) -> None:
    joined = onnx.load(str(DEFAULT_CLASSIFIER))
    paths = []
    for which in (0, 1):
        path = tmp_path / f"part{which}.onnx"
        onnx.save(part(joined, which), str(path))
        paths.append(path)
    rng = np.random.default_rng(3)
    crops = [rng.integers(0, 255, (48, 32, 3)).astype(np.uint8) for _ in range(4)]
    crops.append(np.ascontiguousarray(draw_tile("K7", scale=0.6)[:48, :32]))
    first, second = (classify_crops(crops, p) for p in paths)
    assert not np.allclose(first, second, atol=1e-3)   # two different networks
    mean = classify_crops(crops, DEFAULT_CLASSIFIER)
    assert np.allclose(mean, (first + second) / 2, atol=1e-5)
    again = tmp_path / "again.onnx"
    onnx.save(join(onnx.load(str(paths[0])), onnx.load(str(paths[1]))), str(again))
    assert np.allclose(classify_crops(crops, again), mean, atol=1e-6)


def test_three_joined_read_as_their_mean_on_both_backends_and_come_apart_again(tmp_path: Path) -> None:
    joined = onnx.load(str(DEFAULT_CLASSIFIER))
    parts = [part(joined, 0), part(joined, 1), part(joined, 0)]
    three = join(*parts)
    assert members(three) == 3 and members(joined) == 2
    path = tmp_path / "three.onnx"
    onnx.save(three, str(path))
    batch = np.random.default_rng(5).integers(0, 256, (4, 3, CROP_H, CROP_W)).astype(np.float32)
    fast = load_network(path, "onnxruntime")(batch)
    plain = load_network(path, "opencv")(batch)
    np.testing.assert_allclose(fast, plain, atol=1e-3)
    # (2a + b) / 3 of the two shipped classifiers' probabilities
    alone = []
    for which in (0, 1):
        single = tmp_path / f"single{which}.onnx"
        onnx.save(part(joined, which), str(single))
        logits = load_network(single, "onnxruntime")(batch)
        alone.append(np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(np.exp(fast), (2 * alone[0] + alone[1]) / 3, atol=1e-5)
    # each member comes back out whole; a member it lacks, or too few to join, is an error
    again = tmp_path / "again.onnx"
    onnx.save(part(three, 2), str(again))
    np.testing.assert_allclose(load_network(again, "onnxruntime")(batch),
                               load_network(tmp_path / "single0.onnx", "onnxruntime")(batch), atol=1e-6)
    with pytest.raises(ValueError, match="3 classifiers"):
        part(three, 3)
    with pytest.raises(ValueError, match="2 to"):
        join(parts[0])
