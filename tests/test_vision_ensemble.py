"""The shipped index classifier is two classifiers joined (``vision.train.ensemble``): taken
apart and joined again it is the same model, and it reads crops as the mean of its two."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx

from vision.classifier import DEFAULT_CLASSIFIER, classify_crops
from vision.tiles import draw_tile
from vision.train.ensemble import join, part


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
