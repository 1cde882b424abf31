"""Training crops for the index-box network (``vision.index_boxes``): each labelled index seen
through a box that strays from it as the detector's boxes do, with where the index lies in it.

Torch-free, like the other crop makers, so the tests check the targets without the training
extra.
"""

from __future__ import annotations

import math

import numpy as np

from vision.classifier import crop_index, zoom_box
from vision.index_boxes import CONTEXT, crop_target
from vision.reading import Box
from vision.train.crops import off_cards
from vision.train.dataset import Photo, _photometric

#: How far the training boxes stray from the labelled ones: the standard deviation of the
#: logarithm of each side's factor (a quarter either way typically, by half in one box in
#: ten, as the detector's on drawn tables and hands), and of the centre's offset as a share
#: of the side.
SIZE_JITTER = 0.25
PLACE_JITTER = 0.1


def jittered_box(index: tuple[float, float, float, float], rng: np.random.Generator) -> Box:
    """A box around an index (cx, cy, w, h) as the detector might give it."""
    cx, cy, w, h = index
    jw, jh = w * math.exp(rng.normal(0, SIZE_JITTER)), h * math.exp(rng.normal(0, SIZE_JITTER))
    x, y = cx + rng.normal(0, PLACE_JITTER) * w, cy + rng.normal(0, PLACE_JITTER) * h
    return (x - jw / 2, y - jh / 2, x + jw / 2, y + jh / 2)


#: An index is about this share of its card's longer side (for the sizes of background boxes
#: on photos labelled with whole cards only).
INDEX_OF_CARD = 0.22


def background_boxes(photo: Photo, rng: np.random.Generator, count: int) -> list[Box]:
    """Up to ``count`` boxes the size of the photo's indices lying on no index (nor near one
    that shows in part), and off every labelled card where the photo labels whole cards
    (printed matter, card art and pips, the table: where the detector's stray peaks lie)."""
    if photo.indices:
        sizes = [(w, h) for _, _, w, h, _ in photo.indices]
    elif photo.cards:
        sizes = [(INDEX_OF_CARD * max(w, h) * 0.6, INDEX_OF_CARD * max(w, h)) for _, _, w, h, _ in photo.cards]
    else:
        return []
    near = [(cx, cy, max(w, h)) for cx, cy, w, h, *_ in (*photo.indices, *photo.partial)]
    hh, ww = photo.image.shape[:2]
    out: list[Box] = []
    for _ in range(count * 6):
        if len(out) >= count:
            break
        bw, bh = sizes[int(rng.integers(len(sizes)))]
        bw, bh = (bw, bh) if rng.random() < 0.5 else (bh, bw)
        x, y = rng.uniform(0, ww), rng.uniform(0, hh)
        if any(abs(x - cx) < 0.7 * (side + max(bw, bh)) and abs(y - cy) < 0.7 * (side + max(bw, bh))
               for cx, cy, side in near):
            continue
        if photo.cards and not photo.has_indices and not off_cards(x, y, photo):
            continue  # a card whose indices are not labelled may show one there
        out.append((x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2))
    return out


def box_crops(photos: list[Photo], rng: np.random.Generator, per_index: int = 1,
              background: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Crops of each labelled index (``per_index`` times) seen through a jittered box grown
    by ``CONTEXT``, with what the network should say of each (``crop_target``); and
    ``background`` boxes a photo lying on no index (``background_boxes``), taught to be left
    as they are. Half are turned half round (the centre's offset with them), all recoloured
    as the classifiers' crops."""
    images, targets = [], []

    def add(image: np.ndarray, seen: Box, index: Box) -> None:
        target = np.array(crop_target(seen, index), np.float32)
        crop = crop_index(image, seen)
        if rng.random() < 0.5:
            crop = np.ascontiguousarray(crop[::-1, ::-1])
            target[:2] = -target[:2]
        images.append(_photometric(crop, rng))
        targets.append(target)

    for photo in photos:
        for cx, cy, w, h, _ in photo.indices:
            if w <= 1 or h <= 1:
                continue
            index = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            for _ in range(per_index):
                add(photo.image, zoom_box(jittered_box((cx, cy, w, h), rng), CONTEXT), index)
        # no index there: the box the detector gave is as good as any
        for box in background_boxes(photo, rng, background):
            add(photo.image, zoom_box(box, CONTEXT), box)
    return np.stack(images), np.stack(targets)
