"""The table mat as a vector PDF: sharp at any printer's resolution, true to the millimetre.

Everything is drawn as PDF paths and text in the mat's own millimetre frame: the ArUco markers
cell by cell, the seat zones, a large label in each zone turned to face the player who sits
there, and a 100 mm scale bar to check the print with a ruler (a printer that "fits to page"
shrinks it, and calibration would then measure cards wrongly). A mat larger than the paper is
tiled: each page shows one window of the mat with overlap for trimming, crop marks and its
row and column, so the pages are taped together in order.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2

from vision.errors import VisionError
from vision.mat import ARUCO_DICT, PRINT_MARGIN_MM, MatLayout, seat_label, side_of

PT_PER_MM = 72.0 / 25.4
#: Paper a tiled mat is printed on (landscape width, height in mm).
PAPERS = {"A4": (297.0, 210.0), "letter": (279.4, 215.9)}
SCALE_BAR_MM = 100.0
#: Advance widths of Helvetica-Bold (thousandths of the font size) for the characters the mat
#: writes; other characters are taken as 0.6.
_WIDTHS = {" ": 278, "0": 556, "1": 556, "2": 556, "3": 556, "4": 556, "5": 556, "6": 556,
           "7": 556, "8": 556, "9": 556, "A": 722, "C": 722, "E": 667, "H": 722, "K": 722,
           "L": 611, "N": 722, "R": 722, "S": 667, "T": 611, "a": 556, "c": 556, "e": 556,
           "h": 611, "i": 278, "k": 556, "l": 278, "m": 889, "o": 611, "r": 389, "s": 556,
           "t": 333, "u": 611, "w": 778, "y": 556, ":": 333, ",": 278, "(": 333, ")": 333,
           "-": 333, ".": 278}
#: The text matrix (baseline direction, then the glyphs' up direction, in the mat's y-down
#: frame) that makes text upright for a player sitting at each side of the mat.
_FACING = {"bottom": (1, 0, 0, -1), "left": (0, 1, 1, 0), "top": (-1, 0, 0, 1), "right": (0, -1, -1, 0)}


def text_width(text: str, size: float) -> float:
    """How long ``text`` is in Helvetica-Bold at ``size`` (same units as ``size``)."""
    return sum(_WIDTHS.get(ch, 600) for ch in text) * size / 1000


def _escape(text: str) -> str:
    if not text.isascii():
        raise VisionError(f"the mat writes plain ASCII labels, not {text!r}")
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


@dataclass
class _Drawing:
    """PDF content operators in millimetres, y down."""

    ops: list[str]

    def fill_rect(self, x: float, y: float, w: float, h: float, grey: float = 0.0) -> None:
        self.ops.append(f"{grey:.3f} g {x:.3f} {y:.3f} {w:.3f} {h:.3f} re f")

    def stroke_rect(self, rect: tuple[float, float, float, float], width: float, grey: float) -> None:
        x0, y0, x1, y1 = rect
        self.ops.append(f"{grey:.3f} G {width:.3f} w {x0:.3f} {y0:.3f} {x1 - x0:.3f} {y1 - y0:.3f} re S")

    def line(self, a: tuple[float, float], b: tuple[float, float], width: float, grey: float) -> None:
        self.ops.append(f"{grey:.3f} G {width:.3f} w {a[0]:.3f} {a[1]:.3f} m {b[0]:.3f} {b[1]:.3f} l S")

    def text(self, text: str, x: float, y: float, size: float, grey: float = 0.0,
             facing: str = "bottom", anchor: str = "left") -> None:
        """``text`` with its baseline starting at (x, y) — or centred on it — upright for the
        player at ``facing``."""
        a, b, c, d = _FACING[facing]
        if anchor == "center":
            half = text_width(text, size) / 2
            x, y = x - a * half, y - b * half
        self.ops.append(f"BT {grey:.3f} g /F1 {size:.3f} Tf {a} {b} {c} {d} {x:.3f} {y:.3f} Tm "
                        f"({_escape(text)}) Tj ET")


def _markers(draw: _Drawing, mat: MatLayout) -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    for k, corners in mat.marker_corners().items():
        cells = int(dictionary.markerSize) + 2  # the bits and a black border of one cell
        bits = cv2.aruco.generateImageMarker(dictionary, k, cells)
        cell = mat.marker / cells
        x0, y0 = float(corners[0][0]), float(corners[0][1])
        for r in range(cells):
            c = 0
            while c < cells:  # a row's run of black cells as one rectangle
                if bits[r, c] >= 128:
                    c += 1
                    continue
                start = c
                while c < cells and bits[r, c] < 128:
                    c += 1
                draw.fill_rect(x0 + start * cell, y0 + r * cell, (c - start) * cell, cell)


def _scale_bar(draw: _Drawing, mat: MatLayout) -> None:
    """A 100 mm bar with centimetre ticks in the top band, between the top markers."""
    x0 = (mat.width - SCALE_BAR_MM) / 2
    y = mat.margin + mat.marker * 0.55
    draw.line((x0, y), (x0 + SCALE_BAR_MM, y), 0.5, 0.0)
    for i in range(11):
        tick = 4.0 if i in (0, 5, 10) else 2.5
        draw.line((x0 + i * 10, y - tick), (x0 + i * 10, y), 0.35, 0.0)
    size = min(4.0, mat.marker * 0.13)
    draw.text("100 mm - check with a ruler: print at 100%, no fit to page", mat.width / 2,
              y + size * 1.6, size, 0.2, anchor="center")


def mat_drawing(mat: MatLayout) -> list[str]:
    """Every mark on the mat as PDF operators (millimetres, y down)."""
    draw = _Drawing([])
    _markers(draw, mat)
    zones = mat.zones()
    centre = zones[-1]
    for zone in zones:
        draw.stroke_rect(zone.rect, 0.6, 0.62)
    for zone in zones[:-1]:
        x0, y0, x1, y1 = zone.rect
        facing = side_of(zone, centre)
        along, across = (y1 - y0, x1 - x0) if facing in ("left", "right") else (x1 - x0, y1 - y0)
        label = seat_label(zone)
        size = min(across * 0.3, along * 0.8 / max(1e-6, text_width(label, 1.0)), 24.0)
        # the label near the player's edge of the zone, centred along it
        edge = {"bottom": (x0 + x1) / 2, "top": (x0 + x1) / 2, "left": (y0 + y1) / 2, "right": (y0 + y1) / 2}[facing]
        inset = size * 0.5
        point = {"bottom": (edge, y1 - inset), "top": (edge, y0 + inset),
                 "left": (x0 + inset, edge), "right": (x1 - inset, edge)}[facing]
        draw.text(label, point[0], point[1], size, 0.55, facing, anchor="center")
    cx0, cy0, cx1, cy1 = centre.rect
    draw.text("CENTRE: stock and discards", (cx0 + cx1) / 2, cy0 + 8, min(6.0, (cx1 - cx0) / 40), 0.62,
              anchor="center")
    _scale_bar(draw, mat)
    return draw.ops


def tiles(mat: MatLayout, paper: tuple[float, float] | None) -> Iterator[tuple[int, int, float, float]]:
    """(row, column, x, y) of each page's window onto the mat: one page the mat's own size, or
    windows of the paper's printable area overlapping by the print margin."""
    if paper is None:
        yield 1, 1, 0.0, 0.0
        return
    usable_w = paper[0] - 2 * PRINT_MARGIN_MM
    usable_h = paper[1] - 2 * PRINT_MARGIN_MM
    step_w, step_h = usable_w - PRINT_MARGIN_MM, usable_h - PRINT_MARGIN_MM
    cols = max(1, math.ceil((mat.width - PRINT_MARGIN_MM) / step_w))
    rows = max(1, math.ceil((mat.height - PRINT_MARGIN_MM) / step_h))
    for r in range(rows):
        for c in range(cols):
            yield r + 1, c + 1, c * step_w, r * step_h


def write_pdf(path: Path, mat: MatLayout, paper: str | None = None) -> int:
    """Write the mat to ``path`` as a vector PDF, on one page of its own size or tiled onto
    ``paper`` (``A4`` or ``letter``); returns the number of pages."""
    if paper is not None and paper not in PAPERS:
        raise VisionError(f"unknown paper {paper!r}; choose one of {', '.join(PAPERS)}")
    size = PAPERS[paper] if paper else (mat.width, mat.height)
    body = "\n".join(mat_drawing(mat))
    contents = []
    for row, col, x, y in tiles(mat, PAPERS[paper] if paper else None):
        # the page in mm with y down, its window moved under the printable area and clipped
        off = PRINT_MARGIN_MM if paper else 0.0
        w = size[0] - 2 * off
        h = size[1] - 2 * off
        page = [f"{PT_PER_MM:.6f} 0 0 {-PT_PER_MM:.6f} 0 {size[1] * PT_PER_MM:.4f} cm"]
        if paper:
            page += [_crop_marks(off, w, h), f"q {off:.3f} {off:.3f} {w:.3f} {h:.3f} re W n",
                     f"1 0 0 1 {off - x:.3f} {off - y:.3f} cm"]
        page += [body, "Q" if paper else ""]
        if paper:
            label = _Drawing([])
            label.text(f"{mat.name} mat, row {row} column {col} - overlap {PRINT_MARGIN_MM:.0f} mm, "
                       "trim and tape in order", off, size[1] - off / 3, 3.0, 0.45)
            page += label.ops
        contents.append("\n".join(page).encode("ascii"))
    _write(path, contents, size)
    return len(contents)


def _crop_marks(off: float, w: float, h: float) -> str:
    draw = _Drawing([])
    for x, y, dx, dy in ((off, off, -1, -1), (off + w, off, 1, -1), (off + w, off + h, 1, 1), (off, off + h, -1, 1)):
        draw.line((x, y + dy * 1.0), (x, y + dy * (off - 1.0)), 0.2, 0.5)
        draw.line((x + dx * 1.0, y), (x + dx * (off - 1.0), y), 0.2, 0.5)
    return "\n".join(draw.ops)


def _write(path: Path, contents: list[bytes], size_mm: tuple[float, float]) -> None:
    """A PDF of ``contents`` (one content stream a page) with Helvetica-Bold as ``/F1``."""
    pw, ph = size_mm[0] * PT_PER_MM, size_mm[1] * PT_PER_MM
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"]
    kids = []
    for content in contents:
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] "
                       b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>"
                       % (pw, ph, len(objects)))
        kids.append(b"%d 0 R" % len(objects))
    objects[1] = b"<< /Type /Pages /Kids [" + b" ".join(kids) + b"] /Count %d >>" % len(kids)
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets) + 1, xref)
    try:
        path.write_bytes(bytes(out))
    except OSError as exc:
        raise VisionError(f"cannot write {path}: {exc.strerror or exc}") from None
