"""A finer look for the far indices of a table a camera sees from its edge (``read_table``'s
``far_spread``, shipped off: ``vision.scale.far_size`` and ``vision.rescan.add_unseen``)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from bench_tables import networks, seen_table  # noqa: E402
from table_score import score_table  # noqa: E402

from engine.cards import UNREADABLE  # noqa: E402
from vision.detector import Detection  # noqa: E402
from vision.reading import DetectedCard  # noqa: E402
from vision.rescan import add_unseen  # noqa: E402
from vision.scale import far_size, size_for  # noqa: E402


def _index(side: float, score: float = 0.9) -> Detection:
    return Detection("index", 0.0, 0.0, (0.0, 0.0, side * 0.6, side), score, np.ones(1))


def test_far_size_is_the_size_for_the_smaller_indices_where_sizes_spread() -> None:
    spread = [_index(s) for s in (10, 10, 11, 20, 30, 31, 32)]
    far = far_size(spread, 1280, 640, 1.6)
    assert far is not None and far > 640
    assert far == size_for(float(np.percentile([10, 10, 11, 20, 30, 31, 32], 10)), 1280)
    # indices of one size, too few sure ones, or a far size no larger than the look made
    assert far_size([_index(s) for s in (20, 21, 22, 23, 24)], 1280, 640, 1.6) is None
    assert far_size([_index(10), _index(30), _index(31, 0.1), _index(32, 0.1)], 1280, 640, 1.6) is None
    assert far_size(spread, 1280, 1024, 1.6) is None


def _card(name: str, x: float, y: float, confidence: float = 0.9, index: bool = True) -> DetectedCard:
    box = (x, y, x + 40.0, y + 60.0)
    return DetectedCard(name, box, confidence, ((x, y, x + 8.0, y + 14.0),) if index else ())


def test_add_unseen_takes_only_confident_cards_where_nothing_was_found() -> None:
    first = [_card("7H", 100, 100), _card(UNREADABLE, 300, 100, 0.3)]
    far = _card("2C", 600, 400)
    out = add_unseen(first, [far])
    assert out == first + [far]
    assert add_unseen(first, [_card("2C", 602, 402, 0.5)]) == first  # under the confidence asked
    assert add_unseen(first, [_card(UNREADABLE, 600, 400, 0.9)]) == first  # unread
    assert add_unseen(first, [_card("2C", 600, 400, index=False)]) == first  # read whole, no index
    assert add_unseen(first, [_card("2C", 302, 103)]) == first  # on an index already found (the ??)
    assert add_unseen(first, [_card("7H", 130, 150)]) == first  # the read card's other corner
    assert len(add_unseen(first, [_card("7H", 600, 400)])) == 3  # the same card of a second deck, far off


def test_the_far_look_reads_a_far_card_of_a_tilted_cameras_table() -> None:
    """The benchmark's ``camera slant`` source, seed 5, its first table: the far look reads a
    card the first reading missed, and adds no wrong read."""
    from vision.recognize import read_table

    image, cards, _ = seen_table(np.random.default_rng(5), "camera slant", (1280, 960))
    nets = networks(None)
    plain = score_table(cards, read_table(image, pieces="cards", **nets))
    far = score_table(cards, read_table(image, pieces="cards", far_spread=1.6, **nets))
    assert far.right > plain.right
    assert far.wrong == plain.wrong
