"""The wire format of the button box: message types, CRC, COBS, frames, and the packetizer.

Pure functions and one small stateful decoder, no I/O. Follows the serial protocol spec
(version 1): each frame is ``COBS(type seq len payload crc16_le) 0x00`` with
CRC-16/CCITT-FALSE over ``type seq len payload``.

COBS is written out here rather than taken from the ``cobs`` package: it is twenty lines, and
the decoder has to classify and count each kind of bad frame, which the package does not do.
The CRC is the standard library's ``binascii.crc_hqx`` (CCITT polynomial, no reflection).
"""

from __future__ import annotations

import binascii
import struct
from collections import Counter
from dataclasses import dataclass
from enum import IntEnum

PROTOCOL_VERSION = 1
BODY_MAX = 64
HEADER = 3
OVERHEAD = 5
PAYLOAD_MAX = BODY_MAX - OVERHEAD
ENCODED_MAX = BODY_MAX + 2
FIRMWARE_NAME_MAX = 16


class Msg(IntEnum):
    """Message types; box-to-host below 0x80, host-to-box above."""

    HELLO = 0x01
    BUTTON = 0x02
    HEARTBEAT = 0x03
    ACK = 0x04
    HELLO_REQ = 0x81
    LED = 0x82
    BUZZ = 0x83
    HOST_ACK = 0x84


BOX_TYPES = frozenset({Msg.HELLO, Msg.BUTTON, Msg.HEARTBEAT, Msg.ACK})
HOST_TYPES = frozenset({Msg.HELLO_REQ, Msg.LED, Msg.BUZZ, Msg.HOST_ACK})

PRESS = 1
RELEASE = 2
LED_OFF, LED_ON, LED_SLOW, LED_FAST = 0, 1, 2, 3
LED_MODES = {"off": LED_OFF, "on": LED_ON, "slow": LED_SLOW, "fast": LED_FAST}


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor."""
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    """Consistent overhead byte stuffing: the result holds no zero byte."""
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block.clear()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out += block
                block.clear()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Inverse of :func:`cobs_encode`; raises ValueError on a malformed block."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError("zero byte inside a COBS frame")
        end = i + code
        if end > n:
            raise ValueError("COBS block runs past the frame")
        block = data[i + 1 : end]
        if 0 in block:
            raise ValueError("zero byte inside a COBS frame")
        out += block
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


@dataclass(frozen=True, slots=True)
class Frame:
    """One checked frame: its type, the sender's seq, and the payload."""

    type: int
    seq: int
    payload: bytes


def encode_frame(msg_type: int, seq: int, payload: bytes = b"") -> bytes:
    """The bytes on the wire for one message, delimiter included."""
    if len(payload) > PAYLOAD_MAX:
        raise ValueError(f"payload of {len(payload)} bytes is over {PAYLOAD_MAX}")
    head = bytes((msg_type & 0xFF, seq & 0xFF, len(payload))) + payload
    return cobs_encode(head + struct.pack("<H", crc16(head))) + b"\x00"


class Packetizer:
    """Turns a byte stream into checked frames; counts and skips anything malformed.

    Feed it raw bytes in any chunking. A bad frame is dropped with its reason counted in
    ``drops`` and decoding resumes after the next ``0x00``. Empty frames (two delimiters in a
    row) are padding, not errors. It never raises on input.
    """

    def __init__(self, accept: frozenset[int]) -> None:
        self.accept = accept
        self.drops: Counter[str] = Counter()
        self.frames = 0
        self._buf = bytearray()
        self._overflow = False

    @property
    def dropped(self) -> int:
        return sum(self.drops.values())

    def reset(self) -> None:
        """Forgets a half-received frame (after reopening the port)."""
        self._buf.clear()
        self._overflow = False

    def feed(self, data: bytes) -> list[Frame]:
        frames: list[Frame] = []
        start = 0
        while True:
            end = data.find(0, start)
            if end < 0:
                self._take(data[start:])
                return frames
            self._take(data[start:end])
            frame = self._finish()
            if frame is not None:
                frames.append(frame)
            start = end + 1

    def _take(self, chunk: bytes) -> None:
        if self._overflow:
            return
        self._buf += chunk
        if len(self._buf) > ENCODED_MAX:
            self._overflow = True
            self._buf.clear()

    def _finish(self) -> Frame | None:
        raw, overflow = bytes(self._buf), self._overflow
        self.reset()
        if overflow:
            self.drops["too_long"] += 1
            return None
        if not raw:
            return None
        try:
            body = cobs_decode(raw)
        except ValueError:
            self.drops["cobs"] += 1
            return None
        if len(body) > BODY_MAX:
            self.drops["too_long"] += 1
            return None
        if len(body) < OVERHEAD or body[2] != len(body) - OVERHEAD:
            self.drops["length"] += 1
            return None
        if crc16(body[:-2]) != struct.unpack_from("<H", body, len(body) - 2)[0]:
            self.drops["crc"] += 1
            return None
        if body[0] not in self.accept:
            self.drops["type"] += 1
            return None
        self.frames += 1
        return Frame(body[0], body[1], bytes(body[HEADER:-2]))


# Payload builders and parsers, one per message. Parsers raise ValueError on a bad payload.


def hello_payload(buttons: int, firmware: str) -> bytes:
    name = firmware.encode("ascii")[:FIRMWARE_NAME_MAX]
    return bytes((PROTOCOL_VERSION, buttons)) + name


@dataclass(frozen=True, slots=True)
class Hello:
    protocol: int
    buttons: int
    firmware: str


def parse_hello(payload: bytes) -> Hello:
    """A HELLO: its protocol version is read first, whatever follows (a box of another
    version is told apart and refused, not taken for a garbled frame), and a firmware name
    longer than the contract's 16 bytes is cut short rather than the box refused for it."""
    if len(payload) < 2:
        raise ValueError("HELLO payload size")
    return Hello(payload[0], payload[1], payload[2:2 + FIRMWARE_NAME_MAX].decode("ascii", "replace"))


def button_payload(button: int, event: int, t_ms: int) -> bytes:
    return struct.pack("<BBI", button, event, t_ms & 0xFFFFFFFF)


def parse_button(payload: bytes) -> tuple[int, int, int]:
    if len(payload) != 6:
        raise ValueError("BUTTON payload size")
    button, event, t_ms = struct.unpack("<BBI", payload)
    if event not in (PRESS, RELEASE):
        raise ValueError("BUTTON event")
    return button, event, t_ms


def heartbeat_payload(uptime_ms: int, dropped: int) -> bytes:
    return struct.pack("<IH", uptime_ms & 0xFFFFFFFF, min(dropped, 0xFFFF))


def parse_heartbeat(payload: bytes) -> tuple[int, int]:
    if len(payload) != 6:
        raise ValueError("HEARTBEAT payload size")
    uptime, dropped = struct.unpack("<IH", payload)
    return uptime, dropped


def parse_ack(payload: bytes) -> int:
    if len(payload) != 1:
        raise ValueError("ACK payload size")
    return payload[0]


def led_payload(button: int, mode: int) -> bytes:
    return bytes((button, mode))


def buzz_payload(ms: int) -> bytes:
    return struct.pack("<H", ms)
