"""The calibration a mat would give for a rendered table (``bench/mats.py``): the benchmarks
read their tables from above through it as the kit reads a calibrated mat's frame."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from mats import drawn_mat, drawn_sides  # noqa: E402

from vision.calibration import TOP_DOWN_PX_PER_MM  # noqa: E402
from vision.synth import camera_view  # noqa: E402

SIZE = (640, 480)


def _drawn() -> np.ndarray:
    """A table drawn from straight above: a chequer of 40-pixel squares, light and dark."""
    ys, xs = np.mgrid[0:SIZE[1], 0:SIZE[0]]
    board = (((xs // 40) + (ys // 40)) % 2 * 180 + 40).astype(np.uint8)
    return np.dstack([board, board, board])


def test_the_mat_s_view_from_above_is_the_table_as_drawn() -> None:
    matrix = camera_view(*SIZE, math.radians(40), side=math.radians(30))
    photo = cv2.warpPerspective(_drawn(), matrix, SIZE, flags=cv2.INTER_LINEAR)
    mm_per_px = 0.5
    cal = drawn_mat(matrix, SIZE, mm_per_px, np.random.default_rng(0), error=0.0)
    view = cal.top_down(photo)
    scale = mm_per_px * TOP_DOWN_PX_PER_MM  # view pixels a drawn pixel
    assert view.shape[:2] == (round(SIZE[1] * scale), round(SIZE[0] * scale))
    want = cv2.resize(_drawn(), (view.shape[1], view.shape[0]), interpolation=cv2.INTER_AREA)
    # where the photo saw the table (its near side runs out of the frame), the view is the table
    cover = cv2.warpPerspective(np.full(SIZE[::-1], 255, np.uint8), np.linalg.inv(matrix),
                                SIZE, flags=cv2.INTER_NEAREST)
    seen = cv2.erode(cv2.resize(cover, (view.shape[1], view.shape[0])), np.ones((9, 9), np.uint8)) > 0
    assert seen.mean() > 0.3
    diff = np.abs(view.astype(int) - want.astype(int)).max(axis=2)[seen]
    assert np.median(diff) < 8 and np.mean(diff > 60) < 0.05
    # a side of the drawn table, seen in the photo, taken back: its length as drawn
    quad = cv2.perspectiveTransform(np.array([[[100, 100]], [[180, 100]], [[180, 220]], [[100, 220]]],
                                             np.float64), matrix).reshape(-1, 2)
    (side,) = drawn_sides([quad], matrix)
    assert abs(side - 120) < 1e-6


def test_the_mat_s_corners_are_found_off_by_the_marker_error() -> None:
    matrix = camera_view(*SIZE, math.radians(30), side=0.0)
    exact = drawn_mat(matrix, SIZE, 1.0, np.random.default_rng(0), error=0.0)
    rough = drawn_mat(matrix, SIZE, 1.0, np.random.default_rng(0), error=2.0)
    corners = np.array([[[0, 0]], [[SIZE[0], 0]], [[SIZE[0], SIZE[1]]], [[0, SIZE[1]]]], np.float64)
    photo = cv2.perspectiveTransform(corners, matrix)
    on_mat = cv2.perspectiveTransform(photo, exact.homography).reshape(-1, 2)
    assert np.abs(on_mat - corners.reshape(-1, 2)).max() < 1e-3
    off = np.abs(cv2.perspectiveTransform(photo, rough.homography).reshape(-1, 2) - on_mat).max()
    assert 0.5 < off < 40  # a few pixels in the photo, more millimetres where the table is far
