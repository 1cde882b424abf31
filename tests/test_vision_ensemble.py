"""Crop classifiers joined into one (``vision.train.ensemble``): the shipped index classifier
and a copy with its weights nudged, joined, read crops as the mean of the two, and taken
apart and joined again are the same model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnx.numpy_helper
import pytest

from vision.classifier import CROP_H, CROP_W, DEFAULT_CLASSIFIER, classify_crops
from vision.inference import load_network
from vision.tiles import draw_tile
from vision.train.ensemble import join, members, part


def _nudged(model: onnx.ModelProto, seed: int) -> onnx.ModelProto:
    """A copy of ``model`` with every weight moved by a little noise: another network."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    rng = np.random.default_rng(seed)
    for init in out.graph.initializer:
        values = onnx.numpy_helper.to_array(init)
        if values.dtype == np.float32 and values.size > 1:
            moved = values + rng.normal(0, 0.05, values.shape).astype(np.float32) * (np.abs(values).mean() + 1e-6)
            init.CopyFrom(onnx.numpy_helper.from_array(moved.astype(np.float32), init.name))
    return out


def _joined(tmp_path: Path) -> tuple[onnx.ModelProto, Path]:
    shipped = onnx.load(str(DEFAULT_CLASSIFIER))
    assert members(shipped) == 0  # one network, not joined
    joined = join(shipped, _nudged(shipped, 1))
    path = tmp_path / "joined.onnx"
    onnx.save(joined, str(path))
    return joined, path


def test_the_joined_classifier_reads_as_the_mean_of_its_two(tmp_path: Path) -> None:
    joined, joined_path = _joined(tmp_path)
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
    mean = classify_crops(crops, joined_path)
    assert np.allclose(mean, (first + second) / 2, atol=1e-5)
    again = tmp_path / "again.onnx"
    onnx.save(join(onnx.load(str(paths[0])), onnx.load(str(paths[1]))), str(again))
    assert np.allclose(classify_crops(crops, again), mean, atol=1e-6)


def test_three_joined_read_as_their_mean_on_both_backends_and_come_apart_again(tmp_path: Path) -> None:
    joined, _ = _joined(tmp_path)
    parts = [part(joined, 0), part(joined, 1), part(joined, 0)]
    three = join(*parts)
    assert members(three) == 3 and members(joined) == 2
    path = tmp_path / "three.onnx"
    onnx.save(three, str(path))
    batch = np.random.default_rng(5).integers(0, 256, (4, 3, CROP_H, CROP_W)).astype(np.float32)
    fast = load_network(path, "onnxruntime")(batch)
    plain = load_network(path, "opencv")(batch)
    np.testing.assert_allclose(fast, plain, atol=1e-3)
    # (2a + b) / 3 of the two classifiers' probabilities
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
