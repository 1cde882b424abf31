"""A slanted tile table seen from above (``vision.tile_plane``) and read so by the tile reader."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pygame

from vision.synth import camera_view
from vision.tile_grouping import ASPECT
from vision.tile_plane import LevelView, depth_plane, level_view
from vision.tile_reader import TILE_CLASSES, TilePeak, read_tile_table, tiles_back
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


def test_tiles_the_network_could_not_size_count_for_nothing() -> None:
    matrix = camera_view(*SIZE, math.radians(50), side=math.radians(200))
    found = _found(_quads(matrix))
    broken = [Found(t.x, t.y, (t.box[0], t.box[1], math.inf, t.box[3]), t.up) for t in found[:5]]
    unturned = [Found(t.x, t.y, t.box, (math.nan, math.nan)) for t in found[5:8]]
    view = level_view(broken + unturned + found[8:], SIZE[::-1])
    assert view is not None and math.isfinite(view.ratio)
    assert np.isfinite(view.matrix).all()
    assert level_view(broken + found[:7], SIZE[::-1], min_ratio=1.0) is None  # 7 measured
