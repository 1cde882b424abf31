"""Helpers for the button box tests: building the firmware and simulator, and driving a virtual box.

Imported by ``tests/test_firmware_*.py``, ``tests/test_sim_*.py`` and ``tests/test_bridge_*.py``.
Every wait here is bounded; a test that waits too long fails with a message instead of hanging.
"""

from __future__ import annotations

import functools
import os
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_bridge import BoxEvent, ButtonBox, ButtonEvent, LinkEvent

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE_DIR = ROOT / "hardware" / "firmware"
SIM_DIR = ROOT / "hardware" / "sim"
FIRMWARE_HEX = FIRMWARE_DIR / "build" / "tablekit-box.hex"
FIRMWARE_ELF = FIRMWARE_DIR / "build" / "tablekit-box.elf"
SIM_BIN = SIM_DIR / "build" / "boxsim"

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
    """Builds the firmware and the simulator once per test session (make skips what is fresh)."""
    for directory in (FIRMWARE_DIR, SIM_DIR):
        result = subprocess.run(
            ["make", "-s", "-C", str(directory)], capture_output=True, text=True, timeout=180
        )
        if result.returncode != 0:
            raise RuntimeError(f"make -C {directory} failed:\n{result.stdout}\n{result.stderr}")


def require_sim() -> None:
    """Skips the calling test when the AVR toolchain is absent; builds everything otherwise."""
    reason = toolchain_missing()
    if reason:
        pytest.skip(reason)
    build_all()


class BoxSim:
    """The real firmware running in simavr (hardware/sim/boxsim), driven over its stdin/stdout.

    If ``link`` is given it is kept pointing at the current pty, like the udev name of a real
    box, so a bridge opened on it survives the simulator being killed and started again.
    """

    def __init__(self, link: Path | None = None, firmware: Path = FIRMWARE_HEX) -> None:
        self.link = link
        self.proc = subprocess.Popen(
            [str(SIM_BIN), str(firmware)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self.pty = self._expect("pty ").split(" ", 1)[1]
        self._expect("ready")
        if link is not None:
            tmp = link.with_name(link.name + ".new")
            if tmp.is_symlink():
                tmp.unlink()
            tmp.symlink_to(self.pty)
            os.replace(tmp, link)

    @property
    def url(self) -> str:
        return str(self.link) if self.link is not None else self.pty

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))

    def _expect(self, prefix: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                break
            if line.startswith(prefix):
                return line
        raise TimeoutError(f"boxsim said no {prefix!r} within {timeout} s")

    def _ask(self, command: str, answer: str) -> str:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return self._expect(answer)

    def press(self, button: int) -> int:
        """Drives the button's pin low; returns CLOCK_MONOTONIC ns of the change."""
        return int(self._ask(f"press {button}", "ok ").split()[2])

    def release(self, button: int) -> int:
        return int(self._ask(f"release {button}", "ok ").split()[2])

    def leds(self) -> str:
        """One digit per seat LED as the 74HC595 outputs show them, seat 0 first."""
        return self._ask("led?", "leds ").split()[1]

    def buzzing(self) -> bool:
        return self._ask("buzz?", "buzz ").split()[1] == "1"

    def sim_ms(self) -> int:
        return int(self._ask("time?", "time ").split()[1])

    def kill(self) -> None:
        """Pulls the plug: to the host this looks like a yanked USB cable."""
        self.proc.kill()
        self.proc.wait(timeout=5)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self.kill()

    def __enter__(self) -> BoxSim:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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


def sim_sleep(sim: BoxSim, ms: int, timeout: float = 10.0) -> None:
    """Waits until ``ms`` of *simulated* time have passed, so a slow machine cannot shorten a
    hold below the firmware's 20 ms debounce."""
    target = sim.sim_ms() + ms
    deadline = time.monotonic() + timeout
    while sim.sim_ms() < target:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the simulator did not advance {ms} ms within {timeout} s")
        time.sleep(0.002)
