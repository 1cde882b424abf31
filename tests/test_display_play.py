"""The play screen, rendered headless: the active seat, the countdown ring, marks and health."""

from __future__ import annotations

# ruff: noqa: I001 - the fixtures module comes first: it sets SDL's dummy drivers before pygame loads
from tests._display_fixtures import BOTH, BOTH_SIZES, SIZE_IDS, assert_texts_inside, count, pixels, render, share

import dataclasses
import math

import numpy as np
import pytest

from display import theme
from display.layout import FOOTER
from display.renderer import Renderer
from display.samples import play_view
from display.screens.play import ring_colour
from display.viewmodel import Countdown, DeviceHealth, SeatView


@BOTH
@pytest.mark.parametrize("seats", [2, 3, 4, 6, 8])
def test_the_active_seat_and_only_it_wears_the_highlight(size: tuple[int, int], seats: int) -> None:
    for active in (0, seats - 1):
        surface, canvas = render(play_view(seats, 20.0, active), size)
        for i in range(seats):
            rect = canvas.regions[f"seat:{i}"]
            lit = share(surface, rect.inflate(-8, -8), theme.HIGHLIGHT)
            if i == active:
                assert lit > 0.5, f"seat {i} of {seats} should be highlighted ({lit:.2f})"
            else:
                assert lit < 0.02, f"seat {i} of {seats} is lit but seat {active} is active"


@pytest.mark.parametrize("size", [*BOTH_SIZES, (600, 1024), (480, 800), (1080, 1920)],
                         ids=[*SIZE_IDS, "600x1024", "480x800", "1080x1920"])
def test_seats_do_not_overlap_each_other_the_ring_or_the_screen_edge(size: tuple[int, int]) -> None:
    """Landscape and portrait (a kiosk screen turned on end): the ring is narrowed to stay
    clear of the seats at its sides."""
    for seats in range(2, 9):
        _, canvas = render(play_view(seats), size)
        rects = [canvas.regions[f"seat:{i}"] for i in range(seats)]
        ring = canvas.regions["countdown"]
        full = canvas.surface.get_rect()
        for i, a in enumerate(rects):
            assert full.contains(a)
            nearest = (min(max(ring.centerx, a.left), a.right), min(max(ring.centery, a.top), a.bottom))
            gap = math.dist(nearest, ring.center) - ring.w / 2
            assert gap > 0, f"seat {i} of {seats} covers the countdown ring"
            assert not a.colliderect(canvas.regions["header"]), f"seat {i} of {seats} under the header"
            assert a.bottom <= canvas.layout.rect(FOOTER).top, f"seat {i} of {seats} under the toast and hint line"
            for b in rects[i + 1 :]:
                assert not a.colliderect(b), f"seats overlap with {seats} players"


def _arc_pixels(seconds_left: float, size: tuple[int, int]) -> int:
    """Pixels of the ring's colour on the ring itself (not the digits inside it)."""
    view = play_view(4, seconds_left)
    surface, canvas = render(view, size)
    cd = view.countdown
    assert cd is not None
    colour = ring_colour(cd.seconds_left / cd.total_seconds, True)
    ring = canvas.regions["countdown"]
    px = pixels(surface, ring)
    ys, xs = np.mgrid[0 : px.shape[0], 0 : px.shape[1]]
    r = np.hypot(xs + ring.x - ring.centerx, ys + ring.y - ring.centery)
    on_ring = r >= ring.w / 2 * 0.7
    match = np.all(np.abs(px - np.array(colour)) <= 4, axis=2)
    return int((match & on_ring).sum())


@BOTH
def test_the_countdown_arc_shrinks_as_the_seconds_run_out(size: tuple[int, int]) -> None:
    full = _arc_pixels(45.0, size)
    three_quarters = _arc_pixels(33.75, size)
    half = _arc_pixels(22.6, size)
    assert full > three_quarters > half > 0
    # the ring's area is proportional to the time left (within drawing error)
    assert three_quarters / full == pytest.approx(0.75, abs=0.05)
    assert half / full == pytest.approx(22.6 / 45, abs=0.05)
    # the last stretch changes colour, so compare those against their own colour
    assert _arc_pixels(3.0, size) < _arc_pixels(8.0, size)


@BOTH
def test_the_arc_runs_clockwise_from_twelve_o_clock(size: tuple[int, int]) -> None:
    view = play_view(4, 15.0)  # a third of the turn left: twelve to four o'clock
    surface, canvas = render(view, size)
    ring = canvas.regions["countdown"]
    r = ring.w / 2 - 6
    cx, cy = ring.center
    at = lambda deg: surface.get_at((round(cx + r * math.sin(math.radians(deg))), round(cy - r * math.cos(math.radians(deg)))))[:3]  # noqa: E731
    hurry = ring_colour(1 / 3, True)
    assert at(60) == hurry  # two o'clock: inside the arc
    assert at(200) == theme.RING_TRACK  # seven o'clock: past the arc, bare track


def test_ring_colour_by_time_left_and_pause() -> None:
    assert ring_colour(0.9, True) == theme.RING_CALM
    assert ring_colour(0.3, True) == theme.RING_HURRY
    assert ring_colour(0.1, True) == theme.RING_LAST
    assert ring_colour(0.9, False) == theme.RING_PAUSED


@BOTH
def test_the_countdown_shows_whole_seconds_rounded_up_and_the_active_name(size: tuple[int, int]) -> None:
    _, canvas = render(play_view(4, 31.2, active=2), size)
    words = [t.text for t in canvas.texts]
    assert "32" in words
    assert "Meera" in words


@BOTH
def test_missed_turn_marks_are_red_for_each_miss_out_of_the_limit(size: tuple[int, int]) -> None:
    seats = tuple(SeatView(n, missed_turns=m) for n, m in (("A", 0), ("B", 1), ("C", 2)))
    view = dataclasses.replace(play_view(3), seats=seats, active_seat=0, missed_turn_limit=3)
    surface, canvas = render(view, size)
    reds = [count(surface, canvas.regions[f"missed:{i}"], theme.MISSED_MARK, 4) for i in range(3)]
    assert reds[0] == 0
    assert reds[1] > 0
    assert reds[2] == pytest.approx(2 * reds[1], rel=0.1)


@BOTH
def test_only_the_dealer_has_the_dealer_chip(size: tuple[int, int]) -> None:
    _, canvas = render(play_view(5, dealer_seat=3), size)
    assert "dealer:3" in canvas.regions
    assert [k for k in canvas.regions if k.startswith("dealer:")] == ["dealer:3"]


@BOTH
def test_health_icons_are_coloured_by_state_and_a_problem_is_said(size: tuple[int, int]) -> None:
    ok, _ = render(play_view(4), size)
    view = play_view(4, link=DeviceHealth("fallback", "keyboard instead of the box"), camera=DeviceHealth("lost", "camera lost"))
    surface, canvas = render(view, size)
    assert share(ok, render(play_view(4), size)[1].regions["health:camera"], theme.VALID, 4) > 0.05
    assert share(surface, canvas.regions["health:link"], theme.WARNING, 4) > 0.05
    assert share(surface, canvas.regions["health:camera"], theme.INVALID, 4) > 0.05
    assert share(surface, canvas.regions["health:camera"], theme.VALID, 4) == 0.0
    assert "camera lost" in [t.text for t in canvas.texts]  # the lost device wins over the fallback


@BOTH
def test_a_pause_says_why_over_the_table(size: tuple[int, int]) -> None:
    view = play_view(4, countdown=Countdown(20.0, 45.0, running=False), paused_reason="The button box is unplugged")
    surface, canvas = render(view, size)
    assert "paused" in canvas.regions
    words = [t.text for t in canvas.texts]
    assert "Paused" in words and "The button box is unplugged" in words
    assert_texts_inside(canvas)


@BOTH
def test_a_long_name_is_cut_to_fit_its_seat(size: tuple[int, int]) -> None:
    seats = (SeatView("Bartholomew-Maximilian the Third of Upper Rummyshire"), SeatView("Bo"))
    view = dataclasses.replace(play_view(2), seats=seats, active_seat=1)
    _, canvas = render(view, size)
    assert_texts_inside(canvas)
    cut = [t for t in canvas.texts if t.text.startswith("Bart")]
    assert cut and cut[0].text.endswith("…")
    assert canvas.regions["seat:0"].contains(cut[0].rect)


@BOTH
def test_while_the_timer_runs_only_the_countdown_changes(size: tuple[int, int]) -> None:
    renderer = Renderer()
    a, canvas = render(play_view(6, 30.0), size, renderer)
    b, _ = render(play_view(6, 29.5), size, renderer)
    diff = [(x, y) for x in range(0, size[0], 4) for y in range(0, size[1], 4) if a.get_at((x, y)) != b.get_at((x, y))]
    assert diff, "the countdown did not move"
    ring = canvas.regions["countdown"]
    assert all(ring.collidepoint(p) for p in diff)


@BOTH
def test_a_cached_frame_equals_a_fresh_one(size: tuple[int, int]) -> None:
    warm = Renderer()
    render(play_view(6, 40.0, active=2), size, warm)  # caches seat 2's table
    render(play_view(6, 12.0, active=5), size, warm)  # the turn passes: a new table layer
    cached, _ = render(play_view(6, 11.0, active=5), size, warm)
    fresh, _ = render(play_view(6, 11.0, active=5), size, Renderer())
    assert pygame_bytes(cached) == pygame_bytes(fresh)


def pygame_bytes(surface: object) -> bytes:
    import pygame

    assert isinstance(surface, pygame.Surface)
    return pygame.image.tobytes(surface, "RGB")


@BOTH
def test_partners_share_a_team_colour_and_rivals_do_not(size: tuple[int, int]) -> None:
    seats = tuple(SeatView(n, team=t) for n, t in (("A", "North"), ("B", "East"), ("C", "North"), ("D", "East")))
    view = dataclasses.replace(play_view(4), seats=seats, active_seat=None)
    surface, canvas = render(view, size)

    def stripe(i: int) -> tuple[int, int, int]:
        rect = canvas.regions[f"seat:{i}"]
        return tuple(surface.get_at((rect.x + 2, rect.centery))[:3])  # type: ignore[return-value]

    assert stripe(0) == stripe(2) == theme.series_colour(0)
    assert stripe(1) == stripe(3) == theme.series_colour(1)
    assert [t.text for t in canvas.texts].count("team North") == 2


def test_a_long_turn_s_four_digits_are_all_shown() -> None:
    """A table that plays half-hour turns (--turn-seconds 1800): 1800 shrinks to fit, never "18…"."""
    from display.samples import play_view
    from display.viewmodel import Countdown

    for size in ((1920, 1080), (800, 480)):
        _, canvas = render(play_view(4, 1800.0, countdown=Countdown(1800.0, 1800.0)), size)
        assert any(t.text == "1800" for t in canvas.texts), [t.text for t in canvas.texts][:20]
