"""Table calibration: find the mat's markers, map the camera image onto the mat, fix white balance.

The homography maps image pixels to mat millimetres; ``top_down`` warps a frame to a fixed
scale (``px_per_mm``) view of the mat. White balance gains come from the white paper inside
and around the markers. A calibration is saved to and loaded from a small JSON file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.errors import CalibrationError
from vision.mat import ARUCO_DICT, MatLayout, Zone, layout
from vision.reading import DetectedCard, TableReading


@dataclass(frozen=True)
class Calibration:
    """A camera-to-mat mapping for one camera position."""

    mat: MatLayout
    homography: np.ndarray  # image pixels -> mat mm, 3x3
    image_size: tuple[int, int]
    white_gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    px_per_mm: float = 2.0
    zones: tuple[Zone, ...] = field(default=())
    deck: Path | None = None  # enrolled deck templates (``tablekit enroll``), if any

    def to_mat(self, points: np.ndarray) -> np.ndarray:
        """Image points (N, 2) in mat millimetres."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def zone_of(self, x: float, y: float) -> str | None:
        """The name of the zone under an image point, if any."""
        mx, my = self.to_mat(np.array([[x, y]]))[0]
        return next((z.name for z in self.zones if z.contains(mx, my)), None)

    def white_balance(self, image: np.ndarray) -> np.ndarray:
        gains = np.array(self.white_gains, np.float32)
        return np.clip(image.astype(np.float32) * gains, 0, 255).astype(np.uint8)

    def top_down(self, image: np.ndarray) -> np.ndarray:
        """The mat seen from straight above at ``px_per_mm``, white-balanced."""
        scale = np.diag([self.px_per_mm, self.px_per_mm, 1.0])
        size = (round(self.mat.width * self.px_per_mm), round(self.mat.height * self.px_per_mm))
        return cv2.warpPerspective(self.white_balance(image), scale @ self.homography, size)

    def read(self, image: np.ndarray, reader: Callable[[np.ndarray], TableReading]) -> TableReading:
        """Read a frame with ``reader`` after white balance (card boxes stay in image pixels)."""
        return reader(self.white_balance(image))

    def group_zones(self, reading: TableReading) -> list[str | None]:
        """The zone of each group of a reading (where its first card's centre lies)."""
        out = []
        for g in reading.groups:
            c: DetectedCard = reading.cards[g[0]]
            out.append(self.zone_of((c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2))
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "mat": self.mat.name, "seats": self.mat.seats,
            "homography": self.homography.tolist(), "image_size": list(self.image_size),
            "white_gains": list(self.white_gains), "px_per_mm": self.px_per_mm,
            **({"deck": str(self.deck)} if self.deck else {}),
        }

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: Path) -> Calibration:
        try:
            data = json.loads(path.read_text())
            mat = layout(data["mat"], int(data.get("seats", 4)))
            h = np.array(data["homography"], np.float64).reshape(3, 3)
            w, hh = data["image_size"]
            gains = tuple(float(g) for g in data.get("white_gains", (1, 1, 1)))
            deck = path.parent / data["deck"] if data.get("deck") else None
            return cls(mat, h, (int(w), int(hh)), gains,  # type: ignore[arg-type]
                       float(data.get("px_per_mm", 2.0)), tuple(mat.zones()), deck)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise CalibrationError(f"cannot load calibration {path}: {exc}") from None


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Marker id → its four image corners, for every mat marker found."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT),
                                       cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).astype(np.float64)
            for i, c in zip(ids.ravel(), corners, strict=True) if 0 <= int(i) <= 3}


def _white_gains(image: np.ndarray, markers: dict[int, np.ndarray]) -> tuple[float, float, float]:
    samples = []
    for quad in markers.values():
        centre = quad.mean(axis=0)
        ring = (quad - centre) * 1.25 + centre
        mask = np.zeros(image.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, ring.round().astype(np.int32), 255)
        cv2.fillConvexPoly(mask, quad.round().astype(np.int32), 0)
        samples.append(image[mask > 0].reshape(-1, 3))
    pixels = np.concatenate(samples).astype(np.float64)
    if len(pixels) == 0:
        return (1.0, 1.0, 1.0)
    bright = pixels[pixels.sum(axis=1) >= np.percentile(pixels.sum(axis=1), 50)]
    means = bright.mean(axis=0)
    target = means.max()
    return tuple(float(target / max(m, 1.0)) for m in means)  # type: ignore[return-value]


def calibrate(image: np.ndarray, mat: MatLayout, px_per_mm: float = 2.0) -> Calibration:
    """Calibrate from one frame showing the mat (at least two of its four markers)."""
    found = find_markers(image)
    if len(found) < 2:
        raise CalibrationError(f"found {len(found)} of the mat's 4 markers; need at least 2")
    ref = mat.marker_corners()
    src = np.concatenate([found[k] for k in sorted(found)])
    dst = np.concatenate([ref[k] for k in sorted(found)])
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        raise CalibrationError("the markers give no usable homography")
    gains = _white_gains(image, found)
    return Calibration(mat, h, (image.shape[1], image.shape[0]), gains, px_per_mm,
                       tuple(mat.zones()))
