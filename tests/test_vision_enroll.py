"""Deck enrolment: templates from photos of known cards sharpen the detector's reading."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.detector import Detection
from vision.enroll import DeckTemplates, enroll, index_patch
from vision.labels import INDEX_CLASSES
from vision.synth import draw_face


def _face_detections(face_indices: tuple, probs: np.ndarray) -> list[Detection]:
    out = []
    for x0, y0, x1, y1 in face_indices:
        out.append(Detection("index", (x0 + x1) / 2, (y0 + y1) / 2, (x0, y0, x1, y1), 0.9, probs))
    return out


def test_enrolled_deck_turns_an_unsure_read_into_the_right_card(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    flat = np.full(len(INDEX_CLASSES), 1.0 / len(INDEX_CLASSES))
    faces = {c: draw_face(c, np.random.default_rng(7)) for c in ("QH", "9S", "4D")}

    def fake_detect(image: np.ndarray) -> list[Detection]:
        face = next(f for f in faces.values() if f.image is image)
        return _face_detections(face.indices, flat)

    deck = enroll([(c, f.image) for c, f in faces.items()], fake_detect)
    assert sorted(set(deck.cards)) == ["4D", "9S", "QH"]
    path = tmp_path / "deck.npz"
    deck.save(path)
    deck = DeckTemplates.load(path)
    # The same deck drawn again (same style), upside down: still matched.
    face = draw_face("9S", np.random.default_rng(7))
    turned = np.ascontiguousarray(face.image[::-1, ::-1])
    h, w = turned.shape[:2]
    x0, y0, x1, y1 = face.indices[0]
    box = (w - x1, h - y1, w - x0, h - y0)
    refined = deck.refine(turned, [Detection("index", 0, 0, box, 0.9, flat)])
    assert refined[0].label == "9S"
    assert index_patch(turned, (0, 0, 2, 2)) is None
    _ = rng
