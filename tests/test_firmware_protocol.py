"""The firmware speaks the protocol as written: checked frame by frame on the simulator's pty.

No bridge here: the test is the host, with pyserial and the packetizer, so every rule of the
spec is seen on the wire (HELLO, heartbeats, re-sends, the queue of 16, acks, drop counts).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator

import pytest
import serial
from conftest_hardware import BUTTONS, VirtualBox, require_sim

from firmware_bridge.protocol import (
    BOX_TYPES,
    Frame,
    Msg,
    Packetizer,
    cobs_encode,
    encode_frame,
    led_payload,
    parse_button,
    parse_heartbeat,
    parse_hello,
)


class RawHost:
    """A bare host: writes frames, reads checked frames with deadlines."""

    def __init__(self, path: str) -> None:
        self.port = serial.serial_for_url(path, baudrate=115200, timeout=0.05)
        self.rx = Packetizer(BOX_TYPES)
        self.seq = 0

    def send(self, msg: int, payload: bytes = b"", seq: int | None = None) -> int:
        if seq is None:
            seq, self.seq = self.seq, (self.seq + 1) & 0xFF
        self.port.write(b"\x00" + encode_frame(msg, seq, payload))
        return seq

    def until(self, want: Callable[[Frame], bool], timeout: float = 5.0) -> list[Frame]:
        """Frames up to and including the first one ``want`` accepts."""
        seen: list[Frame] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for frame in self.rx.feed(self.port.read(max(1, self.port.in_waiting))):
                seen.append(frame)
                if want(frame):
                    return seen
        raise AssertionError(f"wanted frame not seen in {timeout} s; saw {seen}")

    def close(self) -> None:
        self.port.close()


@pytest.fixture
def host() -> Iterator[tuple[VirtualBox, RawHost]]:
    require_sim()
    with VirtualBox() as sim:
        raw = RawHost(sim.pty)
        try:
            yield sim, raw
        finally:
            raw.close()


def is_type(msg: int) -> Callable[[Frame], bool]:
    return lambda f: f.type == msg


def hello(raw: RawHost) -> Frame:
    raw.send(Msg.HELLO_REQ)
    return raw.until(is_type(Msg.HELLO))[-1]


def test_hello_names_the_box(host: tuple[VirtualBox, RawHost]) -> None:
    _, raw = host
    frame = hello(raw)
    info = parse_hello(frame.payload)
    assert frame.seq == 0
    assert (info.protocol, info.buttons, info.firmware) == (1, BUTTONS, "tablekit-box 1.0")


def test_heartbeat_every_second_with_uptime(host: tuple[VirtualBox, RawHost]) -> None:
    _, raw = host
    hello(raw)
    beats = [f for f in raw.until(is_type(Msg.HEARTBEAT), 3)[-1:]]
    beats += [f for f in raw.until(is_type(Msg.HEARTBEAT), 3) if f.type == Msg.HEARTBEAT]
    (t1, d1), (t2, d2) = (parse_heartbeat(b.payload) for b in beats)
    assert t2 - t1 == 1000 and t1 % 1000 == 0
    assert beats[1].seq == (beats[0].seq + 1) & 0xFF
    assert d1 == d2 == 0


def test_unacknowledged_button_is_resent_ten_times_then_counted(
    host: tuple[VirtualBox, RawHost],
) -> None:
    sim, raw = host
    hello(raw)
    sim.press(2)
    frames = raw.until(lambda f: f.type == Msg.HEARTBEAT and parse_heartbeat(f.payload)[1] > 0, 4)
    sends = [f for f in frames if f.type == Msg.BUTTON]
    assert len(sends) == 10
    assert {f.seq for f in sends} == {sends[0].seq}
    assert {parse_button(f.payload)[:2] for f in sends} == {(2, 1)}
    assert parse_heartbeat(frames[-1].payload)[1] == 1


def test_acknowledged_button_is_sent_once(host: tuple[VirtualBox, RawHost]) -> None:
    sim, raw = host
    hello(raw)
    sim.press(9)
    first = raw.until(is_type(Msg.BUTTON))[-1]
    raw.send(Msg.HOST_ACK, bytes((first.seq,)))
    later = raw.until(is_type(Msg.HEARTBEAT), 3)
    assert [f for f in later if f.type == Msg.BUTTON] in (
        [],
        [first],
    )  # at most one re-send in flight


def test_queue_keeps_sixteen_events_in_order(host: tuple[VirtualBox, RawHost]) -> None:
    sim, raw = host
    hello(raw)
    for b in range(BUTTONS):
        sim.press(b)
    sim.sleep(30)
    for b in range(BUTTONS):
        sim.release(b)
    sim.sleep(30)  # 20 edges now wait, unacknowledged: 16 fit
    got: list[tuple[int, int]] = []
    deadline = time.monotonic() + 10
    while len(got) < 16 and time.monotonic() < deadline:
        frame = raw.until(is_type(Msg.BUTTON))[-1]
        raw.send(Msg.HOST_ACK, bytes((frame.seq,)))
        edge = parse_button(frame.payload)[:2]
        if not got or got[-1] != edge:
            got.append(edge)
    assert got == [(b, 1) for b in range(BUTTONS)] + [(b, 2) for b in range(6)]
    beat = raw.until(is_type(Msg.HEARTBEAT), 3)[-1]
    assert parse_heartbeat(beat.payload)[1] == 4


def test_leds_and_buzz_are_acknowledged_and_bad_frames_counted(
    host: tuple[VirtualBox, RawHost],
) -> None:
    sim, raw = host
    hello(raw)
    seq = raw.send(Msg.LED, led_payload(6, 1))
    ack = raw.until(is_type(Msg.ACK))[-1]
    assert ack.payload == bytes((seq,))
    raw.send(Msg.LED, led_payload(6, 1), seq=seq)  # a repeat is acknowledged again
    assert raw.until(is_type(Msg.ACK))[-1].payload == bytes((seq,))
    raw.send(Msg.BUZZ, (50).to_bytes(2, "little"))
    raw.until(is_type(Msg.ACK))
    assert sim.leds() == "00000010"
    raw.port.write(b"\x00" + encode_frame(0x99, 1, b""))  # unknown type
    raw.port.write(b"\x00" + encode_frame(Msg.LED, 2, b"\x01"))  # LED with one byte
    bad_crc = bytearray(encode_frame(Msg.LED, 3, led_payload(0, 1)))
    bad_crc[-2] ^= 0x55 if bad_crc[-2] != 0x55 else 0x22
    raw.port.write(b"\x00" + bytes(bad_crc))
    raw.port.write(b"\x00" + cobs_encode(bytes(70)) + b"\x00")  # body over 64 bytes
    beat = raw.until(lambda f: f.type == Msg.HEARTBEAT and parse_heartbeat(f.payload)[1] >= 4, 4)
    assert parse_heartbeat(beat[-1].payload)[1] == 4
    assert sim.leds() == "00000010"  # none of it changed an LED


def test_box_survives_any_byte_sequence(host: tuple[VirtualBox, RawHost]) -> None:
    sim, raw = host
    hello(raw)
    rng = random.Random(2024)
    chunks = [
        bytes(rng.randrange(256) for _ in range(2048)),  # noise
        bytes(rng.randrange(1, 256) for _ in range(1024)),  # one endless frame, no delimiter
        b"\x00" * 512,  # nothing but delimiters
        b"".join(
            encode_frame(t, rng.randrange(256), bytes(rng.randrange(256) for _ in range(n)))
            for t, n in ((0x00, 3), (0xFF, 0), (Msg.HELLO, 20), (Msg.LED, 59), (Msg.BUZZ, 7))
        ),
    ]
    for chunk in chunks:
        raw.port.write(chunk)
    uptime_before = parse_heartbeat(raw.until(is_type(Msg.HEARTBEAT), 3)[-1].payload)[0]
    # still the same run (no watchdog reset, no HELLO of its own), and still answering
    frames = raw.until(is_type(Msg.HEARTBEAT), 3)
    assert not any(f.type == Msg.HELLO for f in frames)
    assert parse_heartbeat(frames[-1].payload)[0] == uptime_before + 1000
    assert parse_hello(hello(raw).payload).buttons == BUTTONS
    sim.press(5)
    first = raw.until(is_type(Msg.BUTTON))[-1]
    assert parse_button(first.payload)[:2] == (5, 1)
