"""Look at the screens without a game: `python -m display shots DIR` or `python -m display live`.

``shots`` writes every sample screen as PNG at the table (1920×1080) and Pi (800×480) sizes;
``live`` runs the play screen with a running countdown on the real screen (a kiosk check on
a Pi: it must be full screen and smooth). Escape or Q ends ``live``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path

from display.layout import SIZES


def _size(text: str) -> tuple[int, int]:
    if text in SIZES:
        return SIZES[text]
    w, _, h = text.lower().partition("x")
    return int(w), int(h)


def shots(out: Path, sizes: list[tuple[int, int]]) -> list[Path]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from display.renderer import Renderer
    from display.samples import every_screen
    from display.window import render_to_file

    renderer = Renderer()
    written = []
    for w, h in sizes:
        for name, view in every_screen().items():
            written.append(render_to_file(view, out / f"{name}-{w}x{h}.png", (w, h), renderer))
    return written


def live(size: tuple[int, int] | None, seconds: float | None, turn: float) -> int:
    import pygame

    from display.frameloop import FrameLoop
    from display.samples import play_view
    from display.viewmodel import Countdown, ViewModel
    from display.window import Screen

    screen = Screen(size)
    base = play_view(6)
    start: list[float] = []

    def view_at(now: float) -> ViewModel:
        if not start:
            start.append(now)
        left = turn - ((now - start[0]) % turn)
        seat = int((now - start[0]) // turn) % len(base.seats)
        return dataclasses.replace(base, active_seat=seat, countdown=Countdown(left, turn))

    loop: FrameLoop

    def on_event(event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_q):
            loop.stop()

    loop = FrameLoop(screen.show, view_at, events=screen.events, on_event=on_event)
    stats = loop.run(seconds=seconds)
    print(f"{screen.plan.mode} {screen.size[0]}x{screen.size[1]}: {stats.frames} frames, "
          f"{stats.fps:.1f} fps, CPU {100 * stats.cpu_share:.0f}% of one core")
    screen.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m display", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p_shots = sub.add_parser("shots", help="write every sample screen as PNG")
    p_shots.add_argument("out", type=Path)
    p_shots.add_argument("--size", action="append", type=_size, help="WxH, 'table' or 'pi' (default both)")
    p_live = sub.add_parser("live", help="run the play screen with a live countdown")
    p_live.add_argument("--size", type=_size, default=None)
    p_live.add_argument("--seconds", type=float, default=None, help="stop after this long")
    p_live.add_argument("--turn", type=float, default=45.0, help="turn length in seconds")
    args = parser.parse_args(argv)
    if args.what == "shots":
        for path in shots(args.out, args.size or list(SIZES.values())):
            print(path)
        return 0
    return live(args.size, args.seconds, args.turn)


if __name__ == "__main__":
    sys.exit(main())
