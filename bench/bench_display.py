"""Benchmark of the play screen with a running countdown: fps and CPU share, at 1920×1080 and 800×480.

Usage: ``.venv/bin/python bench/bench_display.py [--frames 300]``

Runs with SDL's dummy video driver through the same `Screen` and `FrameLoop` the table uses.
Three figures per size:

* ``paced``: the frame loop at its 30 fps target, a 45 s countdown running; fps achieved and
  CPU share (process time / wall time; 1.0 is one core busy). This is what a Pi pays.
* ``flat out``: frames drawn back to back with the countdown moving, the table layer cached
  (the normal case while a turn runs): the headroom over 30 fps.
* ``cold``: back to back with the active seat changing every frame, so nothing is cached:
  the worst case, as when the turn passes.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from display.frameloop import FrameLoop  # noqa: E402
from display.layout import SIZES  # noqa: E402
from display.samples import play_view  # noqa: E402
from display.viewmodel import Countdown, PlayView  # noqa: E402
from display.window import DisplayPlan, Screen  # noqa: E402

TURN = 45.0


def flat_out(screen: Screen, frames: int, cold: bool) -> tuple[float, float]:
    base = play_view(6)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for i in range(frames):
        left = TURN - (i * 0.033) % TURN
        seat = i % len(base.seats) if cold else 1
        screen.show(dataclasses.replace(base, active_seat=seat, countdown=Countdown(left, TURN)))
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return frames / wall, cpu / wall


def paced(screen: Screen, frames: int) -> tuple[float, float]:
    base = play_view(6)

    def view_at(now: float) -> PlayView:
        return dataclasses.replace(base, countdown=Countdown(TURN - (now % TURN), TURN))

    stats = FrameLoop(screen.show, view_at, clock=time.perf_counter).run(frames=frames)
    return stats.fps, stats.cpu_share


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300)
    args = parser.parse_args()
    print(f"play screen, 6 seats, running countdown, {args.frames} frames per figure, dummy driver")
    print(f"{'size':>10}  {'paced fps':>9} {'CPU':>5}  {'flat-out fps':>12} {'CPU':>5}  {'cold fps':>8} {'CPU':>5}")
    for w, h in SIZES.values():
        screen = Screen((w, h), plan=DisplayPlan("headless", "dummy", False, True))
        flat_out(screen, 20, cold=False)  # warm the caches (fonts, faces, layer)
        p_fps, p_cpu = paced(screen, args.frames)
        f_fps, f_cpu = flat_out(screen, args.frames, cold=False)
        c_fps, c_cpu = flat_out(screen, args.frames, cold=True)
        print(f"{w:>5}x{h:<4}  {p_fps:9.1f} {100 * p_cpu:4.0f}%  {f_fps:12.1f} {100 * f_cpu:4.0f}%  {c_fps:8.1f} {100 * c_cpu:4.0f}%")
        screen.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
