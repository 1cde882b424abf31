"""Only the detections assembly can use are read by the classifiers (``assemble.usable``), and
leaving the others unread changes no reading."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from bench_tables import table  # noqa: E402

import vision.recognize as recognize  # noqa: E402
from vision.assemble import DEFAULT_PARAMS, AssemblyParams, usable  # noqa: E402
from vision.detector import Detection  # noqa: E402
from vision.labels import CARD_CLASSES, INDEX_CLASSES  # noqa: E402
from vision.reading import TableReading  # noqa: E402

PHOTOS = Path(__file__).parent / "data" / "photos"


def _det(kind: str, x: float, y: float, score: float, half: float = 10.0) -> Detection:
    classes = INDEX_CLASSES if kind == "index" else CARD_CLASSES
    probs = np.full(len(classes), 1.0 / len(classes))
    return Detection(kind, x, y, (x - half, y - half, x + half, y + half), score, probs)


def test_weak_peaks_are_kept_only_where_assembly_can_use_them() -> None:
    whole = _det("card", 100, 100, 0.8, half=40)
    faint_card = _det("card", 300, 300, 0.3, half=40)
    sure_index = _det("index", 500, 500, 0.6)
    faint_inside = _det("index", 70, 70, 0.2)      # tells the whole card's suit
    faint_outside = _det("index", 300, 300, 0.2)   # lies in no card that stands
    found = [whole, faint_card, sure_index, faint_inside, faint_outside]
    assert usable(found) == [whole, sure_index, faint_inside]
    # a whole card scored under card_score lends its rank when hint_score lets it
    hinted = replace(DEFAULT_PARAMS, hint_score=0.2)
    assert usable(found, hinted) == [whole, faint_card, sure_index, faint_inside]
    # with merge on, a faint peak may join a stronger one anywhere: every peak is kept
    merged = replace(DEFAULT_PARAMS, merge=0.7)
    assert usable(found, merged) == [whole, sure_index, faint_inside, faint_outside]


def _cards(reading: TableReading) -> list[tuple[str, tuple[float, ...], float, tuple[tuple[float, ...], ...]]]:
    return [(c.card, c.box, c.confidence, c.indices) for c in reading.cards]


def _images() -> list[np.ndarray]:
    photos = [cv2.imread(str(p)) for p in sorted(PHOTOS.glob("*/images/*"))[:3]]
    rng = np.random.default_rng(3)
    tables = [table(rng, source, (1280, 960))[0] for source in ("held-out", "four-corner")]
    return [p for p in photos if p is not None] + tables


@pytest.mark.parametrize("params", [DEFAULT_PARAMS, replace(DEFAULT_PARAMS, hint_score=0.2)],
                         ids=["shipped", "hints on"])
def test_reading_only_the_usable_detections_changes_no_reading(
        params: AssemblyParams, monkeypatch: pytest.MonkeyPatch) -> None:
    images = _images()
    assert len(images) >= 4
    left: list[int] = []

    def counting(found: list[Detection], p: AssemblyParams) -> list[Detection]:
        kept = usable(found, p)
        left.append(len(found) - len(kept))
        return kept

    monkeypatch.setattr(recognize, "usable", counting)
    fast = [recognize.read_table(im, params, pieces="cards") for im in images]
    assert sum(left) > 0  # some detections were left unread
    monkeypatch.setattr(recognize, "usable", lambda found, _params: found)
    every = [recognize.read_table(im, params, pieces="cards") for im in images]
    assert any(r.cards for r in every)
    for a, b in zip(fast, every, strict=True):
        assert _cards(a) == _cards(b)
        assert a.groups == b.groups
