"""The printable table mat: ArUco markers at the corners, one zone per seat, PNG and PDF output.

Mat geometry is in millimetres with the origin at the mat's top-left corner. Markers 0–3 sit
at the top-left, top-right, bottom-right and bottom-left corners; calibration
(``vision.calibration``) finds them and maps the camera image onto this frame.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.errors import VisionError

ARUCO_DICT: Final = cv2.aruco.DICT_4X4_50
#: Paper sizes (landscape width, height) in millimetres.
SIZES: Final = {"A2": (594.0, 420.0), "A3": (420.0, 297.0), "letter": (279.4, 215.9)}
LETTER: Final = SIZES["letter"]
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


def layout(size: str = "A3", seats: int = 4) -> MatLayout:
    """The layout for a paper size name (``A2``, ``A3`` or ``letter``)."""
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
    for zone in mat.zones():
        x0, y0, x1, y1 = (round(v * px_per_mm) for v in zone.rect)
        cv2.rectangle(img, (x0, y0), (x1, y1), grey, thick)
        scale = px_per_mm * 0.12
        cv2.putText(img, zone.name, (x0 + round(4 * px_per_mm), y0 + round(10 * px_per_mm)),
                    cv2.FONT_HERSHEY_SIMPLEX, scale, grey, thick, cv2.LINE_AA)
    return img


def pages(mat: MatLayout, px_per_mm: float, page: tuple[float, float] | None) -> list[np.ndarray]:
    """The mat cut into printable pages: one page of the mat's own size, or tiles of ``page``
    (landscape mm) that overlap by the print margin so they can be trimmed and taped."""
    img = render(mat, px_per_mm)
    if page is None:
        return [img]
    usable_w = page[0] - 2 * PRINT_MARGIN_MM
    usable_h = page[1] - 2 * PRINT_MARGIN_MM
    cols = math.ceil(mat.width / usable_w)
    rows = math.ceil(mat.height / usable_h)
    out = []
    pw, ph = round(page[0] * px_per_mm), round(page[1] * px_per_mm)
    off = round(PRINT_MARGIN_MM * px_per_mm)
    for r in range(rows):
        for c in range(cols):
            sheet = np.full((ph, pw, 3), 255, np.uint8)
            x, y = round(c * usable_w * px_per_mm), round(r * usable_h * px_per_mm)
            part = img[y:y + ph - 2 * off, x:x + pw - 2 * off]
            sheet[off:off + part.shape[0], off:off + part.shape[1]] = part
            cv2.rectangle(sheet, (off, off), (off + part.shape[1] - 1, off + part.shape[0] - 1),
                          (200, 200, 200), 1)
            cv2.putText(sheet, f"row {r + 1} col {c + 1}", (off, ph - off // 3),
                        cv2.FONT_HERSHEY_SIMPLEX, px_per_mm * 0.08, (150, 150, 150), 1)
            out.append(sheet)
    return out


def write_pdf(path: Path, images: list[np.ndarray], page_mm: tuple[float, float]) -> None:
    """A minimal PDF with one full-page image per page (Flate-compressed RGB)."""
    pt = 72.0 / 25.4
    pw, ph = page_mm[0] * pt, page_mm[1] * pt
    objects: list[bytes] = []
    page_ids = []
    for img in images:
        rgb = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
        h, w = rgb.shape[:2]
        data = zlib.compress(rgb.tobytes(), 6)
        objects.append(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d "
                       b"/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode "
                       b"/Length %d >>\nstream\n" % (w, h, len(data)) + data + b"\nendstream")
        image_id = len(objects) + 2
        content = b"q %.2f 0 0 %.2f 0 0 cm /Im Do Q" % (pw, ph)
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        content_id = len(objects) + 2
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] "
                       b"/Resources << /XObject << /Im %d 0 R >> >> /Contents %d 0 R >>"
                       % (pw, ph, image_id, content_id))
        page_ids.append(len(objects) + 2)
    kids = b" ".join(b"%d 0 R" % i for i in page_ids)
    head = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % len(page_ids)]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(head + objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets) + 1, xref)
    path.write_bytes(bytes(out))
