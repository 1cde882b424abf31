"""A tile table seen at a slant, looked at again as from straight above.

A camera tilted toward a table shows its far tiles smaller than its near ones, and squashed
along the tilt as well as shrunk. The tile reader sizes its look by the tiles' typical height,
so at a strong slant the far rows come out too small and too flat to read, and a larger look
does not mend the squash (``vision/HISTORY.md``, "Camera slants in training").

A plane's image has a property that lets the slant be undone from the tiles alone: the depth
of a point of the plane is, inverted, a linear function of where it lies in the photo, and a
flat piece of the plane shows an area that goes as the cube of that function (its width as
the function, its length along the tilt as its square). So the cube root of each found tile's
area, fitted as a linear function ``w(x, y)`` of its centre, gives the line where the plane
meets the horizon (``w = 0``), and the homography whose last row is ``w``'s coefficients maps
the photo to one in which every tile of the table shows the same area and shape up to one
affine map for all (the affine rectification from the vanishing line). The tiles of that view
are read as any photo's, and their centres, boxes and ups are taken back to the photo.

Only a slant the tiles show plainly is undone: at least ``MIN_TILES`` sure tiles, and their
fitted sizes from the nearest to the farthest tile differing by ``MIN_RATIO`` or more (a flat
photo's tiles, all alike, give a ratio near 1 and are read as they are).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision.tile_grouping import ASPECT, Tile

#: Sure tiles needed to fit the table's plane.
MIN_TILES: Final = 8
#: The least ratio of the fitted tile size at the nearest sure tile to that at the farthest
#: that calls for the look from above (sizes as the square root of the area).
MIN_RATIO: Final = 1.8
#: The view from above is drawn only where the plane's ``w`` is at least this share of its
#: value at the nearest tile: the photo's far edge, near the horizon, would be blown up.
MIN_DEPTH_SHARE: Final = 0.2
#: The view shows the photo this many tile heights around the sure tiles.
MARGIN: Final = 3.0
#: The longer side of the view from above, at most (pixels).
MAX_SIDE: Final = 1600
#: Fitting rounds, each leaving out the tiles that lie farthest from the last fit.
FIT_ROUNDS: Final = 3
#: A tile is left out of the next round's fit when it lies this many median deviations off.
FIT_REJECT: Final = 3.0


@dataclass(frozen=True, slots=True)
class LevelView:
    """How a slanted photo is seen from above: ``matrix`` maps the photo's pixels to the
    view's (a 3×3 homography), ``size`` is the view's (width, height), ``ratio`` the
    nearest fitted tile's size over the farthest's, ``origin`` the nearest tile's centre in
    the photo, about which the view is the photo itself (scaled at most), and ``tile_px``
    the height every tile of the table has in the view (the nearest tile's, as measured)."""

    matrix: np.ndarray
    size: tuple[int, int]
    ratio: float
    origin: tuple[float, float]
    tile_px: float

    def warp(self, image: np.ndarray) -> np.ndarray:
        """The photo seen from above (outside the photo: black)."""
        out: np.ndarray = cv2.warpPerspective(image, self.matrix, self.size, flags=cv2.INTER_LINEAR,
                                              borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
        return out

    def back(self, points: np.ndarray) -> np.ndarray:
        """Points of the view (N×2) as the photo's pixels."""
        inverse = np.linalg.inv(self.matrix)
        return _mapped(inverse, points)


def _mapped(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    out: np.ndarray = cv2.perspectiveTransform(pts, matrix).reshape(-1, 2)
    return out


def tile_areas(boxes: np.ndarray, ups: np.ndarray) -> np.ndarray:
    """Each tile's area in pixels from its axis-aligned box (N×4) and up direction (N×2): a
    tile ``ASPECT`` times as wide as high, turned so, fills that share of its box."""
    length = np.linalg.norm(ups, axis=1)
    told = np.isfinite(length) & (length > 1e-9)
    c = np.where(told, np.abs(ups[:, 1]) / np.where(told, length, 1.0), 1.0)
    s = np.where(told, np.abs(ups[:, 0]) / np.where(told, length, 1.0), 0.0)
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    out: np.ndarray = w * h * ASPECT / np.maximum((ASPECT * c + s) * (ASPECT * s + c), 1e-6)
    return out


def depth_plane(centres: np.ndarray, areas: np.ndarray) -> np.ndarray | None:
    """The coefficients ``(a, b, c)`` of ``w = a·x + b·y + c`` fitted to the cube roots of
    the tiles' areas at their centres (N×2), the farthest-lying tiles left out round by
    round; None when fewer than three tiles remain or the fit is degenerate."""
    q = np.cbrt(np.maximum(areas, 1e-6))
    design = np.column_stack([centres, np.ones(len(centres))])
    keep = np.ones(len(q), bool)
    coef: np.ndarray | None = None
    for _ in range(FIT_ROUNDS):
        if keep.sum() < 3:
            return None
        coef, _, rank, _ = np.linalg.lstsq(design[keep], q[keep], rcond=None)
        if rank < 3:
            return None
        resid = np.abs(design @ coef - q)
        spread = float(np.median(resid[keep])) * 1.4826 + 1e-9
        keep = resid <= FIT_REJECT * spread
    return coef


def level_view(sure: Sequence[Tile], shape: tuple[int, int], min_tiles: int = MIN_TILES,
               min_ratio: float = MIN_RATIO) -> LevelView | None:
    """The view from above of a photo (``shape``: height, width) whose ``sure`` tiles (the
    tiles found surely) show the table at a slant, or None when they do not show one plainly
    (fewer than ``min_tiles`` of them, or a size ratio under ``min_ratio``)."""
    if len(sure) < min_tiles:
        return None
    boxes = np.array([t.box for t in sure], np.float64).reshape(-1, 4)
    ups = np.array([t.up for t in sure], np.float64).reshape(-1, 2)
    areas = tile_areas(boxes, ups)
    measured = np.isfinite(boxes).all(axis=1) & np.isfinite(areas) & (areas > 0)
    if measured.sum() < min_tiles:  # a box the network could not size counts for nothing
        return None
    boxes, areas = boxes[measured], areas[measured]
    centres = np.column_stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2])
    coef = depth_plane(centres, areas)
    if coef is None:
        return None
    w = centres @ coef[:2] + coef[2]
    near, far = float(w.max()), float(w.min())
    if far <= 0:
        return None
    ratio = (near / far) ** 1.5  # sizes as the square root of an area that goes as w cubed
    if ratio < min_ratio:
        return None
    # the view is the photo itself about the nearest tile (w 1 there, and no turn, stretch
    # or shear: the homography's derivative there is the identity), every other tile shown
    # as big and as square as the tiles there
    x0, y0 = centres[int(np.argmax(w))]
    g = coef[:2] / near
    matrix = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [g[0], g[1], coef[2] / near]])
    # the part of the photo to draw: around the sure tiles (by ``MARGIN`` of the nearest
    # tile's height, which every tile has in the view), within the photo and where w is not
    # too near the horizon
    height, width = shape
    gx, gy = np.meshgrid(np.linspace(0, width, 33), np.linspace(0, height, 25))
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    grid = grid[grid @ g + coef[2] / near >= MIN_DEPTH_SHARE]
    if len(grid) < 4:
        return None
    photo = _mapped(matrix, grid)
    tiles_seen = _mapped(matrix, boxes[:, [0, 1, 2, 1, 2, 3, 0, 3]].reshape(-1, 2))
    nearest = math.sqrt(float(areas[int(np.argmax(w))]) / ASPECT)  # its height
    reach = MARGIN * nearest
    lo = np.maximum(tiles_seen.min(axis=0) - reach, photo.min(axis=0))
    hi = np.minimum(tiles_seen.max(axis=0) + reach, photo.max(axis=0))
    scale = min(1.0, MAX_SIDE / max(float(max(hi - lo)), 1.0))
    fit = np.array([[scale, 0.0, -scale * lo[0]], [0.0, scale, -scale * lo[1]], [0.0, 0.0, 1.0]])
    size = (max(1, int(np.ceil((hi[0] - lo[0]) * scale))), max(1, int(np.ceil((hi[1] - lo[1]) * scale))))
    return LevelView(fit @ matrix, size, float(ratio), (float(x0), float(y0)), nearest * scale)
