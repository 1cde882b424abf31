"""Telling a photo of playing cards from a photo of rummy tiles, before reading either.

``tablekit see`` without ``--variant`` (and a calibration without a game) must find out
what lies on the table, and must not run the card pipeline, with its second looks, on a
table of tiles. Both networks take a first look at the photo at 384 pixels (the card
detector's is the one ``vision.scale`` measures the indices by, so a card table pays only
for the tile reader's). A *sure tile* is a tile-reader peak of at least
``vision.tile_reader.SURE`` whose class it reads at least ``MIN_CONFIDENCE`` surely; a
*card mark*, a card-detector peak (index or whole card) of at least ``vision.scale.SURE``.

- At least ``MIN_TILES`` sure tiles, more than the card marks: a tile table.
- Otherwise, when the tile reader found at least as many tile-shaped peaks as there are card
  marks (and ``MIN_TILES``), but could not read them, they may be tiles too small for 384
  pixels: it looks again at the size that brings them to the size it learnt (the look it
  would make anyway on a tile table, ``vision.tile_reader.look_again``), and ``MIN_TILES``
  sure tiles there make a tile table.
- Fewer sure tiles than that, but at least ``OVER_MARKS`` more tile-shaped peaks than card
  marks: a close-up of a few tiles seen near (two to four, larger than the reader learnt at
  384 pixels), on which the card detector marks nothing or a numeral or so. The tile reader
  looks again at the size that brings them to the size it learnt (where they are not near it
  already), and ``OVER_MARKS`` more sure tiles there than card marks make a tile table.
- Anything else is read as cards. Where the card detector marked no more than the tile
  reader found tile-shaped things, or the tile reader found ``MIN_TILES`` of them or more,
  the choice is *unsettled* (``PiecesSeen.unsettled``): alone, such a photo is read as cards;
  in a run of photos (``tablekit see`` over a folder) it is read as what most of the run's
  settled photos hold (``vision.runs``): a close-up of a single tile among tile photos, or a
  tile photo the tile reader reads poorly, is read as tiles.

The tile reader can tell because it learnt playing cards as things that are not tiles
(``vision.tile_synth``'s ``cards``); the card detector takes a tile's numeral for an index
often enough that its marks alone cannot. ``bench/bench_pieces.py`` measures the choice (with
``--one-look``, without the second look) on the shared card photos, rendered card tables and
rendered tile tables of held-out designs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

from vision.detector import DEFAULT_WEIGHTS, Detection, detect
from vision.scale import SURE as CARD_SURE
from vision.tile_reader import (
    DEFAULT_TILE_WEIGHTS,
    MIN_CONFIDENCE,
    SURE,
    TileLooks,
    TilePeak,
    look_again,
    look_first,
)

#: Fewer sure tiles than this is no tile table. Close-ups of a card or two can show a few
#: marks the tile reader reads as tiles (pips, a big index), and more so a photo of light
#: ink on dark cards; a table of tiles shows more, a close-up of a few tiles as few as one.
#: ``bench/bench_pieces.py --tables 16 --min-tiles 2,3,4,6`` (16 renders a source, seed 5; the shared
#: card photos as printed and turned to the other lightness, 1,838 in all): told right at
#: 6 → 5 → 4 → 3, card photos 1,837 → 1,836 → 1,832 → 1,823 (nearly all lost among the
#: photos turned over), tile tables 106 → 107 → 108 → 110 of 112, close-ups of 1–37 tiles 150–400
#: pixels high 33 → 41 → 44 → 52 of 64 (gained on all four: held-out fonts, plastics,
#: racks, scattered). At 5 the close-ups and the terrazzo tables gain for one card photo.
MIN_TILES: Final = 5
#: A photo of fewer sure tiles than ``MIN_TILES`` is tiles where it shows at least this many
#: more of them (read at their size) than card marks. ``bench/bench_pieces.py --tables 16
#: --over-marks off,3,2,1`` (16 renders a source; the shared card photos as printed and
#: turned over, 1,838 in all), told right, seed 5: card photos 1,836 → 1,836 → 1,836 →
#: 1,834, tile tables 107 → 109 → 110 → 110 of 112, close-ups (held-out fonts, plastics, racks,
#: scattered, 16 each) 41 → 47 → 58 → 63 of 64; seed 23 (renders only, a draw used for no
#: choice): tile tables 107 → 109 → 109 → 110, close-ups 34 → 43 → 51 → 59. At 2 the tile
#: tables and all four close-up sources gain on both draws and no card photo is lost; at 1
#: two are.
OVER_MARKS: Final = 2


@dataclass(frozen=True, slots=True)
class PiecesSeen:
    """The choice, what it was made from, and the tile reader's looks (a tile table's
    reading goes on from them)."""

    pieces: str  # "cards" or "tiles"
    card_marks: int
    tiles: int  # sure tiles in the tile reader's last look
    looks: TileLooks
    shaped: int = 0  # tile-shaped peaks (at least ``SURE``) at the tile reader's first look

    @property
    def unsettled(self) -> bool:
        """Whether the photo alone leaves the choice open: told cards, though the card
        detector marked no more than the tile reader found tile-shaped things, or the tile
        reader found ``MIN_TILES`` of them or more (a close-up of a single tile, a photo
        neither network sees much in, a tile photo read poorly). ``vision.runs`` says what a
        run of photos makes of such a photo."""
        return self.pieces == "cards" and (self.card_marks <= self.shaped or self.shaped >= MIN_TILES)


def sure_tiles(found: Sequence[TilePeak]) -> int:
    """The tiles found surely and read surely."""
    return sum(p.score >= SURE and p.confidence >= MIN_CONFIDENCE for p in found)


def tell(image: np.ndarray, card_first: Sequence[Detection],
         tile_weights: Path = DEFAULT_TILE_WEIGHTS, second_look: bool = True,
         min_tiles: int = MIN_TILES, over_marks: int | None = OVER_MARKS) -> PiecesSeen:
    """Cards or tiles on a BGR image, from the card detector's first look ``card_first``
    and the tile reader's looks (see the module's notes), ``min_tiles`` sure tiles at
    least making a tile table, or ``over_marks`` more than the card marks (None: no such
    rule)."""
    marks = sum(d.score >= CARD_SURE for d in card_first)
    made = look_first(image, tile_weights)
    tiles = sure_tiles(made.found)
    shaped = sum(p.score >= SURE for p in made.found)
    if tiles >= min_tiles and tiles > marks:
        return PiecesSeen("tiles", marks, tiles, made, shaped)
    few = over_marks is not None and shaped >= marks + over_marks
    if second_look and (shaped >= max(min_tiles, marks) or few):
        again = look_again(image, tile_weights, made)
        if again is not None:
            made, tiles = again, sure_tiles(again.found)
            if tiles >= min_tiles:
                return PiecesSeen("tiles", marks, tiles, made, shaped)
        if few and over_marks is not None and tiles >= marks + over_marks:
            return PiecesSeen("tiles", marks, tiles, made, shaped)
    return PiecesSeen("cards", marks, tiles, made, shaped)


def tell_pieces(image: np.ndarray, tile_weights: Path = DEFAULT_TILE_WEIGHTS,
                card_weights: Path = DEFAULT_WEIGHTS, second_look: bool = True,
                min_tiles: int = MIN_TILES, over_marks: int | None = OVER_MARKS) -> PiecesSeen:
    """``tell`` with the card detector's first look made here (``read_table`` makes it once
    and shares it with the choice of the detector's input size)."""
    return tell(image, detect(image, CARD_SURE, card_weights), tile_weights, second_look, min_tiles, over_marks)
