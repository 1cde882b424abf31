"""Second looks at a table that was not read in full.

The first reading can leave a card ``??`` or find none where a card lies: in a fan the
detector's box for an index often reaches into the next card, and the detector finds some
cards (a card held upright to a webcam) less well lying sideways. So while the first reading
leaves a card ``??`` or finds no card at all, the image is looked at again, one look after
another (``RESCAN_LOOKS``): first taking for each index the read of the box that frames it
best, then turned a quarter clockwise, a quarter back and half round. Each look is a
``Look``, which can also ask for another detector size or an image cleared of specks; those
looks paid on no held-out source and are not among the ones tried. The cards read there fill
in what the first reading lacked: they replace the unread cards they overlap, or stand alone
when the first reading read no card. Cards the first reading read are never dropped or
changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

import cv2
import numpy as np

from vision.classifier import ZOOM_SCORE
from vision.detector import INPUT_SIZE
from vision.reading import Box, DetectedCard, box_area, intersection_area, long_side


@dataclass(frozen=True, slots=True)
class Look:
    """How to read the image: the detector's input ``size`` and peak ``threshold``, the
    detector score from which an index is read at several zooms (``zoom_score``), whether the
    image is first cleared of specks (``denoise``), whether each index takes its surest
    zoomed read rather than their mean (``sharpest``, see ``vision.classifier.sharpest_reads``),
    and how many quarter turns clockwise the image is turned first (``turn``; the boxes found
    are turned back). The defaults are the first reading."""

    size: int = INPUT_SIZE
    threshold: float = 0.1
    zoom_score: float = ZOOM_SCORE
    denoise: bool = False
    sharpest: bool = False
    turn: int = 0


#: The looks tried, in turn, while the reading still lacks something. A look at 256 pixels,
#: which came first until 2026-12-03, paid on no held-out source with that day's index
#: classifier and cost the webcam photos turned over 0.027 F1, so it was dropped; the look at
#: 192 after it paid on no source either once the box network placed the index boxes, so it
#: was dropped too (vision/HISTORY.md, "The second looks measured again" and "The rules
#: after the networks measured again with the box network").
RESCAN_LOOKS: Final = (
    Look(sharpest=True),
    Look(turn=1),
    Look(turn=3),
    Look(turn=2),
)
#: A card from a rescan is taken only when read at least this confidently.
RESCAN_CONFIDENCE: Final = 0.6
#: A card read whole in a rescan (no index of its own) is a card of the first reading seen
#: again when it lies at least this much inside that card...
SECOND_VIEW_INSIDE: Final = 0.6
#: ...or holds at least this much of it while that card fills at least ``SECOND_VIEW_SHARE``
#: of its box (a whole-card box around a card whose indices were read).
SECOND_VIEW_AROUND: Final = 0.9
SECOND_VIEW_SHARE: Final = 0.25


def turned(image: np.ndarray, turn: int) -> np.ndarray:
    """``image`` turned ``turn`` quarter turns clockwise."""
    if turn % 4 == 0:
        return image
    codes = {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_COUNTERCLOCKWISE}
    out: np.ndarray = cv2.rotate(image, codes[turn % 4])
    return out


def turn_back(box: Box, turn: int, size: tuple[int, int]) -> Box:
    """A box found on the image turned ``turn`` quarter turns clockwise, in the pixels of the
    image as it was (``size``: its width and height)."""
    w, h = size
    x0, y0, x1, y1 = box
    turn %= 4
    if turn == 1:
        return (y0, h - x1, y1, h - x0)
    if turn == 2:
        return (w - x1, h - y1, w - x0, h - y0)
    if turn == 3:
        return (w - y1, x0, w - y0, x1)
    return box


def despeckle(image: np.ndarray) -> np.ndarray:
    """``image`` with isolated black and white specks (salt-and-pepper noise) filtered out
    by a 3×3 median, which keeps the edges of printed strokes."""
    out: np.ndarray = cv2.medianBlur(image, 3)
    return out


def at_size(looks: Sequence[Look], size: int) -> tuple[Look, ...]:
    """``looks`` for a photo read at detector input ``size`` instead of the default. At a
    larger size (a wide shot of a table, its indices small) only the looks that reuse the
    first reading's detections are kept, moved to ``size``: the close-up looks at smaller
    sizes are beside the point, and a turned or despeckled look would run the detector again
    at the large size (on rendered tables the turned looks added 0.015 F1 for 1.4 s a table,
    the sharpest read 0.05 F1 for 0.2 s)."""
    if size <= INPUT_SIZE:
        return tuple(looks)
    return tuple(replace(look, size=size) for look in looks
                 if look.size == INPUT_SIZE and not look.turn and not look.denoise)


def needs_rescan(cards: Sequence[DetectedCard]) -> bool:
    """Whether a reading found no card or left one unread."""
    return not cards or any(not c.readable for c in cards)


def _same_place(a: Box, b: Box) -> bool:
    """Boxes that overlap by a tenth of their union, or one half inside the other."""
    inter = intersection_area(a, b)
    union = box_area(a) + box_area(b) - inter
    small = min(box_area(a), box_area(b))
    return union > 0 and (inter > 0.1 * union or (small > 0 and inter > 0.5 * small))


def _second_view(read: DetectedCard, again: DetectedCard) -> bool:
    """Whether ``again``, read whole with no index, is the card ``read`` seen once more."""
    inter = intersection_area(read.box, again.box)
    area = box_area(again.box)
    held = inter >= SECOND_VIEW_AROUND * box_area(read.box)
    return inter >= SECOND_VIEW_INSIDE * area or (held and box_area(read.box) >= SECOND_VIEW_SHARE * area)


def fill_unread(first: Sequence[DetectedCard], again: Sequence[DetectedCard],
                min_confidence: float = RESCAN_CONFIDENCE) -> list[DetectedCard]:
    """``first`` with its gaps filled from ``again`` (another reading of the same image).

    A confident card of ``again`` lying where ``first`` has an unread card takes that card's
    place (several may share one: a ``??`` box can span two cards of a fan); when ``first``
    read no card at all, every confident card of ``again`` is taken (the unread card's box may
    lie on another part of the card than the one read again). A card ``first`` already read
    at that place is not added twice, nor is a card read whole, with no index, lying on or
    around a card ``first`` read (that card's art read as another card). Unread cards
    nothing replaced stay, so the count of physical cards never drops.
    """
    read = [c for c in first if c.readable]
    unread = [c for c in first if not c.readable]
    added: list[DetectedCard] = []
    replaced: set[int] = set()
    for card in again:
        if not card.readable or card.confidence < min_confidence:
            continue
        if any(k.card == card.card and _same_place(k.box, card.box) for k in read + added):
            continue
        if not card.indices and any(_second_view(k, card) for k in read):
            continue  # the rescan read a card already read as a whole, as another card
        under = [i for i, u in enumerate(unread) if _same_place(u.box, card.box)]
        if under or not read:
            added.append(card)
            replaced.update(under)
    return read + added + [u for i, u in enumerate(unread) if i not in replaced]


def add_unseen(first: Sequence[DetectedCard], again: Sequence[DetectedCard],
               min_confidence: float = RESCAN_CONFIDENCE) -> list[DetectedCard]:
    """``first`` with the confident cards of ``again`` (a finer look at the same image) that
    lie where ``first`` found nothing: read from an index of their own that touches no index
    of a card already taken, and not a card already taken a card's length away or nearer
    (its other corner). Cards read whole, with no index, are not taken (at a finer look a
    card's art is read as cards)."""
    out = list(first)
    for card in again:
        if not card.readable or card.confidence < min_confidence or not card.indices:
            continue
        if any(intersection_area(a, b) > 0 for k in out for a in card.indices for b in k.indices):
            continue
        if any(k.card == card.card and _near(k, card) for k in out):
            continue
        out.append(card)
    return out


def _near(a: DetectedCard, b: DetectedCard) -> bool:
    """Whether the two cards' boxes lie within the larger card's long side of each other."""
    reach = max(long_side(a.box), long_side(b.box))
    ax, ay = (a.box[0] + a.box[2]) / 2, (a.box[1] + a.box[3]) / 2
    bx, by = (b.box[0] + b.box[2]) / 2, (b.box[1] + b.box[3]) / 2
    return bool(np.hypot(ax - bx, ay - by) <= reach)
