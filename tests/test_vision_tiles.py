"""Tiles drawn from fonts: number, colour and the Joly; a rack read end to end."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.reading import TableReading
from vision.tile_reader import read_tile_table
from vision.tiles import draw_sets, draw_tile, read_tile_face, read_tiles

FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN)


def classical_table(image: np.ndarray) -> TableReading:
    """The classical reader's tiles, grouped as they lie (these tiles are its own Hershey
    drawings: they measure it, not the learnt reader)."""
    return read_tile_table(image, None)


@pytest.mark.parametrize("tile", ["R7", "K13", "B1", "Y10", "JY", "R12", "B4", "K8", "Y3", "R11"])
@pytest.mark.parametrize("font", FONTS)
def test_tile_faces_read_in_several_fonts(tile: str, font: int) -> None:
    assert read_tile_face(draw_tile(tile, font, 1.5)).tile == tile


def _rack(groups: list[list[str]], gap: int, group_gap: int) -> np.ndarray:
    return draw_sets(groups, (900, 300), gap, group_gap + gap)


def test_a_rack_reads_left_to_right_and_groups_by_gaps() -> None:
    img = _rack([["R7", "R8", "R9"], ["K2", "B2", "Y2"]], gap=6, group_gap=120)
    assert [t.card for t in read_tiles(img)] == ["R7", "R8", "R9", "K2", "B2", "Y2"]
    reading = classical_table(img)
    assert reading.group_cards() == [["R7", "R8", "R9"], ["K2", "B2", "Y2"]]


def test_rotated_half_turn_tile_still_reads() -> None:
    face = cv2.rotate(draw_tile("B12", cv2.FONT_HERSHEY_DUPLEX, 1.5), cv2.ROTATE_180)
    img = np.full((300, 300, 3), (40, 90, 40), np.uint8)
    img[80:80 + face.shape[0], 100:100 + face.shape[1]] = face
    assert [t.card for t in read_tiles(img)] == ["B12"]


def _turned(img: np.ndarray, degrees: float) -> np.ndarray:
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    return cv2.warpAffine(img, m, (w, h), borderValue=(40, 90, 40))


def test_tiles_pushed_together_are_split_into_tiles() -> None:
    # sets are laid with their tiles touching: one light region per set
    img = _rack([["R7", "R8", "R9", "R10"], ["K2", "B2", "Y2"]], gap=0, group_gap=100)
    assert [t.card for t in read_tiles(img)] == ["R7", "R8", "R9", "R10", "K2", "B2", "Y2"]
    assert classical_table(img).group_cards() == [["R7", "R8", "R9", "R10"], ["K2", "B2", "Y2"]]


@pytest.mark.parametrize("degrees", [-12.0, 5.0, 12.0])
@pytest.mark.parametrize("gap", [0, 8])
def test_a_rack_turned_a_little_still_reads(degrees: float, gap: int) -> None:
    # a tile found askew brings a sliver of table into its face crop, which is not ink
    img = _turned(_rack([["R7", "R8", "R9"], ["K2", "B2", "Y2"]], gap=gap, group_gap=100), degrees)
    assert [t.card for t in read_tiles(img)] == ["R7", "R8", "R9", "K2", "B2", "Y2"]


def test_sets_seen_at_a_slant_in_uneven_light_read_and_group() -> None:
    sets = [["R3", "R4", "R5", "R6"], ["K9", "B9", "Y9", "R9"], ["B11", "B12", "B13"]]
    img = draw_sets(sets, (1400, 700), 2, 92, 1.4, (70, 50, 40), top=250, left=60)
    corners = np.float32([[0, 0], [1400, 0], [1400, 700], [0, 700]])
    slant = np.float32([[40, -30], [-50, 45], [35, -55], [-45, 20]])   # a camera off square
    m = cv2.getPerspectiveTransform(corners, corners + slant)
    seen = cv2.warpPerspective(img, m, (1400, 700), borderMode=cv2.BORDER_REPLICATE)
    seen = cv2.GaussianBlur(seen, (3, 3), 1.0)
    light = np.linspace(0.75, 1.1, 1400)[None, :, None]   # a lamp off to one side
    seen = np.clip(seen * light, 0, 255).astype(np.uint8)
    assert sorted(t.card for t in read_tiles(seen)) == sorted(sum(sets, []))
    assert sorted(classical_table(seen).group_cards()) == sorted(sets)


@pytest.mark.parametrize("turn", [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE])
@pytest.mark.parametrize("gap", [0, 8])
def test_sets_laid_towards_a_player_at_the_side_read(turn: int, gap: int) -> None:
    # the sets in the middle face whoever laid them: from above, some lie sideways
    img = cv2.rotate(_rack([["R7", "R8", "R9"], ["K2", "B2", "Y2"]], gap=gap, group_gap=100), turn)
    assert sorted(t.card for t in read_tiles(img)) == ["B2", "K2", "R7", "R8", "R9", "Y2"]
    groups = sorted(sorted(g) for g in classical_table(img).group_cards())
    assert groups == [["B2", "K2", "Y2"], ["R7", "R8", "R9"]]
