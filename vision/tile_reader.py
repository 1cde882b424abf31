"""The learnt tile reader: rummy tiles found and read by a small heat-map network.

``weights/tilenet.onnx`` (trained by ``vision/train/train_tiles.py`` on drawn scenes,
``vision.tile_synth``) is the card detector's design with one set of heads for tiles: at
stride 4, a tile-centre heat map, the tile's box size, its up direction and its class (the
53 of ``TILE_CLASSES``: each colour's 1–13 and the Joly). The class is learnt on tiles
turned every way, whose numeral always sits above the face's middle (with the mark some
sets print under it), so a 6 and a 9 are told by the tile's own layout, never guessed.

Like the card detector (``vision.scale``), the network reads tiles best at one size (a
tile about ``target_tile`` input pixels high: the middle of the heights it learnt, which the
trainer records beside the weights), so a photo is first looked at with its longer
side at ``FIRST_SIZE``; when the tiles found there are much smaller or bigger than that,
it is read again at the size that brings them to it. The network reads an upright tile far
better than a turned one, so each tile it reads less surely than ``UPRIGHT_BELOW`` is read
again in a small patch of the photo turned upright by the tile's own up direction and
scaled to the size it learnt (``read_upright``). A colour the network read unsurely is
settled against the other tiles' inks on the table (``settle_inks``, ``vision.tile_inks``):
one set's navy is near its black, and a player tells them apart by the others. A table seen
at a slant, its far tiles smaller and squashed, is looked at again as from straight above
(``from_above``, ``vision.tile_plane``), as soon as its looks show the slant plainly, and
read there when that look finds more tiles surely. A tile whose class the network is still
not sure of is ``??``. Tiles are grouped into the sets and runs they lie in by the rows they
stand in (``vision.tile_grouping``, from each tile's own up direction and the table's
pitch); the classical reader's tiles, which know no up, by their grown boxes
(``vision.grouping``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from engine.cards import UNREADABLE
from engine.tiles import COLOURS
from vision.detector import letterbox
from vision.errors import VisionError
from vision.grouping import group_cards
from vision.images import check_photo
from vision.inference import file_sha256, load_network
from vision.reading import DetectedCard, TableReading, within
from vision.table_regions import card_regions
from vision.tile_grouping import ASPECT, RowGrouping, group_tiles, tile_heights
from vision.tile_inks import (
    INK_TRUST,
    INK_UNSURE,
    PATCH,
    PATCH_TILE,
    ink_feature,
    inks_of,
    table_inks,
)
from vision.tile_plane import MIN_RATIO, LevelView, level_view
from vision.tiles import TILE_REACH, read_tiles

#: The network's classes, in its output order: every colour's 1–13 (engine notation), then
#: the Joly.
TILE_CLASSES: Final = tuple(f"{c}{n}" for c in COLOURS for n in range(1, 14)) + ("JY",)
#: Output maps: heat, log box size (w, h) in stride units, up (x, y), then the logits of the
#: number (1–13, then the Joly) and of the ink colour (``COLOURS``).
N_NUMBERS: Final = 14
N_COLOURS: Final = len(COLOURS)
TILE_OUT: Final = 5 + N_NUMBERS + N_COLOURS
DEFAULT_TILE_WEIGHTS: Final = Path(__file__).with_name("weights") / "tilenet.onnx"
STRIDE: Final = 4
#: The tile height (input pixels) weights with no description (``target_tile``) read best:
#: the middle of what the first weights learnt (22–110, log-uniform).
TARGET_TILE: Final = 48.0
#: Tiles measured within this factor of the target are read at the first size.
TOLERANCE: Final = 1.25
FIRST_SIZE: Final = 384
#: A tile's height in millimetres, about (sets run 34–40 mm): with a calibrated table's scale
#: the first look is made at the size that brings such a tile to the target.
TILE_MM: Final = 37.0
#: Looks at most per photo: the first, and two at the sizes its tiles' measures ask for.
LOOKS: Final = 3
MIN_SIZE: Final = 96
MAX_SIZE: Final = 1280
#: A heat peak at least this sure is a tile.
MIN_SCORE: Final = 0.3
#: At most this many peaks are kept, strongest first: a table shows two sets' 212 tiles at the
#: most, and a busy surface the reader takes for tiles can raise thousands of peaks, each
#: read again upright (seconds of work for nothing).
MAX_TILES: Final = 512
#: A heat peak nearer than this share of its box's shorter side to a stronger one is that
#: tile again (``decode_tiles``).
PEAK_REACH: Final = 0.33
#: Peaks at least this sure measure the tiles' size.
SURE: Final = 0.45
#: A tile whose class is less sure than this is ``??``.
MIN_CONFIDENCE: Final = 0.5
#: A tile's height over its axis-aligned box's longer side, on average over the ways a
#: tile lies (upright 1, turned 45° about 0.85).
HEIGHT_PER_BOX: Final = 0.95
#: Tiles read less surely than this are read again turned upright (``read_upright``) ...
UPRIGHT_BELOW: Final = 0.9
#: ... in a square patch this many pixels wide (a multiple of 32; the tile and a margin of a
#: sixth of its height each way: 96 read no better and took twice the time,
#: ``bench/bench_tiles_learnt.py --ablate-upright``) ...
UPRIGHT_PATCH: Final = 64
#: ... at most this many times, each turned by the up read in the one before (``read_upright``) ...
UPRIGHT_ROUNDS: Final = 3
#: ... scaled so that the tile is this many pixels high in it (``read_upright`` takes the
#: weights' own ``target_tile``).
UPRIGHT_TILE: Final = TARGET_TILE
#: A weaker peak whose centre lies inside a tile read surely, within this share of that
#: tile's face about its centre (in the tile's own frame), and that reads no other tile
#: (``??``, or the same tile) is that tile seen again (``drop_echoes``); 0 keeps every peak.
ECHO_INSIDE: Final = 0.9


@dataclass(frozen=True, slots=True)
class TilePeak:
    """One tile found by the network: centre, box (image pixels), heat score, class
    probabilities (over ``TILE_CLASSES``) and up direction (a unit vector, image axes)."""

    x: float
    y: float
    box: tuple[float, float, float, float]
    score: float
    probs: np.ndarray
    up: tuple[float, float]

    @property
    def label(self) -> str:
        return TILE_CLASSES[int(np.argmax(self.probs))]

    @property
    def confidence(self) -> float:
        return float(np.max(self.probs))


def class_probs(number: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Probabilities over ``TILE_CLASSES`` from the number's (14) and the colour's (4)
    probabilities (or rows of them): a numbered tile is its number's times its colour's, the
    Joly its own."""
    tiles = (colour[..., :, None] * number[..., None, :13]).reshape(*number.shape[:-1], -1)
    return np.concatenate([tiles, number[..., 13:14]], axis=-1)


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=0, keepdims=True))
    out: np.ndarray = e / e.sum(axis=0, keepdims=True)
    return out


def has_weights(weights: Path = DEFAULT_TILE_WEIGHTS) -> bool:
    return weights.is_file()


def description(weights: Path) -> Path:
    """Where the description of the tile reader's weights lies: ``NAME.json`` beside
    ``NAME.onnx``, written by the trainer (``vision.train.train_tiles``) with the range of
    tile heights the weights learnt and the SHA-256 of the weight file it describes."""
    return weights.with_suffix(".json")


def target_tile(weights: Path = DEFAULT_TILE_WEIGHTS) -> float:
    """The tile height (input pixels) ``weights`` read best: the geometric middle of the
    heights they learnt, rounded to a pixel, as their description records it
    (``description``); ``TARGET_TILE`` for weights with none. A description that cannot be
    read, or that describes another weight file, is an error naming it."""
    sidecar = description(weights)
    if not sidecar.is_file():
        return TARGET_TILE
    stat = weights.stat() if weights.is_file() else None
    said = sidecar.stat()
    return _target_tile(str(weights), stat.st_mtime_ns if stat else 0, stat.st_size if stat else 0,
                        said.st_mtime_ns, said.st_size)


@lru_cache(maxsize=8)
def _target_tile(weights: str, _mtime: int, _size: int, _described: int, _described_size: int) -> float:
    sidecar = description(Path(weights))
    try:
        said = json.loads(sidecar.read_text(encoding="utf-8"))
        low, high = (float(v) for v in said["tile_px"])
        sha = str(said["weights_sha256"])
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        raise VisionError(f"tile reader description {sidecar} unreadable ({exc.__class__.__name__}: "
                          f"{exc}); expected tile_px [MIN, MAX] and weights_sha256") from None
    if not (math.isfinite(high) and 0 < low < high and round(math.sqrt(low * high)) >= 1):
        raise VisionError(f"tile reader description {sidecar}: tile_px {[low, high]} is no range of heights "
                          "a network reads (finite, MIN < MAX, a middle of a pixel or more)")
    if Path(weights).is_file() and sha != file_sha256(Path(weights)):
        raise VisionError(f"tile reader description {sidecar} describes other weights than {weights}")
    return float(round(math.sqrt(low * high)))


def tile_maps(image: np.ndarray, weights: Path = DEFAULT_TILE_WEIGHTS,
              size: int = FIRST_SIZE) -> tuple[np.ndarray, float]:
    """The network's output maps for ``image`` letterboxed to ``size`` on its longer side."""
    if size % 32:
        raise VisionError(f"tile reader input size {size} is not a multiple of 32")
    canvas, scale = letterbox(image, size)
    blob = np.ascontiguousarray(canvas.transpose(2, 0, 1)[None], np.float32)
    return load_network(weights)(blob)[0], scale


def decode_tiles(maps: np.ndarray, scale: float, threshold: float = MIN_SCORE,
                 most: int = MAX_TILES) -> list[TilePeak]:
    """The heat peaks above ``threshold``, strongest first, as tiles in image pixels (``most``
    of them at the most); a peak within a third of a tile's width of a stronger one is that
    tile again."""
    prob = 1.0 / (1.0 + np.exp(-maps[0]))
    dil = cv2.dilate(prob, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((prob >= dil) & (prob >= threshold))
    order = np.argsort(-prob[ys, xs])
    ys, xs = ys[order], xs[order]
    # every peak's box and centre at once: a photo with a wide field of weak heat (a dark
    # cloth, a card's court drawing) can hold thousands of peaks
    ws = np.exp(maps[1, ys, xs]).astype(np.float64) * STRIDE / scale
    hs = np.exp(maps[2, ys, xs]).astype(np.float64) * STRIDE / scale
    cx, cy = (xs + 0.5) * STRIDE / scale, (ys + 0.5) * STRIDE / scale
    reach = PEAK_REACH * np.minimum(ws, hs)
    kept = np.empty(len(ys), np.int64)
    n_kept = 0
    for k in range(len(ys)):
        if n_kept == most:
            break
        others = kept[:n_kept]
        if not n_kept or not np.any(np.hypot(cx[others] - cx[k], cy[others] - cy[k]) < reach[k]):
            kept[n_kept] = k
            n_kept += 1
    kept = kept[:n_kept]
    probs = _classes_at(maps, prob, ys[kept], xs[kept])
    out: list[TilePeak] = []
    for n, i in enumerate(kept.tolist()):
        gy, gx = int(ys[i]), int(xs[i])
        x, y, w, h = float(cx[i]), float(cy[i]), float(ws[i]), float(hs[i])
        ux, uy = float(maps[3, gy, gx]), float(maps[4, gy, gx])
        norm = float(np.hypot(ux, uy)) or 1.0
        out.append(TilePeak(x, y, (x - w / 2, y - h / 2, x + w / 2, y + h / 2), float(prob[gy, gx]),
                            probs[n], (ux / norm, uy / norm)))
    return out


def _classes_at(maps: np.ndarray, prob: np.ndarray, gy: np.ndarray, gx: np.ndarray) -> np.ndarray:
    """The class probabilities (rows, over ``TILE_CLASSES``) of the cells (gy, gx): each read
    over the 3×3 cells around it, each cell weighed by its heat ``prob``."""
    if not len(gy):
        return np.empty((0, len(TILE_CLASSES)), np.float32)
    gh, gw = prob.shape
    if gy.min() >= 1 and gx.min() >= 1 and gy.max() <= gh - 2 and gx.max() <= gw - 2:
        logits, heat, shift = maps[5:TILE_OUT], prob, -1
    else:  # padded by a cell of no heat: a window cut off by the edge weighs only what lies inside
        logits, heat, shift = np.pad(maps[5:TILE_OUT], ((0, 0), (1, 1), (1, 1))), np.pad(prob, 1), 0
    dy, dx = np.meshgrid(np.arange(3) + shift, np.arange(3) + shift, indexing="ij")
    rows, cols = gy[:, None] + dy.reshape(-1), gx[:, None] + dx.reshape(-1)  # (K, 9)
    weight = heat[rows, cols]
    weight = weight / np.maximum(1e-6, weight.sum(axis=1, keepdims=True))
    cells = logits[:, rows, cols]  # (classes, K, 9)
    pn = np.einsum("ckn,kn->kc", _softmax(cells[:N_NUMBERS]), weight)
    pc = np.einsum("ckn,kn->kc", _softmax(cells[N_NUMBERS:]), weight)
    return class_probs(pn, pc)


def upright_patch(image: np.ndarray, tile: TilePeak, side: int = UPRIGHT_PATCH,
                  height: float = UPRIGHT_TILE) -> np.ndarray:
    """A ``side``-pixel square of ``image`` centred on ``tile``, turned so that the tile's
    up direction points up and scaled so that it is ``height`` pixels high (BGR)."""
    ux, uy = tile.up
    k = height / max(1.0, HEIGHT_PER_BOX * max(tile.box[2] - tile.box[0], tile.box[3] - tile.box[1]))
    # patch x along the tile's right (its up turned a quarter clockwise), y against its up
    m = k * np.array([[-uy, ux], [-ux, -uy]], np.float64)
    shift = side / 2 - m @ np.array([tile.x, tile.y])
    affine = np.hstack([m, shift[:, None]])
    out: np.ndarray = cv2.warpAffine(image, affine, (side, side), flags=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)
    return out


def read_upright(image: np.ndarray, found: list[TilePeak], weights: Path = DEFAULT_TILE_WEIGHTS,
                 below: float = UPRIGHT_BELOW, side: int = UPRIGHT_PATCH,
                 height: float | None = None, rounds: int = UPRIGHT_ROUNDS) -> list[TilePeak]:
    """The tiles read less surely than ``below`` read again, each in a patch turned upright
    by its own up direction and scaled so that it is ``height`` pixels high (the weights'
    ``target_tile`` when None: the size the network learnt; all patches in one batch); a
    tile takes the upright read when that is surer. The network reads upright
    tiles far better than turned ones (``bench/bench_tiles_learnt.py --ablate-upright``).
    A tile still read less surely than ``below`` is read again, up to ``rounds`` reads in
    all, in a patch turned by the up the network read in its last patch: the up read at the
    first look is often 10–30° out, and read in the patch, at the size the network learnt
    and nearly upright, it is nearer the tile's own."""
    if side % 32:
        raise VisionError(f"upright patch side {side} is not a multiple of 32")
    unsure = [i for i, p in enumerate(found) if p.confidence < below]
    if not unsure:
        return found
    height = target_tile(weights) if height is None else height
    out = list(found)
    ups = {i: found[i].up for i in unsure}
    for _ in range(rounds):
        reads = read_patches(image, [replace(found[i], up=ups[i]) for i in unsure], weights, side, height)
        for i, (probs, up) in zip(unsure, reads, strict=True):
            if float(probs.max()) > out[i].confidence:
                out[i] = replace(found[i], probs=probs, up=up)
            ups[i] = up
        unsure = [i for i in unsure if out[i].confidence < below]
        if not unsure:
            break
    return out


def read_patches(image: np.ndarray, tiles: list[TilePeak], weights: Path, side: int,
                 height: float) -> list[tuple[np.ndarray, tuple[float, float]]]:
    """Each tile read in a ``side``-pixel patch turned upright by its up and scaled so that it
    is ``height`` pixels high (``upright_patch``; all in one batch): its class probabilities
    (over ``TILE_CLASSES``) and its up (image axes) corrected by the up the network read in
    the patch."""
    batch = np.stack([upright_patch(image, t, side, height) for t in tiles]).transpose(0, 3, 1, 2)
    maps = load_network(weights)(np.ascontiguousarray(batch, np.float32))
    centre = side // STRIDE // 2
    out = []
    for tile, m in zip(tiles, maps, strict=True):
        prob = 1.0 / (1.0 + np.exp(-m[0]))
        # the strongest heat within a cell or two of the patch's centre is this tile
        win = prob[centre - 2:centre + 2, centre - 2:centre + 2]
        wy, wx = np.unravel_index(int(np.argmax(win)), win.shape)
        gy, gx = centre - 2 + int(wy), centre - 2 + int(wx)
        probs = _classes_at(m, prob, np.array([gy]), np.array([gx]))[0]
        out.append((probs, _turned_by(tile.up, float(m[3, gy, gx]), float(m[4, gy, gx]))))
    return out


def _turned_by(up: tuple[float, float], px: float, py: float) -> tuple[float, float]:
    """A tile's up (image axes) corrected by the up (``px``, ``py``) the network read in the
    patch turned upright by ``up`` (``upright_patch``: patch x along the tile's right, patch y
    against its up), as a unit vector; ``up`` as it was when the patch read no direction."""
    norm = math.hypot(px, py)
    if norm < 1e-6:
        return up
    ux, uy = up
    # the patch's axes back in the image: x along (-uy, ux), y along (-ux, -uy)
    x, y = px / norm * -uy + py / norm * -ux, px / norm * ux + py / norm * -uy
    return (x, y)


def drop_echoes(found: list[TilePeak], inside: float = ECHO_INSIDE,
                min_confidence: float = MIN_CONFIDENCE) -> list[TilePeak]:
    """``found`` less its echoes: a peak whose centre lies inside the face (shrunk to
    ``inside`` of it about its centre, in the tile's own frame: its up and across it) of a
    stronger peak read surely, and that itself reads nothing surely or the same tile, is that
    tile found twice. A tile read as another one is kept, however near: two tiles pushed
    together in a row lie a tile's width apart."""
    if inside <= 0 or len(found) < 2:
        return found
    x, y, score = (np.array([getattr(p, k) for p in found]) for k in ("x", "y", "score"))
    probs = np.stack([p.probs for p in found])
    label, sure = probs.argmax(axis=1), probs.max(axis=1) >= min_confidence
    ups = np.array([p.up for p in found], np.float64)
    ups[np.hypot(ups[:, 0], ups[:, 1]) < 1e-6] = (0.0, -1.0)  # no up read: taken as upright
    heights = tile_heights(np.array([p.box for p in found], np.float64), ups)
    # [i, j]: peak i's centre seen from peak j along j's up and across it
    dx, dy = x[:, None] - x[None, :], y[:, None] - y[None, :]
    along_up = np.abs(dx * ups[None, :, 0] + dy * ups[None, :, 1])
    across_up = np.abs(-dx * ups[None, :, 1] + dy * ups[None, :, 0])
    # [i, j]: peak i lies inside sure peak j's face, j is the stronger, and i reads no other tile
    within = (along_up <= inside * heights[None, :] / 2) & (across_up <= inside * ASPECT * heights[None, :] / 2)
    order = np.argsort(-score, kind="stable")
    rank = np.empty(len(found), np.int64)
    rank[order] = np.arange(len(found))
    stronger = rank[None, :] < rank[:, None]
    same = ~sure[:, None] | (label[:, None] == label[None, :])
    echo = (within & stronger & sure[None, :] & same).any(axis=1)
    return [p for p, e in zip(found, echo, strict=True) if not e]


def split_probs(probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Class probabilities (over ``TILE_CLASSES``) back into the number's (14: each number's
    over the colours, then the Joly's) and the numbered tile's colour's (4, normalised):
    what ``class_probs`` puts together."""
    numbered = probs[: N_COLOURS * 13].reshape(N_COLOURS, 13)
    colours = numbered.sum(axis=1)
    number = np.concatenate([numbered.sum(axis=0), probs[-1:]])
    return number, colours / max(float(colours.sum()), 1e-9)


def settle_inks(image: np.ndarray, peaks: list[TilePeak], unsure: float = INK_UNSURE,
                trust: float = INK_TRUST) -> list[TilePeak]:
    """``peaks`` with each numbered tile whose colour the network read less surely than
    ``unsure`` settled against the table's inks (``vision.tile_inks``: each ink measured in
    the tile turned upright, the table's word weighed at ``trust``); Jolys, tiles whose ink
    cannot be measured and tables of fewer than three measured tiles as read."""
    numbered = [i for i, p in enumerate(peaks) if float(p.probs[-1]) < 0.5]
    split = {i: split_probs(peaks[i].probs) for i in numbered}  # (number, colour) of each
    if not any(colour.max() < unsure for _, colour in split.values()):
        return peaks
    inks = inks_of(np.stack([upright_patch(image, peaks[i], PATCH, PATCH_TILE) for i in numbered]))
    told = np.isfinite(inks).all(axis=1)
    measured = [i for i, ok in zip(numbered, told, strict=True) if ok]
    if len(measured) < 3:
        return peaks
    features = np.stack([ink_feature(ink) for ink in inks[told]])
    settled = table_inks(features, np.stack([split[i][1] for i in measured]), trust=trust)
    out = list(peaks)
    for row, i in enumerate(measured):
        number, colour = split[i]
        if colour.max() < unsure:
            probs = class_probs(number, settled[row]).astype(peaks[i].probs.dtype)
            out[i] = replace(peaks[i], probs=probs)
    return out


def tile_height(found: list[TilePeak]) -> float | None:
    """The typical tile height in image pixels, from the sure peaks' boxes; None if none."""
    sure = [max(p.box[2] - p.box[0], p.box[3] - p.box[1]) for p in found if p.score >= SURE]
    return float(np.median(sure)) * HEIGHT_PER_BOX if sure else None


def size_for(tile_px: float, image_side: int, target: float = TARGET_TILE) -> int:
    """The input size (a multiple of 32 within ``MIN_SIZE``–``MAX_SIZE`` and no more than
    the photo's own side rounded up) at which a tile ``tile_px`` image pixels high reaches
    ``target`` pixels (the weights' ``target_tile``)."""
    want = target * image_side / max(tile_px, 1.0)
    limit = min(MAX_SIZE, max(MIN_SIZE, -(-image_side // 32) * 32))
    return int(max(MIN_SIZE, min(limit, round(want / 32) * 32)))


def first_size(image: np.ndarray) -> int:
    """The input size of the first look: ``FIRST_SIZE``, or the photo's own side when
    smaller (rounded up to a multiple of 32, at least ``MIN_SIZE``)."""
    return int(min(FIRST_SIZE, max(MIN_SIZE, -(-max(image.shape[:2]) // 32) * 32)))


@dataclass(frozen=True, slots=True)
class TileLooks:
    """The looks made at a photo so far: the input sizes looked at, in order, and the tiles
    the last of them found; ``stand_ins`` of the looks stood in for a first look that found
    nothing (they do not count against ``find_looks``' number of looks)."""

    sizes: tuple[int, ...]
    found: list[TilePeak]
    stand_ins: int = 0


def look_first(image: np.ndarray, weights: Path = DEFAULT_TILE_WEIGHTS,
               px_per_mm: float | None = None) -> TileLooks:
    """The first look: the photo at ``first_size``, or, given a calibrated table's scale
    ``px_per_mm``, at the size that brings a tile ``TILE_MM`` high to the weights'
    ``target_tile`` (the looks after it measure the tiles found, as ever)."""
    check_photo(image)
    target = target_tile(weights)  # a broken description is an error on every photo, not some
    if px_per_mm is not None and math.isfinite(px_per_mm) and px_per_mm > 0:
        size = size_for(TILE_MM * px_per_mm, max(image.shape[:2]), target)
    else:
        size = first_size(image)
    return TileLooks((size,), decode_tiles(*tile_maps(image, weights, size)))


def look_again(image: np.ndarray, weights: Path, made: TileLooks) -> TileLooks | None:
    """One more look, at the size that brings the tiles the last look found to the height
    the weights read best (``target_tile``; boxes of tiles far smaller than that come out
    too big, so a first measure of small tiles undershoots and the next look measures
    anew); None when that look is not worth making: nothing sure to measure, the tiles
    already near the target, a size already looked at, or nothing sure found there."""
    side = max(image.shape[:2])
    size = made.sizes[-1]
    height = tile_height(made.found)
    target = target_tile(weights)
    if height is None or 1 / TOLERANCE <= height * size / side / target <= TOLERANCE:
        return None
    better = size_for(height, side, target)
    if better in made.sizes:
        return None
    again = decode_tiles(*tile_maps(image, weights, better))
    if tile_height(again) is None:
        return None
    return replace(made, sizes=(*made.sizes, better), found=again)


def find_tiles(image: np.ndarray, weights: Path = DEFAULT_TILE_WEIGHTS,
               size: int | None = None, looks: int = LOOKS,
               made: TileLooks | None = None, px_per_mm: float | None = None) -> list[TilePeak]:
    """The tiles on a BGR image: at ``size`` when given, else at the size that brings its
    tiles to the weights' ``target_tile`` (measured on a first look, ``look_first``: at
    ``FIRST_SIZE``, or from a calibrated table's ``px_per_mm``; and again at each size
    looked at, ``look_again``; when the first finds nothing, the photo is looked at twice
    as fine, then half as fine), at most ``looks`` looks at the measured sizes. ``made``
    holds the looks already made (``look_first``, ``look_again``)."""
    if size is not None:
        check_photo(image)
        return decode_tiles(*tile_maps(image, weights, size))
    return find_looks(image, weights, looks, made, px_per_mm).found


def find_looks(image: np.ndarray, weights: Path = DEFAULT_TILE_WEIGHTS, looks: int = LOOKS,
               made: TileLooks | None = None, px_per_mm: float | None = None,
               enough: Callable[[TileLooks], bool] | None = None) -> TileLooks:
    """The looks ``find_tiles`` makes, the last one's tiles among them; none is made once
    ``enough`` says those made so far will do (handed them back as ``made``, it makes the
    rest)."""
    if made is None:
        made = look_first(image, weights, px_per_mm)
    if len(made.sizes) == 1 and tile_height(made.found) is None:
        side = max(image.shape[:2])
        first = made.sizes[0]
        # (half of a multiple of 32 is one only when rounded down to one)
        for other in (2 * first, first // 64 * 32):
            if MIN_SIZE <= other <= min(MAX_SIZE, max(MIN_SIZE, -(-side // 32) * 32)) and other != first:
                more = decode_tiles(*tile_maps(image, weights, other))
                if tile_height(more) is not None:
                    # the look twice or half as fine stands in for the first
                    made = TileLooks((*made.sizes, other), more, stand_ins=1)
                    break
        else:
            return made
    while len(made.sizes) < looks + made.stand_ins and (enough is None or not enough(made)):
        again = look_again(image, weights, made)
        if again is None:
            break
        made = again
    return made


def read_tile_peaks(image: np.ndarray, weights: Path = DEFAULT_TILE_WEIGHTS,
                    min_confidence: float = MIN_CONFIDENCE, size: int | None = None,
                    looks: int = LOOKS, made: TileLooks | None = None, upright: bool = True,
                    patch: int = UPRIGHT_PATCH, echoes: float = ECHO_INSIDE,
                    px_per_mm: float | None = None, rounds: int = UPRIGHT_ROUNDS,
                    ink_unsure: float = INK_UNSURE, ink_trust: float = INK_TRUST,
                    found: list[TilePeak] | None = None) -> list[TilePeak]:
    """Every tile the learnt reader finds on the image, sorted left to right: found
    (``find_tiles``; ``px_per_mm`` a calibrated table's scale; or ``found``, the tiles its
    looks found already), the unsure ones read again
    upright (``read_upright``, in patches ``patch`` pixels wide, ``rounds`` reads at most),
    the echoes dropped (``drop_echoes``, ``echoes`` of the box) and the colours read less
    surely than ``ink_unsure`` settled against the table's inks (``settle_inks``, the
    table's word weighed at ``ink_trust``; ``ink_unsure`` 0: none)."""
    if found is None:
        found = find_tiles(image, weights, size, looks, made, px_per_mm)
    if upright:
        found = read_upright(image, found, weights, side=patch, rounds=rounds)
    kept = drop_echoes(found, echoes, min_confidence)
    if ink_unsure > 0:
        kept = settle_inks(image, kept, ink_unsure, ink_trust)
    return sorted(kept, key=lambda p: (p.box[0], p.box[1]))


def named(peaks: list[TilePeak], min_confidence: float = MIN_CONFIDENCE) -> list[DetectedCard]:
    """The tiles in the engine's tile notation (``R7``, ``JY``), ``??`` when a tile's class
    is less sure than ``min_confidence``."""
    return [DetectedCard(p.label if p.confidence >= min_confidence else UNREADABLE, p.box, p.confidence)
            for p in peaks]


def read_tiles_learnt(image: np.ndarray, weights: Path = DEFAULT_TILE_WEIGHTS,
                      min_confidence: float = MIN_CONFIDENCE, size: int | None = None,
                      looks: int = LOOKS, made: TileLooks | None = None, upright: bool = True,
                      patch: int = UPRIGHT_PATCH, echoes: float = ECHO_INSIDE,
                      px_per_mm: float | None = None) -> list[DetectedCard]:
    """Every tile on the image in the engine's tile notation, ``??`` when its class is less
    sure than ``min_confidence``; sorted left to right (``read_tile_peaks``)."""
    return named(read_tile_peaks(image, weights, min_confidence, size, looks, made, upright, patch, echoes,
                                 px_per_mm), min_confidence)


def tiles_back(view: LevelView, tiles: list[TilePeak]) -> list[TilePeak]:
    """Tiles read in the view from above as they lie in the photo (all at once): each centre
    taken back, each box the bounds of its box's corners taken back, each up the way a short
    step up from its centre goes in the photo."""
    if not tiles:
        return []
    points = []
    for t in tiles:
        x0, y0, x1, y1 = t.box
        step = 0.25 * max(x1 - x0, y1 - y0, 1.0)
        points += [(t.x, t.y), (x0, y0), (x1, y0), (x1, y1), (x0, y1),
                   (t.x + step * t.up[0], t.y + step * t.up[1])]
    back = view.back(np.array(points)).reshape(len(tiles), 6, 2)
    out = []
    for t, (centre, *corners, ahead) in zip(tiles, back, strict=True):
        box = np.array(corners)
        up = ahead - centre
        norm = float(np.hypot(*up)) or 1.0
        out.append(replace(t, x=float(centre[0]), y=float(centre[1]),
                           box=(float(box[:, 0].min()), float(box[:, 1].min()),
                                float(box[:, 0].max()), float(box[:, 1].max())),
                           up=(float(up[0] / norm), float(up[1] / norm))))
    return out


def from_above(image: np.ndarray, seen: list[TilePeak], weights: Path, level: float,
               read: Callable[..., list[TilePeak]]) -> tuple[list[TilePeak], list[TilePeak]] | None:
    """A table whose tiles ``seen`` show it at a slant (sizes from near to far differing by
    ``level`` or more) read as seen from above (``vision.tile_plane``): one look at the view,
    at the size for the height every tile has there, and when it finds more tiles read
    surely than ``seen`` holds, its tiles read (``read``, ``read_tile_peaks`` with its
    options) as they lie there. The tiles as they lie in the photo and, in the same order,
    as they lie in the view (for grouping); None when the photo shows no slant plainly or
    the view finds no more."""
    view = level_view([p for p in seen if p.score >= SURE], image.shape[:2], min_ratio=level)
    if view is None:
        return None
    flat = view.warp(image)
    flat_seen = find_tiles(flat, weights, size_for(view.tile_px, max(view.size), target_tile(weights)))
    if _sure(flat_seen) <= _sure(seen):
        return None
    there = read(flat, found=flat_seen)
    pairs = sorted(zip(tiles_back(view, there), there, strict=True),
                   key=lambda pair: (pair[0].box[0], pair[0].box[1]))
    return [a for a, _ in pairs], [b for _, b in pairs]


def _sure(peaks: Iterable[TilePeak]) -> int:
    """How many of ``peaks`` are read surely: at ``UPRIGHT_BELOW`` or more."""
    return sum(p.confidence >= UPRIGHT_BELOW for p in peaks)


def read_tile_table(image: np.ndarray, weights: Path | None = DEFAULT_TILE_WEIGHTS,
                    looks: int = LOOKS, made: TileLooks | None = None,
                    upright: bool = True, patch: int = UPRIGHT_PATCH,
                    echoes: float = ECHO_INSIDE, by_rows: bool = True,
                    px_per_mm: float | None = None, rows: RowGrouping = group_tiles,
                    rounds: int = UPRIGHT_ROUNDS, ink_unsure: float = INK_UNSURE,
                    ink_trust: float = INK_TRUST, level: float = MIN_RATIO,
                    view_early: bool = True) -> TableReading:
    """The tiles on a table photo, grouped into sets and runs as they lie: with the learnt
    reader when its weights are there, else (or with ``weights`` None) with the classical
    one (``vision.tiles``). ``made`` holds the learnt reader's looks already made;
    ``upright`` reads its unsure tiles again turned upright (``read_upright``), in patches
    ``patch`` pixels wide, ``rounds`` reads at most. The learnt reader's tiles are grouped by the rows they stand in
    (``rows``, ``vision.tile_grouping.group_tiles``; ``by_rows`` False: by their grown boxes,
    as the classical reader's are). ``px_per_mm``, a calibrated table's scale, sizes the learnt reader's
    first look (``look_first``); its colours read less surely than ``ink_unsure`` are settled
    against the table's inks (``settle_inks``, the table's word weighed at ``ink_trust``). A
    table its tiles show at a slant (their sizes from near to far differing by ``level`` or
    more; 0: never) is looked at again as seen from above (``vision.tile_plane``), in one
    look at the size for the height its tiles all have there; when that look finds more
    tiles read surely (at ``UPRIGHT_BELOW`` or more: tiles the reader would not read
    again), the tiles are read and grouped as they lie there, and each taken back to the
    photo. With ``view_early`` the photo is looked at no more once the looks made show the
    slant plainly: the view's one look stands in for the photo's larger ones (which the far
    tiles, squashed, gain little from), and only when it finds no more do the photo's looks go
    on. A box is the tile's visible extent: cut to the photo."""
    height, width = image.shape[:2]
    if weights is not None and weights.is_file():
        slanted = False

        def plainly_slanted(so_far: TileLooks) -> bool:  # no more looks: the view will be read
            nonlocal slanted
            slanted = view_early and level > 0 and level_view(
                [p for p in so_far.found if p.score >= SURE], image.shape[:2], min_ratio=level) is not None
            return slanted

        made = find_looks(image, weights, looks, made, px_per_mm, enough=plainly_slanted)
        read = partial(read_tile_peaks, weights=weights, looks=looks, upright=upright, patch=patch,
                       echoes=echoes, rounds=rounds, ink_unsure=ink_unsure, ink_trust=ink_trust)
        above = from_above(image, made.found, weights, level, read) if level > 0 else None
        if above is None and slanted:  # the view found no more: the photo's looks go on
            made = find_looks(image, weights, looks, made)
        if above is None:
            peaks = as_grouped = read(image, found=made.found)
        else:
            peaks, as_grouped = above
        found = tuple(named(peaks))
        if by_rows:  # grouped by the whole tiles' frames, then cut to the photo
            return TableReading(tuple(within(t, width, height) for t in found), rows(as_grouped))
    else:
        found = tuple(read_tiles(image))
    groups = group_cards(found, card_reach=TILE_REACH, regions=card_regions(image))
    return TableReading(tuple(within(t, width, height) for t in found), groups)
