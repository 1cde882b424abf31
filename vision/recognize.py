"""Reading a table image end to end: detect, refine with an enrolled deck, assemble physical
cards, group them into melds."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.assemble import DEFAULT_PARAMS, AssemblyParams, assemble
from vision.classifier import (
    DEFAULT_CARD_CLASSIFIER,
    DEFAULT_CLASSIFIER,
    N_CARD_OUT,
    ZOOM_SCORE,
    classify_crops,
    crop_card,
    crop_size,
    refine_cards,
    refine_indices,
)
from vision.detector import DEFAULT_WEIGHTS, INPUT_SIZE, detect
from vision.enroll import DeckTemplates
from vision.grouping import group_cards
from vision.reading import DetectedCard, TableReading
from vision.rescan import (
    RESCAN_SIZES,
    RESCAN_THRESHOLD,
    RESCAN_ZOOM_SCORE,
    fill_unread,
    needs_rescan,
)
from vision.tiles import read_tiles


def read_table(image: np.ndarray, params: AssemblyParams = DEFAULT_PARAMS,
               weights: Path = DEFAULT_WEIGHTS, deck: DeckTemplates | None = None,
               pieces: str = "auto", index_weights: Path = DEFAULT_CLASSIFIER,
               card_weights: Path = DEFAULT_CARD_CLASSIFIER,
               rescan: tuple[int, ...] = RESCAN_SIZES) -> TableReading:
    """Every card on a BGR image, one entry per physical card, grouped as they lie.

    ``pieces`` is ``cards``, ``tiles`` or ``auto`` (tiles are reported instead of cards when at
    least two are read with confidence and more tiles than cards are read). While a card is
    left unread, or none is found, the image is read again at the detector input sizes of
    ``rescan`` (see ``vision.rescan``).
    """
    if pieces == "tiles":
        return _tiles_reading(read_tiles(image))

    def read_cards(size: int, threshold: float, zoom_score: float) -> list[DetectedCard]:
        detections = detect(image, threshold=min(threshold, params.index_score, params.card_score),
                            weights=weights, size=size)
        detections = refine_indices(image, detections, index_weights, zoom_score=zoom_score)
        detections = refine_cards(image, detections, card_weights)
        if deck is not None:
            detections = deck.refine(image, detections)
        return assemble(detections, params, image)

    found = read_cards(INPUT_SIZE, 0.1, ZOOM_SCORE)
    for size in rescan:
        if not needs_rescan(found):
            break
        found = fill_unread(found, read_cards(size, RESCAN_THRESHOLD, RESCAN_ZOOM_SCORE))
    cards = tuple(found)
    if pieces == "auto":
        tiles = read_tiles(image)
        read = sum(t.readable for t in tiles)
        if read >= 2 and read > sum(c.readable for c in cards):
            return _tiles_reading(tiles)
    return TableReading(cards, group_cards(cards))


def _tiles_reading(tiles: list[DetectedCard]) -> TableReading:
    found = tuple(tiles)
    return TableReading(found, group_cards(found, card_reach=0.35))


def warm_up(weights: Path = DEFAULT_WEIGHTS, index_weights: Path = DEFAULT_CLASSIFIER,
            card_weights: Path = DEFAULT_CARD_CLASSIFIER) -> None:
    """Load the detector and the crop classifiers and run each once, so the first real image
    is timed fairly."""
    blank = np.zeros((64, 64, 3), np.uint8)
    detect(blank, weights=weights)
    if index_weights.is_file():
        classify_crops([np.zeros((*crop_size(index_weights)[::-1], 3), np.uint8)], index_weights)
    if card_weights.is_file():
        classify_crops([crop_card(blank, (0, 0, 64, 64))], card_weights, N_CARD_OUT)
