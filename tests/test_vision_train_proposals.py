"""Labelling the detector's own boxes as classifier training crops (``vision.train.crops``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import vision.detector
from vision.detector import Detection
from vision.labels import card_class
from vision.train.crops import BACKGROUND, add_proposals, off_cards
from vision.train.dataset import Photo


def _peak(kind: str, x: float, y: float, half: float = 10.0) -> Detection:
    return Detection(kind, x, y, (x - half, y - half, x + half, y + half), 0.5, np.zeros(3))


def _ranks_photo() -> Photo:
    # one card labelled as a whole (centre 100, 150; 80 by 120), its indices not labelled
    return Photo("ranks", np.zeros((300, 400, 3), np.uint8), [], [(100.0, 150.0, 80.0, 120.0, card_class("7"))],
                 [], has_indices=False, has_cards=True)


def test_a_point_is_off_the_cards_only_beyond_the_grown_box() -> None:
    photo = _ranks_photo()
    assert not off_cards(100, 150, photo)           # the card's middle
    assert not off_cards(143, 150, photo)           # just past its edge, inside the margin
    assert off_cards(150, 150, photo)               # beyond the margin
    assert off_cards(100, 20, photo)                # above it
    assert off_cards(5, 5, Photo("empty", photo.image, [], [], [], False, True))


def test_index_boxes_off_every_card_become_background_on_card_labelled_photos(
        monkeypatch: pytest.MonkeyPatch) -> None:
    photo = _ranks_photo()
    peaks = [_peak("index", 70, 100),    # on the card: its index, but which one is not labelled
             _peak("index", 300, 40),    # printed matter beside the card
             _peak("card", 100, 150, 50)]
    monkeypatch.setattr(vision.detector, "detect", lambda image, threshold, weights: peaks)
    assert add_proposals([photo], Path("unused.onnx")) == 2
    kinds = {(k, tuple(round(v) for v in box), label) for k, box, label in photo.proposals}
    assert ("index", (290, 30, 310, 50), BACKGROUND) in kinds
    assert ("card", (50, 100, 150, 200), card_class("7")) in kinds
    assert not any(box[0] == 60 for _, box, _ in photo.proposals)  # the unknown index is left out


def test_photos_without_card_labels_give_no_unlabelled_index_crops(monkeypatch: pytest.MonkeyPatch) -> None:
    photo = Photo("bare", np.zeros((100, 100, 3), np.uint8), [], [], [], False, False)
    monkeypatch.setattr(vision.detector, "detect", lambda image, threshold, weights: [_peak("index", 50, 50)])
    assert add_proposals([photo], Path("unused.onnx")) == 0
    assert photo.proposals == []


def test_an_index_box_on_a_labelled_back_is_no_crop(monkeypatch: pytest.MonkeyPatch) -> None:
    photo = _ranks_photo()
    photo.backs.append((300.0, 200.0, 60.0, 90.0))
    monkeypatch.setattr(vision.detector, "detect", lambda image, threshold, weights: [_peak("index", 310, 210)])
    assert add_proposals([photo], Path("unused.onnx")) == 0
