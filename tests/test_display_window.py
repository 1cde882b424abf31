"""The screen wrapper and the frame loop: which display is chosen, screenshots, steady pacing."""

from __future__ import annotations

# ruff: noqa: I001 - the fixtures module comes first: it sets SDL's dummy drivers before pygame loads
from tests._display_fixtures import render

import dataclasses
from pathlib import Path

import pygame
import pytest

from display.errors import ScreenError
from display.frameloop import FrameLoop, is_moving
from display.samples import deal_view, play_view
from display.viewmodel import Countdown, ViewModel
from display.window import HEADLESS, KIOSK, WINDOW, DisplayPlan, Screen, choose_display, is_raspberry_pi
from engine.errors import TablekitError


@pytest.mark.parametrize(
    ("env", "on_pi", "expected"),
    [
        ({"SDL_VIDEODRIVER": "dummy"}, False, (HEADLESS, "dummy", False)),
        ({"SDL_VIDEODRIVER": "dummy"}, True, (HEADLESS, "dummy", False)),
        ({}, True, (KIOSK, "kmsdrm", True)),  # Pi OS Lite
        ({"WAYLAND_DISPLAY": "wayland-0"}, True, (KIOSK, None, True)),  # Pi OS desktop, labwc
        ({"DISPLAY": ":0"}, False, (WINDOW, None, False)),  # a desktop
        ({"WAYLAND_DISPLAY": "wayland-1"}, False, (WINDOW, None, False)),
        ({}, False, (HEADLESS, "dummy", False)),  # a CI box: nothing to show on
        ({"TABLEKIT_DISPLAY": "kiosk", "DISPLAY": ":0"}, False, (KIOSK, None, True)),
        ({"TABLEKIT_DISPLAY": "window", "WAYLAND_DISPLAY": "w"}, True, (WINDOW, None, False)),
        ({"TABLEKIT_DISPLAY": "headless"}, True, (HEADLESS, "dummy", False)),
        ({"TABLEKIT_DISPLAY": "kiosk", "SDL_VIDEODRIVER": "kmsdrm"}, True, (KIOSK, "kmsdrm", True)),
    ],
)
def test_the_display_is_chosen_from_the_environment(env: dict[str, str], on_pi: bool, expected: tuple[str, str | None, bool]) -> None:
    plan = choose_display(env, on_pi, platform="linux")
    assert (plan.mode, plan.driver, plan.fullscreen) == expected
    assert plan.explicit == ("TABLEKIT_DISPLAY" in env)


def test_a_wrong_display_setting_is_an_error_that_says_so() -> None:
    with pytest.raises(ScreenError, match="TABLEKIT_DISPLAY") as caught:
        choose_display({"TABLEKIT_DISPLAY": "fullscreen"}, False)
    assert isinstance(caught.value, TablekitError) and isinstance(caught.value, RuntimeError)


def test_raspberry_pi_is_told_by_its_model_file(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert is_raspberry_pi(str(model))
    model.write_bytes(b"Some Other Board\x00")
    assert not is_raspberry_pi(str(model))
    assert not is_raspberry_pi(str(tmp_path / "missing"))


@pytest.mark.parametrize("size", [(1920, 1080), (800, 480)])
def test_a_headless_screen_shows_frames_and_saves_screenshots(tmp_path: Path, size: tuple[int, int]) -> None:
    with Screen(size, plan=DisplayPlan(HEADLESS, "dummy", False, True)) as screen:
        assert screen.size == size and screen.headless
        screen.show(play_view(4, 20.0))
        out = screen.save_screenshot(tmp_path / "shots" / "play.png")
        assert screen.frames == 1
        screen.events()
    back = pygame.image.load(str(out))
    assert back.get_size() == size
    expected, _ = render(play_view(4, 20.0), size)
    assert pygame.image.tobytes(back, "RGB") == pygame.image.tobytes(expected, "RGB")


class FakeClock:
    """A clock that moves only when slept on, or by a fixed cost per frame drawn."""

    def __init__(self, frame_cost: float = 0.0) -> None:
        self.now = 1000.0
        self.frame_cost = frame_cost
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        assert seconds >= 0
        self.sleeps.append(seconds)
        self.now += seconds

    def draw(self, view: ViewModel) -> None:
        self.now += self.frame_cost


def _loop(clock: FakeClock, view_at: object, **kw: object) -> FrameLoop:
    return FrameLoop(clock.draw, view_at, clock=clock, sleep=clock.sleep, cpu_clock=lambda: 0.0, **kw)  # type: ignore[arg-type]


def test_a_running_timer_is_drawn_at_thirty_frames_a_second() -> None:
    clock = FakeClock(frame_cost=0.01)
    seen: list[float] = []

    def view_at(now: float) -> ViewModel:
        seen.append(now)
        return play_view(4, 45.0 - (now - 1000.0))

    stats = _loop(clock, view_at).run(seconds=2.0)
    assert stats.frames == pytest.approx(60, abs=1)
    assert stats.fps == pytest.approx(30, abs=0.6)
    gaps = [b - a for a, b in zip(seen, seen[1:], strict=False)]
    assert max(gaps) == pytest.approx(1 / 30, abs=1e-6) and min(gaps) == pytest.approx(1 / 30, abs=1e-6)
    assert all(s == pytest.approx(1 / 30 - 0.01, abs=1e-6) for s in clock.sleeps)  # drawing time is not added on


def test_a_still_screen_is_redrawn_slowly() -> None:
    clock = FakeClock()
    stats = _loop(clock, lambda now: deal_view(), idle_fps=5.0).run(seconds=2.0)
    assert stats.frames == pytest.approx(10, abs=1)


def test_a_slow_frame_does_not_cause_a_burst_of_catch_up_frames() -> None:
    clock = FakeClock(frame_cost=0.01)
    costs = iter([0.01, 0.2] + [0.01] * 100)

    def draw(view: ViewModel) -> None:
        clock.now += next(costs)

    loop = FrameLoop(draw, lambda now: play_view(4, 30.0), clock=clock, sleep=clock.sleep, cpu_clock=lambda: 0.0)
    loop.run(frames=6)
    assert len(clock.sleeps) == 4  # no sleep right after the slow frame, then back on the beat
    assert all(s == pytest.approx(1 / 30 - 0.01, abs=1e-6) for s in clock.sleeps[1:])


def test_the_loop_stops_on_a_window_close_and_passes_keys_on() -> None:
    clock = FakeClock()
    queue = [[], [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE)], [pygame.event.Event(pygame.QUIT)], []]
    keys: list[int] = []
    loop = _loop(clock, lambda now: play_view(4, 10.0), events=lambda: queue.pop(0), on_event=lambda e: keys.append(e.key))
    stats = loop.run(frames=100)
    assert stats.frames == 3
    assert keys == [pygame.K_SPACE]


def test_only_a_running_countdown_counts_as_moving() -> None:
    assert is_moving(play_view(4, 10.0))
    assert not is_moving(play_view(4, countdown=Countdown(10.0, 45.0, running=False)))
    assert not is_moving(dataclasses.replace(play_view(4), countdown=None))
    assert not is_moving(deal_view())


def test_a_ticking_countdown_marks_only_the_ring_dirty() -> None:
    with Screen((800, 480), plan=DisplayPlan(HEADLESS, "dummy", False, True)) as screen:
        screen.show(play_view(4, 20.0))
        assert screen.renderer.dirty is None  # first frame: everything
        screen.show(play_view(4, 19.9))
        last = screen.renderer.last
        assert last is not None and screen.renderer.dirty == [last.regions["countdown"]]
        screen.show(play_view(4, 19.8, active=2))  # the turn passed: the whole table again
        assert screen.renderer.dirty is None
        screen.show(deal_view())
        assert screen.renderer.dirty is None
        paused = play_view(4, 19.8, active=2, paused_reason="camera lost")
        screen.show(paused)
        screen.show(paused)
        last = screen.renderer.last
        assert last is not None and screen.renderer.dirty == [last.regions["countdown"], last.regions["paused"]]


def test_a_screenshot_is_taken_of_each_new_screen_not_of_each_tick(tmp_path: Path) -> None:
    with Screen((800, 480), plan=DisplayPlan(HEADLESS, "dummy", False, True), screenshots=tmp_path) as screen:
        for left in (30.0, 29.9, 29.8):
            screen.show(play_view(4, left))
        screen.show(play_view(4, 29.7, active=2))
        screen.show(deal_view())
        screen.show(deal_view())
    assert [p.name for p in screen.shots] == ["001-PlayView.png", "002-PlayView.png", "003-DealResultView.png"]
    assert all(p.exists() for p in screen.shots)
