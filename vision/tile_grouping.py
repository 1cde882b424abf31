"""Grouping tiles into the sets and runs they lie in, by each tile's own frame.

A meld of tiles lies as a row: its tiles stand the same way up, side by side along the row,
pushed together or nearly, and the next meld in the row starts after a wider gap. Grown
boxes (``vision.grouping``, the classical reader's way) cannot tell those gaps apart once a
row is turned on the table (the axis-aligned boxes of turned tiles overlap) or the rows lie
close. The learnt reader knows each tile's up direction (``TilePeak.up``), so two tiles are
neighbours in a meld when they stand along one line (their ups within ``ROW_TURN`` of each
other, or of each other turned half round: a tile read upside down is still in the row), lie
in one row (their centres no more than ``ROW_ACROSS`` of a tile's height apart across it)
and side by side: their centres along the row no further apart than ``ROW_PITCH`` times the
pitch where they lie (``local_pitch``, the larger of the two tiles'): the median, over the
tiles within ``PITCH_REACH`` of a tile, of the distance to the nearest tile beside them, in
tile heights. That pitch is a tile's width plus the gap players leave inside a meld, so it
follows the set's shape and the table's habits instead of a fixed share; it is measured
around each tile because a table seen at a slant squashes its far rows and not its near
ones. A tile's up, read from its small face, can be 30° out, so each tile stands as the tiles
within ``UP_REACH`` stand (``standing``: the axial mean of their ups, its own among them); a
tile whose up the reader could not tell stands alone. Unlike cards,
tiles are not kept apart by the table's colour patches (``vision.table_regions``): the dark
grooves between tiles pushed together cut a row's patch into one patch a tile, and the row's
own geometry already says where table shows between melds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Final, Protocol

import numpy as np

from vision.grouping import connected

#: Two tiles whose up directions differ by more than this (degrees), taken either way
#: round, are not one row's.
ROW_TURN: Final = 45.0
#: Two tiles of one row lie no further apart across it than this share of a tile's height.
ROW_ACROSS: Final = 0.55
#: Two tiles of one row are neighbours in a meld when their centres lie no further apart
#: along it than this many times the pitch where they lie (``local_pitch``).
ROW_PITCH: Final = 1.3
#: A tile's width over its height, to take its height from its axis-aligned box when turned.
ASPECT: Final = 0.72
#: A tile's pitch is measured over the tiles within this many tile heights of it (at least
#: ``PITCH_TILES`` of them; the whole table's pitch where fewer are).
PITCH_REACH: Final = 4.0
PITCH_TILES: Final = 3
#: A tile stands as the tiles within this many tile heights of it stand (the axial mean of
#: their ups, of those turned within ``ROW_TURN`` of its own); 0: as it was read.
UP_REACH: Final = 1.2
#: The pitch, in tile heights, of a table where no two tiles lie side by side.
DEFAULT_PITCH: Final = ASPECT * 1.05
#: Only a tile this near the next one beside it (in tile heights) measures the pitch: lone
#: tiles strewn about the table are no meld's and must not widen it.
MAX_PITCH: Final = 1.5 * DEFAULT_PITCH


class Tile(Protocol):
    """What grouping needs of a tile: its centre, axis-aligned box and up direction."""

    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def box(self) -> tuple[float, float, float, float]: ...
    @property
    def up(self) -> tuple[float, float]: ...


#: A way to group tiles: their positions, a meld's together (``group_tiles``).
RowGrouping = Callable[[Sequence[Tile]], tuple[tuple[int, ...], ...]]


def tile_heights(boxes: np.ndarray, ups: np.ndarray) -> np.ndarray:
    """Each tile's height in pixels from its axis-aligned box (N×4) and up direction (N×2):
    a tile ``ASPECT`` times as wide as high, turned so, has that box (one with no up
    direction is taken as upright)."""
    c, s = np.abs(ups[:, 1]), np.abs(ups[:, 0])
    c = np.where(c + s < 1e-6, 1.0, c)
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    out: np.ndarray = (w + h) / ((1 + ASPECT) * np.maximum(c + s, 1e-6))
    return out


def _frames(tiles: Sequence[Tile], up_reach: float = UP_REACH
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Pairwise (N×N): distance along the row and across it, in mean tile heights, and
    whether the two stand along one line; and each tile's height. With ``up_reach``, each
    tile's up is first taken as the tiles around it stand (``standing``)."""
    centres = np.array([(t.x, t.y) for t in tiles], np.float64)
    boxes = np.array([t.box for t in tiles], np.float64)
    ups = np.array([t.up for t in tiles], np.float64)
    # an up the reader could not tell (none, or not a number) stands for no way: such a tile
    # lines up with no other, and lends no way to the tiles around it
    length = np.linalg.norm(ups, axis=1, keepdims=True)
    told = np.isfinite(length) & (length > 1e-9)
    ups = np.where(told, ups / np.where(told, length, 1.0), 0.0)
    heights = tile_heights(boxes, ups)
    if up_reach > 0:
        dx = centres[None, :, 0] - centres[:, None, 0]
        dy = centres[None, :, 1] - centres[:, None, 1]
        scale = np.maximum((heights[:, None] + heights[None, :]) / 2, 1e-6)
        near = np.hypot(dx, dy) <= up_reach * scale
        ups = standing(ups, near, np.abs(ups @ ups.T) >= math.cos(math.radians(ROW_TURN)))
        heights = tile_heights(boxes, ups)
    along, across, upright = _row_frames(centres, ups, heights)
    return along, across, upright, heights


def _row_frames(centres: np.ndarray, ups: np.ndarray, heights: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairwise distance along the row and across it (in mean tile heights), and whether the
    two stand along one line, from the tiles' centres, unit ups and heights."""
    # a row is a line whichever way its tiles stand: an up read half round (a tile upside
    # down, or the reader's slip) lies along the same line
    ux, uy = ups[:, 0], ups[:, 1]
    cos = ups @ ups.T
    sign = np.where(cos < 0, -1.0, 1.0)
    mx = ux[:, None] + sign * ux[None, :]
    my = uy[:, None] + sign * uy[None, :]
    norm = np.maximum(np.hypot(mx, my), 1e-9)
    mx /= norm
    my /= norm
    dx = centres[None, :, 0] - centres[:, None, 0]
    dy = centres[None, :, 1] - centres[:, None, 1]
    scale = np.maximum((heights[:, None] + heights[None, :]) / 2, 1e-6)
    along = np.abs(my * dx - mx * dy) / scale  # along the row: across the mean up
    across = np.abs(mx * dx + my * dy) / scale
    upright = np.abs(cos) >= math.cos(math.radians(ROW_TURN))
    return along, across, upright


def standing(ups: np.ndarray, near: np.ndarray, upright: np.ndarray) -> np.ndarray:
    """Each tile's up (unit, N×2) as the tiles ``near`` it (N×N, itself among them) that stand
    along one line with it (``upright``) stand: the axial mean of their ups (an up read half
    round counts the same), kept the way its own up points."""
    told = np.abs(ups).sum(axis=1) > 0  # a tile with no up (zero) lends none and takes none
    doubled = 2 * np.arctan2(ups[:, 1], ups[:, 0])
    around = ((near & upright & told[None, :]) | np.eye(len(ups), dtype=bool)).astype(np.float64)
    angle = np.arctan2(around @ np.sin(doubled), around @ np.cos(doubled)) / 2
    out = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    flip = (out * ups).sum(axis=1) < 0
    out[flip] *= -1
    out[~told] = 0.0
    return out


def tile_pitch(along: np.ndarray, same_row: np.ndarray) -> float:
    """The median, over the tiles with a tile beside them within ``MAX_PITCH``, of the
    distance along the row to the nearest one (in tile heights); ``DEFAULT_PITCH`` when none
    has. Distances under a third of a tile's height are the same tile found twice, not a
    neighbour."""
    return _median_pitch(_nearest_beside(along, same_row))


def _median_pitch(nearest: np.ndarray) -> float:
    """``tile_pitch`` from each tile's distance to the nearest one beside it."""
    near = nearest[nearest <= MAX_PITCH]
    return float(np.median(near)) if len(near) else DEFAULT_PITCH


def local_pitch(along: np.ndarray, across: np.ndarray, same_row: np.ndarray,
                reach: float = PITCH_REACH) -> np.ndarray:
    """Each tile's pitch: ``tile_pitch`` over the tiles within ``reach`` tile heights of it,
    where at least ``PITCH_TILES`` of them have a tile beside them within ``MAX_PITCH``; the
    whole table's where fewer do (or ``reach`` is endless)."""
    nearest = _nearest_beside(along, same_row)
    measures = nearest <= MAX_PITCH
    table = _median_pitch(nearest)
    out = np.full(len(nearest), table)
    if not math.isfinite(reach):
        return out
    around = (np.hypot(along, across) <= reach) & measures[None, :]
    enough = around.sum(axis=1) >= PITCH_TILES
    if enough.any():
        values = np.where(around[enough], nearest[None, :], np.nan)
        out[enough] = np.nanmedian(values, axis=1)
    return out


def _nearest_beside(along: np.ndarray, same_row: np.ndarray) -> np.ndarray:
    """Each tile's distance along its row to the nearest tile beside it (endless if none);
    under a third of a tile's height is the same tile found twice, not a neighbour."""
    out: np.ndarray = np.where(same_row & (along > 0.3), along, np.inf).min(axis=1)
    return out


def group_tiles(tiles: Sequence[Tile], pitch: float = ROW_PITCH, pitch_reach: float = PITCH_REACH,
                up_reach: float = UP_REACH) -> tuple[tuple[int, ...], ...]:
    """Groups of tile positions (the tiles of one meld together): within a group in the
    order they read along their row, the groups by their leftmost tile in the image.
    ``pitch`` is how many times the pitch where they lie (``local_pitch``, the larger of the
    two tiles') two neighbours may lie apart along their row; ``pitch_reach`` endless takes
    the whole table's pitch, ``up_reach`` 0 each tile's up as read."""
    n = len(tiles)
    if n == 0:
        return ()
    along, across, upright, _ = _frames(tiles, up_reach)
    same_row = upright & (across <= ROW_ACROSS)
    np.fill_diagonal(same_row, False)
    step = local_pitch(along, across, same_row, pitch_reach)
    linked = same_row & (along <= pitch * np.maximum(step[:, None], step[None, :]))
    pairs = ((int(i), int(j)) for i, j in zip(*np.nonzero(np.triu(linked, 1)), strict=True))
    ordered = [_along_row(tiles, g) for g in connected(n, pairs)]
    return tuple(sorted(ordered, key=lambda g: min(tiles[i].box[0] for i in g)))


def _along_row(tiles: Sequence[Tile], group: list[int]) -> tuple[int, ...]:
    """A group's tiles in the order they read along their row, left to right as the tiles
    themselves stand (a row turned towards another seat reads from that seat's left)."""
    if len(group) < 2:
        return tuple(group)
    ups = np.array([tiles[i].up for i in group], np.float64)
    # the way most of them stand (an up read half round counts for it, turned back)
    first = ups[0]
    up = np.sum(np.where((ups @ first)[:, None] < 0, -ups, ups), axis=0)
    if sum(float(u @ up) < 0 for u in ups) > len(ups) / 2:
        up = -up
    right = np.array([-up[1], up[0]]) / max(float(np.hypot(*up)), 1e-9)
    return tuple(sorted(group, key=lambda i: float(np.dot((tiles[i].x, tiles[i].y), right))))

