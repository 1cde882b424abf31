"""The mat's vector PDF, rendered back with PDFium and looked at: markers where the layout puts
them to the millimetre (so calibration measures true sizes), every seat labelled, the scale
bar 100 mm long, tiles that cover the whole mat."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pypdfium2 as pdfium
import pytest

from tablekit.cli import main
from vision.calibration import calibrate
from vision.errors import VisionError
from vision.mat import ARUCO_DICT, SIZES, layout
from vision.mat_pdf import PAPERS, PT_PER_MM, SCALE_BAR_MM, text_width, tiles, write_pdf

DPI = 100.0


def _page(pdf: Path, index: int = 0) -> tuple[np.ndarray, str, tuple[float, float]]:
    """A page as a BGR image at ``DPI``, its text, and its size in mm."""
    doc = pdfium.PdfDocument(str(pdf))
    page = doc[index]
    image = page.render(scale=DPI / 72).to_numpy().copy()
    text = page.get_textpage().get_text_range()
    w, h = page.get_size()
    doc.close()
    return image, text, (w / PT_PER_MM, h / PT_PER_MM)


def _markers(image: np.ndarray) -> dict[int, np.ndarray]:
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT))
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    return {} if ids is None else {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}


@pytest.mark.parametrize(("size", "seats"), [("A3", 4), ("A4", 2), ("letter", 6), ("A2", 8)])
def test_markers_and_labels_are_where_the_layout_says(tmp_path: Path, size: str, seats: int) -> None:
    mat = layout(size, seats)
    pdf = tmp_path / "mat.pdf"
    assert write_pdf(pdf, mat) == 1
    image, text, page_mm = _page(pdf)
    assert page_mm == pytest.approx(SIZES[size], abs=0.05)
    found = _markers(image)
    assert sorted(found) == [0, 1, 2, 3]
    px_per_mm = DPI / 25.4
    for k, corners_mm in mat.marker_corners().items():
        assert np.abs(found[k] - corners_mm * px_per_mm).max() < 2.0, k  # within 0.5 mm
    for n in range(1, seats + 1):
        assert f"SEAT {n}" in text
    assert "100 mm" in text
    # the markers calibrate the rendered page as they would a photo of the printed mat
    cal = calibrate(image, mat)
    assert cal.zone_of(*(np.array(image.shape[1::-1]) / 2)) == "centre"


def test_the_scale_bar_is_100_mm(tmp_path: Path) -> None:
    mat = layout("A3")
    pdf = tmp_path / "mat.pdf"
    write_pdf(pdf, mat)
    image, _, _ = _page(pdf)
    px_per_mm = DPI / 25.4
    y = round((mat.margin + mat.marker * 0.55) * px_per_mm)
    inner = round((mat.margin + mat.marker + 2) * px_per_mm)  # between the top markers
    band = image[y - 1:y + 2, inner:-inner].min(axis=(0, 2)) < 100  # the bar's dark pixels
    xs = np.flatnonzero(band)
    assert abs((xs.max() - xs.min()) / px_per_mm - SCALE_BAR_MM) < 1.0


def test_seat_labels_are_large_and_face_their_players(tmp_path: Path) -> None:
    mat = layout("A3", 4)
    pdf = tmp_path / "mat.pdf"
    write_pdf(pdf, mat)
    data = pdf.read_bytes()
    # text matrices: upright at the bottom, turned a half turn at the top, quarter turns at the sides
    for matrix in (b"1 0 0 -1", b"-1 0 0 1", b"0 1 1 0", b"0 -1 -1 0"):
        assert matrix + b" " in data
    sizes = [float(m) for m in re.findall(rb"/F1 ([0-9.]+) Tf", data)]
    assert max(sizes) >= 15  # the seat labels: at least 15 mm letters
    assert text_width("SEAT 1", 10) == pytest.approx(35.01, abs=0.01)  # S E A T space 1


@pytest.mark.parametrize("paper", list(PAPERS))
def test_a_tiled_mat_covers_the_mat_with_overlap(tmp_path: Path, paper: str) -> None:
    mat = layout("A2")
    pdf = tmp_path / "mat.pdf"
    count = write_pdf(pdf, mat, paper)
    windows = list(tiles(mat, PAPERS[paper]))
    assert count == len(windows) == len(pdfium.PdfDocument(str(pdf)))
    usable = (PAPERS[paper][0] - 16, PAPERS[paper][1] - 16)
    assert max(x for _, _, x, _ in windows) + usable[0] >= mat.width
    assert max(y for _, _, _, y in windows) + usable[1] >= mat.height
    image, text, page_mm = _page(pdf, 0)
    assert page_mm == pytest.approx(PAPERS[paper], abs=0.05)
    assert "row 1 column 1" in text
    assert 0 in _markers(image)  # the first page holds the top-left marker, whole


def test_bad_mat_requests_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(VisionError, match="unknown paper"):
        write_pdf(tmp_path / "m.pdf", layout("A3"), "A5")
    assert main(["mat", "--dpi", "0", "--out", str(tmp_path / "m")]) == 2
    assert "--dpi" in capsys.readouterr().err
    (tmp_path / "taken.pdf").mkdir()
    assert main(["mat", "--out", str(tmp_path / "taken")]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_mat_command_writes_the_vector_pdf_and_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mat", "--size", "A4", "--seats", "3", "--tile", "letter", "--dpi", "40",
                 "--out", str(tmp_path / "mat")]) == 0
    assert "page(s) on letter paper" in capsys.readouterr().out
    data = (tmp_path / "mat.pdf").read_bytes()
    assert b"/Subtype /Image" not in data  # drawn, not a picture
    png = cv2.imread(str(tmp_path / "mat.png"))
    assert png is not None and png.shape[:2] == (round(210 * 40 / 25.4), round(297 * 40 / 25.4))
