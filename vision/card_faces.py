"""A card's face cut out of a photo of that card alone, for enrolment.

A club's enrolment photos each show one known card lying on the table. To teach the detector
that deck, the kit needs the face itself (to draw it into scenes) and where its corner
indices lie in the photo (to label the photo). ``cut_face`` finds the card's outline (the
largest card-shaped quadrilateral among the photo's edges and its light/dark split), turns it
upright and scales it to the drawn cards' size (``vision.synth.CARD_W`` × ``CARD_H``).
``index_box`` finds the top-left corner index from ink that differs from the face's own paper,
so light ink on a dark card is found as well as dark ink on white.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth import CARD_H, CARD_W, FACE_CORNERS, box_through

Box = tuple[float, float, float, float]

#: A card's long side over its short side is 1.40 (poker) to 1.56 (bridge); allow a slant.
ASPECT = (1.2, 1.75)
#: The card must fill at least this share of the photo (an enrolment photo is a close-up).
MIN_AREA = 0.03
#: Its outline must fill its quadrilateral this well (rounded corners, a little perspective).
MIN_FILL = 0.85
#: Where a face's top-left index may lie: wholly within this share of its width and of its
#: height, its middle within ``INDEX_MIDDLE`` of its width (a club's deck may print wide or
#: jumbo indices: wider than the artwork decks the trainer cuts with its narrower defaults).
INDEX_COLUMN, INDEX_ROWS, INDEX_MIDDLE = 0.26, 0.45, 0.19


@dataclass(frozen=True)
class CutFace:
    """A face cut from a photo: the upright ``CARD_W``×``CARD_H`` image and the quad (TL, TR,
    BR, BL in photo pixels) it was cut from."""

    image: np.ndarray
    quad: np.ndarray

    def to_photo(self, box: Box) -> Box:
        """A box in face pixels as the axis-aligned box it covers in the photo."""
        q = box_through(cv2.getPerspectiveTransform(FACE_CORNERS, self.quad.astype(np.float32)), box)
        return float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())


def _order(quad: np.ndarray) -> np.ndarray:
    """Four corners as TL, TR, BR, BL of an upright card (portrait, clockwise on screen)."""
    c = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    q = quad[np.argsort(angles)]  # clockwise on screen (y points down)
    # the first side runs along the top: a short side, so the card stands in portrait
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[2] - q[1]):
        q = np.roll(q, -1, axis=0)
    # of the two short sides, start from the one nearer the top of the photo
    if q[0, 1] + q[1, 1] > q[2, 1] + q[3, 1]:
        q = np.roll(q, -2, axis=0)
    return q.astype(np.float32)


def _candidates(grey: np.ndarray) -> list[np.ndarray]:
    """Outlines that might be the card: edges closed up, and both sides of an Otsu split."""
    blur = cv2.GaussianBlur(grey, (5, 5), 0)
    med = float(np.median(blur))
    edges = cv2.Canny(blur, 0.5 * med, 1.2 * med + 20)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    _, light = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    out: list[np.ndarray] = []
    for mask in (edges, light, 255 - light):
        contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        out.extend(contours)
    return out


def find_card(image: np.ndarray) -> np.ndarray | None:
    """The card's corners (TL, TR, BR, BL) in a photo of one card, or None when nothing in it
    is card-shaped."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    h, w = grey.shape[:2]
    best: tuple[float, np.ndarray] | None = None
    for contour in _candidates(grey):
        area = cv2.contourArea(contour)
        if area < MIN_AREA * h * w or area > 0.95 * h * w:
            continue
        hull = cv2.convexHull(contour)
        poly = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True).reshape(-1, 2)
        quad = poly if len(poly) == 4 else cv2.boxPoints(cv2.minAreaRect(hull))
        quad_area = cv2.contourArea(quad.astype(np.float32))
        if quad_area <= 0 or area / quad_area < MIN_FILL:
            continue
        if (quad[:, 0].min() < 2 or quad[:, 1].min() < 2 or quad[:, 0].max() > w - 3
                or quad[:, 1].max() > h - 3):
            continue  # running off the photo: the table or a crop of it, not the card
        q = _order(quad.astype(np.float32))
        short = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[3] - q[2])) / 2
        long = (np.linalg.norm(q[2] - q[1]) + np.linalg.norm(q[0] - q[3])) / 2
        if short <= 0 or not ASPECT[0] <= long / short <= ASPECT[1]:
            continue
        if best is None or area > best[0]:
            best = (area, q)
    return None if best is None else best[1]


def cut_face(image: np.ndarray) -> CutFace | None:
    """The card of a one-card photo, upright at ``CARD_W``×``CARD_H`` (None: no card found)."""
    quad = find_card(image)
    if quad is None:
        return None
    m = cv2.getPerspectiveTransform(quad, FACE_CORNERS)
    face = cv2.warpPerspective(image, m, (CARD_W, CARD_H), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)
    return CutFace(face, quad)


def paper_ink(face: np.ndarray) -> np.ndarray:
    """Where a face's ink lies: pixels far (in Lab) from the paper colour, which is the median
    of a band just inside the card's edge."""
    lab = cv2.cvtColor(face, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    m = max(3, w // 40)
    band = np.concatenate([lab[m:2 * m].reshape(-1, 3), lab[h - 2 * m:h - m].reshape(-1, 3),
                           lab[:, m:2 * m].reshape(-1, 3), lab[:, w - 2 * m:w - m].reshape(-1, 3)])
    paper = np.median(band, axis=0)
    spread = np.linalg.norm(lab - paper, axis=2)
    ink: np.ndarray = (spread > max(40.0, 2.5 * float(np.percentile(np.linalg.norm(band - paper, axis=1), 90)))
                       ).astype(np.uint8)
    return ink


def index_box(face: np.ndarray) -> Box | None:
    """The top-left corner index of an upright face, found in its ink (``paper_ink``)."""
    return index_from_ink(paper_ink(face), INDEX_COLUMN, INDEX_ROWS, INDEX_MIDDLE)


def index_from_ink(ink: np.ndarray, column: float = 0.17, rows: float = 0.36,
                   middle: float = 0.13) -> Box | None:
    """The top-left corner index in a face's ink mask (``CARD_W``×``CARD_H``): the marks that
    lie wholly within ``column`` of its width and ``rows`` of its height with their middles
    within ``middle`` of its width, united (None when nothing there looks like an index)."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    right, bottom = column * CARD_W, rows * CARD_H
    parts = [(x, y, x + w, y + h) for x, y, w, h, area in stats[1:n]
             if area >= 6 and x + w <= right and y + h <= bottom and x >= 2 and y >= 2
             and x + w / 2 <= middle * CARD_W]
    if not parts:
        return None
    x0 = min(p[0] for p in parts) - 2
    y0 = min(p[1] for p in parts) - 2
    x1 = max(p[2] for p in parts) + 2
    y1 = max(p[3] for p in parts) + 2
    if not (0.1 * CARD_H <= y1 - y0 <= (rows - 0.02) * CARD_H and 0.04 * CARD_W <= x1 - x0):
        return None
    return float(x0), float(y0), float(x1), float(y1)


def both_indices(box: Box) -> tuple[Box, Box]:
    """A face's top-left index box and the bottom-right one it implies (the face turned)."""
    x0, y0, x1, y1 = box
    return box, (CARD_W - x1, CARD_H - y1, CARD_W - x0, CARD_H - y0)


@dataclass(frozen=True)
class EnrolledFace:
    """One enrolment photo whose card was cut out: the card, the photo, the cut face and the
    face's top-left index box (face pixels)."""

    card: str
    photo: np.ndarray
    face: CutFace
    index: Box

    def photo_indices(self) -> tuple[Box, Box]:
        """Both corner indices' boxes in the photo's pixels."""
        a, b = both_indices(self.index)
        return self.face.to_photo(a), self.face.to_photo(b)


def enrolled_faces(photos: list[tuple[str, np.ndarray]]) -> list[EnrolledFace]:
    """The photos ``[(card, image), …]`` whose card could be cut out and its index found."""
    out = []
    for card, image in photos:
        cut = cut_face(image)
        box = index_box(cut.image) if cut is not None else None
        if cut is not None and box is not None:
            out.append(EnrolledFace(card, image, cut, box))
    return out
