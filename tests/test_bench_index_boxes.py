"""The detector-alone benchmark (``bench/bench_index_boxes.py``) on a rendered table: the
printed indices are found with the shipped detector, and boxes where nothing is printed are
not; the box network sizes the found indices' boxes nearer the printed ones."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from bench_index_boxes import box_errors, found  # noqa: E402
from bench_tables import table  # noqa: E402

from vision.detector import DEFAULT_WEIGHTS  # noqa: E402
from vision.index_boxes import DEFAULT_BOXES  # noqa: E402


def test_printed_indices_are_found_and_bare_table_is_not() -> None:
    image, cards = table(np.random.default_rng(3), "trained", (960, 720))
    boxes = [b for c in cards for b in c.visible_indices]
    assert len(boxes) >= 6
    firm, weak, given, fitted = found(image, boxes, DEFAULT_WEIGHTS, 0.1, DEFAULT_BOXES)
    assert firm >= 0.8 * len(boxes)
    assert firm + weak <= len(boxes)
    # every found index's box measured, as the detector gives it and as the box network fits it
    assert len(given) == len(fitted) == firm
    assert np.median([e[0] for e in fitted]) < 0.6 * np.median([e[0] for e in given])
    # placed no worse than the detector placed them
    assert np.median([e[1] for e in fitted]) <= np.median([e[1] for e in given])
    # a plain grey frame holds no index where the cards were
    blank = np.full_like(image, 90)
    firm, weak, given, _ = found(blank, boxes, DEFAULT_WEIGHTS, 0.1)
    assert firm == 0 and given == []


def test_a_boxs_errors_are_its_size_and_its_centres() -> None:
    truth = (10.0, 20.0, 30.0, 60.0)
    assert box_errors(truth, truth) == (0.0, 0.0)
    size, place = box_errors((5.0, 10.0, 35.0, 70.0), truth)  # half as wide again, and as tall
    assert size == pytest.approx(2 * np.log(1.5)) and place == 0.0
    _, place = box_errors((14.0, 20.0, 34.0, 60.0), truth)  # moved a tenth of its longer side
    assert place == pytest.approx(0.1)
