"""Reading a table image end to end: detect, assemble physical cards, group into melds."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.assemble import AssemblyParams, assemble
from vision.detector import DEFAULT_WEIGHTS, detect
from vision.grouping import group_cards
from vision.reading import TableReading


def read_table(image: np.ndarray, params: AssemblyParams = AssemblyParams(),
               weights: Path = DEFAULT_WEIGHTS) -> TableReading:
    """Every card on a BGR image, one entry per physical card, grouped as they lie."""
    detections = detect(image, threshold=min(0.1, params.index_score, params.card_score),
                        weights=weights)
    cards = tuple(assemble(detections, params, image))
    return TableReading(cards, group_cards(cards))


def warm_up(weights: Path = DEFAULT_WEIGHTS) -> None:
    """Load the detector and run it once, so the first real image is timed fairly."""
    detect(np.zeros((64, 64, 3), np.uint8), weights=weights)
