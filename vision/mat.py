"""The printable table mat: ArUco markers at the corners, one zone per seat (the PNG here, the
vector PDF in ``vision.mat_pdf``).

Mat geometry is in millimetres with the origin at the mat's top-left corner. Markers 0–3 sit
at the top-left, top-right, bottom-right and bottom-left corners; calibration
(``vision.calibration``) finds them and maps the camera image onto this frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision.errors import VisionError

ARUCO_DICT: Final = cv2.aruco.DICT_4X4_50
#: Paper sizes (landscape width, height) in millimetres.
SIZES: Final = {"A2": (594.0, 420.0), "A3": (420.0, 297.0), "A4": (297.0, 210.0),
                 "letter": (279.4, 215.9)}
PRINT_MARGIN_MM: Final = 8.0


@dataclass(frozen=True, slots=True)
class Zone:
    """A named region of the mat (a seat's meld area, or the centre), as a rectangle in mm."""

    name: str
    rect: tuple[float, float, float, float]

    def contains(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.rect
        return x0 <= x <= x1 and y0 <= y <= y1


@dataclass(frozen=True, slots=True)
class MatLayout:
    """Where everything is on a mat of a given size (all in millimetres)."""

    name: str
    width: float
    height: float
    marker: float
    margin: float
    seats: int

    def marker_corners(self) -> dict[int, np.ndarray]:
        """Marker id → its four corners (TL, TR, BR, BL order as ArUco reports them), in mm."""
        m, s = self.margin, self.marker
        origins = {0: (m, m), 1: (self.width - m - s, m),
                   2: (self.width - m - s, self.height - m - s), 3: (m, self.height - m - s)}
        return {k: np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float64)
                for k, (x, y) in origins.items()}

    def zones(self) -> list[Zone]:
        """One zone per seat around the edges (seat 1 at the bottom, clockwise) and the centre."""
        w, h = self.width, self.height
        band = self.margin + self.marker + 5
        inner = (band, band, w - band, h - band)
        depth_y = (inner[3] - inner[1]) * 0.3
        depth_x = (inner[2] - inner[0]) * 0.22
        bottom = (inner[0], inner[3] - depth_y, inner[2], inner[3])
        top = (inner[0], inner[1], inner[2], inner[1] + depth_y)
        left = (inner[0], inner[1] + depth_y, inner[0] + depth_x, inner[3] - depth_y)
        right = (inner[2] - depth_x, inner[1] + depth_y, inner[2], inner[3] - depth_y)
        centre = (left[2], top[3], right[0], bottom[1])
        if not 2 <= self.seats <= 8:
            raise VisionError(f"a mat has 2 to 8 seats, not {self.seats}")
        if self.seats <= 4:
            sides = {2: [bottom, top], 3: [bottom, left, top], 4: [bottom, left, top, right]}[self.seats]
        else:
            # five to eight seats: the long sides, then the short ones, hold two seats each
            split = ("bottom", "top", "left", "right")[: self.seats - 4]
            sides = []
            for name, rect in (("bottom", bottom), ("left", left), ("top", top), ("right", right)):
                sides += _halves(name, rect) if name in split else [rect]
        zones = [Zone(f"seat{i + 1}", r) for i, r in enumerate(sides)]
        return zones + [Zone("centre", centre)]


def _halves(side: str, rect: tuple[float, float, float, float]) -> list[tuple[float, float, float, float]]:
    """A side's two seats in clockwise order (seen from above, seat 1 at the bottom)."""
    x0, y0, x1, y1 = rect
    if side in ("bottom", "top"):
        xm = (x0 + x1) / 2
        left_half, right_half = (x0, y0, xm, y1), (xm, y0, x1, y1)
        return [right_half, left_half] if side == "bottom" else [left_half, right_half]
    ym = (y0 + y1) / 2
    upper, lower = (x0, y0, x1, ym), (x0, ym, x1, y1)
    return [lower, upper] if side == "left" else [upper, lower]


def side_of(zone: Zone, centre: Zone) -> str:
    """Which edge of the mat a seat's zone lies along (the player sits beyond it)."""
    x0, y0, x1, y1 = zone.rect
    cx0, cy0, cx1, cy1 = centre.rect
    if y0 >= cy1 - 1e-6:
        return "bottom"
    if y1 <= cy0 + 1e-6:
        return "top"
    return "left" if x1 <= cx0 + 1e-6 else "right"


def seat_label(zone: Zone) -> str:
    """What a seat's zone says on the mat: ``SEAT 3``."""
    return f"SEAT {zone.name.removeprefix('seat')}"


def layout(size: str = "A3", seats: int = 4) -> MatLayout:
    """The layout for a paper size name (``A2``, ``A3``, ``A4`` or ``letter``)."""
    if size not in SIZES:
        raise VisionError(f"unknown mat size {size!r}; choose one of {', '.join(SIZES)}")
    w, h = SIZES[size]
    marker = round(min(w, h) * 0.14)
    return MatLayout(size, w, h, marker, PRINT_MARGIN_MM + 4, seats)


def render(mat: MatLayout, px_per_mm: float = 4.0) -> np.ndarray:
    """The mat as a BGR image at ``px_per_mm`` (white paper, black markers, grey zone lines)."""
    w, h = round(mat.width * px_per_mm), round(mat.height * px_per_mm)
    img = np.full((h, w, 3), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    for k, corners in mat.marker_corners().items():
        side = round(mat.marker * px_per_mm)
        mark = cv2.aruco.generateImageMarker(dictionary, k, side)
        x, y = (corners[0] * px_per_mm).round().astype(int)
        img[y:y + side, x:x + side] = mark[..., None]
    grey = (170, 170, 170)
    thick = max(1, round(px_per_mm * 0.6))
    zones = mat.zones()
    for zone in zones:
        x0, y0, x1, y1 = (round(v * px_per_mm) for v in zone.rect)
        cv2.rectangle(img, (x0, y0), (x1, y1), grey, thick)
    for zone in zones[:-1]:
        _label(img, zone, side_of(zone, zones[-1]), px_per_mm)
    return img


#: Quarter turns (counter-clockwise) that make a label upright for the player at each side.
_TURNS = {"bottom": 0, "right": 1, "top": 2, "left": 3}


def _label(img: np.ndarray, zone: Zone, side: str, px_per_mm: float) -> None:
    """The seat's label, large, near the player's edge of its zone and turned to face them."""
    x0, y0, x1, y1 = (round(v * px_per_mm) for v in zone.rect)
    along, across = (y1 - y0, x1 - x0) if side in ("left", "right") else (x1 - x0, y1 - y0)
    text = seat_label(zone)
    font = cv2.FONT_HERSHEY_DUPLEX
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = min(along * 0.8 / tw, across * 0.3 / th, 24 * px_per_mm / th)
    weight = max(1, round(scale * 1.5))
    (tw, th), base = cv2.getTextSize(text, font, scale, weight)
    patch = np.full((th + base + 2 * weight, tw + 2 * weight, 3), 255, np.uint8)
    cv2.putText(patch, text, (weight, th + weight), font, scale, (140, 140, 140), weight, cv2.LINE_AA)
    patch = np.ascontiguousarray(np.rot90(patch, _TURNS[side]))
    ph, pw = patch.shape[:2]
    inset = round(0.15 * (ph if side in ("bottom", "top") else pw))
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    px, py = {"bottom": (cx - pw // 2, y1 - inset - ph), "top": (cx - pw // 2, y0 + inset),
              "left": (x0 + inset, cy - ph // 2), "right": (x1 - inset - pw, cy - ph // 2)}[side]
    region = img[py:py + ph, px:px + pw]
    np.minimum(region, patch[:region.shape[0], :region.shape[1]], out=region)
