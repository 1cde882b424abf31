"""Button box figures: pin-to-host latency through simavr and the pty, bridge CPU at idle, firmware size.

Runs the real firmware in the simulator (hardware/sim), presses buttons by pin and times each
event from the pin change (CLOCK_MONOTONIC, stamped by the simulator) to its delivery by
``ButtonBox.get_event`` in this process. The firmware takes an edge once five 1 ms samples
in a row agree on it (so a glitch under 4 ms is never an edge) and then ignores the button's
bounce for 20 ms, so the figures include about 4–5 ms of debouncing, no more.

``--faults N`` also runs every fault plan of ``firmware_bridge.faults`` (a port error at each
step of the ACK exchange, HELLOs lost or damaged after the reopen) N times each, and prints
how many presses and releases were sent, delivered exactly once, doubled and lost.

    python bench/bench_buttons.py [--presses 200] [--idle-seconds 5] [--faults N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import percentile  # noqa: E402

from firmware_bridge import ButtonBox, ButtonEvent, LinkEvent  # noqa: E402
from firmware_bridge.faults import PortFaults  # noqa: E402
from firmware_bridge.virtual import FIRMWARE_ELF, VirtualBox, build  # noqa: E402


def _firmware_constant(name: str) -> int:
    """A debouncing constant as the firmware's source sets it (``NAME = N,``)."""
    source = (Path(__file__).resolve().parent.parent / "hardware/firmware/src/main.c").read_text()
    found = re.search(rf"\b{name}\s*=\s*(\d+)", source)
    if found is None:
        raise SystemExit(f"error: {name} is not set in the firmware's main.c")
    return int(found.group(1))


CONFIRM_MS = _firmware_constant("CONFIRM_SAMPLES") - 1  # the last confirming sample's delay
LOCKOUT_MS = _firmware_constant("LOCKOUT_MS")  # after an edge, the button's bounce is ignored

FAULT_PLANS: tuple[tuple[str, ...], ...] = (
    ("event-read",),
    ("ack-write",),
    ("ack-written",),
    ("read-after-ack",),
    ("ack-write", "hello-req-write"),
    ("ack-write", "ack-write"),
    ("ack-write", "lose-hello"),
    ("ack-write", "corrupt-hello"),
    ("ack-written", "lose-hello", "corrupt-hello"),
)


def next_button(box: ButtonBox, timeout: float = 5.0) -> ButtonEvent:
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        event = box.get_event(timeout=left)
        if isinstance(event, ButtonEvent):
            return event
    raise TimeoutError("no button event")


def wait_up(box: ButtonBox, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        if box.get_event(timeout=left) == LinkEvent("up"):
            return
    raise TimeoutError("the box never came up")


def measure_latency(sim: VirtualBox, box: ButtonBox, presses: int) -> list[float]:
    """Milliseconds from pin change to event delivered, for each press and release."""
    latencies = []
    for i in range(presses):
        button = i % 10
        for action in (sim.press, sim.release):
            changed_ns = action(button)
            event = next_button(box)
            delivered_ns = time.monotonic_ns()
            if event.button != button:
                raise RuntimeError(f"unexpected event {event}")
            latencies.append((delivered_ns - changed_ns) / 1e6)
            sim.sleep(25)
    return latencies


def thread_cpu_seconds(native_id: int) -> float:
    fields = Path(f"/proc/self/task/{native_id}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure_idle_cpu(box: ButtonBox, seconds: float) -> float:
    """Percent of one core the bridge's reader thread uses with the box idle (heartbeats only)."""
    thread = box._thread
    assert thread is not None and thread.native_id is not None
    start_cpu, start = thread_cpu_seconds(thread.native_id), time.monotonic()
    time.sleep(seconds)
    used = thread_cpu_seconds(thread.native_id) - start_cpu
    return 100.0 * used / (time.monotonic() - start)


def measure_burst(sim: VirtualBox, box: ButtonBox, cycles: int) -> float:
    """Edges per second delivered while all ten buttons are mashed."""
    start = time.monotonic()
    for _ in range(cycles):
        for b in range(10):
            sim.press(b)
        sim.sleep(50)
        for b in range(10):
            sim.release(b)
        sim.sleep(50)
    for _ in range(cycles * 20):
        next_button(box)
    return cycles * 20 / (time.monotonic() - start)


def measure_faults(sim: VirtualBox, rounds: int) -> list[dict[str, object]]:
    """Each fault plan ``rounds`` times: a press and a release with the plan armed for them."""
    results: list[dict[str, object]] = []
    for plan in FAULT_PLANS:
        faults = PortFaults(armed=False)
        counts = {"sent": 0, "once": 0, "doubled": 0, "lost": 0, "faults_fired": 0}
        with ButtonBox(sim.url, opener=faults.opener(), reopen_every=0.05) as box:
            wait_up(box)
            for i in range(rounds):
                button = i % 10
                faults.todo = list(plan)
                faults.armed = True
                sim.press(button)
                sim.sleep(40)
                sim.release(button)
                got: list[tuple[int, str]] = []
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline:
                    event = box.get_event(timeout=0.6 if len(got) >= 2 else 0.1)
                    if isinstance(event, ButtonEvent):
                        got.append((event.button, event.event))
                    elif event is None and len(got) >= 2 and box.link_up:
                        break
                faults.armed = False
                counts["faults_fired"] += len(plan) - len(faults.todo)
                for edge in ((button, "press"), (button, "release")):
                    n = got.count(edge)
                    counts["sent"] += 1
                    counts["once"] += n == 1
                    counts["doubled"] += n > 1
                    counts["lost"] += n == 0
                sim.sleep(30)
        results.append({"plan": "+".join(plan), **counts})
    return results


def firmware_size() -> tuple[int, int]:
    out = subprocess.run(
        ["avr-size", "--format=avr", "--mcu=atmega328p", str(FIRMWARE_ELF)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    flash = re.search(r"Program:\s+(\d+) bytes", out)
    ram = re.search(r"Data:\s+(\d+) bytes", out)
    assert flash and ram
    return int(flash.group(1)), int(ram.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--idle-seconds", type=float, default=5.0)
    parser.add_argument("--faults", type=int, default=0, metavar="N",
                        help="run each fault plan N times (a press and a release each)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    build()
    with VirtualBox() as sim, ButtonBox(sim.url) as box:
        wait_up(box)
        idle_cpu = measure_idle_cpu(box, args.idle_seconds)
        latencies = measure_latency(sim, box, args.presses)
        burst = measure_burst(sim, box, cycles=10)
    faults: list[dict[str, object]] = []
    if args.faults:
        with VirtualBox() as sim:
            faults = measure_faults(sim, args.faults)
    flash, ram = firmware_size()
    result = {
        "latency_ms_median": round(statistics.median(latencies), 2),
        "latency_ms_p99": round(percentile(latencies, 0.99), 2),
        "latency_ms_max": round(max(latencies), 2),
        "latency_samples": len(latencies),
        "confirm_ms": CONFIRM_MS,
        "lockout_ms": LOCKOUT_MS,
        "burst_edges_per_s": round(burst, 1),
        "bridge_idle_cpu_percent": round(idle_cpu, 2),
        "firmware_flash_bytes": flash,
        "firmware_ram_bytes": ram,
        "faults": faults,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"pin change -> host event ({len(latencies)} edges; the firmware confirms an edge"
            f" {CONFIRM_MS} ms after it, then locks out bounce for {LOCKOUT_MS} ms):"
        )
        print(
            f"  median {result['latency_ms_median']} ms, p99 {result['latency_ms_p99']} ms,"
            f" max {result['latency_ms_max']} ms"
        )
        print(
            f"all ten mashed (20 edges per 100 ms): {result['burst_edges_per_s']} edges/s delivered"
        )
        print(f"bridge reader thread at idle: {result['bridge_idle_cpu_percent']} % of one core")
        print(f"firmware: flash {flash} of 32768 bytes, RAM {ram} of 2048 bytes (static)")
        for row in faults:
            print(
                f"faults {row['plan']}: {row['sent']} edges sent, {row['once']} delivered exactly"
                f" once, {row['doubled']} doubled, {row['lost']} lost"
                f" ({row['faults_fired']} faults fired)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
