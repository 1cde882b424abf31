"""Port faults on purpose: a wrapper around a serial port that fails at chosen steps of the
protocol, for the tests and the benchmark that prove nothing is lost or doubled.

``PortFaults`` is shared by every port a ``ButtonBox`` opens (pass ``faults.opener()`` as its
opener), so a fault plan can run across reopens. Steps fire in the order given, each once:

``event-read``
    the read that would bring a BUTTON frame fails instead (its bytes go with the port);
``ack-write``
    the write carrying the host's ACK fails, nothing written;
``ack-written``
    the write carrying the ACK reaches the box, then fails (the host cannot know it arrived);
``read-after-ack``
    the first read after an ACK was written fails;
``hello-req-write``
    the write carrying a HELLO_REQ fails (after a reopen: the reopen itself goes wrong);
``lose-hello`` / ``corrupt-hello``
    a HELLO from the box is taken off the line, or arrives with a damaged byte.

``swallow_writes`` makes every write vanish without an error: a host-to-box line so saturated
that nothing the host sends gets through.
"""

from __future__ import annotations

from collections.abc import Iterable

import serial

from firmware_bridge.link import Opener, SerialPort, open_serial
from firmware_bridge.protocol import BOX_TYPES, HOST_TYPES, Msg, Packetizer, cobs_decode

STEPS = (
    "event-read",
    "ack-write",
    "ack-written",
    "read-after-ack",
    "hello-req-write",
    "lose-hello",
    "corrupt-hello",
)


def _types(data: bytes, accept: frozenset[int]) -> set[int]:
    return {frame.type for frame in Packetizer(accept).feed(data)}


def _frame_type(raw: bytes) -> int | None:
    """The type byte of one encoded frame (without its delimiter), or None if it is no frame."""
    try:
        body = cobs_decode(raw)
    except ValueError:
        return None
    return body[0] if body else None


class PortFaults:
    """A plan of faults, run in order across every port opened through :meth:`opener`."""

    def __init__(self, steps: Iterable[str] = (), *, armed: bool = True) -> None:
        self.todo = list(steps)
        unknown = [s for s in self.todo if s not in STEPS]
        if unknown:
            raise ValueError(f"no such fault step: {unknown}")
        self.armed = armed
        self.swallow_writes = False
        self.fired: list[str] = []
        self.opens = 0

    @property
    def next_step(self) -> str | None:
        return self.todo[0] if self.armed and self.todo else None

    def fire(self, step: str) -> None:
        self.todo.pop(0)
        self.fired.append(step)

    def opener(self, inner: Opener = open_serial) -> Opener:
        def open_faulty(url: str) -> SerialPort:
            port = inner(url)
            self.opens += 1
            return FaultyPort(port, self)

        return open_faulty


class FaultyPort:
    """One opened port with the plan's faults applied (a ``SerialPort`` itself)."""

    def __init__(self, port: SerialPort, faults: PortFaults) -> None:
        self.port = port
        self.faults = faults
        self._frames = Packetizer(BOX_TYPES)  # what the host has been sent, to spot a BUTTON
        self._partial = bytearray()  # a frame not yet ended, held while HELLOs are tampered with
        self._ack_written = False

    @property
    def in_waiting(self) -> int:
        return self.port.in_waiting

    def read(self, size: int = 1, /) -> bytes:
        step = self.faults.next_step
        if step == "read-after-ack" and self._ack_written:
            self.faults.fire(step)
            raise serial.SerialException("injected: port lost after the ACK")
        data = self.port.read(size)
        step = self.faults.next_step
        if step == "event-read" and any(f.type == Msg.BUTTON for f in self._frames.feed(data)):
            self.faults.fire(step)
            raise serial.SerialException("injected: port lost while a BUTTON came in")
        if step in ("lose-hello", "corrupt-hello") or self._partial:
            data = self._tamper(data)
        return data

    def _tamper(self, data: bytes) -> bytes:
        """Whole frames only, with the next HELLO lost or damaged as planned."""
        self._partial += data
        out = bytearray()
        while (end := self._partial.find(0)) >= 0:
            raw = bytes(self._partial[:end])
            del self._partial[: end + 1]
            step = self.faults.next_step
            if step in ("lose-hello", "corrupt-hello") and _frame_type(raw) == Msg.HELLO:
                self.faults.fire(step)
                if step == "lose-hello":
                    continue
                damaged = bytearray(raw)
                damaged[len(damaged) // 2] ^= 0x5A  # a flipped byte: the CRC fails
                if 0 in damaged:
                    damaged[len(damaged) // 2] ^= 0x5A ^ 0x33
                raw = bytes(damaged)
            out += raw + b"\x00"
        if self.faults.next_step not in ("lose-hello", "corrupt-hello") and self._partial:
            out += self._partial  # nothing left to tamper with: let the rest through
            self._partial.clear()
        return bytes(out)

    def write(self, data: bytes, /) -> int | None:
        if self.faults.swallow_writes:
            return len(data)
        step = self.faults.next_step
        sent = _types(data, HOST_TYPES)
        if step == "ack-write" and Msg.HOST_ACK in sent:
            self.faults.fire(step)
            raise serial.SerialException("injected: the ACK could not be written")
        if step == "hello-req-write" and Msg.HELLO_REQ in sent:
            self.faults.fire(step)
            raise serial.SerialException("injected: the HELLO_REQ could not be written")
        written = self.port.write(data)
        if Msg.HOST_ACK in sent:
            self._ack_written = True
        if step == "ack-written" and Msg.HOST_ACK in sent:
            self.faults.fire(step)
            raise serial.SerialException("injected: the port failed after the ACK was written")
        return written

    def close(self) -> None:
        self.port.close()
