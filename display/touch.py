"""Taps on the screen: a finger (or the mouse) going down on and lifting off a named region.

Hit tests use the regions the last frame recorded (`Canvas.regions`: "key:ok", "seat:2",
"row:start"…), so what a tap hits is exactly what was drawn there. A finger that goes down on
a region is held on it until it lifts, wherever it lifts: a press and its release always name
the same region (a seat's long press is timed between the two).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

import pygame

from display.canvas import Canvas

#: The regions a tap can hit, first match first: the soft keys, the seats, the setup rows, the
#: scorepad's steps, the call panel.
TAPPABLE: tuple[str, ...] = ("key:", "seat:", "row:", "pad:", "call:")
POINTER_EVENTS = (pygame.FINGERDOWN, pygame.FINGERUP, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)


@dataclass(frozen=True, slots=True)
class Tap:
    """A finger down on (``down``) or lifted from a region named ``target``."""

    target: str
    down: bool


def hit(canvas: Canvas, pos: tuple[int, int], targets: tuple[str, ...] = TAPPABLE) -> str | None:
    """The name of the region under ``pos`` (the first kind in ``targets`` that has one)."""
    for prefix in targets:
        for name, rect in canvas.regions.items():
            if name.startswith(prefix) and rect.collidepoint(pos):
                return name
    return None


@dataclass(slots=True)
class TouchPad:
    """Turns pointer events into taps on the regions of the frame on screen."""

    targets: tuple[str, ...] = TAPPABLE
    _held: dict[Hashable, str] = field(default_factory=dict)

    @staticmethod
    def pointer(event: pygame.event.Event, size: tuple[int, int]) -> tuple[Hashable, tuple[int, int], bool] | None:
        """(which pointer, where in pixels, down) for a finger or left mouse button edge."""
        if event.type in (pygame.FINGERDOWN, pygame.FINGERUP):
            x = min(size[0] - 1, max(0, int(float(event.x) * size[0])))
            y = min(size[1] - 1, max(0, int(float(event.y) * size[1])))
            key = ("finger", getattr(event, "touch_id", 0), getattr(event, "finger_id", 0))
            return key, (x, y), event.type == pygame.FINGERDOWN
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            if getattr(event, "touch", False):
                return None  # SDL's mouse copy of a finger: the finger event counts
            if getattr(event, "button", 1) != 1:
                return None
            x, y = event.pos
            return "mouse", (int(x), int(y)), event.type == pygame.MOUSEBUTTONDOWN
        return None

    def handle(self, event: pygame.event.Event, canvas: Canvas | None) -> Tap | None:
        """The tap ``event`` makes on ``canvas`` (the frame on screen), or None."""
        if canvas is None:
            return None
        got = self.pointer(event, canvas.surface.get_size())
        if got is None:
            return None
        key, pos, down = got
        if down:
            target = hit(canvas, pos, self.targets)
            if target is None:
                return None
            self._held[key] = target
            return Tap(target, True)
        target = self._held.pop(key, None)
        return None if target is None else Tap(target, False)

    def release_all(self) -> list[Tap]:
        """Lift every finger still held (the screen went away under them)."""
        taps = [Tap(target, False) for target in self._held.values()]
        self._held.clear()
        return taps
