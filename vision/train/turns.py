"""Training crops for the index-turn classifier: each visible index of a drawn scene, labelled
by whether it stands upright (rank above suit) in its crop as ``vision.classifier.crop_index``
cuts it, or turned half round; or by which of several directions it points in.

A card prints its top index upright and its bottom one turned half round, so the two indices
of one card read opposite ways in their crops, while the same corner of two alike cards (a
fan of two decks) reads the same way. Drawn scenes know each card's outline, hence which way
each of its indices faces; the shared photos do not, and are used only to check the result
(``bench/bench_index_turn.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from vision.classifier import CROP_H, CROP_W, crop_index
from vision.reading import Box
from vision.synth import Face, SceneCard
from vision.train.dataset import _photometric

#: The label of an index standing upright in its crop, and of one turned half round.
UPRIGHT, TURNED = 0, 1
#: An index's up direction must lie within about 50 degrees of its crop's vertical to be
#: labelled: a card lying near 45 degrees gives a box as wide as tall, and the quarter turn
#: ``crop_index`` makes depends on which side comes out longer.
SURE_AXIS = 0.65

#: One drawn scene: its image, and each visible index's box with the unit vector of its up
#: direction in the image (from its suit towards its rank).
TurnScene = tuple[np.ndarray, list[tuple[Box, np.ndarray]]]


def index_ups(cards: Sequence[SceneCard]) -> list[tuple[Box, np.ndarray]]:
    """Each visible index box of ``cards`` with its up direction: a card's top indices
    (nearer the top edge of its face) point to that edge, its bottom ones away from it."""
    out = []
    for card in cards:
        q = card.quad.astype(np.float64)
        centre = q.mean(axis=0)
        up = (q[0] + q[1]) / 2 - (q[3] + q[2]) / 2
        up /= max(float(np.hypot(*up)), 1e-9)
        for box in card.visible_indices:
            mid = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])
            out.append((box, up if float(np.dot(mid - centre, up)) >= 0 else -up))
    return out


def crop_up(box: Box, up: np.ndarray) -> np.ndarray:
    """An index's up direction ``up`` (image x, y) as it lies in the crop of ``box``, which
    ``crop_index`` turns a quarter clockwise first when the box is wider than tall."""
    wide = (box[2] - box[0]) > (box[3] - box[1])
    # a quarter turn clockwise carries the image's (x, y) to the crop's (-y, x)
    return np.array([-float(up[1]), float(up[0])]) if wide else np.asarray(up, np.float64)


def turn_label(box: Box, up: np.ndarray, directions: int = 2) -> int | None:
    """For two ``directions``: ``UPRIGHT`` or ``TURNED`` for an index of up direction ``up``
    in the crop of ``box`` (``crop_up``), None when the index lies too near the crop's
    diagonal to say. For more: the nearest of that many directions, evenly spaced clockwise
    from the crop's up (0, upright; ``directions // 2``, turned half round), always."""
    u = crop_up(box, up)
    if directions == 2:
        if abs(u[1]) < SURE_AXIS:
            return None
        return UPRIGHT if u[1] < 0 else TURNED
    clockwise = math.atan2(float(u[0]), -float(u[1]))  # 0 pointing up the crop, pi/2 right
    return int(round(clockwise / (2 * math.pi / directions))) % directions


def drawn_scenes(count: int, rng: np.random.Generator,
                 face: Callable[[str, np.random.Generator], Face] | None,
                 crowded: float = 0.4) -> list[TurnScene]:
    """``count`` drawn scenes: small ones of 1–4 melds, and a share ``crowded`` of wide
    tables of up to 48 cards laid close; a fifth to a half seen at a slant."""
    from vision.synth import draw_face, random_card, scene, tilted

    out: list[TurnScene] = []
    for _ in range(count):
        draw = face or draw_face
        occluders = int(rng.integers(1, 3)) if rng.random() < 0.2 else 0
        if rng.random() < crowded:
            w, h = ((1280, 960), (960, 720))[int(rng.integers(2))]
            groups = [[random_card(rng) for _ in range(int(rng.integers(2, 9)))]
                      for _ in range(int(rng.integers(2, 7)))]
            img, cards = scene(rng, (w, h), groups, draw=draw, scale=float(rng.uniform(0.28, 0.6)) * w / 1280,
                               occluders=occluders, tight=True)
            slant = 0.5
        else:
            size = (640, 480) if rng.random() < 0.6 else (640, 640)
            img, cards = scene(rng, size, draw=draw, occluders=occluders)
            slant = 0.2
        if rng.random() < slant:
            img, cards = tilted(img, cards, rng, 0.1)
        out.append((img, index_ups(cards)))
    return out


def turn_crops(scenes: Sequence[TurnScene], rng: np.random.Generator,
               size: tuple[int, int] = (CROP_W, CROP_H),
               directions: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """One augmented crop of every labelled index (``turn_label`` of ``directions``): its
    box jittered as the detector's boxes are (a fifth off in size, a tenth in place),
    recoloured as the index classifier's crops are, and turned half round half the time (its
    label with it)."""
    images, labels = [], []
    for img, ups in scenes:
        for (x0, y0, x1, y1), up in ups:
            w, h = x1 - x0, y1 - y0
            jw, jh = w * math.exp(rng.normal(0, 0.2)), h * math.exp(rng.normal(0, 0.2))
            cx, cy = (x0 + x1) / 2 + rng.normal(0, 0.1) * w, (y0 + y1) / 2 + rng.normal(0, 0.1) * h
            box = (cx - jw / 2, cy - jh / 2, cx + jw / 2, cy + jh / 2)
            label = turn_label(box, up, directions)
            if label is None:
                continue
            crop = crop_index(img, box, size)
            if rng.random() < 0.5:
                crop, label = np.ascontiguousarray(crop[::-1, ::-1]), (label + directions // 2) % directions
            images.append(_photometric(crop, rng))
            labels.append(label)
    return np.stack(images), np.array(labels, np.int64)
