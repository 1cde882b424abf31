"""The crop stage: indices and cards are cut out upright at a fixed size for the classifiers."""

from __future__ import annotations

import numpy as np

from vision.classifier import CARD_H, CARD_W, CROP_H, CROP_W, crop_card, crop_index
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
