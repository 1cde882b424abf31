"""Synthetic cards and table scenes drawn with OpenCV, with exact labels (training and tests).

Card faces vary font, ink shades, index size and placement, pip layout and court art, so the
detector does not learn one deck. A scene lays cards out as singles, overlapping rows and fans
on a random table and labels every corner index that stays visible, with its meld group.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np

from vision.labels import RANKS, SUITS
from vision.reading import Box, DetectedCard, box_area, intersection_area

CARD_W, CARD_H = 250, 350
#: A drawn face's corners (TL, TR, BR, BL) in its own pixels.
FACE_CORNERS = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
         cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_PLAIN)


@dataclass(frozen=True)
class Face:
    """A drawn card face and the boxes (x0, y0, x1, y1) of its corner indices, in face pixels."""

    card: str
    image: np.ndarray
    indices: tuple[tuple[float, float, float, float], ...]


@dataclass(frozen=True)
class SceneCard:
    """A card placed in a scene: its name, group, corner quad and visible index boxes (those
    showing nearly whole); and its other indices that show in part (``PARTIAL``), each with
    the shares of its rank's ink and of its suit's that show (``partial``: box, rank shown,
    suit shown)."""

    card: str
    group: int
    quad: np.ndarray
    visible_indices: tuple[tuple[float, float, float, float], ...]
    partial: tuple[tuple[tuple[float, float, float, float], float, float], ...] = ()


#: An index box at least this much of which shows on top (but under the 0.85 that makes it
#: visible) is listed in ``SceneCard.partial``: less is another card's face, not a part of it.
PARTIAL: Final = 0.25


def draw_suit(img: np.ndarray, suit: str, cx: float, cy: float, size: float,
              colour: tuple[int, int, int], flip: bool = False) -> None:
    """A suit symbol of height ``size`` centred at (cx, cy), upside down when ``flip``."""
    s = size / 2
    sign = -1.0 if flip else 1.0

    def pt(dx: float, dy: float) -> tuple[int, int]:
        return (round(cx + dx * s * sign), round(cy + dy * s * sign))

    r = max(1, round(0.5 * s))
    if suit == "D":
        cv2.fillConvexPoly(img, np.array([pt(0, -1), pt(0.72, 0), pt(0, 1), pt(-0.72, 0)]), colour,
                           cv2.LINE_AA)
    elif suit == "H":
        cv2.circle(img, pt(-0.45, -0.4), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, pt(0.45, -0.4), r, colour, -1, cv2.LINE_AA)
        cv2.fillConvexPoly(img, np.array([pt(-0.93, -0.25), pt(0.93, -0.25), pt(0, 1)]), colour,
                           cv2.LINE_AA)
    elif suit == "S":
        cv2.circle(img, pt(-0.45, 0.25), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, pt(0.45, 0.25), r, colour, -1, cv2.LINE_AA)
        cv2.fillConvexPoly(img, np.array([pt(-0.93, 0.1), pt(0.93, 0.1), pt(0, -1)]), colour,
                           cv2.LINE_AA)
        cv2.fillConvexPoly(img, np.array([pt(0, 0.3), pt(0.3, 1), pt(-0.3, 1)]), colour, cv2.LINE_AA)
    else:
        r2 = max(1, round(0.42 * s))
        cv2.circle(img, pt(0, -0.5), r2, colour, -1, cv2.LINE_AA)
        cv2.circle(img, pt(-0.5, 0.2), r2, colour, -1, cv2.LINE_AA)
        cv2.circle(img, pt(0.5, 0.2), r2, colour, -1, cv2.LINE_AA)
        cv2.fillConvexPoly(img, np.array([pt(0, 0.1), pt(0.3, 1), pt(-0.3, 1)]), colour, cv2.LINE_AA)


def _ink(suit: str, rng: np.random.Generator) -> tuple[int, int, int]:
    if suit in ("H", "D"):
        return (int(rng.integers(0, 60)), int(rng.integers(0, 50)), int(rng.integers(170, 240)))
    v = int(rng.integers(0, 50))
    return (v, v, v)


def pips(img: np.ndarray, rank: str, suit: str, colour: tuple[int, int, int],
          rng: np.random.Generator) -> None:
    n = {"A": 1, "10": 10}.get(rank, int(rank) if rank.isdigit() else 0)
    if n == 0:
        return
    cols = 1 if n <= 3 else 2 if n <= 8 else 3 if n == 9 else 2
    rows = math.ceil(n / cols) if n > 3 else n
    size = 90 if n == 1 else int(rng.integers(34, 46))
    placed = 0
    for r in range(rows):
        for c in range(cols):
            if placed >= n:
                break
            x = CARD_W / 2 if cols == 1 else 80 + c * (90 / max(cols - 1, 1))
            y = CARD_H / 2 if rows == 1 else 80 + r * (190 / max(rows - 1, 1))
            draw_suit(img, suit, x, y, size, colour, flip=y > CARD_H / 2 + 1)
            placed += 1


def court_art(img: np.ndarray, rng: np.random.Generator, inset: int = 60) -> None:
    """Random shapes standing in for court-card art, inside a frame ``inset`` from the edges."""
    inset = min(inset, CARD_W // 2 - 20)
    x0, y0, x1, y1 = inset, inset, CARD_W - inset, CARD_H - inset
    cv2.rectangle(img, (x0, y0), (x1, y1), tuple(int(v) for v in rng.integers(0, 200, 3)), 2)
    for _ in range(14):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        c = (int(rng.integers(x0, x1)), int(rng.integers(y0, y1)))
        if rng.random() < 0.5:
            cv2.circle(img, c, int(rng.integers(6, 30)), colour, -1)
        else:
            d = (int(rng.integers(x0, x1)), int(rng.integers(y0, y1)))
            cv2.line(img, c, d, colour, int(rng.integers(2, 9)))


def draw_face(card: str, rng: np.random.Generator) -> Face:
    """One card face (``QH``, ``10C``, ``PJ``) in a random style, with its index boxes."""
    paper = int(rng.integers(225, 256))
    img = np.full((CARD_H, CARD_W, 3), paper, np.uint8)
    img[..., 0] = np.clip(paper - int(rng.integers(0, 20)), 0, 255)
    font = FONTS[int(rng.integers(len(FONTS)))]
    thick = int(rng.integers(2, 5))
    boxes: list[tuple[float, float, float, float]] = []
    ix, iy = float(rng.uniform(8, 20)), float(rng.uniform(10, 22))
    if card == "PJ":
        colour = _ink("H" if rng.random() < 0.5 else "S", rng)
        letter_h = float(rng.uniform(18, 26))
        scale = cv2.getFontScaleFromHeight(font, int(letter_h), thick)
        y = iy
        width = 0.0
        for ch in "JOKER":
            (tw, th), _ = cv2.getTextSize(ch, font, scale, thick)
            cv2.putText(img, ch, (round(ix), round(y + th)), font, scale, colour, thick, cv2.LINE_AA)
            y += th + 5
            width = max(width, tw)
        boxes.append((ix - 3, iy - 3, ix + width + 3, y + 1))
        cv2.circle(img, (CARD_W // 2, CARD_H // 2), 60, colour, 4)
        court_art(img, rng)
    else:
        rank, suit = card[:-1], card[-1]
        colour = _ink(suit, rng)
        height = float(rng.uniform(30, 46))
        scale = cv2.getFontScaleFromHeight(font, int(height), thick)
        if rank == "10":
            scale *= float(rng.uniform(0.75, 0.9))
        (tw, th), _ = cv2.getTextSize(rank, font, scale, thick)
        cv2.putText(img, rank, (round(ix), round(iy + th)), font, scale, colour, thick, cv2.LINE_AA)
        ss = float(rng.uniform(0.7, 1.0)) * height
        sx = ix + tw / 2
        sy = iy + th + 6 + ss / 2
        draw_suit(img, suit, sx, sy, ss, colour)
        boxes.append((ix - 3, iy - 3, max(ix + tw, sx + ss / 2) + 3, sy + ss / 2 + 3))
        if rank in ("J", "Q", "K"):
            court_art(img, rng)
        else:
            pips(img, rank, suit, colour, rng)
    # The opposite corner carries the same index rotated half a turn.
    x0, y0, x1, y1 = boxes[0]
    patch = img[round(y0):round(y1), round(x0):round(x1)].copy()
    rot = cv2.rotate(patch, cv2.ROTATE_180)
    bx0, by0 = CARD_W - round(x1), CARD_H - round(y1)
    img[by0:by0 + rot.shape[0], bx0:bx0 + rot.shape[1]] = rot
    boxes.append((bx0, by0, bx0 + rot.shape[1], by0 + rot.shape[0]))
    edge = tuple(int(v) for v in rng.integers(120, 220, 3))
    cv2.rectangle(img, (0, 0), (CARD_W - 1, CARD_H - 1), edge, 2)
    return Face(card, img, tuple(boxes))


#: The share of printed jokers among a drawn scene's cards unless asked otherwise (about two a
#: deck of 54), as every shipped network's training scenes drew them.
JOKERS = 0.04


def random_card(rng: np.random.Generator, jokers: float = JOKERS) -> str:
    if rng.random() < jokers:
        return "PJ"
    return RANKS[int(rng.integers(13))] + SUITS[int(rng.integers(4))]


def dealt(rng: np.random.Generator, n: int, decks: int = 1, jokers: int = 2) -> list[str]:
    """``n`` cards dealt from ``decks`` shuffled decks of 52 cards and ``jokers`` printed
    jokers each: no card more often than there are decks (a joker, ``jokers`` times as often)."""
    pack = [r + s for r in RANKS for s in SUITS] + ["PJ"] * jokers
    cards = pack * decks
    return [cards[int(i)] for i in rng.permutation(len(cards))[:n]]


def _table(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    base = rng.integers(0, 200, 3).astype(np.float32)
    img = np.ones((h, w, 3), np.float32) * base
    kind = rng.integers(3)
    if kind == 0:
        ys = np.arange(h, dtype=np.float32)[:, None]
        xs = np.arange(w, dtype=np.float32)[None, :]
        wave = np.sin(xs * rng.uniform(0.02, 0.2) + np.sin(ys * 0.01) * rng.uniform(1, 6))
        img += wave[..., None] * rng.uniform(10, 40)
    elif kind == 1:
        noise = rng.normal(0, rng.uniform(5, 30), (h // 4 + 1, w // 4 + 1, 1)).astype(np.float32)
        img += cv2.resize(noise, (w, h))[..., None]
    table: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return table


def _fill(photo: np.ndarray, w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """A random part of ``photo`` scaled to fill ``w``×``h`` (mirrored half the time)."""
    ph, pw = photo.shape[:2]
    share = float(rng.uniform(0.6, 1.0))
    cw, ch = min(pw, round(ph * share * w / h)), round(ph * share)
    cw, ch = max(8, cw), max(8, min(ph, round(cw * h / w)))
    x0, y0 = int(rng.integers(0, pw - cw + 1)), int(rng.integers(0, ph - ch + 1))
    out: np.ndarray = cv2.resize(photo[y0:y0 + ch, x0:x0 + cw], (w, h), interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(out[:, ::-1]) if rng.random() < 0.5 else out


def _occluder(mask: np.ndarray, rng: np.random.Generator) -> tuple[int, int, int]:
    """Draw a hand (a palm and fingers, skin-toned) or an object (a coin, a phone, a glass's
    rim) into ``mask``; its colour."""
    h, w = mask.shape
    x, y = float(rng.uniform(0, w)), float(rng.uniform(0, h))
    size = float(rng.uniform(0.06, 0.16)) * min(w, h)
    kind = rng.integers(3)
    if kind == 0:  # a hand reaching in: a palm and four fingers
        angle = float(rng.uniform(0, 2 * math.pi))
        cv2.ellipse(mask, (round(x), round(y)), (round(size), round(size * 0.8)),
                    math.degrees(angle), 0, 360, 255, -1)
        for f in range(4):
            a = angle + (f - 1.5) * 0.25
            tip = (round(x + math.cos(a) * size * 2.0), round(y + math.sin(a) * size * 2.0))
            cv2.line(mask, (round(x), round(y)), tip, 255, max(2, round(size * 0.35)))
        tone = rng.uniform(0.35, 1.0)
        return (int(90 * tone + 40), int(130 * tone + 40), int(180 * tone + 60))
    if kind == 1:  # a coin or a glass's foot
        cv2.circle(mask, (round(x), round(y)), round(size * 0.5), 255, -1)
    else:  # a phone or a box
        box = cv2.boxPoints(((x, y), (size * 1.2, size * 2.2), float(rng.uniform(0, 180))))
        cv2.fillConvexPoly(mask, box.round().astype(np.int32), 255)
    c = rng.integers(0, 256, 3)
    return (int(c[0]), int(c[1]), int(c[2]))


def _layout(n: int, rng: np.random.Generator, scale: float, tight: bool = False) -> list[np.ndarray]:
    """Card quads for one meld of ``n`` cards (a fan or an overlapping row); ``tight`` lets
    the cards overlap further (a row showing down to an eighth of each card, a narrower fan)."""
    corners = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float64)
    quads = []
    base = rng.uniform(-math.pi, math.pi) if rng.random() < 0.5 else rng.uniform(-0.3, 0.3)
    fan = rng.random() < 0.5 and n > 1
    step = rng.uniform(0.07 if tight else 0.12, 0.25)
    spread = rng.uniform(0.12 if tight else 0.32, 0.6)
    for i in range(n):
        if fan:
            angle = base + (i - (n - 1) / 2) * step
            pivot = np.array([CARD_W / 2, CARD_H * 0.95])
            pts = corners - pivot
        else:
            angle = base
            pts = corners + np.array([i * CARD_W * spread, 0]) - np.array([CARD_W / 2, CARD_H / 2])
        ca, sa = math.cos(angle), math.sin(angle)
        rot = np.array([[ca, -sa], [sa, ca]])
        quads.append((pts @ rot.T) * scale)
    return quads


def hand_layout(n: int, rng: np.random.Generator, scale: float, tight: bool = False) -> list[np.ndarray]:
    """Card quads for a hand of ``n`` cards held in a fan (the layout of ``scene``'s
    ``layout=``): every card turned about one pivot near the cards' bottom ends, held roughly
    upright, each card under the top one showing a strip of a sixth to a third of its width at
    its upper corner index, fanned closer where that would spread the hand over more than
    165 degrees (a strip down to a seventh of a card for 26 cards; ``tight`` is ignored)."""
    corners = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float64)
    step = min(rng.uniform(0.12, 0.22), 2.9 / max(n - 1, 1))
    base = rng.uniform(-0.35, 0.35)
    pivot = np.array([CARD_W * rng.uniform(0.3, 0.7), CARD_H * rng.uniform(0.85, 1.0)])
    quads = []
    for i in range(n):
        angle = base + (i - (n - 1) / 2) * step
        ca, sa = math.cos(angle), math.sin(angle)
        quads.append(((corners - pivot) @ np.array([[ca, -sa], [sa, ca]]).T) * scale)
    return quads


def scene(rng: np.random.Generator, size: tuple[int, int] = (640, 480),
          groups: list[list[str]] | None = None,
          draw: Callable[[str, np.random.Generator], Face] = draw_face,
          scale: float | None = None, per_row: int = 3,
          background: np.ndarray | None = None, occluders: int = 0, tight: bool = False,
          jokers: float = JOKERS, layout: Callable[..., list[np.ndarray]] | None = None,
          ) -> tuple[np.ndarray, list[SceneCard]]:
    """A table image with melds laid out, and every card with its visible indices.

    ``groups`` fixes the cards of each meld; otherwise 1–4 random melds are drawn. ``draw``
    draws each card's face (the project's own drawn faces by default). ``scale`` fixes the
    card's size (a drawn face is ``CARD_W`` wide; by default a random share of the image);
    more than ``per_row`` melds are laid out in rows. ``background`` is a photo of a table to
    lay them on (cropped and scaled to fill the image) instead of a drawn one; ``occluders``
    hands and objects are laid over the cards afterwards (indices they cover are not visible);
    ``tight`` melds overlap further (see ``_layout``); ``jokers`` is the share of random cards
    that are printed jokers; ``layout`` lays out each meld's cards (``_layout``, fans and
    rows, by default; ``hand_layout`` for a hand held in a fan).
    """
    w, h = size
    img = _table(h, w, rng) if background is None else _fill(background, w, h, rng)
    if groups is None:
        groups = [[random_card(rng, jokers) for _ in range(int(rng.integers(1, 6)))]
                  for _ in range(int(rng.integers(1, 4)))]
    if scale is None:
        scale = float(rng.uniform(0.22, 0.42)) * min(w, h) / 480 * 1.4
    placed: list[tuple[str, int, np.ndarray, Face]] = []
    rows = max(1, math.ceil(len(groups) / per_row))
    cols = math.ceil(len(groups) / rows)
    for g, cards in enumerate(groups):
        cx = w * (g % cols + 0.5) / cols + rng.uniform(-0.05, 0.05) * w / (1 if rows == 1 else cols)
        if rows == 1:
            cy = h * float(rng.uniform(0.35, 0.65))
        else:
            cy = h * (g // cols + 0.5 + float(rng.uniform(-0.1, 0.1))) / rows
        quads = (layout or _layout)(len(cards), rng, scale, tight)
        middle = np.concatenate(quads).mean(axis=0)
        for card, quad in zip(cards, quads, strict=True):
            quad = quad - middle + np.array([cx, cy])
            face = draw(card, rng)  # named by the face drawn: a deck's maker may draw another
            placed.append((face.card, g, quad, face))
    coverage = np.zeros((h, w), np.int32) - 1
    onto = [cv2.getPerspectiveTransform(FACE_CORNERS, quad.astype(np.float32)) for _, _, quad, _ in placed]
    for k, (_card, _g, quad, face) in enumerate(placed):
        m = onto[k]
        warped = cv2.warpPerspective(face.image, m, (w, h), flags=cv2.INTER_AREA)
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, quad.round().astype(np.int32), 255)
        img[mask > 0] = warped[mask > 0]
        coverage[mask > 0] = k
    for _ in range(occluders):
        shape = np.zeros((h, w), np.uint8)
        colour = _occluder(shape, rng)
        img[shape > 0] = colour
        coverage[shape > 0] = -2
    out = []
    for k, (card, g, quad, face) in enumerate(placed):
        visible, partial = [], []
        for box in face.indices:
            q = box_through(onto[k], box)
            shown = _shown(coverage, k, q)
            if shown is None:
                continue
            outline = (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max()))
            if shown >= 0.85:
                visible.append(outline)
            elif shown >= PARTIAL and card != "PJ":
                ink = _ink_shown(face.image, box, coverage, k, onto[k])
                if ink is not None:
                    partial.append((outline, *ink))
        out.append(SceneCard(card, g, quad, tuple(visible), tuple(partial)))
    return img, out


def _shown(coverage: np.ndarray, k: int, q: np.ndarray) -> float | None:
    """The share of a face box of card ``k``, carried into the scene as the quadrilateral
    ``q`` (``box_through``), that shows on top in ``coverage`` (each pixel's top card), or
    None for a box too small to tell."""
    h, w = coverage.shape
    x0i, y0i = max(0, int(q[:, 0].min())), max(0, int(q[:, 1].min()))
    x1i, y1i = min(w, int(q[:, 0].max()) + 1), min(h, int(q[:, 1].max()) + 1)
    if x1i - x0i < 3 or y1i - y0i < 3:
        return None
    mask = np.zeros((y1i - y0i, x1i - x0i), np.uint8)
    cv2.fillConvexPoly(mask, (q - [x0i, y0i]).round().astype(np.int32), 1)
    area = int(mask.sum())
    if area < 12:
        return None
    return int(np.count_nonzero((coverage[y0i:y1i, x0i:x1i] == k) & (mask > 0))) / area


def _ink_shown(face: np.ndarray, box: tuple[float, float, float, float], coverage: np.ndarray,
               k: int, m: np.ndarray) -> tuple[float, float] | None:
    """The shares of an index's rank ink and of its suit ink (card ``k``'s face box ``box``,
    carried into the scene by ``m``) that show on top in ``coverage``; None for an index with
    too little ink to tell. The ink is what differs from the box's commonest colour; the rank
    is the half of the box nearer the card's end (above the suit in the upper corners, below
    it turned half round in the lower ones)."""
    x0, y0 = max(0, int(round(box[0]))), max(0, int(round(box[1])))
    x1, y1 = int(round(box[2])), int(round(box[3]))
    patch = face[y0:y1, x0:x1].astype(np.int32)
    if patch.size == 0:
        return None
    paper = np.median(patch.reshape(-1, 3), axis=0)
    ys, xs = np.nonzero(np.abs(patch - paper).sum(axis=2) > 90)
    upper = ys < (y1 - y0) / 2
    rank = upper if (y0 + y1) / 2 < CARD_H / 2 else ~upper
    if rank.sum() < 4 or (~rank).sum() < 4:
        return None
    pts = np.stack([xs + x0 + 0.5, ys + y0 + 0.5], axis=1).astype(np.float32)
    at = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), m).reshape(-1, 2)
    h, w = coverage.shape
    on_top = coverage[np.clip(at[:, 1].astype(np.int64), 0, h - 1), np.clip(at[:, 0].astype(np.int64), 0, w - 1)] == k
    return float(on_top[rank].mean()), float(on_top[~rank].mean())


def box_through(m: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The corners (4×2) of a face box (x0, y0, x1, y1) carried by the homography ``m``."""
    x0, y0, x1, y1 = box
    pts = np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], np.float32)
    out: np.ndarray = cv2.perspectiveTransform(pts, m).reshape(-1, 2)
    return out


def touching_melds(cards: list[SceneCard]) -> set[frozenset[int]]:
    """The pairs of melds of a scene that have cards lying on each other (cards that touch
    are one group by the contract, whatever meld the layout meant them for)."""
    quads = [c.quad.astype(np.float32) for c in cards]
    out: set[frozenset[int]] = set()
    for i, a in enumerate(cards):
        for j in range(i + 1, len(cards)):
            b = cards[j]
            if a.group != b.group and cv2.intersectConvexConvex(quads[i], quads[j])[0] > 0:
                out.add(frozenset((a.group, b.group)))
    return out


def read_perfectly(cards: list[SceneCard]) -> tuple[list[DetectedCard], list[int]]:
    """What a flawless reader would report of a scene: each card with an index in view, boxed
    by its visible indices; and each one's meld."""
    found, melds = [], []
    for c in cards:
        if not c.visible_indices:
            continue
        xs = [v for b in c.visible_indices for v in (b[0], b[2])]
        ys = [v for b in c.visible_indices for v in (b[1], b[3])]
        found.append(DetectedCard(c.card, (min(xs), min(ys), max(xs), max(ys)), 1.0,
                                  tuple(c.visible_indices)))
        melds.append(c.group)
    return found, melds


#: The frame sizes of a webcam's view of a hand (``held_hand``'s scenes in training and in
#: ``bench/bench_tables.py``).
WEBCAM_SIZES: Final = ((640, 640), (640, 480), (1280, 720))


def held_hand(rng: np.random.Generator, size: tuple[int, int], cards: list[str],
              draw: Callable[[str, np.random.Generator], Face] = draw_face,
              background: np.ndarray | None = None) -> tuple[np.ndarray, list[SceneCard]]:
    """A hand of ``cards`` held in a fan (``hand_layout``), as large as the frame allows
    (the widest fan across its width, the tallest within three fifths of its height, then
    0.7–1 of that), with fingers over the fan's foot: the indices they cover are not visible."""
    w, h = size
    fit = min(0.9 * w / (2 * 0.95 * CARD_H * math.sin(1.45) + CARD_W), 0.6 * h / CARD_H)
    scale = fit * float(rng.uniform(0.7, 1.0))
    image, placed = scene(rng, size, [cards], draw=draw, scale=scale, background=background,
                          layout=hand_layout)
    foot = np.mean([(c.quad[2] + c.quad[3]) / 2 for c in placed], axis=0)
    fingers = np.zeros((h, w), np.uint8)
    axes = (round(CARD_W * scale * rng.uniform(0.35, 0.6)), round(CARD_H * scale * rng.uniform(0.25, 0.45)))
    cv2.ellipse(fingers, (round(foot[0]), round(foot[1])), axes, float(rng.uniform(-30, 30)), 0, 360, 255, -1)
    skin = np.array([rng.uniform(60, 140), rng.uniform(90, 170), rng.uniform(140, 230)])
    shade = cv2.GaussianBlur(rng.uniform(0.75, 1.05, (h // 16 + 1, w // 16 + 1)), (0, 0), 2)
    shade = cv2.resize(shade, (w, h))[..., None]
    image = np.where(fingers[..., None] > 0, np.clip(skin * shade, 0, 255), image).astype(np.uint8)

    def uncovered(box: tuple[float, float, float, float]) -> bool:
        x0, y0, x1, y1 = (int(v) for v in box)
        part = fingers[max(0, y0):max(0, y1) + 1, max(0, x0):max(0, x1) + 1]
        return part.size == 0 or bool(np.count_nonzero(part) <= 0.15 * part.size)

    return image, [SceneCard(c.card, c.group, c.quad, tuple(b for b in c.visible_indices if uncovered(b)),
                             tuple(p for p in c.partial if uncovered(p[0])))
                   for c in placed]


#: A drawn camera's field of view across the photo's width, in degrees (a phone's main
#: camera's, a webcam's; the tile scenes' ``camera`` perspective and the benchmarks' ``camera
#: slant`` sources).
CAMERA_FOV: Final = 66.0


def camera_view(w: int, h: int, tilt: float, side: float, roll: float = 0.0,
                fov: float = CAMERA_FOV) -> np.ndarray:
    """The homography from a table drawn ``w``×``h`` (as seen from straight above) to the
    photo of a pinhole camera (``fov`` degrees across its ``w`` pixels) over the table's middle
    at the distance that sees the whole table when looking straight down, tilted ``tilt``
    radians from straight down toward the side at angle ``side`` and rolled ``roll``: the
    table's middle stays the photo's, the near side grows and the far side shrinks."""
    f = (w / 2) / math.tan(math.radians(fov) / 2)

    def spun(a: float) -> np.ndarray:
        c, s = math.cos(a), math.sin(a)
        return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])

    c, s = math.cos(tilt), math.sin(tilt)
    r = spun(roll) @ np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]) @ spun(side)
    lens = np.array([[f, 0.0, w / 2], [0.0, f, h / 2], [0.0, 0.0, 1.0]])
    # a table point (x, y) is (x - w/2, y - h/2, 0) about its middle, f in front of the lens
    pose = np.column_stack([r[:, 0], r[:, 1], [0.0, 0.0, f]])
    middle = np.array([[1.0, 0.0, -w / 2], [0.0, 1.0, -h / 2], [0.0, 0.0, 1.0]])
    m: np.ndarray = lens @ pose @ middle
    out: np.ndarray = m / m[2, 2]
    return out


def camera_pose(w: int, h: int, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A camera's view (``camera_view``) tilted from straight down by half to all of
    ``strength`` of a right angle, toward any side, rolled a few degrees."""
    tilt = float(rng.uniform(0.5, 1.0)) * strength * math.pi / 2
    return camera_view(w, h, tilt, float(rng.uniform(0, 2 * math.pi)), float(rng.normal(0, math.radians(3))))


def tilted(image: np.ndarray, cards: list[SceneCard], rng: np.random.Generator,
           strength: float = 0.12) -> tuple[np.ndarray, list[SceneCard]]:
    """The scene as a camera sees it from a slant: the image warped by a random perspective
    (``slant_matrix``: each corner moved up to ``strength`` of the image's size), and every
    card's quad and visible index boxes moved with it."""
    h, w = image.shape[:2]
    return warped(image, cards, slant_matrix(w, h, rng, strength))


def slant_matrix(w: int, h: int, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A random perspective of a ``w``×``h`` image: each corner moved up to ``strength`` of
    the image's size, within the image (the table still fills the frame)."""
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = src + rng.uniform(-strength, strength, (4, 2)).astype(np.float32) * np.array([w, h], np.float32)
    dst = np.clip(dst, [0, 0], [w, h]).astype(np.float32)
    m: np.ndarray = cv2.getPerspectiveTransform(src, dst)
    return m


#: The share of an index box that must lie inside the photo for it to stay visible once the
#: scene is warped (as :func:`scene` asks of an index that shows on top).
IN_FRAME: Final = 0.85


def warped(image: np.ndarray, cards: list[SceneCard], m: np.ndarray,
           cut: bool = False) -> tuple[np.ndarray, list[SceneCard]]:
    """The scene through the homography ``m`` (into a photo of the same size, the uncovered
    margins the image's median colour), every card's quad and index boxes moved with it. With
    ``cut``, an index box the photo's edge cuts (under :data:`IN_FRAME` of it inside) no
    longer shows: for a view that pushes part of the table out of the photo (:func:`tilted`
    keeps the whole table in it, and its training scenes stay as they were drawn)."""
    h, w = image.shape[:2]
    border = tuple(int(v) for v in np.median(image.reshape(-1, 3), axis=0))
    out: np.ndarray = cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_CONSTANT, borderValue=border)

    def move(points: np.ndarray) -> np.ndarray:
        moved: np.ndarray = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float32), m)
        return moved.reshape(-1, 2).astype(np.float64)

    def moved_box(box: Box) -> Box:
        q = box_through(m, box)
        return float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())

    def in_frame(box: Box) -> bool:
        return not cut or intersection_area(box, (0.0, 0.0, float(w), float(h))) >= IN_FRAME * max(box_area(box), 1e-9)

    def moved_card(c: SceneCard) -> SceneCard:
        visible = (moved_box(b) for b in c.visible_indices)
        partial = ((moved_box(b), rank, suit) for b, rank, suit in c.partial)
        return SceneCard(c.card, c.group, move(c.quad), tuple(b for b in visible if in_frame(b)),
                         tuple(p for p in partial if in_frame(p[0])))

    return out, [moved_card(c) for c in cards]
