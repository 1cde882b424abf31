"""Which parts of a table photo are cards and which are the table, by colour.

Melds lie apart on the table, and the table shows between them. The table's colour is learnt
from the photo's outer frame (cards lie towards the middle), as a Gaussian in Lab; pixels far
from it are card, and the connected patches of card are the heaps of cards on the table. Two
cards on different patches do not touch, however near their boxes come, and two indices on
different patches are not the two corners of one card.

A table the colour of the cards (white paper, a pale cloth) or a frame filled by cards leaves
no patch the size of a card; then nothing is told apart and grouping goes by the boxes alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision.reading import Box, DetectedCard, box_area

#: The photo is looked at with its longer side this many pixels.
WORK_SIDE: Final = 320
#: The outer frame that stands for the table, as a share of the shorter side.
FRAME: Final = 0.06
#: Pixels further than this many standard deviations from the table's colour are card.
TABLE_SIGMAS: Final = 4.0
#: Of the frame's pixels, this share nearest the frame's median colour is taken as table
#: (the rest may be cards reaching the edge).
TABLE_SHARE: Final = 0.7
#: Card patches covering less than this share, or more than the other, of the photo tell
#: nothing (a table like the cards, or cards filling the frame).
MIN_CARD_SHARE: Final = 0.02
MAX_CARD_SHARE: Final = 0.7
#: An index's patch is looked for this far around it (in the index's size)...
PATCH_REACH: Final = 0.5
#: ...among patches at least this many index areas big (smaller ones are ink and art on a
#: card whose white is like the table's colour); a card known only whole lies on a patch of at
#: least this share of its box.
PATCH_MIN_INDICES: Final = 8.0
PATCH_MIN_CARD: Final = 0.25


@dataclass(frozen=True)
class CardRegions:
    """Connected patches of card pixels on a reduced copy of the photo.

    ``labels`` holds a patch number per reduced pixel (0 for the table), ``areas`` each
    patch's size in reduced pixels, ``scale`` reduced pixels per photo pixel.
    """

    labels: np.ndarray
    areas: np.ndarray
    scale: float

    def patch_near(self, box: Box, grow: float, min_area: float) -> int:
        """The patch covering most of ``box`` grown by ``grow`` of its longer side, among
        those of at least ``min_area`` photo pixels; 0 when there is none."""
        side = max(box[2] - box[0], box[3] - box[1]) * grow
        h, w = self.labels.shape
        x0 = int(max(0.0, (box[0] - side) * self.scale))
        y0 = int(max(0.0, (box[1] - side) * self.scale))
        x1 = int(min(w, np.ceil((box[2] + side) * self.scale)))
        y1 = int(min(h, np.ceil((box[3] + side) * self.scale)))
        if x1 <= x0 or y1 <= y0:
            return 0
        counts = np.bincount(self.labels[y0:y1, x0:x1].ravel(), minlength=len(self.areas))
        counts[0] = 0
        counts[self.areas < min_area * self.scale * self.scale] = 0
        return int(np.argmax(counts)) if counts.max() > 0 else 0

    def turned(self, turn: int) -> CardRegions:
        """The same patches on the photo turned ``turn`` quarter turns clockwise."""
        labels = np.ascontiguousarray(np.rot90(self.labels, -turn))
        return CardRegions(labels, self.areas, self.scale)

    def index_patch(self, box: Box) -> int:
        """The patch a corner index lies on, 0 when unknown."""
        return self.patch_near(box, PATCH_REACH, PATCH_MIN_INDICES * box_area(box))

    def card_patch(self, card: DetectedCard) -> int:
        """The patch a card lies on (the one most of its indices lie on), 0 when unknown."""
        if not card.indices:
            return self.patch_near(card.box, 0.0, PATCH_MIN_CARD * box_area(card.box))
        known = [p for p in map(self.index_patch, card.indices) if p]
        return max(known, key=known.count) if known else 0


def card_regions(image: np.ndarray) -> CardRegions | None:
    """The card patches of a BGR photo, or None when the table cannot be told from the cards."""
    h, w = image.shape[:2]
    if min(h, w) < 16:
        return None
    scale = WORK_SIDE / max(h, w)
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))),
                       interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    card = _far_from_table(lab)
    share = float(np.count_nonzero(card)) / card.size
    if not MIN_CARD_SHARE < share < MAX_CARD_SHARE:
        return None
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    card = cv2.morphologyEx(card, cv2.MORPH_OPEN, kernel)
    card = cv2.morphologyEx(card, cv2.MORPH_CLOSE, kernel)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(card, connectivity=4)
    areas = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    areas[0] = 0.0
    return CardRegions(labels.astype(np.int32), areas, small.shape[1] / w)


def _far_from_table(lab: np.ndarray) -> np.ndarray:
    """A 0/255 mask of the pixels unlike the table's colour."""
    h, w = lab.shape[:2]
    b = max(2, int(FRAME * min(h, w)))
    frame = np.concatenate([lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3),
                            lab[:, :b].reshape(-1, 3), lab[:, -b:].reshape(-1, 3)])
    spread = np.abs(frame - np.median(frame, axis=0)).sum(axis=1)
    table = frame[spread <= np.percentile(spread, TABLE_SHARE * 100)]
    mean = table.mean(axis=0)
    # a floor under the spread, so a flat drawn table does not make every speck a card
    cov = np.cov(table.T) + np.eye(3) * 4.0
    # the quadratic form written out per channel: a matrix product would hand 76,800 rows of
    # three to the BLAS library, whose threads fight the networks' and the trainer's for the
    # cores (beside a training run: 32 ms a photo with its threads, 7 with one; this, 5-6)
    m = np.linalg.inv(cov)
    d = (lab - mean).astype(np.float64)
    d0, d1, d2 = d[..., 0], d[..., 1], d[..., 2]
    dist2 = (d0 * (m[0, 0] * d0 + 2 * m[0, 1] * d1 + 2 * m[0, 2] * d2)
             + d1 * (m[1, 1] * d1 + 2 * m[1, 2] * d2) + m[2, 2] * d2 * d2)
    far: np.ndarray = (dist2 > TABLE_SIGMAS * TABLE_SIGMAS).astype(np.uint8) * 255
    return far
