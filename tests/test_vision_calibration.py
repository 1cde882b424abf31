"""Calibration on a rendered mat warped by a known homography; the mat's files."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.calibration import Calibration, calibrate, find_markers
from vision.errors import CalibrationError
from vision.mat import layout, render
from vision.reading import DetectedCard, TableReading

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


def test_another_resolution_of_the_same_shape_scales_the_homography() -> None:
    view, _ = _camera_view()
    cal = calibrate(view, layout("A3"))
    half = cal.for_size(620, 410)
    assert half.image_size == (620, 410) and cal.for_size(1240, 820) is cal
    pts = np.array([[300.0, 250.0], [900.0, 400.0]])
    assert np.abs(half.to_mat((pts + 0.5) / 2 - 0.5) - cal.to_mat(pts)).max() < 1e-6
    small = cv2.resize(view, (620, 410), interpolation=cv2.INTER_AREA)
    diff = np.abs(cal.top_down(small).astype(int) - cal.top_down(view).astype(int))
    assert np.median(diff) < 4
    with pytest.raises(CalibrationError, match="640x480 pixels .* 1240x820"):
        cal.for_size(640, 480)


def test_reading_the_top_down_view_maps_boxes_back_and_names_zones() -> None:
    view, truth = _camera_view()
    cal = calibrate(view, layout("A3"))
    seen: list[tuple[int, ...]] = []

    # one card on the centre zone, one in seat 1's zone, one on the marker band (no zone); mm
    boxes = [(190.0, 130.0, 230.0, 170.0), (100.0, 200.0, 160.0, 230.0), (2.0, 2.0, 10.0, 10.0)]

    def reader(image: np.ndarray) -> TableReading:
        seen.append(image.shape)
        px = cal.px_per_mm
        cards = []
        for x0, y0, x1, y1 in boxes:
            box = (x0 * px, y0 * px, x1 * px, y1 * px)
            cards.append(DetectedCard("QH", box, 0.9, (box,)))
        return TableReading(tuple(cards), ((0,), (1, 2)))

    reading = cal.read_top_down(view, reader)
    assert seen == [(594, 840, 3)]
    assert [c.zone for c in reading.cards] == ["centre", "seat1", None]
    assert cal.group_zones(reading) == ["centre", "seat1"]
    to_image = np.linalg.inv(truth)
    for card, (x0, y0, x1, y1) in zip(reading.cards[:2], boxes[:2], strict=True):
        corners = np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], np.float64)
        pts = cv2.perspectiveTransform(corners, to_image).reshape(-1, 2)
        want = [*pts.min(axis=0), *pts.max(axis=0)]
        assert np.abs(np.array(card.box) - want).max() < 3
        assert card.indices == (card.box,)
    assert reading.cards[0].to_json()["zone"] == "centre"
    assert "zone" not in reading.cards[2].to_json()


def test_a_saved_calibration_loads_back_with_its_deck_beside_it(tmp_path: Path) -> None:
    view, _ = _camera_view()
    cal = calibrate(view, layout("A3", 6))
    data = cal.to_json() | {"deck": "deck.npz"}
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(data))
    again = Calibration.load(path)
    assert again.mat == cal.mat and len(again.zones) == 7 and again.deck == tmp_path / "deck.npz"
    assert again.white_gains == pytest.approx(cal.white_gains)
    path.write_text(json.dumps(data | {"white_gains": [1, 0, 1]}))
    with pytest.raises(CalibrationError, match="'white_gains' must be positive") as caught:
        Calibration.load(path)
    assert str(caught.value).startswith(f"calibration {path}: ")
