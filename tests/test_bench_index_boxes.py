"""The detector-alone benchmark (``bench/bench_index_boxes.py``) on a rendered table: the
printed indices are found with the shipped detector, and boxes where nothing is printed are
not."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from bench_index_boxes import found  # noqa: E402
from bench_tables import table  # noqa: E402

from vision.detector import DEFAULT_WEIGHTS  # noqa: E402


def test_printed_indices_are_found_and_bare_table_is_not() -> None:
    image, cards = table(np.random.default_rng(3), "trained", (960, 720))
    boxes = [b for c in cards for b in c.visible_indices]
    assert len(boxes) >= 6
    firm, weak = found(image, boxes, DEFAULT_WEIGHTS, 0.1)
    assert firm >= 0.8 * len(boxes)
    assert firm + weak <= len(boxes)
    # a plain grey frame holds no index where the cards were
    blank = np.full_like(image, 90)
    firm, weak = found(blank, boxes, DEFAULT_WEIGHTS, 0.1)
    assert firm == 0
