"""End to end: the real firmware in simavr, the bridge on its pty, buttons driven by pin.

Each test starts its own simulator (a pty of its own, so tests can run side by side). Holds are
measured in simulated time, so a loaded machine cannot make a press shorter than the
firmware's 20 ms bounce lockout; every wait has a deadline. Contact bounce and line noise are
made by the simulator itself, in simulated time (``VirtualBox.wiggle``).
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest_hardware import (
    BUTTONS,
    VirtualBox,
    collect_buttons,
    drain,
    require_sim,
    wait_link,
)

from firmware_bridge import ButtonBox, ButtonEvent


@pytest.fixture
def sim() -> Iterator[VirtualBox]:
    require_sim()
    with VirtualBox() as box_sim:
        yield box_sim


@pytest.fixture
def bridge(sim: VirtualBox) -> Iterator[ButtonBox]:
    with ButtonBox(sim.url) as box:
        wait_link(box, "up", timeout=10)
        yield box


def edges(events: list[ButtonEvent]) -> list[tuple[int, str]]:
    return [(e.button, e.event) for e in events]


def test_every_button_press_and_release_arrives_once_in_order(
    sim: VirtualBox, bridge: ButtonBox
) -> None:
    for b in range(BUTTONS):
        sim.press(b)
        sim.sleep(40)
        sim.release(b)
        sim.sleep(40)
    got = collect_buttons(bridge, 2 * BUTTONS, timeout=20)
    assert edges(got) == [(b, e) for b in range(BUTTONS) for e in ("press", "release")]
    times = [e.t_ms for e in got]
    assert times == sorted(times)
    # each hold lasted at least the 40 ms of box time it was given (edges are stamped at their
    # first sample; a loaded machine can only make holds longer)
    assert all(38 <= r.t_ms - p.t_ms <= 2000 for p, r in zip(got[::2], got[1::2], strict=True))
    assert drain(bridge, quiet=0.3) == []
    assert bridge.protocol.stats.repeats == 0


def test_a_press_reaches_the_host_well_before_a_20_ms_debounce_would_have_ended(
    sim: VirtualBox, bridge: ButtonBox
) -> None:
    # Measured in simulated time, which never runs ahead of the wall clock: the firmware
    # reacts once five 1 ms samples in a row agree on the new level instead of waiting 20 ms.
    # The pin changes somewhere between the two readings of the simulator's clock around the
    # press (on a loaded machine the host can take several ms over the two round trips), so
    # the edge's stamp must fall within 5 ms after the later one.
    took = []
    for _ in range(5):
        start = sim.sim_ms()
        sim.press(2)
        pressed_by = sim.sim_ms()
        got = collect_buttons(bridge, 1, timeout=5)
        took.append(sim.sim_ms() - start)
        assert edges(got) == [(2, "press")] and start <= got[0].t_ms <= pressed_by + 5, \
            (start, pressed_by, got[0].t_ms)
        sim.sleep(30)
        sim.release(2)
        collect_buttons(bridge, 1, timeout=5)
        sim.sleep(30)
    assert min(took) <= 12, took


def test_contact_bounce_never_makes_a_second_edge(sim: VirtualBox, bridge: ButtonBox) -> None:
    # Each press and release bounces: 2 to 12 changes of level, 100 µs to 1.5 ms apart (up to
    # 18 ms of chatter, within the 20 ms lockout), seeded so a failure repeats.
    rng = random.Random(7)
    expected = []
    for i in range(12):
        button = i % BUTTONS
        for pressed in (True, False):
            sim.wiggle(button, pressed, 2 * rng.randint(1, 6), rng.randint(100, 1500))
            sim.sleep(rng.randint(40, 80))
            expected.append((button, "press" if pressed else "release"))
    got = collect_buttons(bridge, len(expected), timeout=20)
    assert edges(got) == expected
    assert drain(bridge, quiet=0.3) == []


def test_line_noise_shorter_than_four_samples_is_never_an_edge(sim: VirtualBox, bridge: ButtonBox) -> None:
    # Spikes of 20 µs to 3.9 ms on idle buttons and on held ones (a long seat cable picks up
    # a few ms of noise), at random phases of the firmware's 1 ms sampling: none is a press,
    # none is a release. A glitch that made an edge would be a press and then, after the
    # lockout, a release: a tap that ends a turn.
    rng = random.Random(11)
    sim.press(5)
    assert edges(collect_buttons(bridge, 1, timeout=5)) == [(5, "press")]
    sim.sleep(30)
    for k in range(60):
        button = rng.choice([1, 5, 8])
        width = rng.randint(20, 900) if k % 2 else rng.randint(2000, 3900)
        sim.wiggle(button, button != 5, 1, width)  # away from its level and back
        sim.sleep(rng.randint(6, 12))
    sim.sleep(30)
    sim.release(5)
    assert edges(collect_buttons(bridge, 1, timeout=5)) == [(5, "release")]
    assert drain(bridge, quiet=0.3) == []


def mash(sim: VirtualBox, cycles: int, hold_ms: int) -> list[tuple[int, str]]:
    """All buttons down, then all up, ``cycles`` times; returns the edges the box must report."""
    expected = []
    for _ in range(cycles):
        for b in range(BUTTONS):
            sim.press(b)
        sim.sleep(hold_ms)
        for b in range(BUTTONS):
            sim.release(b)
        sim.sleep(hold_ms)
        expected += [(b, "press") for b in range(BUTTONS)]
        expected += [(b, "release") for b in range(BUTTONS)]
    return expected


@pytest.mark.slow
def test_all_buttons_mashed_for_seconds(sim: VirtualBox, bridge: ButtonBox) -> None:
    # Ten hands slamming all ten buttons five times a second, for 3 s: 300 edges. The box
    # sends one event at a time (that is what keeps them in order), so this also shows the
    # host keeps up: a box whose queue of 16 overflowed would report drops in its heartbeat.
    expected = mash(sim, cycles=15, hold_ms=100)
    got = collect_buttons(bridge, len(expected), timeout=30)
    assert edges(got) == expected, f"box reports {bridge.protocol.stats.box_dropped} dropped"
    assert drain(bridge, quiet=0.3) == []


class Noise:
    """Writes bursts of random bytes into the box's receive line, as a bad cable would."""

    def __init__(self, path: str, seed: int = 5) -> None:
        self._fd = os.open(path, os.O_WRONLY | os.O_NOCTTY)
        self._rng = random.Random(seed)
        self._stop = threading.Event()
        self.bytes = 0
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._rng.uniform(0.002, 0.02)):
            burst = bytes(self._rng.randrange(256) for _ in range(self._rng.randint(1, 24)))
            try:
                os.write(self._fd, burst)
            except OSError:
                return
            self.bytes += len(burst)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        os.close(self._fd)


@pytest.mark.slow
def test_events_survive_garbage_from_the_host(sim: VirtualBox, bridge: ButtonBox) -> None:
    noise = Noise(sim.pty)
    try:
        expected = mash(sim, cycles=8, hold_ms=100)
        for b in range(BUTTONS):
            sim.press(b)
            sim.sleep(30)
            sim.release(b)
            sim.sleep(30)
            expected += [(b, "press"), (b, "release")]
        got = collect_buttons(bridge, len(expected), timeout=30)
    finally:
        noise.stop()
    assert noise.bytes > 1000
    assert edges(got) == expected
    # The box counted what it threw away, and says so in its heartbeat.
    deadline = time.monotonic() + 5
    while bridge.protocol.stats.box_dropped == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert bridge.protocol.stats.box_dropped > 0
    assert bridge.link_up and bridge.alive


def wait_leds(sim: VirtualBox, want: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while (shown := sim.leds()) != want:
        assert time.monotonic() < deadline, f"LEDs show {shown}, want {want}"
        time.sleep(0.01)


def test_led_modes_and_buzzer(sim: VirtualBox, bridge: ButtonBox) -> None:
    bridge.led(0, "on")
    bridge.led(5, "on")
    wait_leds(sim, "10000100")
    bridge.led(5, "off")
    bridge.led(2, "slow")
    bridge.led(3, "fast")
    deadline = time.monotonic() + 5
    while sim.leds()[5] != "0":
        assert time.monotonic() < deadline, "LED 5 never went off"
        time.sleep(0.005)
    seen: dict[int, set[str]] = {2: set(), 3: set()}
    start = sim.sim_ms()
    while sim.sim_ms() - start < 1100:
        shown = sim.leds()
        assert shown[0] == "1" and shown[5] == "0" and shown[1] == "0"
        for i in seen:
            seen[i].add(shown[i])
        time.sleep(0.01)
    assert seen == {2: {"0", "1"}, 3: {"0", "1"}}
    bridge.buzz(300)
    deadline = time.monotonic() + 5
    while not sim.buzzing():
        assert time.monotonic() < deadline, "the buzzer never sounded"
        time.sleep(0.005)
    sim.sleep(400)
    assert not sim.buzzing()
    assert bridge.protocol.stats.commands_unacked == 0


@pytest.mark.slow
def test_simulator_killed_and_restarted_mid_game(tmp_path: Path) -> None:
    require_sim()
    link = tmp_path / "tablekit-box"  # stands in for the udev name of a real box
    first = VirtualBox(link=link)
    try:
        with ButtonBox(str(link)) as bridge:
            wait_link(bridge, "up", timeout=10)
            bridge.led(1, "on")
            wait_leds(first, "01000000")
            for b in range(4):
                first.press(b)
                first.sleep(30)
                first.release(b)
                first.sleep(30)
            before = collect_buttons(bridge, 8, timeout=10)
            # a press in flight when the cable is pulled: acknowledged or not, never twice
            first.press(7)
            first.sleep(25)
            first.kill()
            seen = wait_link(bridge, "down", timeout=10)
            in_flight = [e for e in seen if isinstance(e, ButtonEvent)]
            assert edges(in_flight) in ([], [(7, "press")])

            second = VirtualBox(link=link)
            try:
                wait_link(bridge, "up", timeout=15)
                wait_leds(second, "01000000")  # the bridge re-sent the LED the game had set
                for b in (5, 6, 8):
                    second.press(b)
                    second.sleep(30)
                    second.release(b)
                    second.sleep(30)
                after = collect_buttons(bridge, 6, timeout=10)
            finally:
                second.close()
    finally:
        first.close()
    assert edges(before) == [(b, e) for b in range(4) for e in ("press", "release")]
    assert edges(after) == [(b, e) for b in (5, 6, 8) for e in ("press", "release")]


@pytest.mark.slow
def test_a_silent_box_is_lost_after_three_seconds_and_found_again(
    sim: VirtualBox, bridge: ButtonBox
) -> None:
    os.kill(sim.proc.pid, signal.SIGSTOP)  # the box hangs: port still open, nothing on the line
    try:
        start = time.monotonic()
        wait_link(bridge, "down", timeout=10)
        silent_for = time.monotonic() - start
    finally:
        os.kill(sim.proc.pid, signal.SIGCONT)
    assert 1.9 <= silent_for <= 6.0  # 3 s after the last frame, which came at most 1 s before
    wait_link(bridge, "up", timeout=10)
    sim.press(3)
    sim.sleep(30)
    sim.release(3)
    assert edges(collect_buttons(bridge, 2, timeout=10)) == [(3, "press"), (3, "release")]
