"""The virtual button box: the real firmware running in simavr (hardware/sim/boxsim) behind a pty.

``VirtualBox`` starts the simulator, learns its pty, and drives it over its stdin/stdout
control channel: press and release buttons by pin, read the seat LEDs and the buzzer. Open
``box.url`` with ``ButtonBox`` like any port. Used by the tests, the benchmark and the demo
(a table without the box). Needs the firmware and simulator built (``build()`` runs make).
"""

from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from pathlib import Path

from firmware_bridge.errors import LinkError

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE_DIR = ROOT / "hardware" / "firmware"
SIM_DIR = ROOT / "hardware" / "sim"
FIRMWARE_HEX = FIRMWARE_DIR / "build" / "tablekit-box.hex"
FIRMWARE_ELF = FIRMWARE_DIR / "build" / "tablekit-box.elf"
SIM_BIN = SIM_DIR / "build" / "boxsim"


def build(timeout: float = 180.0) -> None:
    """Builds the firmware and the simulator (make skips what is up to date)."""
    for directory in (FIRMWARE_DIR, SIM_DIR):
        try:
            result = subprocess.run(
                ["make", "-s", "-C", str(directory)],
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise LinkError(f"cannot run make in {directory}: {exc}") from exc
        if result.returncode != 0:
            raise LinkError(f"make -C {directory} failed:\n{result.stdout}\n{result.stderr}")


class VirtualBox:
    """One running simulator. If ``link`` is given it always points at the current pty, like
    the udev name of a real box, so a bridge opened on it survives a restart of the simulator.
    """

    def __init__(self, link: Path | None = None, firmware: Path = FIRMWARE_HEX) -> None:
        if not SIM_BIN.exists() or not firmware.exists():
            raise LinkError(f"{SIM_BIN} or {firmware} missing: run make -C hardware/sim")
        self.link = link
        self.proc = subprocess.Popen(
            [str(SIM_BIN), str(firmware)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()  # None: the simulator has gone
        self._lock = threading.Lock()
        threading.Thread(target=self._read_stdout, name="boxsim-out", daemon=True).start()
        try:
            self.pty = self._expect("pty ").split(" ", 1)[1]
            self._expect("ready")
        except (TimeoutError, LinkError):
            self.kill()
            raise
        if link is not None:
            tmp = link.with_name(link.name + ".new")
            if tmp.is_symlink():
                tmp.unlink()
            tmp.symlink_to(self.pty)
            os.replace(tmp, link)

    @property
    def url(self) -> str:
        """What to open: the stable link if there is one, else the pty."""
        return str(self.link) if self.link is not None else self.pty

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def _expect(self, prefix: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:  # it exited (a missing library, a bad firmware file, killed)
                self._lines.put(None)  # for the next question too
                raise LinkError(f"the simulator stopped ({self._exit_status()})")
            if line.startswith(prefix):
                return line
        raise TimeoutError(f"boxsim said no {prefix!r} within {timeout} s")

    def _exit_status(self) -> str:
        try:
            return f"exit status {self.proc.wait(timeout=2)}"
        except subprocess.TimeoutExpired:
            return "its output closed"

    def _ask(self, command: str, answer: str) -> str:
        with self._lock:
            assert self.proc.stdin is not None
            try:
                self.proc.stdin.write(command + "\n")
                self.proc.stdin.flush()
            except OSError as exc:
                raise LinkError(f"the simulator has gone: {exc}") from exc
            return self._expect(answer)

    def press(self, button: int) -> int:
        """Drives the button's pin low; returns CLOCK_MONOTONIC ns of the change."""
        return int(self._ask(f"press {button}", "ok ").split()[2])

    def release(self, button: int) -> int:
        return int(self._ask(f"release {button}", "ok ").split()[2])

    def wiggle(self, button: int, pressed: bool, changes: int, every_us: int) -> int:
        """Drives the button to ``pressed`` now, then changes its level ``changes`` more times,
        one every ``every_us`` µs of simulated time: contact bounce (an even ``changes`` ends
        at ``pressed``) or a glitch (``changes`` 1). Returns CLOCK_MONOTONIC ns of the start."""
        reply = self._ask(f"wiggle {button} {int(pressed)} {changes} {every_us}", "ok ")
        return int(reply.split()[2])

    def leds(self) -> str:
        """One digit per seat LED as the 74HC595 outputs show them, seat 0 first."""
        return self._ask("led?", "leds ").split()[1]

    def buzzing(self) -> bool:
        return self._ask("buzz?", "buzz ").split()[1] == "1"

    def sim_ms(self) -> int:
        """Simulated time since power-up, in ms."""
        return int(self._ask("time?", "time ").split()[1])

    def sleep(self, ms: int, timeout: float = 10.0) -> None:
        """Waits until ``ms`` of simulated time have passed (never less, however loaded the
        machine), so a hold cannot fall below the firmware's bounce lockout."""
        target = self.sim_ms() + ms
        deadline = time.monotonic() + timeout
        time.sleep(ms / 1000 * 0.9)  # the simulator keeps pace with the wall clock or lags it
        while (now := self.sim_ms()) < target:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the simulator did not advance {ms} ms within {timeout} s")
            time.sleep(min(0.005, (target - now) / 1000))

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

    def __enter__(self) -> VirtualBox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
