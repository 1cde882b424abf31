"""Reading a table image end to end: detect, refine with an enrolled deck, assemble physical
cards, group them into melds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from vision.assemble import DEFAULT_PARAMS, AssemblyParams, Turn, absorb_unread, assemble, usable
from vision.classifier import (
    CARD_TURN_UNSURE,
    DEFAULT_CARD_CLASSIFIER,
    DEFAULT_CLASSIFIER,
    DEFAULT_TURN,
    N_CARD_OUT,
    NEGATIVE_UNSURE,
    TURN_UNSURE,
    ZOOM_UNSURE,
    Reads,
    classify_crops,
    crop_card,
    crop_size,
    read_turns,
    refine_cards,
    refine_indices,
    turn_directions,
    turn_probs,
    upright_of,
    ups_of,
)
from vision.detector import (
    DEFAULT_WEIGHTS,
    INPUT_SIZE,
    NEGATIVE_PEAKS,
    Detection,
    detect,
    detect_both,
    sharing_letterboxes,
)
from vision.enroll import DeckTemplates
from vision.errors import VisionError
from vision.grouping import group_cards
from vision.images import check_photo
from vision.index_boxes import DEFAULT_BOXES, PASSES, fit_boxes, fitted_boxes
from vision.lightness import lightness_negative
from vision.pieces import tell
from vision.polarity import POLARITY_MARGIN, lightness_choice
from vision.reading import Box, DetectedCard, TableReading, within
from vision.rescan import (
    RESCAN_LOOKS,
    Look,
    add_unseen,
    at_size,
    despeckle,
    fill_unread,
    needs_rescan,
    turn_back,
    turned,
)
from vision.runs import ALONE, RunChoice, Told, Unsettled
from vision.scale import SMALLEST, TARGET_INDEX, choose_size, far_size, next_size
from vision.table_regions import CardRegions, card_regions
from vision.tile_reader import (
    DEFAULT_TILE_WEIGHTS,
    has_weights,
    read_tile_table,
    tile_maps,
)
from vision.tiles import TILE_REACH, read_tiles

#: What ``read_table`` may be asked to read.
PIECES = ("auto", "cards", "tiles")


def read_table(image: np.ndarray, params: AssemblyParams = DEFAULT_PARAMS,
               weights: Path = DEFAULT_WEIGHTS, deck: DeckTemplates | None = None,
               pieces: str = "auto", index_weights: Path = DEFAULT_CLASSIFIER,
               card_weights: Path = DEFAULT_CARD_CLASSIFIER,
               rescan: tuple[Look, ...] = RESCAN_LOOKS,
               px_per_mm: float | None = None, size: int | None = None,
               negative_score: float = NEGATIVE_PEAKS,
               zoom_unsure: float = ZOOM_UNSURE, zoom_both_ways: bool = True,
               turn_unsure: float = TURN_UNSURE, index_px: float = TARGET_INDEX,
               smallest: int = SMALLEST, turn_weights: Path | None = DEFAULT_TURN,
               card_turn_unsure: float = CARD_TURN_UNSURE,
               negative_unsure: float = NEGATIVE_UNSURE,
               polarity_margin: float | None = POLARITY_MARGIN, run: RunChoice = ALONE,
               defer: bool = False, told: Callable[[Told], None] | None = None,
               resume: Unsettled | None = None, box_weights: Path | None = DEFAULT_BOXES,
               move_boxes: bool = True, box_passes: int = PASSES,
               far_spread: float | None = None) -> TableReading:
    """Every card on a BGR image, one entry per physical card, grouped as they lie.

    ``pieces`` is ``cards``, ``tiles`` or ``auto``: first looks of the card detector and the
    learnt tile reader tell which lie on the table (``vision.pieces``), and only that
    reader runs. A choice the photo leaves open (cards or tiles, ``PiecesSeen.unsettled``;
    the lightness to read cards in, ``vision.polarity.lightness_choice``) is made as ``run``
    says (``vision.runs``; alone: cards, as it lies); with ``defer`` such a photo raises
    ``vision.runs.Unsettled`` instead, for a run of photos to choose, and read again with
    ``resume`` (what was raised) takes up the looks made. ``told`` is given what the photo
    settled by itself (without the tile reader's weights, the classical tile reader runs after
    the cards, and tiles are reported when at least two are read with confidence and more
    tiles than cards). While a card is left unread, or none is found, the image is looked at
    again in each way of ``rescan`` in turn (see ``vision.rescan``). The detector's input
    size is chosen so that indices reach it at the size it learnt (``vision.scale``): from
    ``px_per_mm`` (a calibrated top-down view) when given, else from a first look at the
    default size, so that an index spans about ``index_px`` input pixels (no smaller an
    input than ``smallest``); ``size`` fixes it instead. The
    index peaks of the photo's negative scoring ``negative_score`` or more join its own
    (``vision.detector.detect_both``: light ink on dark card); at 1, as shipped
    (``vision.detector.NEGATIVE_PEAKS``), they never do. ``zoom_unsure`` and
    ``zoom_both_ways`` say which indices are read again in zoomed boxes, and how, and
    ``turn_unsure`` which index crops are also read turned half round and ``negative_unsure``
    which in the other lightness (``vision.classifier.refine_indices``), ``card_turn_unsure``
    which whole-card crops.
    ``turn_weights`` (None: not at all) reads which way each index faces, so that indices
    facing the same way never pair as one card's corners (``vision.assemble.facing``).
    ``box_weights`` (None: not at all) places and sizes each index's box again before it is
    read (``vision.index_boxes``; with ``move_boxes`` False, only sizes it about the
    detector's centre), ``box_passes`` times over.
    ``far_spread`` (None: never) looks again at a larger size where the first look's sure
    indices differ in size by that much (``vision.scale.far_size``: a camera looking across
    the table), taking the cards it reads where the first reading found none
    (``vision.rescan.add_unseen``).
    ``polarity_margin`` (None: never) lets the first look's surest indices decide to read the
    photo turned over, light ink on dark cards read as dark on pale (``vision.polarity``);
    never with an enrolled ``deck``, which learnt its deck as it is printed.

    With ``pieces="tiles"`` (a tile game's table) the card pipeline never runs: the tiles are
    read by the learnt tile reader (``vision.tile_reader``) when ``weights/tilenet.onnx`` is
    there (its first look sized from ``px_per_mm`` when given), else by the classical one
    (``vision.tiles``). With ``pieces="auto"`` the first looks that tell cards from tiles
    are both made at the detector's first size, so a tile table told so is read on from
    there, whatever ``px_per_mm``.
    """
    if pieces not in PIECES:
        raise VisionError(f"pieces must be one of {', '.join(PIECES)}, not {pieces!r}")
    if run.pieces not in ("cards", "tiles"):
        raise VisionError(f"a run's pieces must be cards or tiles, not {run.pieces!r}")
    check_photo(image)
    if pieces == "tiles":
        return read_tile_table(image, DEFAULT_TILE_WEIGHTS, px_per_mm=px_per_mm)
    if deck is not None and deck.detector is not None and weights == DEFAULT_WEIGHTS:
        weights = deck.detector  # the detector enrolment trained on to the club's deck
    if deck is not None and deck.index_classifier is not None and index_weights == DEFAULT_CLASSIFIER:
        index_weights = deck.index_classifier  # and the index classifier

    # the detector's peaks for each (image, size, threshold): a look that differs from an
    # earlier one only in how the index crops are read reuses them
    peaks: dict[tuple[bool, int, float, int], list[Detection]] = {}
    # the classifiers' reads of crops of each image looked at (by denoise and turn): a later
    # look at the same peaks boxes the same crops
    reads: dict[tuple[bool, int], Reads] = {}
    if resume is not None:  # the looks made at this photo before it waited for its run
        peaks.update(resume.peaks)
    regions: CardRegions | None = None  # the table between cards (``read_whole``)

    def seen_by(look: Look) -> np.ndarray:
        return turned(despeckle(image) if look.denoise else image, look.turn)

    def found_by(look: Look, seen: np.ndarray) -> list[Detection]:
        threshold = min(look.threshold, params.index_score, params.card_score)
        key = (look.denoise, look.size, threshold, look.turn)
        if key not in peaks:
            # the negative once, as the photo lies: the turned looks are for cards the
            # detector misses sideways, and would each pay for a second pass
            negative = negative_score if not look.turn % 4 else 1.0
            peaks[key] = detect_both(seen, threshold, weights, look.size, negative)
        return peaks[key]

    def read_cards(look: Look) -> list[DetectedCard]:
        seen = seen_by(look)
        cache = reads.setdefault((look.denoise, look.turn), {})
        # only what assembly can use is read (no later step raises a score), each index in
        # the box the box network places it in
        found = fit_boxes(seen, usable(found_by(look, seen), params), box_weights, move_boxes, cache,
                          box_passes)
        detections = refine_indices(seen, found, index_weights,
                                    zoom_score=look.zoom_score, sharpest=look.sharpest,
                                    zoom_unsure=zoom_unsure, zoom_both_ways=zoom_both_ways,
                                    turn_unsure=turn_unsure, cache=cache,
                                    negative_unsure=negative_unsure)
        detections = refine_cards(seen, detections, card_weights, cache=cache,
                                  turn_unsure=card_turn_unsure)
        if deck is not None:
            detections = deck.refine(seen, detections)
        if turn_weights is not None:
            detections = with_turns(seen, detections, turn_weights, params.index_score, cache)
        if not look.turn % 4:
            return assemble(detections, params, seen, regions)
        dims = (image.shape[1], image.shape[0])
        return [replace(c, box=turn_back(c.box, look.turn, dims),
                        indices=tuple(turn_back(b, look.turn, dims) for b in c.indices))
                for c in assemble(detections, params, seen,
                                  regions.turned(look.turn) if regions is not None else None)]

    if pieces == "auto" and has_weights(DEFAULT_TILE_WEIGHTS):
        # both networks' first looks tell cards from tiles (vision.pieces): a tile table
        # is read by the tile reader alone, never by the card pipeline and its second looks
        if resume is not None and resume.seen is not None:  # the first looks made before
            seen = resume.seen
        else:
            with sharing_letterboxes():  # both first looks see the photo at the same size
                seen = tell(image, found_by(Look(), image), DEFAULT_TILE_WEIGHTS)
        if seen.unsettled and defer:
            raise Unsettled(seen, dict(peaks))
        settled = None if seen.unsettled else seen.pieces
        if (run.pieces if seen.unsettled else seen.pieces) == "tiles":
            if told is not None:
                told(Told(settled))
            return read_tile_table(image, DEFAULT_TILE_WEIGHTS, made=seen.looks)
        pieces = "cards"
    else:
        seen, settled = None, None
    if size is None and px_per_mm is not None:
        size = choose_size(max(image.shape[:2]), (), px_per_mm, index_px, smallest)

    def first_turns() -> dict[Box, Turn]:
        """The turn read of each index box of the first look (``with_turns``' reads)."""
        if turn_weights is None:
            return {}
        cache = reads.get((False, 0), {})
        directions = turn_directions(turn_weights) > 2 if turn_weights.is_file() else False
        turns: dict[Box, Turn] = {}
        for key, v in cache.items():
            box = key[1]
            if key[0] == str(turn_weights) and isinstance(box, tuple):
                turns[box] = _turn_read(v, directions)
        return turns

    def turn_over() -> None:  # a light-on-dark deck, read as dark ink on pale card
        nonlocal image
        image = lightness_negative(image)
        peaks.clear()
        reads.clear()

    def read_whole() -> TableReading:
        """The cards on the photo as it now lies (or turned over), grouped as they lie."""
        nonlocal regions
        regions = card_regions(image)  # the table between cards keeps them apart
        at = size if size is not None else choose_size(max(image.shape[:2]), found_by(Look(), image),
                                                       target=index_px, smallest=smallest)
        found = read_cards(Look(size=at))
        bigger = next_size(at, max(image.shape[:2])) if not any(c.readable for c in found) else None
        if bigger is not None:  # nothing read, not even to measure by: the photo's finer level
            found = fill_unread(found, read_cards(Look(size=bigger)))
        far = far_size(found_by(Look(size=at), image), max(image.shape[:2]), at, far_spread,
                       index_px) if far_spread is not None else None
        if far is not None:  # the far indices too small at ``at``: a finer look for them
            found = add_unseen(found, read_cards(Look(size=far)))
        for look in at_size(rescan, at):
            if not needs_rescan(found):
                break
            found = fill_unread(found, read_cards(look))
        if params.absorb_unread and any(not c.readable and c.indices for c in found):
            found = absorb_unread(found, params, regions, first_turns())  # a ``??`` at a read card's corner
        cards = tuple(within(c, image.shape[1], image.shape[0]) for c in found)
        return TableReading(cards, group_cards(cards, regions=regions))

    # decided on the first look, or where the size is known, on the look the read makes anyway
    turned_over, both_ways = None, False
    if polarity_margin is not None and deck is None:
        lightness = (resume.lightness if resume is not None and resume.lightness is not None else
                     lightness_choice(image, found_by(Look(size=size or INPUT_SIZE), image), index_weights,
                                      polarity_margin))
        if lightness == "open" and defer:
            raise Unsettled(seen, dict(peaks), lightness)
        turned_over = None if lightness == "open" else lightness == "turned"
        # a dark deck's run, this photo's boxes pale (a dim photo's often look so): read both
        # ways, the surer reading kept (``surety``; a tie, as it lies)
        both_ways = lightness == "as printed" and run.turned
        if turned_over or (lightness == "open" and run.turned):
            turn_over()
    if told is not None:
        told(Told(settled, turned_over))
    reading = read_whole()
    if both_ways:
        turn_over()
        over = read_whole()
        return over if surety(over) > surety(reading) else reading
    if pieces == "auto":  # no learnt tile reader: the classical one, after the cards
        tiles = read_tiles(image)
        read = sum(t.readable for t in tiles)
        if read >= 2 and read > sum(c.readable for c in reading.cards):
            return _tiles_reading(tiles, regions)
    return reading


def surety(reading: TableReading) -> float:
    """How surely a reading names its cards: the sum of its readable cards' confidences (the
    number of cards it can be expected to name right)."""
    return float(sum(c.confidence for c in reading.cards if c.readable))


def with_turns(image: np.ndarray, detections: list[Detection], weights: Path,
               min_score: float, cache: Reads | None = None) -> list[Detection]:
    """``detections`` with the turn of each index scoring ``min_score`` or more read
    (``vision.classifier.turn_probs``: the way each points, ``ups_of``, or for a network of
    two directions whether it stands upright, ``upright_of``; unchanged without the turn
    weights). Turns kept in ``cache`` (one per image, by box) are not read again."""
    which = [i for i, d in enumerate(detections) if d.kind == "index" and d.score >= min_score]
    if not which or not weights.is_file():
        return detections
    cache = {} if cache is None else cache
    directions = turn_directions(weights) > 2
    keys = [(str(weights), detections[i].box) for i in which]
    fresh = list(dict.fromkeys(k for k in keys if k not in cache))
    if fresh:
        boxes = [box for _, box in fresh]
        probs = turn_probs(image, boxes, weights)
        got = ups_of(probs, boxes) if directions else upright_of(probs)[:, None]
        cache.update((k, np.asarray(v, np.float32)) for k, v in zip(fresh, got, strict=True))
    out = list(detections)
    for i, key in zip(which, keys, strict=True):
        read = cache[key]
        turn = _turn_read(read, directions)
        out[i] = replace(out[i], up=turn) if isinstance(turn, tuple) else replace(out[i], upright=turn)
    return out


def _turn_read(read: np.ndarray, directions: bool) -> tuple[float, float] | float:
    """A cached turn read (``with_turns``): the way the index points, or whether it stands upright."""
    return (float(read[0]), float(read[1])) if directions else float(read[0])


def _tiles_reading(tiles: list[DetectedCard], regions: CardRegions | None) -> TableReading:
    found = tuple(tiles)
    return TableReading(found, group_cards(found, card_reach=TILE_REACH, regions=regions))


def warm_up(weights: Path = DEFAULT_WEIGHTS, index_weights: Path = DEFAULT_CLASSIFIER,
            card_weights: Path = DEFAULT_CARD_CLASSIFIER, pieces: str = "auto") -> None:
    """Load the networks ``read_table`` will run for ``pieces`` and run each once, so the
    first real image is timed fairly: the tile reader's for tiles, the detector's and the
    crop classifiers' for cards, all of them for ``auto``."""
    blank = np.zeros((64, 64, 3), np.uint8)
    # the first photo's time is its own: OpenCV builds its 8-bit Lab tables at the first
    # conversion (about 150 ms) and numpy imports its masked arrays at the first median
    # (50 ms), both made by the card patches (vision.table_regions) and the tile reader
    card_regions(blank)
    if pieces != "cards" and DEFAULT_TILE_WEIGHTS.is_file():
        tile_maps(blank, DEFAULT_TILE_WEIGHTS, 64)
    if pieces == "tiles":
        return
    detect(blank, weights=weights)
    if index_weights.is_file():
        classify_crops([np.zeros((*crop_size(index_weights)[::-1], 3), np.uint8)], index_weights)
    if DEFAULT_TURN.is_file():
        read_turns(blank, [(0, 0, 32, 48)])
    if DEFAULT_BOXES.is_file():
        fitted_boxes(blank, [(0, 0, 32, 48)])
    if card_weights.is_file():
        classify_crops([crop_card(blank, (0, 0, 64, 64))], card_weights, N_CARD_OUT)
