"""Second-stage classifiers on crops of the full-resolution image: each found corner index
(rank + suit, printed joker, or not an index) and each found whole card (rank, or not a card)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.detector import Detection
from vision.errors import VisionError
from vision.inference import load_network
from vision.labels import CARD_CLASSES, INDEX_CLASSES
from vision.lightness import lightness_negative
from vision.reading import Box

#: Crop size (width, height): an index stands upright (rank above suit) or upside down in it.
CROP_W: Final = 32
CROP_H: Final = 48
#: How much of the index's box is added around it on each side.
CROP_MARGIN: Final = 0.15
DEFAULT_CLASSIFIER: Final = Path(__file__).with_name("weights") / "indexnet.onnx"
#: Output classes: the index classes, then "not an index".
N_OUT: Final = len(INDEX_CLASSES) + 1
#: The detector's box for an index is often a quarter or more too big or too small, so an
#: index it is fairly sure of is also read in boxes scaled by these factors.
ZOOMS: Final = (0.6, 0.8, 1.25)
#: The detector score from which an index is read at every zoom.
ZOOM_SCORE: Final = 0.15
#: ... and only those whose first read names no class this surely: averaging a sure read
#: with zoomed boxes that cut into the next card or frame a scrap of the index only blurs
#: it (``bench/bench_ablation.py``: reading every index zoomed cost F1 on all six held-out
#: sources, 0.003 to 0.036, and a fifth of the time on wide shots).
ZOOM_UNSURE: Final = 0.7
#: Each index crop is also read turned half round, and the two reads averaged, unless its
#: first read names a class (or "not an index") at least this surely; above 1, every crop.
#: Against turning every crop (``bench/bench_ablation.py`` seed 11, ``bench/bench_tables.py``
#: seed 5): rendered tables of held-out typefaces +0.010 and +0.008 F1, light-on-dark +0.004
#: and 0, trained typefaces +0.005, four-corner +0.007, dim −0.004; every held-out photo
#: source unchanged, one card of the in-training corner photos lost; 6% fewer crops read.
TURN_UNSURE: Final = 0.95
#: An index whose read (after the zoomed boxes) names no class, "not an index" included, at
#: least this surely is also read in the other lightness (``vision.lightness``), and that
#: read is taken when it names a card more surely: a light-on-dark deck's index read as the
#: dark-on-pale print the classifier mostly learnt. At 0 (shipped), never: from 0.7
#: (``bench/bench_ablation.py``, "with negative reads") it paid on the real photos turned
#: over (phone +0.014, webcam +0.031 F1) and cost the same photos as printed, the close-ups,
#: jumbo and light-on-dark designs (up to −0.036): the other lightness's read is often a
#: sure misread.
NEGATIVE_UNSURE: Final = 0.0


def crop_index(image: np.ndarray, box: Box, size: tuple[int, int] = (CROP_W, CROP_H)) -> np.ndarray:
    """The index under ``box`` (x0, y0, x1, y1) with a margin, turned a quarter when wider than
    tall so its long side is vertical, resized to ``size`` (width, height; BGR)."""
    x0, y0, x1, y1 = box
    mx, my = (x1 - x0) * CROP_MARGIN, (y1 - y0) * CROP_MARGIN
    return _upright(image, (x0 - mx, y0 - my, x1 + mx, y1 + my), size)


def _upright(image: np.ndarray, box: Box, size: tuple[int, int]) -> np.ndarray:
    """``box`` resized to ``size`` (width, height), turned a quarter first when it is wider
    than tall so its long side ends up vertical (BGR)."""
    x0, y0, x1, y1 = box
    wide = (x1 - x0) > (y1 - y0)
    crop_w, crop_h = size
    out_w, out_h = (crop_h, crop_w) if wide else (crop_w, crop_h)
    sx, sy = out_w / max(x1 - x0, 1.0), out_h / max(y1 - y0, 1.0)
    m = np.array([[sx, 0.0, -sx * x0], [0.0, sy, -sy * y0]], np.float64)
    interp = cv2.INTER_AREA if min(sx, sy) < 1 else cv2.INTER_LINEAR
    patch = cv2.warpAffine(image, m, (out_w, out_h), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    out: np.ndarray = cv2.rotate(patch, cv2.ROTATE_90_CLOCKWISE) if wide else patch
    return out


def crop_size(weights: Path, default: tuple[int, int] = (CROP_W, CROP_H)) -> tuple[int, int]:
    """The crop size (width, height) an index classifier was trained on: from the JSON file
    beside its weights (``{"crop": [w, h]}``), else ``default``."""
    meta = weights.with_suffix(".json")
    try:
        stamp = meta.stat().st_mtime_ns
    except OSError:
        return default
    return _read_crop_size(str(meta), stamp)


@lru_cache(maxsize=8)
def _read_crop_size(meta: str, _stamp: int) -> tuple[int, int]:
    try:
        w, h = json.loads(Path(meta).read_text())["crop"]
        return int(w), int(h)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise VisionError(f"cannot read the crop size in {meta}: {exc}") from None


def crop_batch(crops: list[np.ndarray]) -> np.ndarray:
    """Same-sized BGR crops (H, W, 3) as one float32 NCHW batch, as the classifiers take them."""
    return np.ascontiguousarray(np.stack(crops).transpose(0, 3, 1, 2), np.float32)


def classify_crops(crops: list[np.ndarray], weights: Path = DEFAULT_CLASSIFIER,
                   n_out: int = N_OUT) -> np.ndarray:
    """Class probabilities (N, n_out) for a list of same-sized crops."""
    if not crops:
        return np.zeros((0, n_out), np.float32)
    logits = load_network(weights)(crop_batch(crops)).reshape(len(crops), n_out)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return probs


def refine_indices(image: np.ndarray, detections: list[Detection], weights: Path = DEFAULT_CLASSIFIER,
                   max_background: float = 0.5, detector_weight: float = 0.0,
                   background_power: float = 2.0, both_ways: bool = True,
                   zooms: tuple[float, ...] = ZOOMS, zoom_score: float = ZOOM_SCORE,
                   sharpest: bool = False, zoom_unsure: float = ZOOM_UNSURE,
                   zoom_both_ways: bool = True, turn_unsure: float = TURN_UNSURE,
                   cache: Reads | None = None, negative_unsure: float = NEGATIVE_UNSURE) -> list[Detection]:
    """Index detections re-read by the classifier: dropped when it says "not an index",
    otherwise their class distribution combined with the detector's, and their score scaled
    by how sure the classifier is that the crop is an index (``(1 - p_background) **
    background_power``).

    With ``both_ways`` each crop is also read turned half round (a card's two indices are
    each other turned half round, so both are fair views of an index) and the two reads are
    averaged, which steadies reads of blurred or half-lit indices. Indices the detector scored
    at least ``zoom_score`` are also read in their box scaled by each of ``zooms`` (about its
    centre), and all the reads averaged, which mends boxes of the wrong size. With ``sharpest``
    the read of the one box the classifier is surest of is taken instead of the average, when
    it names the same class (see ``sharpest_reads``): in a fan the detector's box often cuts
    into the next card, and only one of the zoomed boxes frames the index cleanly. An index
    still read less surely than ``negative_unsure`` is read once more in the other lightness
    (``NEGATIVE_UNSURE``). Reads kept in ``cache`` (one per image) are not made again."""
    if not weights.is_file():
        return detections
    indices = [d for d in detections if d.kind == "index"]
    size = crop_size(weights)

    def crop(box: Box) -> np.ndarray:
        return crop_index(image, box, size)

    probs = read_boxes(crop, [d.box for d in indices], weights, N_OUT, both_ways, turn_unsure, cache)
    sure = [i for i, d in enumerate(indices)
            if d.score >= zoom_score and probs[i, :-1].max() < zoom_unsure]
    if zooms and sure:
        zoomed = [zoom_box(indices[i].box, z) for z in zooms for i in sure]
        more = read_boxes(crop, zoomed, weights, N_OUT, both_ways and zoom_both_ways, turn_unsure,
                          cache).reshape(len(zooms), len(sure), N_OUT)
        views = np.concatenate([probs[sure][None], more])
        probs[sure] = sharpest_reads(views) if sharpest else views.mean(axis=0)
    unsure = [i for i in range(len(indices)) if probs[i].max() < negative_unsure]
    if unsure:
        def negative(box: Box) -> np.ndarray:
            return lightness_negative(crop(box))
        other = read_boxes(negative, [indices[i].box for i in unsure], weights, N_OUT, both_ways,
                           turn_unsure, cache, view="negative")
        surer = other[:, :-1].max(axis=1) > probs[unsure].max(axis=1)
        probs[np.array(unsure)[surer]] = other[surer]
    return _reread(detections, "index", probs, max_background, detector_weight, background_power)


def sharpest_reads(views: np.ndarray) -> np.ndarray:
    """One read per index from reads of several boxes (``views``: boxes × indices × classes,
    the last class "not an index"): the read whose top class is surest, where that class is
    also the top class of the reads' mean; the mean otherwise, so one box that happens to
    frame a scrap of the index cannot outvote the rest."""
    mean: np.ndarray = views.mean(axis=0)
    top = views[..., :-1].max(axis=-1).argmax(axis=0)
    best = views[top, np.arange(views.shape[1])]
    agree = best[:, :-1].argmax(axis=-1) == mean[:, :-1].argmax(axis=-1)
    out: np.ndarray = np.where(agree[:, None], best, mean)
    return out


def zoom_box(box: Box, factor: float) -> Box:
    """``box`` scaled by ``factor`` about its centre."""
    x0, y0, x1, y1 = box
    cx, cy, hw, hh = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) * factor / 2, (y1 - y0) * factor / 2
    return (cx - hw, cy - hh, cx + hw, cy + hh)


def read_crops(crops: list[np.ndarray], weights: Path, n_out: int, both_ways: bool = True,
               turn_unsure: float = TURN_UNSURE) -> np.ndarray:
    """Class probabilities of the crops, averaged with those of the crops turned half round
    when ``both_ways``: of every crop, or, with ``turn_unsure`` at most 1, of the crops whose
    first read names no class (background included) at least that surely."""
    probs = classify_crops(crops, weights, n_out)
    if both_ways and crops:
        again = [i for i in range(len(crops)) if probs[i].max() < turn_unsure]
        turned = [np.ascontiguousarray(crops[i][::-1, ::-1]) for i in again]
        if again:
            probs[again] = (probs[again] + classify_crops(turned, weights, n_out)) / 2
    return probs


#: Reads of crops of one image already made, by box and way of reading (``read_boxes``).
Reads = dict[tuple[object, ...], np.ndarray]


def read_boxes(crop: Callable[[Box], np.ndarray], boxes: list[Box], weights: Path, n_out: int,
               both_ways: bool, turn_unsure: float, cache: Reads | None, view: str = "") -> np.ndarray:
    """``read_crops`` of ``crop(box)`` for each box, taking the reads ``cache`` holds (a
    second look at the same image often boxes the same peaks) and keeping the new ones
    there; ``view`` names how ``crop`` shows the box, when not as it lies."""
    if cache is None:
        return read_crops([crop(b) for b in boxes], weights, n_out, both_ways, turn_unsure)
    keys = [(str(weights), b, both_ways, turn_unsure, view) for b in boxes]
    fresh = {k: b for k, b in zip(keys, boxes, strict=True) if k not in cache}
    if fresh:
        got = read_crops([crop(b) for b in fresh.values()], weights, n_out, both_ways, turn_unsure)
        cache.update(zip(fresh, got, strict=True))
    return np.array([cache[k] for k in keys], np.float32).reshape(len(boxes), n_out)


def _reread(detections: list[Detection], kind: str, probs: np.ndarray, max_background: float,
            detector_weight: float, background_power: float = 0.0) -> list[Detection]:
    """The other kinds' detections unchanged, and each of ``kind`` (in order, with its row of
    ``probs``, whose last column is the background) dropped or re-read, its score scaled by
    ``(1 - p_background) ** background_power``."""
    mine = [d for d in detections if d.kind == kind]
    out = [d for d in detections if d.kind != kind]
    for d, p in zip(mine, probs, strict=True):
        if p[-1] > max_background:
            continue
        combined = p[:-1] * np.power(d.probs, detector_weight)
        score = d.score * float(1.0 - p[-1]) ** background_power
        out.append(replace(d, probs=combined / combined.sum(), score=score))
    return out


#: Which way each index stands in its crop: p(upright), p(turned half round). A card's two
#: printed indices face opposite ways; the same corner of two alike cards, the same way.
DEFAULT_TURN: Final = Path(__file__).with_name("weights") / "indexturn.onnx"


@lru_cache(maxsize=4)
def turn_directions(weights: Path = DEFAULT_TURN) -> int:
    """How many directions the turn network in ``weights`` tells: 2 (upright or turned half
    round, ``read_turns``) or more (``read_ups``; ``train_turn --directions 8``)."""
    blank = np.zeros((1, 3, CROP_H, CROP_W), np.float32)
    return int(load_network(weights)(blank).reshape(1, -1).shape[1])


def turn_probs(image: np.ndarray, boxes: list[Box], weights: Path = DEFAULT_TURN) -> np.ndarray:
    """Each index box's probabilities of the turn network's directions (``turn_directions``;
    direction j of k: j/k of a turn clockwise from the crop's up), its crop cut by
    ``crop_index`` (turned a quarter clockwise first when wider than tall)."""
    return classify_crops([crop_index(image, b) for b in boxes], weights, turn_directions(weights))


def read_turns(image: np.ndarray, boxes: list[Box], weights: Path = DEFAULT_TURN) -> np.ndarray:
    """For each index box, the probability that its index stands upright (rank above suit) in
    its crop (``upright_of``); NaN for every box when there are no turn weights."""
    if not weights.is_file():
        return np.full(len(boxes), np.nan, np.float32)
    return upright_of(turn_probs(image, boxes, weights))


def upright_of(probs: np.ndarray) -> np.ndarray:
    """p(upright) from ``turn_probs``: of a network of two directions, the first; of more,
    the probability of those pointing up the crop, half of those pointing across it."""
    up = np.cos(2 * np.pi * np.arange(probs.shape[1]) / probs.shape[1])
    weight = np.where(up > 1e-6, 1.0, np.where(up < -1e-6, 0.0, 0.5))
    return (probs @ weight).astype(np.float32)


def read_ups(image: np.ndarray, boxes: list[Box], weights: Path = DEFAULT_TURN) -> np.ndarray:
    """For each index box, the direction its index points in the image (from its suit to its
    rank) as a vector (x, y) whose length is how sure the read is (1: all on one direction),
    from a turn network of more than two directions (``ups_of``)."""
    if not boxes:
        return np.zeros((0, 2), np.float32)
    return ups_of(turn_probs(image, boxes, weights), boxes)


def ups_of(probs: np.ndarray, boxes: list[Box]) -> np.ndarray:
    """``read_ups``'s vectors from ``turn_probs``: each direction's probability times its
    unit vector, summed, then turned back from the crop's quarter turn."""
    clockwise = 2 * np.pi * np.arange(probs.shape[1]) / probs.shape[1]
    crop_x, crop_y = probs @ np.sin(clockwise), probs @ -np.cos(clockwise)
    wide = np.array([(b[2] - b[0]) > (b[3] - b[1]) for b in boxes])
    # the crop of a wide box was turned a quarter clockwise: the crop's (x, y) is the image's (y, -x)
    out: np.ndarray = np.stack([np.where(wide, crop_y, crop_x), np.where(wide, -crop_x, crop_y)], axis=1)
    return out.astype(np.float32)


#: Whole-card crops (portrait): the rank read from the card's pips, court art and indices.
CARD_W: Final = 40
CARD_H: Final = 56
DEFAULT_CARD_CLASSIFIER: Final = Path(__file__).with_name("weights") / "cardrank.onnx"
#: Output classes: the card (rank) classes, then "not a card".
N_CARD_OUT: Final = len(CARD_CLASSES) + 1


#: Each whole-card crop is also read turned half round unless its first read is this sure
#: (above 1: every crop, as shipped).
CARD_TURN_UNSURE: Final = 1.01


def crop_card(image: np.ndarray, box: Box) -> np.ndarray:
    """The card under ``box`` turned to portrait and resized to ``CARD_W``×``CARD_H`` (BGR)."""
    return _upright(image, box, (CARD_W, CARD_H))


def refine_cards(image: np.ndarray, detections: list[Detection],
                 weights: Path = DEFAULT_CARD_CLASSIFIER, max_background: float = 0.5,
                 detector_weight: float = 0.0, both_ways: bool = True,
                 cache: Reads | None = None, turn_unsure: float = CARD_TURN_UNSURE) -> list[Detection]:
    """Whole-card detections re-read by the card classifier (dropped when "not a card"); with
    ``both_ways`` each card whose first read names no class ``turn_unsure`` surely is also
    read turned half round, as for indices. Reads kept in ``cache`` (one per image) are not
    made again."""
    if not weights.is_file():
        return detections
    cards = [d for d in detections if d.kind == "card"]
    probs = read_boxes(lambda box: crop_card(image, box), [d.box for d in cards], weights,
                       N_CARD_OUT, both_ways, turn_unsure, cache)
    return _reread(detections, "card", probs, max_background, detector_weight)
