"""Choosing the detector's input size so that corner indices reach it at the size it learnt.

The detector is fully convolutional and sees the photo scaled to some size on its longer side.
It learnt indices whose long side spans about ``TARGET_INDEX`` pixels of its input (the
training crops' zoom spreads them over roughly 12–100). A fixed input size would shrink the
indices of a wide table shot (a 1280×960 photo of a whole table, where an index is a few
dozen pixels) below anything it learnt, so the size is chosen per photo: from the mat
calibration's scale when there is one (an index is about ``INDEX_MM`` long), otherwise from
a first look at the default size, which finds the larger marks (whole cards, the clearer
indices) well enough to measure them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np

from vision.detector import INPUT_SIZE, Detection
from vision.reading import long_side

#: The index size, in detector input pixels (long side of its box), the detector reads best.
TARGET_INDEX: Final = 30.0
#: Indices measured smaller than this at the default size send the photo to a larger input
#: size. Above the target's 0.8, not far under it: the detector's boxes for indices of a
#: dozen pixels come out a third or more too big (they read 18–22 where a finer look
#: measures 13–16), so a lower bar would leave such tables at the default size.
SMALL_INDEX: Final = 24.0
#: Indices measured larger than this at the default size (a close-up) send the photo to a
#: smaller input size, down to ``SMALLEST`` (``choose_size``'s ``smallest``). Twice the
#: target: the detector's boxes for large indices come out small (a close-up's 190-pixel
#: indices measure about 110), so only clear close-ups are sent down.
LARGE_INDEX: Final = 60.0
#: The smallest input size a close-up is read at (``bench/bench_ablation.py``, ``down to``:
#: against 384, +0.013 on the held-out phone photos and +0.015 on their close-ups, the
#: other six sources unchanged; 256 gained +0.006 and 0).
SMALLEST: Final = 192
#: A corner index's long side over its card's long side (printed decks: about 0.2–0.25).
INDEX_PER_CARD: Final = 0.22
#: A printed corner index (rank over suit) is about this long on a standard card, in mm.
INDEX_MM: Final = 20.0
#: The largest detector input: beyond it the time grows faster than what is found.
MAX_SIZE: Final = 1024
#: Detections at least this sure are measured.
SURE: Final = 0.35


def index_size(found: Sequence[Detection]) -> float | None:
    """The typical long side of an index in image pixels: the median of the sure index
    boxes, else of the sure whole cards scaled by ``INDEX_PER_CARD``; None if nothing is sure."""
    indices = [long_side(d.box) for d in found if d.kind == "index" and d.score >= SURE]
    if len(indices) >= 2:
        return float(np.median(indices))
    cards = [long_side(d.box) * INDEX_PER_CARD for d in found if d.kind == "card" and d.score >= SURE]
    if cards:
        return float(np.median(cards))
    return float(indices[0]) if indices else None


def size_for(index_px: float, image_side: int, target: float = TARGET_INDEX,
             smallest: int = INPUT_SIZE) -> int:
    """The detector input size (a multiple of 32, ``smallest`` to ``MAX_SIZE`` and no more
    than the photo's own longer side rounded up) at which an index of ``index_px`` image
    pixels spans ``target`` input pixels."""
    want = target * image_side / max(index_px, 1.0)
    limit = min(MAX_SIZE, -(-image_side // 32) * 32)
    return int(max(smallest, min(limit, round(want / 32) * 32)))


def choose_size(image_side: int, first: Sequence[Detection], px_per_mm: float | None = None,
                target: float = TARGET_INDEX, smallest: int = SMALLEST) -> int:
    """The input size for a photo whose longer side is ``image_side`` pixels: from the
    calibration's ``px_per_mm`` when known, else from the detections ``first`` found at the
    default size, so that an index spans ``target`` input pixels (a calibrated view is never
    read below the default size; its close-ups are not measured). From a first look the
    default size stands unless its indices came out smaller than ``SMALL_INDEX`` or, where
    ``smallest`` allows a smaller input, larger than ``LARGE_INDEX`` (a close-up)."""
    if px_per_mm is not None and px_per_mm > 0:
        return size_for(INDEX_MM * px_per_mm, image_side, target)
    measured = index_size(first)
    if measured is None:
        return INPUT_SIZE
    seen = measured * INPUT_SIZE / image_side
    if seen > LARGE_INDEX and smallest < INPUT_SIZE:
        return min(INPUT_SIZE, size_for(measured, image_side, target, smallest))
    if seen >= min(SMALL_INDEX, target):
        return INPUT_SIZE
    return size_for(measured, image_side, target)


def far_size(found: Sequence[Detection], image_side: int, size: int, spread: float,
             target: float = TARGET_INDEX) -> int | None:
    """A larger input size for the far indices of a photo read at ``size`` (a camera looking
    across the table: near indices large, far ones small): the size at which the smaller
    tenth of its sure index peaks in ``found`` would span ``target`` input pixels, when the
    larger tenth measure at least ``spread`` times the smaller; None when they do not, when
    fewer than four indices are sure, or when that size is not larger than ``size``."""
    sides = [long_side(d.box) for d in found if d.kind == "index" and d.score >= SURE]
    if len(sides) < 4:
        return None
    small, large = np.percentile(sides, [10, 90])
    if large < spread * small:
        return None
    far = size_for(float(small), image_side, target)
    return far if far > size else None


def next_size(size: int, image_side: int) -> int | None:
    """The next pyramid level up from ``size`` for a photo where nothing was read at it
    (cards too small even to measure): twice the size, when the photo has that much detail
    and it is within ``MAX_SIZE``; None otherwise."""
    bigger = 2 * size
    return bigger if bigger <= min(MAX_SIZE, image_side) else None
