"""Cards cut out of enrolment photos, and a deck file that carries its own detector and index
classifier."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.enroll as enroll_module
from vision.card_faces import cut_face, enrolled_faces, find_card, index_box
from vision.classifier import DEFAULT_CLASSIFIER
from vision.deck_styles import random_style, styled_face
from vision.detector import DEFAULT_WEIGHTS
from vision.enroll import DeckTemplates, enroll
from vision.errors import VisionError
from vision.inference import int8_copy, load_network, recording
from vision.recognize import read_table
from vision.synth import CARD_H, CARD_W, draw_face, scene


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


@pytest.mark.parametrize("kind", ["standard", "light-on-dark"])
def test_a_card_photographed_alone_is_cut_out_and_its_indices_land_where_they_were_drawn(kind: str) -> None:
    rng = np.random.default_rng(4)
    style = random_style(rng, held_out=True, kind=kind)
    found = 0
    for card in ("7H", "KS", "3D", "QC", "9S", "5H"):
        image, cards = scene(rng, (640, 480), [[card]], draw=lambda c, r: styled_face(c, style, r))
        faces = enrolled_faces([(card, image)])
        if not faces:
            continue
        face = faces[0]
        assert face.face.image.shape == (CARD_H, CARD_W, 3)
        want = cards[0].visible_indices
        for box in face.photo_indices():
            assert max(_iou(box, w) for w in want) > 0.4, (card, box, want)
        found += 1
    assert found >= 4  # most of a deck's photos give their face


def test_the_cut_face_is_upright_and_its_index_is_top_left() -> None:
    rng = np.random.default_rng(9)
    face = draw_face("8C", rng)
    image, _ = scene(rng, (640, 480), [["8C"]], draw=lambda c, r: face)
    cut = cut_face(image)
    assert cut is not None
    box = index_box(cut.image)
    assert box is not None
    drawn = min(face.indices, key=lambda b: b[0] + b[1])  # the drawn face's top-left index
    turned = (CARD_W - drawn[2], CARD_H - drawn[3], CARD_W - drawn[0], CARD_H - drawn[1])
    assert max(_iou(box, drawn), _iou(box, turned)) > 0.4  # a card reads the same either way up


def test_a_photo_without_a_card_gives_no_face() -> None:
    rng = np.random.default_rng(2)
    table = np.clip(rng.normal(90, 25, (480, 640, 3)), 0, 255).astype(np.uint8)
    smooth = cv2.GaussianBlur(table, (7, 7), 2)
    assert find_card(smooth) is None
    assert enrolled_faces([("AS", smooth)]) == []


def _photos(*cards: str) -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(1)
    return [(card, scene(rng, (640, 480), [[card]])[0]) for card in cards]


def test_too_few_cut_cards_leave_the_detector_as_shipped_and_say_why() -> None:
    said: list[str] = []
    deck = enroll(_photos("QH", "4S"), tune_minutes=5, log=said.append)
    assert deck.detector_onnx is None and deck.detector is None
    assert any("not fine-tuned" in line for line in said)


def test_a_deck_file_carries_its_detector_and_the_table_is_read_with_it(tmp_path: Path) -> None:
    deck = enroll(_photos("QH", "4S"))
    tuned = DeckTemplates(deck.cards, deck.patches, deck.head, DEFAULT_WEIGHTS.read_bytes())
    path = tmp_path / "deck.npz"
    tuned.save(path)
    back = DeckTemplates.load(path)
    assert back.detector is not None and back.detector.read_bytes() == DEFAULT_WEIGHTS.read_bytes()
    image, _ = scene(np.random.default_rng(5), (640, 480), [["QH", "KH", "AH"]])
    # the same network under the deck's own file reads the same table the same way
    want = read_table(image, pieces="cards", deck=deck)
    got = read_table(image, pieces="cards", deck=back)
    assert [c.card for c in got.cards] == [c.card for c in want.cards]


def test_a_deck_file_whose_detector_cannot_run_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "deck.npz"
    np.savez(path, cards=np.array(["QH"]), patches=np.zeros((1, 32, 32), np.float32),
             detector=np.frombuffer(b"not an onnx file", np.uint8))
    with pytest.raises(VisionError, match="detector is not a network"):
        DeckTemplates.load(path)
    np.savez(path, cards=np.array(["QH"]), patches=np.zeros((1, 32, 32), np.float32),
             detector=np.zeros((4, 4), np.float32))
    with pytest.raises(VisionError, match="detector must be"):
        DeckTemplates.load(path)


def test_a_deck_file_carries_its_index_classifier_and_the_table_is_read_with_it(tmp_path: Path) -> None:
    deck = enroll(_photos("QH", "4S"))
    assert deck.index_onnx is None and deck.index_classifier is None  # nothing fine-tuned
    tuned = DeckTemplates(deck.cards, deck.patches, deck.head, None, DEFAULT_CLASSIFIER.read_bytes())
    path = tmp_path / "deck.npz"
    tuned.save(path)
    back = DeckTemplates.load(path)
    assert back.detector is None
    assert back.index_classifier is not None and back.index_classifier != DEFAULT_CLASSIFIER
    assert back.index_classifier.read_bytes() == DEFAULT_CLASSIFIER.read_bytes()
    image, _ = scene(np.random.default_rng(5), (640, 480), [["QH", "KH", "AH"]])
    with recording(back.index_classifier, DEFAULT_CLASSIFIER) as fed:
        got = read_table(image, pieces="cards", deck=back)
    assert fed[str(back.index_classifier)] and not fed[str(DEFAULT_CLASSIFIER)]  # the deck's own reads
    want = read_table(image, pieces="cards", deck=deck)
    # the same network as the deck's own file, but in float where the shipped one runs its
    # 8-bit copy: the same cards
    assert sorted(c.card for c in got.cards) == sorted(c.card for c in want.cards)


def test_a_deck_file_whose_index_classifier_cannot_read_crops_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "deck.npz"
    cards, patches = np.array(["QH"]), np.zeros((1, 32, 32), np.float32)
    np.savez(path, cards=cards, patches=patches, indexnet=np.frombuffer(b"not an onnx file", np.uint8))
    with pytest.raises(VisionError, match="index classifier is not a network"):
        DeckTemplates.load(path)
    # a network the kit runs, but not on index crops: the detector's heat maps are no reads
    np.savez(path, cards=cards, patches=patches, indexnet=np.frombuffer(DEFAULT_WEIGHTS.read_bytes(), np.uint8))
    with pytest.raises(VisionError, match="index classifier is not a network"):
        DeckTemplates.load(path)
    np.savez(path, cards=cards, patches=patches, indexnet=np.zeros(3, np.int32))
    with pytest.raises(VisionError, match="index classifier must be"):
        DeckTemplates.load(path)


def test_a_drawn_card_is_named_by_the_face_drawn_for_it() -> None:
    # a deck's face maker draws an enrolled card where the one asked for was not enrolled:
    # the scene names the card its face shows, so no network learns a face under another name
    king = draw_face("KS", np.random.default_rng(3))
    _, cards = scene(np.random.default_rng(5), (640, 480), [["7H", "2D"]], draw=lambda card, rng: king)
    assert [c.card for c in cards] == ["KS", "KS"]


def test_a_deck_files_index_classifier_runs_its_8_bit_copy_as_the_shipped_one_does(tmp_path: Path) -> None:
    deck = enroll(_photos("QH", "4S"))
    shipped_int8 = int8_copy(DEFAULT_CLASSIFIER)
    tuned = DeckTemplates(deck.cards, deck.patches, deck.head, None, DEFAULT_CLASSIFIER.read_bytes(),
                          shipped_int8.read_bytes())
    path = tmp_path / "deck.npz"
    tuned.save(path)
    back = DeckTemplates.load(path)
    assert back.index_classifier is not None
    assert int8_copy(back.index_classifier).read_bytes() == shipped_int8.read_bytes()
    assert load_network(back.index_classifier, "onnxruntime", "int8").ran == int8_copy(back.index_classifier)
    image, _ = scene(np.random.default_rng(6), (640, 480), [["QH", "KH", "AH", "2C"]])
    want = read_table(image, pieces="cards")  # the shipped copy
    got = read_table(image, pieces="cards", deck=replace(back, cards=(), patches=back.patches[:0], head=None))
    assert [(c.card, c.box) for c in got.cards] == [(c.card, c.box) for c in want.cards]


def test_an_8_bit_copy_without_its_index_classifier_is_not_kept(tmp_path: Path) -> None:
    path = tmp_path / "deck.npz"
    np.savez(path, cards=np.array(["QH"]), patches=np.zeros((1, 32, 32), np.float32),
             indexnet_int8=np.frombuffer(int8_copy(DEFAULT_CLASSIFIER).read_bytes(), np.uint8))
    back = DeckTemplates.load(path)
    assert back.index_classifier is None and back.index_int8_onnx is None


def test_a_deck_classifier_stored_without_its_copy_runs_in_float_after_one_stored_with_it() -> None:
    deck = enroll(_photos("QH", "4S"))
    network = DEFAULT_CLASSIFIER.read_bytes()
    with_copy = DeckTemplates(deck.cards, deck.patches, deck.head, None, network,
                              int8_copy(DEFAULT_CLASSIFIER).read_bytes())
    assert with_copy.index_classifier is not None and int8_copy(with_copy.index_classifier).is_file()
    # the same network without a copy: no copy another deck wrote is picked up beside it
    alone = replace(with_copy, index_int8_onnx=None)
    assert alone.index_classifier is not None and alone.index_classifier != with_copy.index_classifier
    assert alone.index_classifier.read_bytes() == network
    assert not int8_copy(alone.index_classifier).exists()
    # nor one an earlier version left under that name (found by the next process to load it)
    int8_copy(alone.index_classifier).write_bytes(int8_copy(DEFAULT_CLASSIFIER).read_bytes())
    enroll_module._network_file.cache_clear()
    assert not int8_copy(alone.index_classifier).exists()
    assert load_network(alone.index_classifier, "onnxruntime", "int8").ran == alone.index_classifier
