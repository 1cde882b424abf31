"""Which lightness to read a photo in: as it lies, or turned over (light ink on dark cards).

The networks learnt decks of both kinds, but the index classifier reads dark ink on pale
card more surely, and a real photo of a light-on-dark deck (its camera's blur, noise and
light) less surely still than a drawn one. So after the detector's first look (or, where the
input size is known beforehand, its look at that size), before the photo is read, its surest
index peaks decide: each is cut out as it lies and turned over
(:func:`vision.lightness.lightness_negative`: lightness inverted, hues kept) and read by the
index classifier both ways. The photo is read turned over when the classifier names the
cards more surely so (by ``margin`` on average) and at least ``dark_share`` of those index
boxes show a dark card with light ink (the box's middle grey lies below the middle of its
range: most of an index box is card, the ink the least part). The two tests guard each
other: on drawn tables of dark ink a few index crops read a little surer turned over, and
a dim or patterned table can put dark card behind some boxes; a real light-on-dark deck
shows both. The reading's boxes are where they were: only the lightness changes. Where the
boxes look dark but the classifier reads them no surer turned over, the photo alone is read
as it lies; a run of photos of a dark deck reads it turned over (``vision.runs``).

Measured in ``bench/bench_ablation.py`` (``no lightness choice``) and ``vision/HISTORY.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.classifier import DEFAULT_CLASSIFIER, classify_crops, crop_index, crop_size
from vision.detector import Detection
from vision.lightness import lightness_negative

#: The photo is read turned over when its index crops read surer so by this much on average
#: (the mean of each crop's surest card class, "not an index" left out)...
POLARITY_MARGIN: Final = 0.05
#: ...and at least this share of the boxes show light ink on a dark card.
DARK_SHARE: Final = 0.5
#: The surest index peaks of the first look that decide (a batch of twice as many crops).
SAMPLE: Final = 12
#: A peak this firm or firmer is an index to decide by (``vision.scale.SURE``'s bar).
PEAK: Final = 0.35
#: Boxes whose grey spans less than this (of 255) show no ink to tell by.
MIN_RANGE: Final = 10


def dark_card(image: np.ndarray, box: tuple[float, float, float, float]) -> bool | None:
    """Whether the index box shows light ink on a dark card (its middle grey below the middle
    of its range), or None where it shows too little to tell."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    patch = image[max(0, y0):min(h, y1), max(0, x0):min(w, x1)]
    if patch.shape[0] * patch.shape[1] < 20:
        return None
    grey = cv2.cvtColor(np.ascontiguousarray(patch), cv2.COLOR_BGR2LAB)[..., 0]
    low, middle, high = np.percentile(grey, (5, 50, 95))
    if high - low < MIN_RANGE:
        return None
    return bool(middle < (low + high) / 2)


#: What ``lightness_choice`` finds: read the photo as it lies (few index boxes show light ink
#: on dark card), turned over (they do, and read surer so), or left ``open`` (they do, but
#: read no surer turned over: a run of photos chooses, ``vision.runs``).
LIGHTNESS: Final = ("as printed", "turned", "open")


def lightness_choice(image: np.ndarray, first: Sequence[Detection],
                     weights: Path = DEFAULT_CLASSIFIER, margin: float = POLARITY_MARGIN,
                     dark_share: float = DARK_SHARE) -> str:
    """Which lightness to read the photo in (one of ``LIGHTNESS``), from the first look's
    detections ``first`` (see the module's notes)."""
    if not weights.is_file():
        return "as printed"  # no index classifier to ask (the indices are then read from the detector alone)
    peaks = sorted((d for d in first if d.kind == "index" and d.score >= PEAK), key=lambda d: -d.score)[:SAMPLE]
    dark = [v for v in (dark_card(image, d.box) for d in peaks) if v is not None]
    if not dark or sum(dark) < dark_share * len(dark):
        return "as printed"
    size = crop_size(weights)
    crops = [crop_index(image, d.box, size) for d in peaks]
    probs = classify_crops(crops + [lightness_negative(c) for c in crops], weights)
    surest = probs[:, :-1].max(axis=1)  # the surest card class, "not an index" left out
    return "turned" if surest[len(crops):].mean() > surest[:len(crops)].mean() + margin else "open"
