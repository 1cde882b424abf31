"""Calibration on a rendered mat warped by a known homography; the mat's files."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.calibration import Calibration, calibrate, find_markers
from vision.errors import CalibrationError
from vision.mat import LETTER, layout, pages, render, write_pdf

PX_PER_MM = 2.0


def _camera_view(tint: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> tuple[np.ndarray, np.ndarray]:
    """The A3 mat seen by a tilted camera; and the true image→mat(mm) homography."""
    mat = layout("A3")
    flat = render(mat, PX_PER_MM)
    h, w = flat.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[140, 90], [1080, 60], [1160, 760], [70, 700]])
    mat_to_img = cv2.getPerspectiveTransform(src, dst) @ np.diag([PX_PER_MM, PX_PER_MM, 1.0])
    view = cv2.warpPerspective(flat, cv2.getPerspectiveTransform(src, dst), (1240, 820),
                               borderValue=(60, 90, 40))
    view = np.clip(view.astype(np.float32) * np.array(tint, np.float32), 0, 255).astype(np.uint8)
    return view, np.linalg.inv(mat_to_img)


def test_markers_are_found_on_the_rendered_mat() -> None:
    assert sorted(find_markers(render(layout("A3"), 2.0))) == [0, 1, 2, 3]


def test_homography_maps_image_points_to_mat_millimetres() -> None:
    view, truth = _camera_view()
    cal = calibrate(view, layout("A3"))
    pts = np.array([[300.0, 250.0], [900.0, 400.0], [620.0, 650.0]])
    want = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), truth).reshape(-1, 2)
    assert np.abs(cal.to_mat(pts) - want).max() < 2.0  # millimetres


def test_white_balance_undoes_a_colour_cast() -> None:
    view, _ = _camera_view(tint=(0.7, 0.9, 1.0))
    cal = calibrate(view, layout("A3"))
    b, g, r = cal.white_gains
    assert b > g > r * 0.99 and abs(b * 0.7 - r) < 0.08
    fixed = cal.white_balance(view)
    paper = fixed[400, 600].astype(float)
    assert np.ptp(paper) < 12


def test_top_down_view_has_fixed_scale_and_zones(tmp_path: Path) -> None:
    view, _ = _camera_view()
    cal = calibrate(view, layout("A3"), px_per_mm=1.5)
    top = cal.top_down(view)
    assert top.shape[:2] == (round(297 * 1.5), round(420 * 1.5))
    path = tmp_path / "cal.json"
    cal.save(path)
    again = Calibration.load(path)
    assert np.allclose(again.homography, cal.homography)
    # The middle of the image is on the mat's centre zone.
    centre_img = cv2.perspectiveTransform(np.array([[[210.0, 148.5]]]),
                                          np.linalg.inv(cal.homography)).reshape(2)
    assert again.zone_of(*centre_img) == "centre"


def test_no_markers_is_a_calibration_error() -> None:
    with pytest.raises(CalibrationError):
        calibrate(np.full((300, 400, 3), 200, np.uint8), layout("A3"))
    with pytest.raises(ValueError):
        Calibration.load(Path("/nonexistent/cal.json"))


def test_mat_pdf_tiles_onto_letter_pages(tmp_path: Path) -> None:
    sheets = pages(layout("A2"), 1.0, LETTER)
    assert len(sheets) == 9
    pdf = tmp_path / "mat.pdf"
    write_pdf(pdf, sheets, LETTER)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert b"/Count 9" in data
