"""A slanted tile table seen from above (``vision.tile_plane``) and read so by the tile reader."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pygame
import pytest

import vision.tile_reader
from vision.synth import camera_view
from vision.tile_grouping import ASPECT
from vision.tile_plane import LevelView, depth_plane, level_view
from vision.tile_reader import (
    LOOKS,
    TILE_CLASSES,
    TilePeak,
    find_looks,
    read_tile_table,
    tiles_back,
)
from vision.tile_synth import tile_scene

BUNDLED = (Path(pygame.__file__).parent / pygame.font.get_default_font(),)
SIZE = (1280, 960)


@dataclass(frozen=True)
class Found:
    """A tile as the reader's looks give it: centre, box, up and heat."""

    x: float
    y: float
    box: tuple[float, float, float, float]
    up: tuple[float, float]
    score: float = 0.9


def _quads(matrix: np.ndarray, height: float = 60.0) -> list[np.ndarray]:
    """Upright tiles ``height`` high laid in rows over the middle of a table seen from straight
    above, each as its four corners in the photo that ``matrix`` makes of the table."""
    w, h = height * ASPECT, height
    out = []
    for row in range(6):
        for col in range(10):
            x, y = 300 + col * (w + 2), 300 + row * (h + 30)
            corners = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64)
            out.append(cv2.perspectiveTransform(corners.reshape(-1, 1, 2), matrix).reshape(-1, 2))
    return out


def _found(quads: list[np.ndarray]) -> list[Found]:
    out = []
    for q in quads:
        top, bottom = (q[0] + q[1]) / 2, (q[2] + q[3]) / 2
        up = (top - bottom) / np.linalg.norm(top - bottom)
        x0, y0 = q.min(axis=0)
        x1, y1 = q.max(axis=0)
        out.append(Found(float(q[:, 0].mean()), float(q[:, 1].mean()), (x0, y0, x1, y1), (up[0], up[1])))
    return out


def _areas(view: LevelView, quads: list[np.ndarray]) -> np.ndarray:
    return np.array([cv2.contourArea(cv2.perspectiveTransform(q.reshape(-1, 1, 2), view.matrix)
                                     .astype(np.float32)) for q in quads])


def test_the_plane_is_fitted_from_the_tiles_sizes_and_a_stray_tile_left_out() -> None:
    rng = np.random.default_rng(0)
    centres = rng.uniform(0, 1000, (40, 2))
    w = 0.0004 * centres[:, 0] - 0.0007 * centres[:, 1] + 1.2
    areas = w ** 3 * 2000
    areas[3] *= 4  # a tile measured far off (two tiles found as one)
    coef = depth_plane(centres, areas)
    assert coef is not None
    # the fit is of the areas' cube roots: the same plane, scaled
    k = coef[2] / 1.2
    assert np.allclose(coef / k, [0.0004, -0.0007, 1.2], atol=2e-5)
    assert depth_plane(centres[:2], areas[:2]) is None


def test_a_table_seen_from_straight_above_is_read_as_it_is() -> None:
    quads = _quads(np.eye(3))
    assert level_view(_found(quads), SIZE[::-1]) is None
    assert level_view(_found(quads)[:7], SIZE[::-1], min_ratio=1.0) is None  # too few to fit


def test_a_camera_s_slant_is_undone_every_tile_shown_alike() -> None:
    matrix = camera_view(*SIZE, math.radians(50), side=math.radians(200))
    quads = _quads(matrix)
    areas = np.array([cv2.contourArea(q.astype(np.float32)) for q in quads])
    assert areas.max() / areas.min() > 2.5  # the near tiles far bigger than the far ones
    view = level_view(_found(quads), SIZE[::-1])
    assert view is not None and view.ratio >= 1.8
    seen = _areas(view, quads)
    assert seen.max() / seen.min() < 1.25
    assert max(view.size) <= 1600
    # the view is drawn where the tiles are: every tile's corners inside it
    for q in quads:
        pts = cv2.perspectiveTransform(q.reshape(-1, 1, 2), view.matrix).reshape(-1, 2)
        assert (pts >= -1).all() and (pts[:, 0] <= view.size[0] + 1).all() and (pts[:, 1] <= view.size[1] + 1).all()


def test_the_view_is_the_photo_itself_about_the_nearest_tile() -> None:
    matrix = camera_view(*SIZE, math.radians(55), side=math.radians(200))
    found = _found(_quads(matrix))
    view = level_view(found, SIZE[::-1])
    assert view is not None
    x, y = view.origin
    assert any(math.hypot(t.x - x, t.y - y) < 1 for t in found)  # a tile's centre
    p = np.array([[x, y], [x + 1, y], [x, y + 1]])
    seen = cv2.perspectiveTransform(p.reshape(-1, 1, 2), view.matrix).reshape(-1, 2)
    derivative = np.column_stack([seen[1] - seen[0], seen[2] - seen[0]])
    scale = math.sqrt(abs(np.linalg.det(derivative)))
    # a uniform scale (the view's size cap) and nothing else: no turn, stretch or shear there
    assert np.allclose(derivative / scale, np.eye(2), atol=0.08)


def test_a_tile_read_in_the_view_is_taken_back_where_it_lies() -> None:
    matrix = camera_view(*SIZE, math.radians(50), side=math.radians(200))
    found = _found(_quads(matrix))
    view = level_view(found, SIZE[::-1])
    assert view is not None
    tile = found[25]
    centre = cv2.perspectiveTransform(np.array([[[tile.x, tile.y]]]), view.matrix)[0, 0]
    up_at = cv2.perspectiveTransform(np.array([[[tile.x + 5 * tile.up[0], tile.y + 5 * tile.up[1]]]]),
                                     view.matrix)[0, 0]
    up = (up_at - centre) / np.linalg.norm(up_at - centre)
    probs = np.zeros(len(TILE_CLASSES), np.float32)
    probs[0] = 1.0
    peak = TilePeak(float(centre[0]), float(centre[1]),
                    (centre[0] - 20, centre[1] - 28, centre[0] + 20, centre[1] + 28), 0.9, probs,
                    (float(up[0]), float(up[1])))
    back, = tiles_back(view, [peak])
    assert tiles_back(view, []) == []
    assert math.hypot(back.x - tile.x, back.y - tile.y) < 0.5
    assert np.dot(back.up, tile.up) > 0.99
    assert back.box[0] < tile.x < back.box[2] and back.box[1] < tile.y < back.box[3]
    assert back.probs is peak.probs


def test_a_table_drawn_at_a_camera_s_slant_is_read_better_from_above() -> None:
    rng = np.random.default_rng(3)
    image, tiles = tile_scene(rng, (960, 720), (40.0, 90.0), "rows", None, True, 0.55, fonts=BUNDLED,
                              perspective="camera")
    want = Counter(t.tile for t in tiles)
    flat = read_tile_table(image, level=0.0)
    level = read_tile_table(image)

    def right(reading) -> int:  # type: ignore[no-untyped-def]
        return sum((Counter(c.card for c in reading.cards) & want).values())

    assert right(level) >= right(flat) + 10
    assert right(level) >= 0.85 * len(tiles)
    # boxes in the photo, and every tile in one group at most
    h, w = image.shape[:2]
    assert all(0 <= c.box[0] <= c.box[2] <= w and 0 <= c.box[1] <= c.box[3] <= h for c in level.cards)
    grouped = [i for g in level.groups for i in g]
    assert len(grouped) == len(set(grouped)) and all(0 <= i < len(level.cards) for i in grouped)


def _camera_table() -> tuple[np.ndarray, Counter[str]]:
    image, tiles = tile_scene(np.random.default_rng(3), (960, 720), (40.0, 90.0), "rows", None, True, 0.55,
                              fonts=BUNDLED, perspective="camera")
    return image, Counter(t.tile for t in tiles)


def _looks_recorded(monkeypatch: pytest.MonkeyPatch, photo: np.ndarray) -> tuple[list[int], list[int]]:
    """The input sizes of the tile network's looks at ``photo`` and at anything else (the
    view from above), as they are made."""
    at_photo: list[int] = []
    elsewhere: list[int] = []
    real = vision.tile_reader.tile_maps

    def recorded(image: np.ndarray, weights: Path, size: int) -> tuple[np.ndarray, float]:
        (at_photo if image is photo else elsewhere).append(size)
        return real(image, weights, size)

    monkeypatch.setattr(vision.tile_reader, "tile_maps", recorded)
    return at_photo, elsewhere


def test_a_plainly_slanted_table_is_read_from_above_without_more_looks_at_the_photo(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the looks made show the slant plainly, the photo is looked at no more: the view
    from above is sized for its own tiles and read instead, and reads as well as ever."""
    image, want = _camera_table()
    at_photo, from_above = _looks_recorded(monkeypatch, image)
    flat = read_tile_table(image, level=0.0)
    every_look = list(at_photo)
    assert len(every_look) == LOOKS and from_above == []  # the flat reader looks three times
    at_photo.clear()
    level = read_tile_table(image)
    assert len(at_photo) < len(every_look) and at_photo == every_look[:len(at_photo)]
    assert len(from_above) == 1

    def right(reading) -> int:  # type: ignore[no-untyped-def]
        return sum((Counter(c.card for c in reading.cards) & want).values())

    assert right(level) >= right(flat) + 10
    # looks stopped early take up where they stopped: the same looks as made in one go
    stopped = find_looks(image, enough=lambda made: True)
    assert stopped.sizes == tuple(every_look[:1])
    assert find_looks(image, made=stopped).sizes == find_looks(image).sizes == tuple(every_look)


def test_when_the_view_from_above_finds_no_more_the_photo_is_looked_at_as_ever(
        monkeypatch: pytest.MonkeyPatch) -> None:
    image, _ = _camera_table()
    at_photo, _ = _looks_recorded(monkeypatch, image)
    flat = read_tile_table(image, level=0.0)
    every_look = list(at_photo)
    monkeypatch.setattr(vision.tile_reader, "from_above", lambda *args: None)
    at_photo.clear()
    reading = read_tile_table(image)
    assert at_photo == every_look
    assert [c.card for c in reading.cards] == [c.card for c in flat.cards]


def test_tiles_the_network_could_not_size_count_for_nothing() -> None:
    matrix = camera_view(*SIZE, math.radians(50), side=math.radians(200))
    found = _found(_quads(matrix))
    broken = [Found(t.x, t.y, (t.box[0], t.box[1], math.inf, t.box[3]), t.up) for t in found[:5]]
    unturned = [Found(t.x, t.y, t.box, (math.nan, math.nan)) for t in found[5:8]]
    view = level_view(broken + unturned + found[8:], SIZE[::-1])
    assert view is not None and math.isfinite(view.ratio)
    assert np.isfinite(view.matrix).all()
    assert level_view(broken + found[:7], SIZE[::-1], min_ratio=1.0) is None  # 7 measured
