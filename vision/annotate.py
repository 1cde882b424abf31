"""Drawing a reading onto a frame (for ``tablekit camera`` previews and saved frames)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.reading import TableReading

_PALETTE = [(60, 180, 75), (230, 50, 25), (255, 225, 25), (0, 130, 200), (245, 130, 48),
            (145, 30, 180), (70, 240, 240), (240, 50, 230)]


def annotate(frame: np.ndarray, reading: TableReading) -> np.ndarray:
    """A copy of ``frame`` with each card's box and name, coloured by group."""
    out = frame.copy()
    scale = max(0.4, max(frame.shape[:2]) / 1200)
    for g, members in enumerate(reading.groups):
        colour = _PALETTE[g % len(_PALETTE)]
        for i in members:
            card = reading.cards[i]
            x0, y0, x1, y1 = (round(v) for v in card.box)
            cv2.rectangle(out, (x0, y0), (x1, y1), colour, 2)
            cv2.putText(out, card.card, (x0, max(12, y0 - 4)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                        colour, 2, cv2.LINE_AA)
    return out
