"""Training samples from the shared labelled photos: augmented crops and heat-map targets."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np

from vision.detector import INPUT_SIZE
from vision.labels import INDEX_CLASSES, card_class, index_class
from vision.lightness import lightness_negative
from vision.synth import JOKERS
from vision.train.split import is_held_out

STRIDE = 4
#: Draws one card face: (card name, rng) -> ``vision.synth.Face``.
FaceFn = Callable[[str, np.random.Generator], Any]


@dataclass
class Photo:
    """One labelled photo: the image and its objects as (cx, cy, w, h, class) in its pixels."""

    name: str
    image: np.ndarray
    indices: list[tuple[float, float, float, float, int]]
    cards: list[tuple[float, float, float, float, int]]
    backs: list[tuple[float, float, float, float]]
    has_indices: bool
    has_cards: bool
    partial_indices: bool = False  # indices labelled only where listed (pseudo-labels)
    #: The detector's own boxes on this photo: (kind, box, class or background), for classifiers.
    proposals: list[tuple[str, tuple[float, float, float, float], int]] = field(default_factory=list)
    #: The long side of this photo's indices in its pixels, when crops should be scaled by it
    #: (a wide table whose indices are small): ``sample`` then brings them to 14–56 pixels.
    index_px: float | None = None
    #: A drawn scene's indices that show in part: (cx, cy, w, h, class, the share of the
    #: rank's ink that shows, the share of the suit's), for the index classifier
    #: (``vision.train.crops.partial_crops``).
    partial: list[tuple[float, float, float, float, int, float, float]] = field(default_factory=list)


def load_corners(root: Path) -> list[Photo]:
    labels = json.loads((root / "labels.json").read_text())
    out = []
    for name, boxes in sorted(labels.items()):
        img = cv2.imread(str(root / "images" / name))
        if img is None:
            continue
        h, w = img.shape[:2]
        idx, backs = [], []
        for b in boxes:
            box = (b["cx"] * w, b["cy"] * h, b["w"] * w, b["h"] * h)
            if b["label"].upper() == "BACK":
                backs.append(box)
            else:
                idx.append((*box, index_class(b["label"])))
        cards = cards_from_corner_pairs(idx)
        out.append(Photo(name, img, idx, cards or [], backs, True, cards is not None))
    return out


def cards_from_corner_pairs(indices: list[tuple[float, float, float, float, int]],
                            pad: float = 0.3) -> list[tuple[float, float, float, float, int]] | None:
    """Whole-card boxes (with rank classes) for a photo whose every labelled index is one of
    the two opposite corners of its card, or None when any card shows only one corner (its
    extent is then unknown, so the photo cannot teach whole cards).

    The card is the box spanning both indices, widened by ``pad`` times an index's short side
    for the margin between an index and the card's edge."""
    by_class: dict[int, list[tuple[float, float, float, float, int]]] = {}
    for obj in indices:
        by_class.setdefault(obj[4], []).append(obj)
    cards = []
    for k, objs in by_class.items():
        if len(objs) != 2:
            return None
        (ax, ay, aw, ah, _), (bx, by, bw, bh, _) = objs
        size = (max(aw, ah) + max(bw, bh)) / 2
        if math.hypot(ax - bx, ay - by) < 2.5 * size:
            return None
        margin = pad * (min(aw, ah) + min(bw, bh)) / 2
        x0 = min(ax - aw / 2, bx - bw / 2) - margin
        y0 = min(ay - ah / 2, by - bh / 2) - margin
        x1 = max(ax + aw / 2, bx + bw / 2) + margin
        y1 = max(ay + ah / 2, by + bh / 2) + margin
        rank = INDEX_CLASSES[k]
        cards.append(((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0,
                      card_class(rank if rank == "PJ" else rank[:-1])))
    return cards or None


def load_ranks(root: Path) -> list[Photo]:
    labels = json.loads((root / "labels.json").read_text())
    out = []
    for name, boxes in sorted(labels.items()):
        img = cv2.imread(str(root / "images" / name))
        if img is None:
            continue
        h, w = img.shape[:2]
        cards = []
        for b in boxes:
            sx, sy = w / b["width"], h / b["height"]
            x0, y0, x1, y1 = b["box"]
            cards.append(((x0 + x1) / 2 * sx, (y0 + y1) / 2 * sy, (x1 - x0) * sx, (y1 - y0) * sy,
                          card_class(b["rank"])))
        out.append(Photo(name, img, [], cards, [], False, True))
    return out


def load_photos(data_root: Path, held_out: bool | None) -> list[Photo]:
    """Photos of both folders; ``held_out`` None for all, True/False for one side of the split."""
    photos = load_corners(data_root / "cards-corners") + load_ranks(data_root / "cards-ranks")
    if held_out is None:
        return photos
    return [p for p in photos if is_held_out(p.name) == held_out]


def _gauss(heat: np.ndarray, cx: float, cy: float, sigma: float) -> None:
    h, w = heat.shape
    r = int(math.ceil(3 * sigma))
    ix, iy = int(cx), int(cy)
    x0, x1 = max(0, ix - r), min(w, ix + r + 1)
    y0, y1 = max(0, iy - r), min(h, iy + r + 1)
    if x0 >= x1 or y0 >= y1:
        return
    ys, xs = np.mgrid[y0:y1, x0:x1]
    g = np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * sigma * sigma))
    np.maximum(heat[y0:y1, x0:x1], g, out=heat[y0:y1, x0:x1])


def _transform(m: np.ndarray, obj: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    cx, cy, w, h = obj
    pts = np.array([[cx - w / 2, cy - h / 2, 1], [cx + w / 2, cy - h / 2, 1],
                    [cx + w / 2, cy + h / 2, 1], [cx - w / 2, cy + h / 2, 1]]).T
    q = m @ pts
    c = m @ np.array([cx, cy, 1.0])
    return float(c[0]), float(c[1]), float(np.ptp(q[0])), float(np.ptp(q[1]))


def sample(photo: Photo, rng: np.random.Generator, crop: int,
           lightness_negatives: float = 0.0) -> tuple[np.ndarray, dict[str, np.ndarray | np.float32]]:
    """One augmented crop of ``photo`` with its targets at stride 4; ``lightness_negatives``
    as for :func:`_photometric` (0: the crop is drawn exactly as before the option existed)."""
    h, w = photo.image.shape[:2]
    base = INPUT_SIZE / max(h, w)
    zoom = math.exp(rng.uniform(math.log(0.65), math.log(1.5)))
    if photo.index_px:
        base, zoom = 1.0, math.exp(rng.uniform(math.log(14), math.log(56))) / photo.index_px
    aspect = math.exp(rng.uniform(-0.15, 0.15))
    angle = rng.uniform(0, 2 * math.pi) if rng.random() < 0.5 else rng.uniform(-0.3, 0.3)
    objs = photo.indices + photo.cards
    if objs and rng.random() < 0.85:
        o = objs[rng.integers(len(objs))]
        centre = np.array([o[0], o[1]]) + rng.normal(0, 0.4, 2) * np.array([o[2], o[3]])
    else:
        centre = np.array([rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h])
    s = base * zoom
    ca, sa = math.cos(angle), math.sin(angle)
    a = np.array([[ca * s * aspect, -sa * s], [sa * s * aspect, ca * s]])
    t = np.array([crop / 2, crop / 2]) - a @ centre
    m = np.hstack([a, t[:, None]])
    border = tuple(int(v) for v in rng.integers(0, 256, 3))
    img: np.ndarray = cv2.warpAffine(photo.image, m, (crop, crop), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT if rng.random() < 0.5
                                     else cv2.BORDER_REFLECT,
                                     borderValue=border)
    img = _photometric(img, rng, lightness_negatives)
    g = crop // STRIDE
    t_ih = np.zeros((g, g), np.float32)
    t_ch = np.zeros((g, g), np.float32)
    t_icls = np.full((g, g), -1, np.int64)
    t_ccls = np.full((g, g), -1, np.int64)
    t_isz = np.zeros((2, g, g), np.float32)
    t_csz = np.zeros((2, g, g), np.float32)
    ignore = np.zeros((g, g), np.float32) if photo.partial_indices else np.ones((g, g), np.float32)
    for kind, items in (("i", photo.indices), ("c", photo.cards)):
        heat, cls, size = (t_ih, t_icls, t_isz) if kind == "i" else (t_ch, t_ccls, t_csz)
        for cx, cy, bw, bh, k in items:
            x, y, tw, th = _transform(m, (cx, cy, bw, bh))
            gx, gy = x / STRIDE, y / STRIDE
            if not (0 <= gx < g and 0 <= gy < g):
                continue
            sigma = max(0.8, min(tw, th) / STRIDE / 6)
            _gauss(heat, gx, gy, sigma)
            ix, iy = int(gx), int(gy)
            heat[iy, ix] = 1.0
            cls[max(0, iy - 1):iy + 2, max(0, ix - 1):ix + 2] = k
            size[:, iy, ix] = (math.log(max(tw, 1) / STRIDE), math.log(max(th, 1) / STRIDE))
            if kind == "i" and photo.partial_indices:
                r = int(max(tw, th) / STRIDE) + 2
                ignore[max(0, iy - r):iy + r + 1, max(0, ix - r):ix + r + 1] = 1.0
    for back in photo.backs:
        x, y, tw, th = _transform(m, back)
        x0, x1 = int((x - tw / 2) / STRIDE), int((x + tw / 2) / STRIDE) + 1
        y0, y1 = int((y - th / 2) / STRIDE), int((y + th / 2) / STRIDE) + 1
        ignore[max(0, y0):max(0, y1), max(0, x0):max(0, x1)] = 0
    targets: dict[str, np.ndarray | np.float32] = {
        "ih": t_ih, "ch": t_ch, "icls": t_icls, "ccls": t_ccls, "isz": t_isz, "csz": t_csz,
        "iignore": ignore,
        "ivalid": np.float32(photo.has_indices), "cvalid": np.float32(photo.has_cards),
    }
    return img, targets


#: Shares of training samples turned to the other polarity, and darkened as in a dim room.
INVERT_SHARE = 0.08
DARK_SHARE = 0.15


def _photometric(img: np.ndarray, rng: np.random.Generator, lightness_negatives: float = 0.0) -> np.ndarray:
    """A training image under a random camera and light. ``lightness_negatives`` is the
    share turned into :func:`lightness_negative` first; at 0 no draw is made for it, so the
    generator's stream (and a resumed run's data) is as before it existed."""
    if lightness_negatives and rng.random() < lightness_negatives:
        img = lightness_negative(img)
    if rng.random() < 0.3:
        # a smaller or softer source (a webcam across the table), scaled back up
        h, w = img.shape[:2]
        s = rng.uniform(0.3, 0.8)
        small = cv2.resize(img, (max(4, int(w * s)), max(4, int(h * s))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    f: np.ndarray = img.astype(np.float32)
    if rng.random() < INVERT_SHARE:
        # the same print in the other polarity: light ink on dark card
        f = 255.0 - f
    if rng.random() < 0.3:
        # dim or glaring light: a gamma curve before the linear changes
        f = 255.0 * (f / 255.0) ** rng.uniform(0.6, 1.8)
    if rng.random() < DARK_SHARE:
        # a dark room: little light, so a low gain and the sensor's noise lifted with it
        f = 255.0 * (f / 255.0) ** rng.uniform(1.2, 2.4) * rng.uniform(0.25, 0.6)
        f = f + rng.normal(0, rng.uniform(2, 8), f.shape)
    f = f * rng.uniform(0.6, 1.4) + rng.uniform(-40, 40)
    # coloured light (warm lamps, cold daylight, a tinted screen) tints each channel
    f = f * rng.uniform(0.75, 1.25, 3)[None, None, :]
    if rng.random() < 0.15:
        f[:] = f.mean(axis=2, keepdims=True)
    if rng.random() < 0.25:
        k = int(rng.choice([3, 5]))
        f = cv2.GaussianBlur(f, (k, k), 0)
    if rng.random() < 0.25:
        f = f + rng.normal(0, rng.uniform(2, 12), f.shape)
    if rng.random() < 0.1:
        mask = rng.random(f.shape[:2]) < 0.01
        f[mask] = rng.choice([0.0, 255.0])
    return np.clip(f, 0, 255).astype(np.uint8)


def table_textures(photos: list[Photo], limit: int = 60) -> list[np.ndarray]:
    """Real tables with their cards taken out: the whole-card photos whose cards cover under
    two fifths of the frame, each card's box (grown by a tenth) filled in from the table
    around it, at most ``limit`` of them (every n-th, so all capture groups are used)."""
    usable = [p for p in photos if p.has_cards and p.cards
              and sum(w * h for _, _, w, h, _ in p.cards) < 0.4 * p.image.shape[0] * p.image.shape[1]]
    out = []
    for p in usable[::max(1, len(usable) // limit)][:limit]:
        small = cv2.resize(p.image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        mask = np.zeros(small.shape[:2], np.uint8)
        for cx, cy, w, h, _ in p.cards:
            x0, y0 = round((cx - 0.6 * w) / 2), round((cy - 0.6 * h) / 2)
            cv2.rectangle(mask, (x0, y0), (round(x0 + 0.6 * w), round(y0 + 0.6 * h)), 255, -1)
        out.append(cv2.inpaint(small, mask, 5, cv2.INPAINT_TELEA))
    return out


def synthetic_photos(count: int, seed: int, face: FaceFn | None = None,
                     textures: list[np.ndarray] | None = None, crowded: float = 0.0,
                     jokers: float = JOKERS, hands: float = 0.0, camera: float = 0.0) -> list[Photo]:
    """Drawn table scenes (``vision.synth``) labelled with every visible corner index;
    ``face`` draws the card faces (e.g. ``vision.train.artwork.face_maker``). A third of the
    scenes lie on one of ``textures`` (real tables, ``table_textures``), a quarter have hands
    or objects over the cards, a fifth are seen at a slant.

    A share ``crowded`` are whole tables instead (``crowded_scene``): up to 48 cards in 2–6
    melds of 2–8 on a wide photo, overlapping down to an eighth of a card. ``jokers`` is the
    share of cards that are printed jokers. A share ``hands`` of the rest are a webcam's frame
    of a hand of 10–26 cards held in a fan (``hand_scene``); at 0 no draw is made for it, so
    the scenes are those drawn before there were hands. A share ``camera`` of the scenes and
    tables not at a slant are seen by a camera tilted from straight down (``camera_seen``);
    at 0, likewise, no draw is made for it."""
    from vision.synth import draw_face, scene, tilted

    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        if hands and rng.random() < hands:
            out.append(hand_scene(rng, f"synth-{seed}-{i}", face or draw_face, textures, jokers))
            continue
        if crowded and rng.random() < crowded:
            out.append(crowded_scene(rng, f"synth-{seed}-{i}", face or draw_face, textures, jokers, camera))
            continue
        size = (640, 480) if rng.random() < 0.6 else (640, 640)
        background = textures[int(rng.integers(len(textures)))] if textures and rng.random() < 0.35 else None
        occluders = int(rng.integers(1, 4)) if rng.random() < 0.25 else 0
        img, cards = scene(rng, size, draw=face or draw_face, background=background, occluders=occluders,
                           jokers=jokers)
        if rng.random() < 0.2:
            img, cards = tilted(img, cards, rng, 0.1)
        elif camera and rng.random() < camera:
            img, cards = camera_seen(img, cards, rng)
        out.append(_scene_photo(f"synth-{seed}-{i}", img, cards))
    return out


#: How far the camera of a ``camera`` scene is tilted, as a share of a right angle (half of
#: it to all: 27–54° from straight down; the benchmark's ``camera slant`` draws 25–50°).
CAMERA_TILT: Final = 0.6


def camera_seen(img: np.ndarray, cards: list[Any], rng: np.random.Generator) -> tuple[np.ndarray, list[Any]]:
    """A drawn scene seen by a camera tilted from straight down toward any side
    (``vision.synth.camera_pose``): the far cards smaller and foreshortened, the near ones
    larger, an index the photo's edge cuts no longer labelled."""
    from vision.synth import camera_pose, warped

    h, w = img.shape[:2]
    return warped(img, cards, camera_pose(w, h, rng, CAMERA_TILT), cut=True)


def crowded_scene(rng: np.random.Generator, name: str, face: FaceFn,
                  textures: list[np.ndarray] | None, jokers: float = JOKERS, camera: float = 0.0) -> Photo:
    """One wide table (960–1280 pixels) of 2–6 melds of 2–8 cards laid close, half of them at
    a slant, and a share ``camera`` of the others seen by a tilted camera (``camera_seen``;
    at 0 no draw is made for it); its crops are scaled by its indices' size
    (``Photo.index_px``)."""
    from vision.synth import CARD_H, random_card, scene, tilted

    w, h = ((1280, 960), (960, 720), (1024, 1024))[int(rng.integers(3))]
    groups = [[random_card(rng, jokers) for _ in range(int(rng.integers(2, 9)))]
              for _ in range(int(rng.integers(2, 7)))]
    scale = float(rng.uniform(0.28, 0.6)) * w / 1280
    background = textures[int(rng.integers(len(textures)))] if textures and rng.random() < 0.35 else None
    occluders = int(rng.integers(1, 3)) if rng.random() < 0.2 else 0
    img, cards = scene(rng, (w, h), groups, draw=face, scale=scale, background=background,
                       occluders=occluders, tight=True)
    if rng.random() < 0.5:
        img, cards = tilted(img, cards, rng, 0.08)
    elif camera and rng.random() < camera:
        img, cards = camera_seen(img, cards, rng)
    return _sized_photo(name, img, cards, 0.2 * CARD_H * scale)


def hand_scene(rng: np.random.Generator, name: str, face: FaceFn,
               textures: list[np.ndarray] | None, jokers: float = JOKERS) -> Photo:
    """A webcam's frame (640×640, 640×480 or 1280×720) of a hand of 10–26 cards held in a fan
    (``vision.synth.held_hand``), fingers over its foot, a third of them on a real table and
    half at a slant; its crops are scaled by its indices' size, as a crowded table's."""
    from vision.synth import CARD_H, WEBCAM_SIZES, held_hand, random_card, tilted

    size = WEBCAM_SIZES[int(rng.integers(len(WEBCAM_SIZES)))]
    cards = [random_card(rng, jokers) for _ in range(int(rng.integers(10, 27)))]
    background = textures[int(rng.integers(len(textures)))] if textures and rng.random() < 0.35 else None
    img, placed = held_hand(rng, size, cards, face, background)
    if rng.random() < 0.5:
        img, placed = tilted(img, placed, rng, 0.08)
    scale = float(np.median([np.linalg.norm(c.quad[3] - c.quad[0]) / CARD_H for c in placed]))
    return _sized_photo(name, img, placed, 0.2 * CARD_H * scale)


def _sized_photo(name: str, img: np.ndarray, cards: list[Any], fallback_px: float) -> Photo:
    """A drawn scene whose crops are scaled by its indices' size (``Photo.index_px``: their
    median long side, ``fallback_px`` when none shows)."""
    photo = _scene_photo(name, img, cards)
    sides = [max(bw, bh) for _, _, bw, bh, _ in photo.indices]
    photo.index_px = float(np.median(sides)) if sides else fallback_px
    return photo


def _scene_photo(name: str, img: np.ndarray, cards: list[Any]) -> Photo:
    idx = [((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0, index_class(c.card))
           for c in cards for (x0, y0, x1, y1) in c.visible_indices]
    partial = [((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0, index_class(c.card), rank, suit)
               for c in cards for (x0, y0, x1, y1), rank, suit in c.partial]
    return Photo(name, img, idx, [], [], True, False, partial=partial)


def add_pseudo_indices(photos: list[Photo], weights: Path, min_score: float = 0.4) -> int:
    """Label corner indices on whole-card photos where a trained detector finds an index inside
    a labelled card and reads that card's rank; those photos then train the index head near
    those indices only. Returns the number of indices added."""
    from vision.detector import detect
    from vision.labels import CARD_CLASSES

    added = 0
    for photo in photos:
        if photo.has_indices or not photo.cards:
            continue
        found = [d for d in detect(photo.image, min_score, weights) if d.kind == "index"]
        for d in found:
            rank = "PJ" if d.label == "PJ" else d.label[:-1]
            for cx, cy, w, h, k in photo.cards:
                inside = abs(d.x - cx) <= w / 2 and abs(d.y - cy) <= h / 2
                if inside and CARD_CLASSES[k] == rank:
                    x0, y0, x1, y1 = d.box
                    photo.indices.append(((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0,
                                          index_class(d.label)))
                    added += 1
                    break
        if photo.indices:
            photo.has_indices = True
            photo.partial_indices = True
    return added
