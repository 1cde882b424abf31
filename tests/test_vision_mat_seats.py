"""Mats for every table size the games need: two to eight seats, zones that never overlap."""

from __future__ import annotations

import itertools

import pytest

from vision.errors import VisionError
from vision.mat import layout


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


@pytest.mark.parametrize("seats", range(2, 9))
def test_one_zone_per_seat_and_no_overlaps(seats: int) -> None:
    zones = layout("A2", seats).zones()
    assert [z.name for z in zones] == [f"seat{i + 1}" for i in range(seats)] + ["centre"]
    for a, b in itertools.combinations(zones, 2):
        assert not _overlap(a.rect, b.rect), (a, b)


def test_six_seats_go_clockwise_from_the_bottom() -> None:
    zones = layout("A2", 6).zones()
    centres = [((z.rect[0] + z.rect[2]) / 2, (z.rect[1] + z.rect[3]) / 2) for z in zones[:6]]
    bottom_right, bottom_left, left, top_left, top_right, right = centres
    assert bottom_right[0] > bottom_left[0] and bottom_right[1] == bottom_left[1]
    assert left[0] < top_left[0] < top_right[0] < right[0]
    assert top_left[1] == top_right[1] < left[1]


def test_too_many_seats_is_an_error() -> None:
    with pytest.raises(VisionError, match="2 to 8"):
        layout("A3", 9).zones()
