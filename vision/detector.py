"""Running the shipped card detector (ONNX, see ``vision.inference``) and decoding its output maps."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.errors import VisionError
from vision.inference import load_network
from vision.labels import CARD_CLASSES, INDEX_CLASSES
from vision.reading import inside

INPUT_SIZE: Final = 384
STRIDE: Final = 4
#: Index peaks found on the photo's negative at least this sure join the photo's own
#: (``detect_both``). Chosen against 0.5 and 0.45 for the detector trained before this one,
#: which rarely found light ink on dark card in the photo itself (light-on-dark tables +0.05
#: to +0.10 F1 then).
NEGATIVE_SCORE: Final = 0.4
#: The score from which ``vision.recognize.read_table`` takes the negative's peaks: 1, never.
#: The detector trained from scratch learnt light-on-dark designs and reads them as they lie
#: (``bench/bench_ablation.py``, rendered tables scored with partly hidden cards optional):
#: the negative's peaks in every look, from 0.4, paid on two sources (four-corner +0.004,
#: light-on-dark +0.012) and cost two (held-out typefaces −0.009, dim −0.006), and 40–60 ms
#: a wide table; taken only where the photo itself shows nothing, they paid nowhere and cost
#: the close-ups 0.010.
NEGATIVE_PEAKS: Final = 1.0
DEFAULT_WEIGHTS: Final = Path(__file__).with_name("weights") / "cardnet.onnx"
_N_INDEX: Final = len(INDEX_CLASSES)
_N_CARD: Final = len(CARD_CLASSES)


@dataclass(frozen=True, slots=True)
class Detection:
    """One peak of a heat map: a corner index (``kind='index'``) or a whole card (``'card'``).

    ``probs`` is the class distribution (over ``INDEX_CLASSES`` or ``CARD_CLASSES``);
    ``box`` is ``(x0, y0, x1, y1)`` in the image's pixels. ``upright``, for an index read by
    the turn classifier (``vision.classifier.read_turns``), is the probability that it stands
    upright in its crop; None when unread. ``up``, for an index read by a turn network of more
    directions (``vision.classifier.read_ups``), is the way it points in the image, a vector
    whose length is how sure the read is; None when unread so.
    """

    kind: str
    x: float
    y: float
    box: tuple[float, float, float, float]
    score: float
    probs: np.ndarray
    upright: float | None = None
    up: tuple[float, float] | None = None

    @property
    def label(self) -> str:
        names = INDEX_CLASSES if self.kind == "index" else CARD_CLASSES
        return names[int(np.argmax(self.probs))]

    @property
    def confidence(self) -> float:
        return float(np.max(self.probs))


#: The letterboxes made while ``sharing_letterboxes`` is open: (image, canvas, scale) by the
#: image's identity, the size and whether squared.
_shared: ContextVar[dict[tuple[int, int, bool], tuple[np.ndarray, np.ndarray, float]] | None] = \
    ContextVar("letterboxes", default=None)


@contextmanager
def sharing_letterboxes() -> Iterator[None]:
    """While open, ``letterbox`` makes each (image, size) once and hands the same read-only
    canvas to every later call: the card detector's and the tile reader's first looks both
    see the photo at 384 pixels. The images letterboxed must not change while it is open."""
    token = _shared.set({})
    try:
        yield
    finally:
        _shared.reset(token)


def letterbox(image: np.ndarray, size: int = INPUT_SIZE, square: bool = False) -> tuple[np.ndarray, float]:
    """The image scaled so its longer side is ``size``, padded on the right and bottom to
    multiples of 32 (the net's stride; to a ``size`` square with ``square``); and the scale.
    The net is fully convolutional, so a 4:3 photo costs three quarters of a square's work."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise VisionError(f"expected a BGR image, got shape {image.shape}")
    shared = _shared.get()
    if shared is None:
        return _letterbox(image, size, square)
    made = shared.get((id(image), size, square))
    if made is not None and made[0] is image:
        return made[1], made[2]
    canvas, scale = _letterbox(image, size, square)
    canvas.flags.writeable = False
    shared[(id(image), size, square)] = (image, canvas, scale)  # the image kept: its id stays its own
    return canvas, scale


def _letterbox(image: np.ndarray, size: int, square: bool) -> tuple[np.ndarray, float]:
    h, w = image.shape[:2]
    scale = size / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA)
    ch, cw = (size, size) if square else (-(-nh // 32) * 32, -(-nw // 32) * 32)
    canvas = np.full((ch, cw, 3), 114, np.uint8)
    canvas[:nh, :nw] = small
    return canvas, scale


def run_maps(image: np.ndarray, weights: Path = DEFAULT_WEIGHTS,
             size: int = INPUT_SIZE) -> tuple[np.ndarray, float]:
    """The raw output maps (C, H/4, W/4) for a BGR image letterboxed to ``size`` on its
    longer side (the net is fully convolutional; a multiple of 32), and the letterbox scale."""
    if size % 32:
        raise VisionError(f"detector input size {size} is not a multiple of 32")
    canvas, scale = letterbox(image, size)
    blob = np.ascontiguousarray(canvas.transpose(2, 0, 1)[None], np.float32)
    return load_network(weights)(blob)[0], scale


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    p: np.ndarray = e / e.sum()
    return p


def _peaks(heat: np.ndarray, threshold: float) -> list[tuple[int, int, float]]:
    prob = 1.0 / (1.0 + np.exp(-heat))
    dil = cv2.dilate(prob, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((prob >= dil) & (prob >= threshold))
    return [(int(y), int(x), float(prob[y, x])) for y, x in zip(ys, xs, strict=True)]


def decode(maps: np.ndarray, scale: float, threshold: float = 0.3) -> list[Detection]:
    """Heat-map peaks above ``threshold`` as detections in image pixels."""
    out: list[Detection] = []
    layout = (("index", 0, _N_INDEX), ("card", 3 + _N_INDEX, _N_CARD))
    for kind, base, ncls in layout:
        for gy, gx, score in _peaks(maps[base], threshold):
            lw, lh = maps[base + 1, gy, gx], maps[base + 2, gy, gx]
            w = float(np.exp(lw)) * STRIDE / scale
            h = float(np.exp(lh)) * STRIDE / scale
            x = (gx + 0.5) * STRIDE / scale
            y = (gy + 0.5) * STRIDE / scale
            probs = _softmax(maps[base + 3:base + 3 + ncls, gy, gx])
            box = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
            out.append(Detection(kind, x, y, box, score, probs))
    return out


def detect(image: np.ndarray, threshold: float = 0.3, weights: Path = DEFAULT_WEIGHTS,
           size: int = INPUT_SIZE) -> list[Detection]:
    """Corner-index and whole-card detections on a BGR image letterboxed to ``size``."""
    maps, scale = run_maps(image, weights, size)
    return decode(maps, scale, threshold)


def detect_both(image: np.ndarray, threshold: float = 0.3, weights: Path = DEFAULT_WEIGHTS,
                size: int = INPUT_SIZE, negative_score: float = NEGATIVE_SCORE) -> list[Detection]:
    """``detect`` on the image, plus the index peaks found on its negative scoring at least
    ``negative_score``. The detector learnt dark ink on pale card; a deck of light ink on
    black card is that in its negative, where it finds what it misses on the photo (the
    index classifier reads both polarities). Only firm peaks of the negative are taken (its
    weak ones are mostly shadows and dark clutter turned pale), and none inside a card or an
    index the photo itself shows as firmly: what is seen in its own polarity is read there
    (court art turned negative can pass for an index, and a second box on an index read
    already only blurs its read). A negative peak inside an index box of the photo's own,
    however weak, is that same index found in both polarities: it is one detection
    (``join_twin``), never two cards."""
    found = detect(image, threshold, weights, size)
    if negative_score >= 1:
        return found
    seen = [d.box for d in found if d.score >= negative_score]
    negative = cv2.bitwise_not(image)
    for peak in detect(negative, max(threshold, negative_score), weights, size):
        if peak.kind != "index" or any(inside(peak.x, peak.y, b) for b in seen):
            continue
        twins = [i for i, d in enumerate(found) if d.kind == "index" and inside(peak.x, peak.y, d.box)]
        if twins:
            i = min(twins, key=lambda j: (found[j].x - peak.x) ** 2 + (found[j].y - peak.y) ** 2)
            found[i] = join_twin(found[i], peak)
        else:
            found.append(peak)
    return found


def join_twin(a: Detection, b: Detection) -> Detection:
    """One index found twice (in the photo and in its negative): the stronger peak's box and
    score, and the two reads averaged, weighted by score."""
    strong = a if a.score >= b.score else b
    probs = (a.score * a.probs + b.score * b.probs) / (a.score + b.score)
    return Detection(strong.kind, strong.x, strong.y, strong.box, strong.score, probs)
