"""Cards seen by a tilted camera: the training scenes' option (``synthetic_photos(camera=...)``)
and the ``camera slant`` source of ``bench/bench_tables.py``, drawn with real pixels."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

from vision.synth import camera_view, draw_face
from vision.train.dataset import synthetic_photos

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))


def _spread(sides: list[float]) -> float:
    return max(sides) / min(sides)


def test_no_camera_draws_the_scenes_drawn_before() -> None:
    before = synthetic_photos(5, 3, draw_face, crowded=0.3)
    same = synthetic_photos(5, 3, draw_face, crowded=0.3, camera=0.0)
    assert all(np.array_equal(a.image, b.image) and a.indices == b.indices for a, b in zip(before, same, strict=True))


def test_a_tilted_camera_shows_the_far_indices_smaller_and_labels_only_those_in_the_photo() -> None:
    flat = synthetic_photos(8, 5, draw_face, crowded=1.0)
    seen = synthetic_photos(8, 5, draw_face, crowded=1.0, camera=1.0)
    changed = [(a, b) for a, b in zip(flat, seen, strict=True) if not np.array_equal(a.image, b.image)]
    assert changed  # the tables not at a slant are seen by the camera
    for _, b in changed:
        h, w = b.image.shape[:2]
        # an index the edge cuts is labelled only with nearly all of it (IN_FRAME) inside
        assert all(-0.15 * bw <= x - bw / 2 and x + bw / 2 <= w + 0.15 * bw and
                   -0.15 * bh <= y - bh / 2 and y + bh / 2 <= h + 0.15 * bh for x, y, bw, bh, _ in b.indices)
    # the same cards, near and far: their indices' sizes spread wider than on the flat table
    wider = [_spread([max(bw, bh) for _, _, bw, bh, _ in b.indices]) >
             _spread([max(bw, bh) for _, _, bw, bh, _ in a.indices]) for a, b in changed if len(b.indices) >= 2]
    assert sum(wider) > len(wider) / 2


def test_the_camera_keeps_the_table_middle_and_shrinks_the_far_side() -> None:
    m = camera_view(1280, 960, math.radians(40), 0.0)
    middle = m @ np.array([640.0, 480.0, 1.0])
    assert np.allclose(middle[:2] / middle[2], (640, 480), atol=1e-6)

    def width_at(y: float) -> float:
        a, b = m @ np.array([600.0, y, 1.0]), m @ np.array([680.0, y, 1.0])
        return float(np.linalg.norm(a[:2] / a[2] - b[:2] / b[2]))

    near, far = sorted((width_at(100.0), width_at(860.0)))
    assert near / far < 0.8  # one side of the table seen smaller than the other


def test_the_bench_draws_a_held_out_table_through_a_tilted_camera() -> None:
    import bench_tables

    image, cards = bench_tables.table(np.random.default_rng(5), "camera slant", (1280, 960))
    assert image.shape[:2] == (960, 1280)
    boxes = [b for c in cards for b in c.visible_indices]
    assert len(boxes) >= 8
    assert all(0 <= (b[0] + b[2]) / 2 <= 1280 and 0 <= (b[1] + b[3]) / 2 <= 960 for b in boxes)
    assert _spread([max(b[2] - b[0], b[3] - b[1]) for b in boxes]) > 1.5
