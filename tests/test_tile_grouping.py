"""Grouping the learnt reader's tiles into melds by the rows they stand in
(``vision/tile_grouping.py``), on tiles laid out by hand."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from vision.grouping import group_cards
from vision.reading import DetectedCard
from vision.tile_grouping import DEFAULT_PITCH, group_tiles, tile_heights
from vision.tile_reader import TILE_CLASSES, TilePeak

H, W = 60.0, 43.0  # a tile's height and width in pixels


def _tile(x: float, y: float, turn: float = 0.0) -> TilePeak:
    """A tile centred at (x, y), its up turned ``turn`` degrees clockwise from the image's up,
    with the axis-aligned box of its outline."""
    a = math.radians(turn)
    c, s = abs(math.cos(a)), abs(math.sin(a))
    bw, bh = W * c + H * s, W * s + H * c
    probs = np.full(len(TILE_CLASSES), 1.0 / len(TILE_CLASSES), np.float32)
    return TilePeak(x, y, (x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2), 0.9, probs,
                    (math.sin(a), -math.cos(a)))


def _row(x: float, y: float, gaps: list[float], turn: float = 0.0) -> list[TilePeak]:
    """Tiles side by side from (x, y) along a row turned ``turn`` degrees: before each tile
    after the first, a gap of that many tile widths."""
    a = math.radians(turn)
    right = (math.cos(a), math.sin(a))
    out, along = [_tile(x, y, turn)], 0.0
    for gap in gaps:
        along += W * (1 + gap)
        out.append(_tile(x + right[0] * along, y + right[1] * along, turn))
    return out


def _as_cards(tiles: list[TilePeak]) -> list[DetectedCard]:
    return [DetectedCard("R1", t.box, 0.9) for t in tiles]


def test_a_tile_s_height_comes_from_its_box_however_it_is_turned() -> None:
    for turn in (0.0, 20.0, 45.0, 90.0, 200.0):
        t = _tile(100, 100, turn)
        got = tile_heights(np.array([t.box]), np.array([t.up]))[0]
        assert abs(got - H) < 0.5, turn
    # a tile whose up the reader could not tell is measured as if upright, never as endless
    upright = _tile(100, 100)
    assert tile_heights(np.array([upright.box]), np.zeros((1, 2)))[0] == tile_heights(
        np.array([upright.box]), np.array([upright.up]))[0]


def test_two_melds_of_a_turned_row_stay_two_where_grown_boxes_join_them() -> None:
    for turn in (0.0, 35.0, 90.0, 150.0):
        # a meld of three pushed together, a gap of half a tile, a meld of four a little apart
        tiles = _row(300, 300, [0.0, 0.02, 0.5, 0.05, 0.1, 0.0], turn)
        # each meld in the order its tiles read along the row, the melds by their leftmost tile
        melds = ((0, 1, 2), (3, 4, 5, 6))
        assert group_tiles(tiles) == tuple(sorted(melds, key=lambda g: min(tiles[i].box[0] for i in g))), turn
    turned = _row(300, 300, [0.0, 0.02, 0.5, 0.05, 0.1, 0.0], 35.0)
    assert len(group_cards(_as_cards(turned), card_reach=0.15)) == 1  # the boxes' way: one heap


def test_rows_laid_close_stay_apart_and_a_lone_tile_is_its_own_group() -> None:
    top = _row(100, 100, [0.0] * 4)
    under = _row(100, 100 + H * 1.12, [0.0] * 3)  # a sliver of table between the rows
    lone = [_tile(600, 400, 70.0)]
    tiles = top + under + lone
    groups = group_tiles(tiles)
    assert sorted(map(sorted, groups)) == [[0, 1, 2, 3, 4], [5, 6, 7, 8], [9]]


def test_a_row_turned_towards_another_seat_reads_from_that_seat_s_left() -> None:
    row = _row(400, 100, [0.0, 0.0, 0.0], 180.0)  # upside down: laid leftwards in the image
    assert [t.x for t in row] == sorted((t.x for t in row), reverse=True)
    assert group_tiles(row) == ((0, 1, 2, 3),)


def test_a_tile_read_upside_down_stays_in_its_row() -> None:
    row = _row(100, 100, [0.0, 0.0, 0.0, 0.0])
    flipped = _tile(row[2].x, row[2].y, 180.0)  # the reader took its up half round
    tiles = [*row[:2], flipped, *row[3:]]
    assert group_tiles(tiles) == ((0, 1, 2, 3, 4),)  # read left to right as most stand


def test_a_tile_standing_another_way_is_not_the_row_s() -> None:
    row = _row(100, 100, [0.0, 0.0])
    crosswise = _tile(100 + 3 * W, 100, 90.0)  # where the row's next tile would be, turned
    assert sorted(map(sorted, group_tiles([*row, crosswise]))) == [[0, 1, 2], [3]]


def test_the_pitch_follows_the_table_s_own_gaps() -> None:
    # every meld leaves a fifth of a tile between its tiles, the melds a tile and a half
    tiles = _row(50, 200, [0.2, 0.2, 1.5, 0.2, 0.2, 0.2])
    assert sorted(map(sorted, group_tiles(tiles))) == [[0, 1, 2], [3, 4, 5, 6]]
    # lone tiles strewn along a line are no meld, however far apart the table's tiles lie
    assert group_tiles(_row(50, 200, [4.0])) == ((0,), (1,))
    assert group_tiles(_row(50, 200, [3.0, 3.0, 3.0])) == ((0,), (1,), (2,), (3,))
    # a single tile, or none, has no pitch to measure: the default stands
    assert group_tiles([]) == ()
    assert group_tiles([_tile(10, 10)]) == ((0,),)
    assert 0.7 < DEFAULT_PITCH < 0.8


def test_each_part_of_the_table_is_measured_by_its_own_pitch() -> None:
    # near the camera, melds pushed together with half a tile between them; far off (a
    # table seen at a slant squashes its far rows, so the same gaps are wider in tile heights)
    # melds laid with nearly half a tile between their tiles and two and a half between melds
    near = _row(100, 100, [0.0, 0.0, 0.5, 0.0, 0.0, 0.5, 0.0, 0.0, 0.5, 0.0])
    far = _row(100, 700, [0.45, 0.45, 2.5, 0.45, 0.45])
    groups = sorted(map(sorted, group_tiles(near + far)))
    assert groups == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10], [11, 12, 13], [14, 15, 16]]
    # measured by the whole table's pitch, the far melds fall apart tile by tile
    whole = sorted(map(sorted, group_tiles(near + far, pitch_reach=math.inf)))
    assert [11] in whole and [14] in whole


def test_neighbours_whose_ups_are_read_apart_stand_as_their_row_stands() -> None:
    row = _row(100, 100, [0.0, 0.0, 0.0, 0.0, 0.0])
    # the reader puts two neighbours' ups 60 degrees apart, each within 30 of the row's
    slipped = [*row[:2], _tile(row[2].x, row[2].y, 30.0), _tile(row[3].x, row[3].y, -30.0), *row[4:]]
    assert group_tiles(slipped) == ((0, 1, 2, 3, 4, 5),)
    # each read as it was, they are two rows' tiles, and the meld splits between them
    assert len(group_tiles(slipped, up_reach=0.0)) == 2
    # a tile standing another way near the row is not turned to it (nor the row to it)
    crosswise = _tile(row[-1].x + 2 * W, 100, 90.0)
    assert sorted(map(sorted, group_tiles([*row, crosswise]))) == [[0, 1, 2, 3, 4, 5], [6]]


def test_a_tile_whose_up_the_reader_could_not_tell_spoils_no_row() -> None:
    rows = _row(100, 100, [0.0, 0.0, 0.5, 0.0, 0.0])
    blank = [dataclasses.replace(_tile(700, 100), up=(float("nan"), 1.0)),
             dataclasses.replace(_tile(100 + 6 * W, 100), up=(0.0, 0.0)),  # where the row goes on
             dataclasses.replace(_tile(700, 400), up=(float("inf"), 0.0))]
    groups = sorted(map(sorted, group_tiles(rows + blank)))
    assert groups == [[0, 1, 2], [3, 4, 5], [6], [7], [8]]
