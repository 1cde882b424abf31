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


def test_a_fitted_head_corrects_a_decks_steady_confusion_and_leaves_the_rest() -> None:
    # a deck whose clubs the classifier reads as 60% spades, 40% clubs: the photos say clubs
    from vision.enroll import apply_head, fit_head

    rng = np.random.default_rng(0)
    k = len(INDEX_CLASSES)
    reads, labels = [], []
    for card in ("2C", "7C", "KC", "5H", "9D"):
        right = INDEX_CLASSES.index(card)
        wrong = INDEX_CLASSES.index(card[:-1] + "S") if card.endswith("C") else right
        for _ in range(4):
            p = np.full(k, 0.002) + rng.uniform(0, 0.001, k)
            p[wrong] += 0.6
            p[right] += 0.4
            reads.append(p / p.sum())
            labels.append(right)
    head = fit_head(np.stack(reads), np.array(labels))
    assert head.shape == (k, k)
    out = apply_head(head, np.stack(reads))
    assert all(int(np.argmax(o)) == y for o, y in zip(out, labels, strict=True))
    # a read the photos never contradicted keeps its card, and a read of nothing stays nothing
    sure = np.full(k, 0.001)
    sure[INDEX_CLASSES.index("QH")] = 1.0
    assert INDEX_CLASSES[int(np.argmax(apply_head(head, sure[None])[0]))] == "QH"
    flat = apply_head(head, np.full((1, k), 1.0 / k))[0]
    assert np.allclose(flat, 1.0 / k, atol=1e-6)


def test_enrolling_real_drawn_photos_fits_a_head_that_survives_a_save(tmp_path: Path) -> None:
    faces = {c: draw_face(c, np.random.default_rng(11)) for c in ("QH", "9S", "4D", "AC")}
    deck = enroll([(c, f.image) for c, f in faces.items()])
    assert deck.head is not None and deck.head.shape == (len(INDEX_CLASSES), len(INDEX_CLASSES))
    path = tmp_path / "deck.npz"
    deck.save(path)
    back = DeckTemplates.load(path)
    assert back.head is not None and np.array_equal(back.head, deck.head)


def test_a_deck_file_with_a_broken_head_is_refused_by_name(tmp_path: Path) -> None:
    import pytest

    from vision.errors import VisionError

    path = tmp_path / "deck.npz"
    np.savez(path, cards=np.array(["QH"]), patches=np.zeros((1, 32, 32), np.float32),
             head=np.zeros((3, 3), np.float32))
    with pytest.raises(VisionError, match="head must be"):
        DeckTemplates.load(path)
    np.savez(path, cards=np.array(["QH"]), patches=np.zeros((1, 32, 32), np.float32),
             head=np.full((len(INDEX_CLASSES),) * 2, np.nan, np.float32))
    with pytest.raises(VisionError, match="not numbers"):
        DeckTemplates.load(path)
