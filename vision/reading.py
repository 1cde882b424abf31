"""What the recognizer reports: detected cards (or tiles), groups, and the whole table reading."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.cards import UNREADABLE

Box = tuple[float, float, float, float]

def box_area(box: Box) -> float:
    """The area of ``box`` (0 for an empty or inverted one)."""
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def long_side(box: Box) -> float:
    """The longer side of ``box``."""
    return max(box[2] - box[0], box[3] - box[1])


def inside(x: float, y: float, box: Box, margin: float = 0.0) -> bool:
    """Whether (x, y) lies in ``box`` grown by ``margin`` of its width and height each side."""
    mx = (box[2] - box[0]) * margin
    my = (box[3] - box[1]) * margin
    return box[0] - mx <= x <= box[2] + mx and box[1] - my <= y <= box[3] + my


def intersection_area(a: Box, b: Box) -> float:
    """The area the two boxes share."""
    return box_area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))




@dataclass(frozen=True, slots=True)
class DetectedCard:
    """One physical card or tile: its notation (or ``??``), its box ``(x0, y0, x1, y1)`` in
    image pixels, the confidence of the reading, and the corner indices it was read from.

    ``zone`` is the mat zone (``seat1``…, ``centre``) the card lies in, when a calibration
    placed it (``Calibration.read_top_down``); it is then reported as the JSON field ``zone``.
    """

    card: str
    box: Box
    confidence: float
    indices: tuple[Box, ...] = ()
    zone: str | None = None

    @property
    def readable(self) -> bool:
        return self.card != UNREADABLE

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "card": self.card,
            "box": [round(float(v), 1) for v in self.box],  # numbers with a point, always
            "confidence": round(self.confidence, 3),
        }
        if self.zone is not None:
            out["zone"] = self.zone
        return out


@dataclass(frozen=True, slots=True)
class TableReading:
    """Every card found on one image and their grouping into melds (lists of card positions)."""

    cards: tuple[DetectedCard, ...]
    groups: tuple[tuple[int, ...], ...] = field(default=())

    def group_cards(self) -> list[list[str]]:
        """The groups as lists of card notations, as ``tablekit see`` prints them."""
        return [[self.cards[i].card for i in g] for g in self.groups]

    def to_json(self) -> dict[str, Any]:
        return {"cards": [c.to_json() for c in self.cards], "groups": self.group_cards()}

    def scaled(self, across: float, down: float) -> TableReading:
        """This reading with every box (each card's and each of its indices') ``across``
        times as far from the image's left and ``down`` times as far from its top: a
        reading of a photo decoded smaller, in the photo's own pixels."""
        if across == down == 1:
            return self

        def grow(box: Box) -> Box:
            return (box[0] * across, box[1] * down, box[2] * across, box[3] * down)

        cards = tuple(replace(c, box=grow(c.box), indices=tuple(grow(b) for b in c.indices))
                      for c in self.cards)
        return TableReading(cards, self.groups)


def within(card: DetectedCard, width: int, height: int) -> DetectedCard:
    """``card`` with its boxes cut to the image: a card's box is its visible extent (a box
    grown from a close-up's large corner can reach past the photo's edge)."""
    def cut(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = box
        w, h = float(width), float(height)
        return (min(max(x0, 0.0), w), min(max(y0, 0.0), h), min(max(x1, 0.0), w), min(max(y1, 0.0), h))
    return replace(card, box=cut(card.box), indices=tuple(cut(b) for b in card.indices))
