"""Training crops for the corner-index classifier: labelled indices, drawn indices, background."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from vision.classifier import CROP_H, CROP_W, N_CARD_OUT, N_OUT, crop_card, crop_index
from vision.labels import INDEX_CLASSES
from vision.train.dataset import FaceFn, Photo, _photometric

BACKGROUND = N_OUT - 1


def index_crops(photos: list[Photo], rng: np.random.Generator, per_index: int = 1,
                background_per_photo: int = 2, size: tuple[int, int] = (CROP_W, CROP_H),
                lightness_negatives: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Augmented crops and labels: each labelled index ``per_index`` times (jittered centre,
    size and any rotation), plus background crops away from every index; a share
    ``lightness_negatives`` of them in the other lightness, hues kept."""
    images, labels = [], []
    for photo in photos:
        if not photo.has_indices:
            continue
        objs = photo.indices
        for cx, cy, w, h, k in objs:
            for _ in range(per_index):
                images.append(_jittered(photo.image, (cx, cy, w, h), rng, size, lightness_negatives))
                labels.append(k)
        if photo.partial_indices or not objs:
            continue
        sizes = [(w, h) for _, _, w, h, _ in objs]
        hh, ww = photo.image.shape[:2]
        made = 0
        for _ in range(background_per_photo * 6):
            if made >= background_per_photo:
                break
            bw, bh = sizes[int(rng.integers(len(sizes)))]
            bw, bh = (bw, bh) if rng.random() < 0.5 else (bh, bw)
            x, y = rng.uniform(0, ww), rng.uniform(0, hh)
            if any(abs(x - cx) < 0.7 * max(w, h) and abs(y - cy) < 0.7 * max(w, h)
                   for cx, cy, w, h, _ in objs):
                continue
            box = (x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2)
            images.append(_photometric(crop_index(photo.image, box, size), rng, lightness_negatives))
            labels.append(BACKGROUND)
            made += 1
    return np.stack(images), np.array(labels, np.int64)


def _jittered(image: np.ndarray, index: tuple[float, float, float, float], rng: np.random.Generator,
              size: tuple[int, int], lightness_negatives: float) -> np.ndarray:
    """A training crop of an index (cx, cy, w, h): its centre and size jittered, turned half
    round half the time, its light and colour varied (``_photometric``)."""
    cx, cy, w, h = index
    jw, jh = w * math.exp(rng.normal(0, 0.1)), h * math.exp(rng.normal(0, 0.1))
    jx, jy = rng.normal(0, 0.06) * w, rng.normal(0, 0.06) * h
    box = (cx + jx - jw / 2, cy + jy - jh / 2, cx + jx + jw / 2, cy + jy + jh / 2)
    crop = crop_index(image, box, size)
    if rng.random() < 0.5:
        crop = np.ascontiguousarray(crop[::-1, ::-1])
    return _photometric(crop, rng, lightness_negatives)


#: An index partly under other cards is taught by how much of its ink shows (``Photo.partial``):
#: with at least ``INK_SHOWN`` of its rank showing it is that rank, and its suit is told in
#: proportion as the suit's ink shows from ``SUIT_LOST`` (nothing told: any of the four) to
#: ``INK_SHOWN`` (told whole); with under ``RANK_LOST`` of its rank showing it is no index.
INK_SHOWN, SUIT_LOST, RANK_LOST = 0.95, 0.5, 0.5


def partial_target(k: int, rank_shown: float, suit_shown: float) -> np.ndarray | None:
    """The class probabilities an index of class ``k`` partly hidden is taught (``INK_SHOWN``),
    or None when it lies between what can and cannot be told (some of its rank hidden)."""
    target = np.zeros(N_OUT, np.float32)
    if rank_shown < RANK_LOST:
        target[BACKGROUND] = 1.0
        return target
    if rank_shown < INK_SHOWN:
        return None
    if INDEX_CLASSES[k] == "PJ":  # no suit to lose
        target[k] = 1.0
        return target
    told = float(np.clip((suit_shown - SUIT_LOST) / (INK_SHOWN - SUIT_LOST), 0.0, 1.0))
    rank = INDEX_CLASSES[k][:-1]
    suits = [i for i, name in enumerate(INDEX_CLASSES) if name != "PJ" and name[:-1] == rank]
    target[suits] = (1.0 - told) / len(suits)
    target[k] += told
    return target


def partial_crops(photos: list[Photo], rng: np.random.Generator, size: tuple[int, int] = (CROP_W, CROP_H),
                  lightness_negatives: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Crops of the drawn scenes' indices that show in part (``Photo.partial``), jittered as
    ``index_crops``'s, and the class probabilities each is taught (``partial_target``); one
    to be taught as no index is left out where another card's index shows in its box."""
    images, targets = [], []
    for photo in photos:
        for cx, cy, w, h, k, rank_shown, suit_shown in photo.partial:
            target = partial_target(k, rank_shown, suit_shown)
            if target is not None and target[BACKGROUND] and any(
                    abs(vx - cx) < w / 2 and abs(vy - cy) < h / 2 for vx, vy, *_ in photo.indices):
                continue
            if target is not None:
                images.append(_jittered(photo.image, (cx, cy, w, h), rng, size, lightness_negatives))
                targets.append(target)
    if not images:
        return np.zeros((0, size[1], size[0], 3), np.uint8), np.zeros((0, N_OUT), np.float32)
    return np.stack(images), np.stack(targets)


def card_crops(photos: list[Photo], rng: np.random.Generator, per_card: int = 3,
               background_per_photo: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Augmented whole-card crops with rank classes, plus background crops (``N_CARD_OUT - 1``)."""
    images, labels = [], []
    for photo in photos:
        if not photo.has_cards:
            continue
        for cx, cy, w, h, k in photo.cards:
            for _ in range(per_card):
                jw, jh = w * math.exp(rng.normal(0, 0.06)), h * math.exp(rng.normal(0, 0.06))
                jx, jy = rng.normal(0, 0.04) * w, rng.normal(0, 0.04) * h
                box = (cx + jx - jw / 2, cy + jy - jh / 2, cx + jx + jw / 2, cy + jy + jh / 2)
                crop = crop_card(photo.image, box)
                if rng.random() < 0.5:
                    crop = np.ascontiguousarray(crop[::-1, ::-1])
                images.append(_photometric(crop, rng))
                labels.append(k)
        hh, ww = photo.image.shape[:2]
        made = 0
        for _ in range(background_per_photo * 8):
            if made >= background_per_photo:
                break
            _, _, bw, bh, _ = photo.cards[int(rng.integers(len(photo.cards)))]
            x, y = rng.uniform(0, ww), rng.uniform(0, hh)
            if any(abs(x - cx) < 0.6 * w and abs(y - cy) < 0.6 * h for cx, cy, w, h, _ in photo.cards):
                continue
            images.append(_photometric(crop_card(photo.image, (x - bw / 2, y - bh / 2, x + bw / 2,
                                                                y + bh / 2)), rng))
            labels.append(N_CARD_OUT - 1)
            made += 1
    return np.stack(images), np.array(labels, np.int64)


def synthetic_single_cards(count: int, seed: int, face: FaceFn | None = None) -> list[Photo]:
    """Drawn scenes of three separate cards each, labelled with whole-card boxes and ranks."""
    from vision.labels import card_class
    from vision.synth import draw_face, random_card, scene

    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        cards = [[random_card(rng, jokers=0.06)] for _ in range(3)]
        img, placed = scene(rng, (720, 400), cards, draw=face or draw_face)
        boxes = []
        for c in placed:
            x0, y0 = c.quad.min(axis=0)
            x1, y1 = c.quad.max(axis=0)
            if x0 < 0 or y0 < 0 or x1 > 720 or y1 > 400:
                continue
            rank = "PJ" if c.card == "PJ" else c.card[:-1]
            boxes.append(((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0, card_class(rank)))
        if boxes:
            out.append(Photo(f"synth-card-{seed}-{i}", img, [], boxes, [], False, True))
    return out


def add_proposals(photos: list[Photo], weights: Path, threshold: float = 0.12) -> int:
    """Attach the detector's own boxes to each photo, labelled by the labelled object they hit
    (or background), so the classifiers learn from the boxes they will see at run time."""
    from vision.detector import detect

    count = 0
    for photo in photos:
        found = detect(photo.image, threshold, weights)
        for d in found:
            if d.kind == "index" and (not photo.has_indices or photo.partial_indices):
                # only the cards are labelled here: an index lies on its card, so a box off
                # every card is surely background (printed matter, a box, the floor)
                if photo.has_cards and off_cards(d.x, d.y, photo) and not on_back(d.x, d.y, photo):
                    photo.proposals.append((d.kind, d.box, BACKGROUND))
                    count += 1
                continue
            if d.kind == "card" and not photo.has_cards:
                continue
            objs = photo.indices if d.kind == "index" else photo.cards
            label = BACKGROUND if d.kind == "index" else N_CARD_OUT - 1
            for cx, cy, w, h, k in objs:
                if abs(d.x - cx) <= 0.5 * w and abs(d.y - cy) <= 0.5 * h:
                    label = k
                    break
            if label in (BACKGROUND, N_CARD_OUT - 1) and on_back(d.x, d.y, photo):
                continue
            photo.proposals.append((d.kind, d.box, label))
            count += 1
    return count


def off_cards(x: float, y: float, photo: Photo, margin: float = 0.1) -> bool:
    """Whether the point (x, y) lies outside every labelled card box of ``photo``, each box
    grown by ``margin`` of its size on every side (labelled boxes are drawn by hand)."""
    return all(abs(x - cx) > (0.5 + margin) * w or abs(y - cy) > (0.5 + margin) * h
               for cx, cy, w, h, _ in photo.cards)


def on_back(x: float, y: float, photo: Photo) -> bool:
    """Whether (x, y) lies near a labelled card back of ``photo`` (neither a card nor background)."""
    return any(abs(x - bx) <= bw and abs(y - by) <= bh for bx, by, bw, bh in photo.backs)


def proposal_crops(photos: list[Photo], kind: str, rng: np.random.Generator,
                   max_background: int = 2, size: tuple[int, int] = (CROP_W, CROP_H),
                   lightness_negatives: float = 0.0) -> tuple[list[np.ndarray], list[int]]:
    """Crops of the attached detector proposals of one kind (jittered slightly); ``size`` is
    the index crop size, ``lightness_negatives`` as for :func:`index_crops`."""
    images: list[np.ndarray] = []
    labels: list[int] = []

    def crop(image: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
        return crop_index(image, box, size) if kind == "index" else crop_card(image, box)

    bg = BACKGROUND if kind == "index" else N_CARD_OUT - 1
    for photo in photos:
        backgrounds = 0
        for k, box, label in photo.proposals:
            if k != kind:
                continue
            if label == bg:
                if backgrounds >= max_background:
                    continue
                backgrounds += 1
            x0, y0, x1, y1 = box
            w, h = x1 - x0, y1 - y0
            j = rng.normal(0, 0.04, 4) * np.array([w, h, w, h])
            patch = crop(photo.image, (x0 + j[0], y0 + j[1], x1 + j[2], y1 + j[3]))
            if rng.random() < 0.5:
                patch = np.ascontiguousarray(patch[::-1, ::-1])
            images.append(_photometric(patch, rng, lightness_negatives))
            labels.append(label)
    return images, labels
