"""The table clock: milliseconds the app stamps on every event, injected so tests never sleep.

``MonotonicClock`` counts real time from a starting value (a resumed game starts where its
journal stopped, so deadlines stay meaningful); ``ManualClock`` only moves when told.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> int: ...


class MonotonicClock:
    """Real elapsed time, starting at ``start_ms``."""

    def __init__(self, start_ms: int = 0) -> None:
        self._origin = time.monotonic()
        self._start = start_ms

    def now_ms(self) -> int:
        return self._start + int((time.monotonic() - self._origin) * 1000)


class ManualClock:
    """A clock for tests and scripted demos: ``advance`` moves it, nothing else does."""

    def __init__(self, start_ms: int = 0) -> None:
        self._now = start_ms

    def now_ms(self) -> int:
        return self._now

    def advance(self, ms: int) -> int:
        self._now += ms
        return self._now

    def set(self, ms: int) -> None:
        self._now = max(self._now, ms)


def wall_ms() -> int:
    """Wall-clock time for the history (when a game was played), never for game logic."""
    return int(time.time() * 1000)
