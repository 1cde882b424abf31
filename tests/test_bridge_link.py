"""The threaded bridge: a real pty with the reference box behind it, fake ports, a fake clock."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest
import serial
from conftest_hardware import collect_buttons, wait_for, wait_link
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge import (
    ButtonBox,
    ButtonEvent,
    KeyboardButtons,
    LinkError,
    LinkEvent,
    candidate_ports,
    discovery,
    require_port,
)
from firmware_bridge.protocol import LED_FAST, Msg, button_payload, encode_frame, hello_payload
from firmware_bridge.refbox import PtyBox
from tablekit.cli import main as tablekit_main


def test_events_and_leds_through_a_pty() -> None:
    with PtyBox() as ref, ButtonBox(ref.path) as box:
        wait_link(box, "up", timeout=5)
        for b in range(10):
            ref.press(b)
            ref.release(b)
            time.sleep(0.02)  # the box holds 16 unacknowledged edges; a person is slower
        got = collect_buttons(box, 20, timeout=10)
        assert [(e.button, e.event) for e in got] == [
            (b, edge) for b in range(10) for edge in ("press", "release")
        ]
        box.led(4, "fast")
        deadline = time.monotonic() + 5
        while ref.box.leds[4] != LED_FAST and time.monotonic() < deadline:
            time.sleep(0.01)
        assert ref.box.leds[4] == LED_FAST


def test_garbage_on_the_line_does_not_stop_the_reader() -> None:
    with PtyBox() as ref, ButtonBox(ref.path) as box:
        wait_link(box, "up", timeout=5)
        # Line noise arrives on the host's side of the pty, between the box's frames.
        noise = os.open(ref.path, os.O_WRONLY | os.O_NOCTTY)
        try:
            for i in range(30):
                os.write(noise, bytes((i * 37 + k) & 0xFF for k in range(40)))
                ref.press(i % 10)
                ref.release(i % 10)
                time.sleep(0.03)
        finally:
            os.close(noise)
        got = collect_buttons(box, 60, timeout=20)
        assert [(e.button, e.event) for e in got] == [
            (i % 10, edge) for i in range(30) for edge in ("press", "release")
        ]
        assert box.alive and box.internal_errors == 0


class ScriptedPort:
    """A pyserial-like port that returns the given chunks, then silence, then maybe an error."""

    def __init__(self, chunks: list[bytes], fail_after: bool = False) -> None:
        self.chunks = list(chunks)
        self.fail_after = fail_after
        self.written = bytearray()
        self.closed = False

    @property
    def in_waiting(self) -> int:
        return len(self.chunks[0]) if self.chunks else 0

    def read(self, n: int) -> bytes:
        if self.chunks:
            return self.chunks.pop(0)
        if self.fail_after:
            raise serial.SerialException("device reports readiness to read but returned no data")
        time.sleep(0.002)
        return b""

    def write(self, data: bytes) -> int:
        self.written += data
        return len(data)

    def close(self) -> None:
        self.closed = True


HELLO = encode_frame(Msg.HELLO, 0, hello_payload(10, "fake"))
MARKER = encode_frame(Msg.BUTTON, 1, button_payload(7, 1, 4242))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(min_size=1, max_size=80), max_size=12))
def test_reader_thread_survives_any_bytes(noise: list[bytes]) -> None:
    port = ScriptedPort([HELLO, *noise, b"\x00" + MARKER])
    with ButtonBox("fake://", opener=lambda url: port) as box:
        events = wait_for(box, lambda e: isinstance(e, ButtonEvent), timeout=5)
        assert events[-1] == ButtonEvent(7, "press", 4242)
        assert box.alive and box.internal_errors == 0
        # anything that was not a frame was counted, not raised
        assert box.protocol.dropped >= 0


def test_noise_is_counted() -> None:
    port = ScriptedPort([HELLO, b"\x01\x02\x03\x00", b"\xff" * 100 + b"\x00", MARKER])
    with ButtonBox("fake://", opener=lambda url: port) as box:
        wait_for(box, lambda e: isinstance(e, ButtonEvent), timeout=5)
        assert box.protocol.packetizer.drops == {"length": 1, "too_long": 1}


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_silence_for_three_seconds_drops_the_link_and_reopens() -> None:
    clock = FakeClock()
    ports: list[ScriptedPort] = []

    def opener(url: str) -> ScriptedPort:
        ports.append(ScriptedPort([HELLO]))
        return ports[-1]

    with ButtonBox("fake://", clock=clock, opener=opener, reopen_every=0.0) as box:
        wait_link(box, "up", timeout=5)
        clock.t += 2.9
        assert box.get_event(timeout=0.2) is None
        clock.t += 0.2
        wait_link(box, "down", timeout=5)
        wait_link(box, "up", timeout=5)  # reopened, asked for HELLO, got one
        assert len(ports) >= 2 and ports[0].closed
        hello_req = encode_frame(Msg.HELLO_REQ, 0)[1:]  # any seq; compare the type byte
        assert all(p.written.startswith(b"\x00") for p in ports)
        assert hello_req[:1] in bytes(ports[1].written)


def test_a_yanked_cable_is_reported_and_the_port_reopened() -> None:
    opened: list[ScriptedPort] = []

    def opener(url: str) -> ScriptedPort:
        if len(opened) == 1:
            opened.append(ScriptedPort([]))
            raise serial.SerialException("could not open port: no such file")
        opened.append(ScriptedPort([HELLO], fail_after=len(opened) == 0))
        return opened[-1]

    with ButtonBox("fake://", opener=opener, reopen_every=0.01) as box:
        wait_link(box, "up", timeout=5)
        wait_link(box, "down", timeout=5)
        wait_link(box, "up", timeout=5)
        assert box.alive and box.internal_errors == 0


def test_loop_url_opens_and_ignores_its_own_echo() -> None:
    with ButtonBox("loop://") as box:
        time.sleep(0.2)
        assert box.alive and not box.link_up
        assert box.protocol.packetizer.drops["type"] >= 1


def test_keyboard_gives_the_same_events() -> None:
    keys = KeyboardButtons()
    assert keys.started() == LinkEvent("up")
    assert keys.key_down("3", 100) == ButtonEvent(2, "press", 100)
    assert keys.key_down("3", 130) is None  # auto-repeat
    assert keys.key_up("3", 180) == ButtonEvent(2, "release", 180)
    assert keys.key_down("Return", 200) == ButtonEvent(9, "press", 200)
    assert keys.key_down("m", 210) == ButtonEvent(8, "press", 210)
    assert keys.key_down("x", 220) is None
    assert keys.key_up("x", 230) is None


def test_discovery_prefers_the_udev_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ttyACM0").touch()
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    (by_id / "usb-Arduino_Nano-if00").symlink_to(tmp_path / "ttyACM0")
    (by_id / "usb-Other-if00").symlink_to(tmp_path / "ttyACM0")  # same device: listed once
    (tmp_path / "tablekit-box").symlink_to(tmp_path / "ttyUSB9")
    (tmp_path / "ttyUSB9").touch()
    monkeypatch.setattr(discovery, "UDEV_NAME", str(tmp_path / "tablekit-box"))
    monkeypatch.setattr(discovery, "BY_ID_GLOB", str(by_id / "*"))
    found = candidate_ports()
    assert [p.url for p in found[:2]] == [
        str(tmp_path / "tablekit-box"),
        str(by_id / "usb-Arduino_Nano-if00"),
    ]
    assert len([p for p in found if "by-id" in p.url]) == 1
    assert require_port(None) == str(tmp_path / "tablekit-box")


def test_no_box_is_a_link_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discovery, "candidate_ports", lambda: [])
    with pytest.raises(LinkError) as info:
        require_port(None)
    assert isinstance(info.value, OSError)


def test_cli_prints_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    with PtyBox() as ref:

        def press_later() -> None:
            # once the command has the port open (its start may take a second on a loaded
            # machine, and a press no host hears is dropped after ten tries, as the protocol says)
            if ref.heard.wait(30):
                ref.press(0)
                ref.release(0)

        threading.Thread(target=press_later, daemon=True).start()
        code = tablekit_main(
            ["buttons", "--port", ref.path, "--json", "--count", "2", "--seconds", "30"]
        )
    assert code == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0] == {"link": "up"}
    assert [(d["button"], d["event"]) for d in lines[1:]] == [(0, "press"), (0, "release")]
    assert all(isinstance(d["t_ms"], int) for d in lines[1:])


def test_cli_stops_after_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    start = time.monotonic()
    assert tablekit_main(["buttons", "--port", "loop://", "--seconds", "0.3"]) == 0
    assert time.monotonic() - start < 3
    assert capsys.readouterr().out == ""


def test_cli_without_a_box_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(discovery, "candidate_ports", lambda: [])
    assert tablekit_main(["buttons", "--seconds", "0.1"]) == 1
    assert "no button box found" in capsys.readouterr().err


def test_cli_lists_ports_as_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from firmware_bridge import PortCandidate
    from tablekit.commands import buttons

    monkeypatch.setattr(
        buttons, "candidate_ports", lambda: [PortCandidate("/dev/tablekit-box", "udev")]
    )
    assert tablekit_main(["buttons", "--list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "port": "/dev/tablekit-box",
        "description": "udev",
    }


def test_cli_on_a_port_that_does_not_exist_is_one_error_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = str(tmp_path / "nonexistent")
    start = time.monotonic()
    assert tablekit_main(["buttons", "--port", missing, "--seconds", "5"]) == 2
    assert time.monotonic() - start < 3  # said at once, not after waiting out --seconds
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and missing in lines[0]
