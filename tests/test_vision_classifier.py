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
