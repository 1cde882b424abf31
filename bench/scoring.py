"""Scoring shared by the benchmarks: precision, recall and F1 from counts, card multisets
compared, and the 95th percentile of times."""

from __future__ import annotations

from collections import Counter


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


def p95(times: list[float]) -> float:
    """The 95th percentile of ``times`` (the nearest rank below)."""
    return sorted(times)[int(0.95 * (len(times) - 1))]
