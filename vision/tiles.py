"""Rummy tiles: find the tiles on an image, read each one's number and colour, or the Joly.

A classical stage (no learned weights): tiles are light, evenly sized rectangles; inside each,
the ink (pixels well darker or more saturated than the tile face) gives the colour by hue and
the number by correlation with numerals drawn from OpenCV's fonts in several styles; the Joly
is recognised by its face symbol. ``draw_tile`` draws synthetic tiles for tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from engine.cards import UNREADABLE
from vision.reading import DetectedCard

TILE_W, TILE_H = 60, 80
TILE_ASPECT = TILE_W / TILE_H
#: A tile's width over its height lies in this range.
TILE_SHAPE = (0.55, 0.9)
#: Tiles whose boxes come within this share of a tile's size of each other are one set (sets
#: are laid with their tiles touching or nearly).
TILE_REACH = 0.15
#: Ink reaching within this share of a face's width of its rim is not the numeral's.
EDGE = 0.06
GLYPH = (24, 32)
INK_BGR = {"R": (40, 30, 200), "B": (190, 90, 20), "K": (25, 25, 25), "Y": (20, 140, 240)}
_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
          cv2.FONT_HERSHEY_COMPLEX)


def draw_joly_face(img: np.ndarray, cx: int, cy: int, r: int, colour: tuple[int, int, int]) -> None:
    """The Joly's smiling face symbol."""
    cv2.circle(img, (cx, cy), r, colour, max(2, r // 6), cv2.LINE_AA)
    cv2.circle(img, (cx - r // 3, cy - r // 4), max(2, r // 6), colour, -1, cv2.LINE_AA)
    cv2.circle(img, (cx + r // 3, cy - r // 4), max(2, r // 6), colour, -1, cv2.LINE_AA)
    cv2.ellipse(img, (cx, cy + r // 8), (r // 2, r // 3), 0, 20, 160, colour, max(2, r // 6),
                cv2.LINE_AA)


def draw_tile(tile: str, font: int = cv2.FONT_HERSHEY_DUPLEX, scale: float = 1.0) -> np.ndarray:
    """A tile face (``R7``, ``K13``, ``JY``) of ``TILE_W`` × ``TILE_H`` times ``scale``."""
    w, h = round(TILE_W * scale), round(TILE_H * scale)
    img = np.full((h, w, 3), (215, 235, 245), np.uint8)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (170, 190, 200), max(1, round(2 * scale)))
    if tile == "JY":
        draw_joly_face(img, w // 2, round(h * 0.4), round(w * 0.3), INK_BGR["R"])
        return img
    colour, number = tile[0], tile[1:]
    thick = max(2, round(3 * scale))
    fs = cv2.getFontScaleFromHeight(font, round(h * 0.38), thick)
    (tw, th), _ = cv2.getTextSize(number, font, fs, thick)
    if tw > w * 0.85:
        fs *= w * 0.85 / tw
        (tw, th), _ = cv2.getTextSize(number, font, fs, thick)
    cv2.putText(img, number, ((w - tw) // 2, round(h * 0.2) + th), font, fs, INK_BGR[colour],
                thick, cv2.LINE_AA)
    cv2.circle(img, (w // 2, round(h * 0.8)), max(2, round(5 * scale)), (150, 170, 180), -1)
    return img


def draw_sets(sets: list[list[str]], size: tuple[int, int], gap: int, set_gap: int,
              scale: float = 1.2, table: tuple[int, int, int] = (40, 90, 40),
              top: int = 100, left: int = 30) -> np.ndarray:
    """A table ``size`` (width, height) with ``sets`` of drawn tiles laid in one row from
    (``left``, ``top``): ``gap`` pixels between the tiles of a set, ``set_gap`` between sets."""
    img = np.full((size[1], size[0], 3), table, np.uint8)
    x = left
    for tiles in sets:
        for tile in tiles:
            face = draw_tile(tile, cv2.FONT_HERSHEY_DUPLEX, scale)
            h, w = face.shape[:2]
            img[top:top + h, x:x + w] = face
            x += w + gap
        x += set_gap - gap
    return img


def _glyph(mask: np.ndarray) -> np.ndarray | None:
    ys, xs = np.nonzero(mask)
    if len(xs) < 8:
        return None
    crop = mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
    g = cv2.resize(crop, GLYPH, interpolation=cv2.INTER_AREA)
    g -= g.mean()
    n = float(np.linalg.norm(g))
    return g / n if n > 1e-6 else None


@lru_cache(maxsize=1)
def _templates() -> tuple[tuple[str, ...], np.ndarray]:
    names, glyphs = [], []
    for font in _FONTS:
        for number in range(1, 14):
            face = draw_tile(f"K{number}", font, 2.0)
            g = _glyph(_ink(face)[: round(face.shape[0] * 0.68)])
            if g is not None:
                names.append(str(number))
                glyphs.append(g)
    face = draw_tile("JY", scale=2.0)
    g = _glyph(_ink(face)[: round(face.shape[0] * 0.68)])
    assert g is not None
    names.append("JY")
    glyphs.append(g)
    return tuple(names), np.stack(glyphs).reshape(len(names), -1)


def _ink(face: np.ndarray) -> np.ndarray:
    """Pixels of ink on a tile face: darker or more saturated than the face's paper."""
    hsv = cv2.cvtColor(face, cv2.COLOR_BGR2HSV).astype(np.int32)
    paper_v = int(np.percentile(hsv[..., 2], 80))
    paper_s = int(np.percentile(hsv[..., 1], 30))
    return ((hsv[..., 2] < paper_v - 70) | (hsv[..., 1] > paper_s + 90)).astype(np.uint8)


def ink_colour(face: np.ndarray, mask: np.ndarray) -> str:
    """R, Y, B or K from the ink pixels' hue and brightness."""
    hsv = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)[mask > 0]
    if len(hsv) == 0:
        return "K"
    sat = hsv[:, 1].astype(float)
    if np.median(sat) < 90 or np.median(hsv[:, 2]) < 60:
        return "K"
    hue = float(np.median(hsv[:, 0]))
    if hue < 8 or hue > 160:
        return "R"
    if hue < 35:
        return "Y"
    if 85 <= hue <= 135:
        return "B"
    return "K"


@dataclass(frozen=True, slots=True)
class TileRead:
    """One tile's reading from a face image."""

    tile: str
    confidence: float


def _off_the_rim(mask: np.ndarray, rim: int) -> np.ndarray:
    """The ink that does not reach the face's rim (top, left or right edge): a tile found a
    little askew, or seen at a slant, brings a sliver of table or of its neighbour into its
    face, and a numeral never reaches the rim."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    w = mask.shape[1]
    x0, y0 = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    x1 = x0 + stats[:, cv2.CC_STAT_WIDTH]
    keep = (x0 >= rim) & (y0 >= rim) & (x1 <= w - rim)
    keep[0] = False
    out: np.ndarray = keep[labels].astype(np.uint8)
    return out


def read_tile_face(face: np.ndarray) -> TileRead:
    """The tile on an upright face crop (any size), or ``??`` when no numeral matches well."""
    face = cv2.resize(face, (TILE_W * 2, TILE_H * 2), interpolation=cv2.INTER_AREA)
    mask = _ink(face)[: round(face.shape[0] * 0.68)]
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    mask = _off_the_rim(mask, max(1, round(face.shape[1] * EDGE)))
    glyph = _glyph(mask)
    if glyph is None:
        return TileRead(UNREADABLE, 0.0)
    names, templates = _templates()
    sims = templates @ glyph.ravel()
    k = int(np.argmax(sims))
    best = float(sims[k])
    other = max((float(s) for n, s in zip(names, sims, strict=True) if n != names[k]), default=0.0)
    confidence = max(0.0, min(1.0, best)) * min(1.0, 0.5 + 4 * (best - other))
    if names[k] == "JY":
        return TileRead("JY", confidence)
    return TileRead(ink_colour(face[: mask.shape[0]], mask) + names[k], confidence)


def find_tiles(image: np.ndarray, min_area: float = 400.0) -> list[np.ndarray]:
    """Quadrilaterals (4×2, corners clockwise from top-left) of light tile-shaped regions."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    light: np.ndarray = ((hsv[..., 2] > 150) & (hsv[..., 1] < 80)).astype(np.uint8) * 255
    light = cv2.morphologyEx(light, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    contours, _ = cv2.findContours(light, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    quads = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < min_area:
            continue
        (cx, cy), (w, h), angle = cv2.minAreaRect(c)
        if w > h:
            w, h, angle = h, w, angle + 90
        if area < 0.8 * w * h:
            continue
        if TILE_SHAPE[0] <= w / max(h, 1) <= TILE_SHAPE[1]:
            quads.append(_order(cv2.boxPoints(((cx, cy), (w, h), angle))))
            continue
        quads += _split_run(grey, (cx, cy), w, h, angle)
    return quads


def _split_run(grey: np.ndarray, centre: tuple[float, float], short: float, long: float,
               angle: float) -> list[np.ndarray]:
    """The tiles of a light region that is several upright tiles laid side by side (a run or
    group pushed together), or none when no whole number of tiles fits its shape. Of the
    counts that fit, the one whose cuts fall on the darkest lines across the region (the
    grooves between tiles) is taken."""
    theta = np.deg2rad(angle + 90)   # the region's long axis
    ux, uy = float(np.cos(theta)), float(np.sin(theta))
    guess = long / (short * TILE_ASPECT)
    counts = [k for k in range(max(2, round(guess) - 1), round(guess) + 2)
              if TILE_SHAPE[0] <= long / k / short <= TILE_SHAPE[1]]
    if not counts:
        return []
    # brightness along the long axis, in bands near the tiles' top and bottom edges, where
    # there is no numeral whichever way up they lie
    along = np.linspace(-long / 2, long / 2, max(8, round(long)), dtype=np.float32)
    across = np.array([-0.42, -0.38, 0.38, 0.42], np.float32) * short
    xs = centre[0] + along[None, :] * ux - across[:, None] * uy
    ys = centre[1] + along[None, :] * uy + across[:, None] * ux
    profile = cv2.remap(grey, xs, ys, cv2.INTER_LINEAR).astype(np.float32).mean(axis=0)

    def groove(k: int) -> float:
        near = max(1, round(len(profile) * 0.03 / k))
        cuts = [round(i * (len(profile) - 1) / k) for i in range(1, k)]
        return float(np.mean([profile[max(0, c - near):c + near + 1].min() for c in cuts]))

    count = min(counts, key=groove)
    step = long / count
    out = []
    for i in range(count):
        off = (i - (count - 1) / 2) * step
        part = ((centre[0] + off * ux, centre[1] + off * uy), (step, short), angle + 90)
        out.append(_order(cv2.boxPoints(part)))
    return out


def _order(pts: np.ndarray) -> np.ndarray:
    """A tile's corners, clockwise from the start of a short side, so the face is warped with
    its long side vertical: the upper short side first (for a tile lying sideways, the left
    one; the reader also tries the face turned half round)."""
    pts = np.asarray(pts, np.float32)
    x, y = pts[:, 0], pts[:, 1]
    if float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) < 0:
        pts = pts[::-1]   # make it clockwise as seen (image y points down)
    sides = [float(np.hypot(*(pts[(i + 1) % 4] - pts[i]))) for i in range(4)]
    short = [i for i in range(4) if sides[i] <= sides[(i + 1) % 4]]
    mid = {i: (pts[i] + pts[(i + 1) % 4]) / 2 for i in short}
    top = min(short, key=lambda i: (round(float(mid[i][1]) / 4), float(mid[i][0])))
    return np.roll(pts, -top, axis=0)


def read_tiles(image: np.ndarray, min_confidence: float = 0.5) -> list[DetectedCard]:
    """Every tile found on the image, read (``??`` below ``min_confidence``)."""
    out = []
    dst = np.array([[0, 0], [TILE_W * 2, 0], [TILE_W * 2, TILE_H * 2], [0, TILE_H * 2]], np.float32)
    for quad in find_tiles(image):
        m = cv2.getPerspectiveTransform(quad, dst)
        face = cv2.warpPerspective(image, m, (TILE_W * 2, TILE_H * 2))
        reads = [read_tile_face(face), read_tile_face(cv2.rotate(face, cv2.ROTATE_180))]
        best = max(reads, key=lambda r: r.confidence)
        name = best.tile if best.confidence >= min_confidence else UNREADABLE
        box = (float(quad[:, 0].min()), float(quad[:, 1].min()),
               float(quad[:, 0].max()), float(quad[:, 1].max()))
        out.append(DetectedCard(name, box, best.confidence))
    return sorted(out, key=lambda c: (c.box[0], c.box[1]))
