"""The frame loop: redraw at a steady rate while a timer runs, slowly when nothing moves.

Time comes from an injected clock (the app's, or a fake one in tests); pacing sleeps to
fixed deadlines so the rate holds even when drawing takes part of each frame, and drops
behind-schedule deadlines instead of bursting to catch up.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from display.viewmodel import PlayView, ViewModel

ACTIVE_FPS = 30.0  # while a countdown runs
IDLE_FPS = 6.0  # a still screen: enough to answer buttons and toasts promptly


def is_moving(view: ViewModel) -> bool:
    """True when the view has something that changes every frame (a running countdown)."""
    return isinstance(view, PlayView) and view.countdown is not None and view.countdown.running


@dataclass(slots=True)
class LoopStats:
    """What a run of the loop measured: frames, wall time and CPU time (process time)."""

    frames: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    frame_times: list[float] = field(default_factory=list)

    @property
    def fps(self) -> float:
        return self.frames / self.wall if self.wall > 0 else 0.0

    @property
    def cpu_share(self) -> float:
        """CPU time over wall time: 1.0 is one core kept busy."""
        return self.cpu / self.wall if self.wall > 0 else 0.0


class FrameLoop:
    """Calls ``view_at(now)`` and shows the result, at ``active_fps`` while a timer runs.

    After each frame the input since the last one (``events``) goes to ``on_event``; closing
    the window stops the loop, unless it is a kiosk's (``closable`` False: no way out).
    """

    def __init__(
        self,
        show: Callable[[ViewModel], None],
        view_at: Callable[[float], ViewModel],
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        cpu_clock: Callable[[], float] = time.process_time,
        events: Callable[[], list[pygame.event.Event]] | None = None,
        on_event: Callable[[pygame.event.Event], None] | None = None,
        active_fps: float = ACTIVE_FPS,
        idle_fps: float = IDLE_FPS,
        closable: bool = True,
    ) -> None:
        self.show = show
        self.view_at = view_at
        self.clock = clock
        self.sleep = sleep
        self.cpu_clock = cpu_clock
        self.events = events
        self.on_event = on_event
        self.active_fps = active_fps
        self.idle_fps = idle_fps
        self.closable = closable
        self.running = False

    def stop(self) -> None:
        self.running = False

    def run(self, frames: int | None = None, seconds: float | None = None) -> LoopStats:
        """Run until ``stop()``, a window close, ``frames`` frames or ``seconds`` of clock."""
        stats = LoopStats()
        self.running = True
        start = self.clock()
        cpu_start = self.cpu_clock()
        deadline = start
        while self.running:
            now = self.clock()
            if seconds is not None and now - start >= seconds:
                break
            view = self.view_at(now)
            self.show(view)
            stats.frames += 1
            stats.frame_times.append(now)
            if self.events is not None:
                for event in self.events():
                    if event.type == pygame.QUIT:
                        if self.closable:
                            self.running = False
                    elif self.on_event is not None:
                        self.on_event(event)
            if not self.running or frames is not None and stats.frames >= frames:
                break
            period = 1.0 / (self.active_fps if is_moving(view) else self.idle_fps)
            deadline += period
            after = self.clock()
            if deadline < after:
                deadline = after  # behind: start afresh rather than burst
            else:
                self.sleep(deadline - after)
        stats.wall = self.clock() - start
        stats.cpu = self.cpu_clock() - cpu_start
        return stats
