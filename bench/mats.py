"""The calibration a printed mat would give for a rendered table, for the benchmarks that read
rendered tables as the kit reads a calibrated mat's frame (``vision.calibration.read_calibrated``)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.calibration import TOP_DOWN_PX_PER_MM, Calibration
from vision.mat import MatLayout

#: A marker's corner as a calibration finds it: off by this many pixels (standard deviation).
MARKER_ERROR = 1.0


def drawn_mat(matrix: np.ndarray, size: tuple[int, int], mm_per_px: float,
              rng: np.random.Generator, error: float = MARKER_ERROR) -> Calibration:
    """The calibration of a mat covering a table drawn ``size`` (w, h) pixels from straight
    above, ``mm_per_px`` millimetres a drawn pixel, seen in a photo through ``matrix`` (drawn
    pixels to the photo's): its corners found in the photo each off by ``error`` pixels."""
    w, h = size
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    seen = (cv2.perspectiveTransform(corners.reshape(-1, 1, 2), matrix).reshape(-1, 2)
            + rng.normal(0, error, (4, 2)))
    homography = cv2.getPerspectiveTransform(seen.astype(np.float32), (corners * mm_per_px).astype(np.float32))
    mat = MatLayout("drawn table", w * mm_per_px, h * mm_per_px, 0.0, 0.0, 4)
    return Calibration(mat, homography.astype(np.float64), size, px_per_mm=TOP_DOWN_PX_PER_MM)


def drawn_sides(quads: list[np.ndarray], matrix: np.ndarray) -> list[float]:
    """The long side of each quad of the photo (N×2 corners, in order round it) as drawn:
    taken back through ``matrix`` (drawn pixels to the photo's)."""
    back = np.linalg.inv(matrix)
    return [long_side(cv2.perspectiveTransform(q.reshape(-1, 1, 2).astype(np.float64), back).reshape(-1, 2))
            for q in quads]


def long_side(quad: np.ndarray) -> float:
    """The longer of a quad's first two sides (a card's or a tile's corners, in order round it)."""
    return max(float(np.hypot(*(quad[1] - quad[0]))), float(np.hypot(*(quad[2] - quad[1]))))
