"""Scoring shared by the benchmarks: precision, recall and F1 from counts, card multisets
compared, and the 95th percentile of times."""

from __future__ import annotations

from collections import Counter
from typing import Any


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    """Precision, recall and F1 of ``tp`` right, ``fp`` wrong and ``fn`` missed."""
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def compare(want: Counter[str], got: Counter[str]) -> tuple[int, int, int]:
    """Right, wrong and missed cards of a reading, counted as multisets (two alike cards of
    two decks count twice)."""
    hit = sum((want & got).values())
    return hit, sum(got.values()) - hit, sum(want.values()) - hit


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0–1) of ``values``, between the two nearest ranks in proportion
    (as ``numpy.percentile`` by default): of 8 times, the 95th percentile lies two thirds of
    the way from the 7th to the slowest, never at a rank below it."""
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def p95(times: list[float]) -> float:
    """The 95th percentile of ``times`` (:func:`percentile`)."""
    return percentile(times, 0.95)


def label_box(label: dict[str, Any], width: int, height: int) -> tuple[float, float, float, float]:
    """The corners ``(x0, y0, x1, y1)``, in pixels of a ``width``×``height`` photo, of one
    ``labels.json`` entry (its centre and size given as shares of the photo)."""
    half_w, half_h = label["w"] * width / 2, label["h"] * height / 2
    cx, cy = label["cx"] * width, label["cy"] * height
    return cx - half_w, cy - half_h, cx + half_w, cy + half_h
