"""Stillness detection: read the table only after it has stopped moving for a moment.

Frames are compared on a small blurred grey copy; a frame is *still* when the share of pixels
that changed since the previous frame stays under a threshold. ``StillnessGate`` passes a
frame on once ``still_frames`` consecutive frames were still, then waits for the next motion,
so a hand over the table never produces a reading and one still scene is read once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np


def _small(frame: np.ndarray, width: int = 160) -> np.ndarray:
    h, w = frame.shape[:2]
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    small = cv2.resize(grey, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (5, 5), 0)


def motion(previous: np.ndarray, current: np.ndarray, level: int = 18) -> float:
    """The share of pixels (0..1) that changed by more than ``level`` grey levels."""
    a, b = _small(previous), _small(current)
    if a.shape != b.shape:
        return 1.0
    return float(np.count_nonzero(cv2.absdiff(a, b) > level)) / a.size


@dataclass
class StillnessGate:
    """Feed frames in order; ``push`` returns True for the frame that ends a still stretch."""

    still_frames: int = 5
    max_motion: float = 0.004
    _previous: np.ndarray | None = field(default=None, repr=False)
    _run: int = 0
    _fired: bool = False

    def push(self, frame: np.ndarray) -> bool:
        moved = True if self._previous is None else motion(self._previous, frame) > self.max_motion
        self._previous = frame
        if moved:
            self._run = 0
            self._fired = False
            return False
        self._run += 1
        if self._run >= self.still_frames and not self._fired:
            self._fired = True
            return True
        return False


def still_frames(frames: Iterable[np.ndarray], gate: StillnessGate | None = None) -> Iterator[np.ndarray]:
    """The frames at which the table has come to rest (one per still stretch)."""
    gate = gate or StillnessGate()
    for frame in frames:
        if gate.push(frame):
            yield frame
