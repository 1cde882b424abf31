"""Helpers for the button box tests: building the firmware and simulator, waiting for events.

Imported by ``tests/test_firmware_*.py``, ``tests/test_sim_*.py`` and ``tests/test_bridge_*.py``.
Every wait here is bounded; a test that waits too long fails with a message instead of hanging.
"""

from __future__ import annotations

import functools
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_bridge import BoxEvent, ButtonBox, ButtonEvent, LinkEvent
from firmware_bridge.virtual import (  # noqa: F401  (re-exported for the tests)
    FIRMWARE_DIR,
    FIRMWARE_ELF,
    FIRMWARE_HEX,
    SIM_BIN,
    SIM_DIR,
    VirtualBox,
    build,
)

BUTTONS = 10  # 8 seats, MENU, OK


def toolchain_missing() -> str | None:
    """Why the firmware cannot be built here, or None."""
    if shutil.which("avr-gcc") is None:
        return "avr-gcc not installed (Debian gcc-avr avr-libc; `make deb` installs them)"
    if not Path("/usr/include/simavr/sim_avr.h").exists():
        return "libsimavr-dev not installed (`make deb` installs it)"
    return None


@functools.cache
def build_all() -> None:
    """Builds the firmware and the simulator once per test session."""
    build()


def require_sim() -> None:
    """Skips the calling test when the AVR toolchain is absent; builds everything otherwise."""
    reason = toolchain_missing()
    if reason:
        pytest.skip(reason)
    build_all()


def wait_for(box: ButtonBox, want: Callable[[BoxEvent], bool], timeout: float) -> list[BoxEvent]:
    """Collects events until one satisfies ``want``; fails if none does within ``timeout``."""
    seen: list[BoxEvent] = []
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        event = box.get_event(timeout=left)
        if event is None:
            break
        seen.append(event)
        if want(event):
            return seen
    raise AssertionError(f"no wanted event within {timeout} s; saw {seen}")


def wait_link(box: ButtonBox, state: str, timeout: float = 10.0) -> list[BoxEvent]:
    return wait_for(box, lambda e: isinstance(e, LinkEvent) and e.state == state, timeout)


def collect_buttons(box: ButtonBox, count: int, timeout: float) -> list[ButtonEvent]:
    """Exactly the next ``count`` button events (link events are skipped), within ``timeout``."""
    got: list[ButtonEvent] = []
    deadline = time.monotonic() + timeout
    while len(got) < count and (left := deadline - time.monotonic()) > 0:
        event = box.get_event(timeout=left)
        if isinstance(event, ButtonEvent):
            got.append(event)
    assert len(got) == count, f"got {len(got)} of {count} button events: {got}"
    return got


def drain(box: ButtonBox, quiet: float = 0.3) -> list[BoxEvent]:
    """Everything that arrives until the box has been quiet for ``quiet`` seconds."""
    return list(box.events(timeout=quiet))
