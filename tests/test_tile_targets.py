"""The tile reader's training targets (``vision.train.tile_targets``): a tile is found and
named where it lies; with ``cut_below`` a tile whose numeral the crop's edge cuts is found
but taught no number (and no colour when little of it shows); at 0, the shipped stages'
labelling, every tile found is named."""

from __future__ import annotations

import numpy as np
import pytest

from engine.tiles import COLOURS
from vision.tile_synth import SceneTile
from vision.train.tile_targets import FLAT, STRIDE, shown, targets

R, B, K = (COLOURS.index(c) for c in "RBK")

CROP = 128


def _tile(name: str, x: float, y: float) -> SceneTile:
    """A tile 32 wide and 44 high at (x, y), its numeral a 20×20 square near its top."""
    quad = np.array([[x, y], [x + 32, y], [x + 32, y + 44], [x, y + 44]], np.float32)
    numeral = np.array([[x + 6, y + 4], [x + 26, y + 4], [x + 26, y + 24], [x + 6, y + 24]], np.float32)
    return SceneTile(name, quad, numeral)


def _at(t: dict[str, np.ndarray], tile: SceneTile) -> tuple[int, int]:
    """The number and colour targets at the tile's centre cell."""
    cx, cy = tile.centre
    gy, gx = round(cy / STRIDE - 0.5), round(cx / STRIDE - 0.5)
    return int(t["num"][gy, gx]), int(t["col"][gy, gx])


def test_shown_is_the_share_of_a_quad_inside_the_crop() -> None:
    assert shown(_tile("R5", 10, 10).numeral, CROP) == pytest.approx(1.0)
    # the numeral spans x 108..128 at x=102: wholly in; at x=112, 118..138: half in
    assert shown(_tile("R5", 102, 10).numeral, CROP) == pytest.approx(1.0)
    assert shown(_tile("R5", 112, 10).numeral, CROP) == pytest.approx(0.5)
    assert shown(_tile("R5", 120, 10).numeral, CROP) == pytest.approx(0.1)
    assert shown(_tile("R5", 10, -20).numeral, CROP) == pytest.approx(0.2)  # cut at the top
    degenerate = np.zeros((4, 2), np.float32)
    assert shown(degenerate, CROP) == 0.0


def test_a_cut_numeral_is_found_but_not_named_when_asked() -> None:
    # the centres inside the crop (a tile is found only there), the numerals 0.7 and 0.2 inside
    whole, half, sliver = _tile("R5", 10, 10), _tile("B9", 108, 10), _tile("K12", 10, -20)
    assert shown(sliver.numeral, CROP) < 0.5 < shown(half.numeral, CROP) < 0.9
    tiles = [whole, half, sliver]
    named = targets(tiles, CROP)
    cut = targets(tiles, CROP, cut_below=0.9)
    # as shipped: every tile named, however little of its numeral shows
    assert _at(named, whole) == (4, R) and _at(named, half) == (8, B) and _at(named, sliver) == (11, K)
    # cut: the whole one as before; half a numeral keeps its colour; a sliver, neither
    assert _at(cut, whole) == (4, R)
    assert _at(cut, half) == (FLAT, B)
    assert _at(cut, sliver) == (FLAT, FLAT)
    # found all the same: the heat, size and up targets do not change
    for key in ("heat", "size", "up"):
        assert np.array_equal(named[key], cut[key])
    # and only the cut tiles' cells change
    changed = named["num"] != cut["num"]
    assert changed.any() and set(np.unique(cut["num"][changed])) == {FLAT}


def test_a_cut_joly_is_not_named_and_keeps_no_colour() -> None:
    joly = _tile("JY", 108, 40)
    assert _at(targets([joly], CROP), joly) == (13, -1)
    assert _at(targets([joly], CROP, cut_below=0.9), joly) == (FLAT, -1)
    # a share asked below what shows changes nothing
    assert _at(targets([joly], CROP, cut_below=0.4), joly) == (13, -1)
