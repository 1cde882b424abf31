"""The tile reader's training targets for one drawn crop (``vision.train.train_tiles``): where
each tile lies, how big it is, which way is up, and its number and colour, on the network's
stride-4 grid. Plain numpy, so the labelling is tested without the training extra."""

from __future__ import annotations

import math

import cv2
import numpy as np

from engine.tiles import COLOURS
from vision.tile_synth import SceneTile

STRIDE = 4
#: In ``targets``, a numeral cut by the crop's edge still names its tile's colour while at
#: least this share of it shows: a sliver of ink may be any colour.
COLOUR_SHOWS = 0.5
#: The number and colour target of a cell whose tile's numeral is too cut to read: a flat
#: distribution (``vision.train.train_tiles.classes_loss``), which the reader takes as unsure (``??``).
FLAT = -2


def shown(quad: np.ndarray, crop: int) -> float:
    """The share of the (convex) quadrilateral ``quad``'s area inside the ``crop`` square."""
    full = abs(float(cv2.contourArea(quad.astype(np.float32))))
    if full <= 0:
        return 0.0
    square = np.array([[0, 0], [crop, 0], [crop, crop], [0, crop]], np.float32)
    inside, _ = cv2.intersectConvexConvex(quad.astype(np.float32), square)
    return min(1.0, float(inside) / full)


def targets(tiles: list[SceneTile], crop: int, cut_below: float = 0.0) -> dict[str, np.ndarray]:
    """Stride-4 training targets for one crop: heat (Gaussian at each tile's centre, 1 at
    its cell), log box size, up direction, number (0–12, 13 the Joly) and colour (-1 for the
    Joly) on the 3×3 cells around each centre (nearest tile wins; -1 elsewhere). A tile whose
    numeral shows less than ``cut_below`` of itself inside the crop is found but not named:
    its number is ``FLAT`` (and its colour too, under ``COLOUR_SHOWS``); with 0, every tile
    found is named, however little of its numeral shows."""
    g = crop // STRIDE
    heat = np.zeros((g, g), np.float32)
    size = np.zeros((2, g, g), np.float32)
    up = np.zeros((2, g, g), np.float32)
    num = np.full((g, g), -1, np.int64)
    col = np.full((g, g), -1, np.int64)
    near = np.full((g, g), np.inf, np.float32)
    for t in tiles:
        cx, cy = t.centre
        x0, y0, x1, y1 = t.box
        w, h = max(2.0, x1 - x0), max(2.0, y1 - y0)
        gx, gy = cx / STRIDE - 0.5, cy / STRIDE - 0.5
        ix, iy = int(round(gx)), int(round(gy))
        side = math.dist(t.quad[0], t.quad[1]) / STRIDE
        sigma = max(0.7, side / 6)
        r = int(math.ceil(3 * sigma))
        ya, yb, xa, xb = max(0, iy - r), min(g, iy + r + 1), max(0, ix - r), min(g, ix + r + 1)
        if ya < yb and xa < xb:
            ys, xs = np.mgrid[ya:yb, xa:xb]
            np.maximum(heat[ya:yb, xa:xb], np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * sigma * sigma)),
                       out=heat[ya:yb, xa:xb])
        if 0 <= ix < g and 0 <= iy < g:
            heat[iy, ix] = 1.0
        joly = t.tile == "JY"
        number, colour = 13 if joly else int(t.tile[1:]) - 1, -1 if joly else COLOURS.index(t.tile[0])
        if cut_below > 0 and (share := shown(t.numeral, crop)) < cut_below:
            number, colour = FLAT, colour if share >= COLOUR_SHOWS or joly else FLAT
        reach = 1 if side >= 5 else 0
        for yy in range(iy - reach, iy + reach + 1):
            for xx in range(ix - reach, ix + reach + 1):
                if 0 <= xx < g and 0 <= yy < g:
                    d = (xx - gx) ** 2 + (yy - gy) ** 2
                    if d < near[yy, xx]:
                        near[yy, xx] = d
                        size[:, yy, xx] = (math.log(w / STRIDE), math.log(h / STRIDE))
                        up[:, yy, xx] = t.up
                        num[yy, xx] = number
                        col[yy, xx] = colour
    return {"heat": heat, "size": size, "up": up, "num": num, "col": col}
