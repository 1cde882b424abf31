"""A reference button box in Python: the box side of the protocol, for tests and demos.

``ReferenceBox`` follows the same rules as the firmware (``hardware/firmware/src/main.c``):
HELLO at power-up and on HELLO_REQ, seq restarted after each HELLO, BUTTON events queued (16)
and sent one at a time, the head re-sent every 100 ms with the same seq until acknowledged
(10 tries, then dropped and counted), HEARTBEAT every 1000 ms, LED and BUZZ applied once per
host seq (the last of each kind remembered apart) and acknowledged. Like the host side it has no I/O and takes the time (ms) as an
argument. ``PtyBox`` runs one behind a pseudo-terminal on a thread, so the threaded bridge can
be tested without simavr.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections import deque
from dataclasses import dataclass

from firmware_bridge.protocol import (
    HOST_TYPES,
    LED_FAST,
    PRESS,
    RELEASE,
    Frame,
    Msg,
    Packetizer,
    button_payload,
    encode_frame,
    heartbeat_payload,
    hello_payload,
)

QUEUE_SIZE = 16
RESEND_MS = 100
MAX_TRIES = 10
HEARTBEAT_MS = 1000


@dataclass
class _Edge:
    button: int
    event: int
    t_ms: int


class ReferenceBox:
    """The box side of the protocol, driven by calls instead of pins and a timer."""

    def __init__(self, buttons: int = 10, firmware: str = "refbox 1.0") -> None:
        self.buttons = buttons
        self.firmware = firmware
        self.packetizer = Packetizer(HOST_TYPES)
        self.power_up(0)

    def power_up(self, now_ms: int) -> None:
        """Everything back to its reset state, then a delimiter and a HELLO."""
        self.packetizer.reset()
        self.leds = [0] * max(self.buttons - 2, 0)
        self.buzz_until = 0
        self.dropped = 0
        self.sent_buttons: list[tuple[int, int]] = []  # (seq, try) of every BUTTON sent
        self._queue: deque[_Edge] = deque()
        self._in_flight = False
        self._head_seq = 0
        self._tries = 0
        self._sent_at = 0
        self._seq = 0
        self._last_host: dict[int, int] = {}
        self._next_heartbeat = now_ms + HEARTBEAT_MS
        self._out = bytearray(b"\x00")
        self._hello()

    # --- the world around the box -----------------------------------------------------------

    def press(self, button: int, now_ms: int) -> None:
        self._edge(button, PRESS, now_ms)

    def release(self, button: int, now_ms: int) -> None:
        self._edge(button, RELEASE, now_ms)

    def receive(self, data: bytes, now_ms: int) -> None:
        before = self.packetizer.dropped
        for frame in self.packetizer.feed(data):
            self._handle(frame, now_ms)
        self.dropped += self.packetizer.dropped - before

    def tick(self, now_ms: int) -> None:
        self._service(now_ms)
        if now_ms >= self._next_heartbeat:
            self._next_heartbeat = now_ms + HEARTBEAT_MS
            self._send(Msg.HEARTBEAT, self._next(), heartbeat_payload(now_ms, self.dropped))

    def take_output(self) -> bytes:
        out = bytes(self._out)
        self._out.clear()
        return out

    @property
    def pending(self) -> int:
        """Events not yet acknowledged by the host."""
        return len(self._queue)

    # --- internals --------------------------------------------------------------------------

    def _next(self) -> int:
        seq = self._seq
        self._seq = (self._seq + 1) & 0xFF
        return seq

    def _send(self, msg: int, seq: int, payload: bytes) -> None:
        self._out += encode_frame(msg, seq, payload)

    def _hello(self) -> None:
        self._seq = 0
        self._last_host = {}
        self._in_flight = False
        self._send(Msg.HELLO, self._next(), hello_payload(self.buttons, self.firmware))

    def _edge(self, button: int, event: int, now_ms: int) -> None:
        if len(self._queue) >= QUEUE_SIZE:
            self.dropped += 1
            return
        self._queue.append(_Edge(button, event, now_ms))
        self._service(now_ms)

    def _service(self, now_ms: int) -> None:
        if not self._queue:
            return
        if self._in_flight:
            if now_ms - self._sent_at < RESEND_MS:
                return
            if self._tries >= MAX_TRIES:
                self._queue.popleft()
                self._in_flight = False
                self.dropped += 1
                if not self._queue:
                    return
        if not self._in_flight:
            self._in_flight = True
            self._head_seq = self._next()
            self._tries = 0
        head = self._queue[0]
        self._tries += 1
        self._sent_at = now_ms
        self.sent_buttons.append((self._head_seq, self._tries))
        self._send(Msg.BUTTON, self._head_seq, button_payload(head.button, head.event, head.t_ms))

    def _handle(self, frame: Frame, now_ms: int) -> None:
        p = frame.payload
        if frame.type == Msg.HELLO_REQ and not p:
            self._hello()
            self._service(now_ms)
        elif frame.type == Msg.HOST_ACK and len(p) == 1:
            if self._in_flight and p[0] == self._head_seq:
                self._queue.popleft()
                self._in_flight = False
                self._service(now_ms)
        elif frame.type in (Msg.LED, Msg.BUZZ) and len(p) == 2:
            # the last LED and the last BUZZ applied, each by its own seq: a repeat of either
            # (its ack lost) is ignored even when a command of the other kind came between
            if self._last_host.get(frame.type) != frame.seq:
                self._last_host[frame.type] = frame.seq
                if frame.type == Msg.LED:
                    if p[0] < len(self.leds) and p[1] <= LED_FAST:
                        self.leds[p[0]] = p[1]
                else:
                    self.buzz_until = now_ms + int.from_bytes(p, "little")
            self._send(Msg.ACK, self._next(), bytes((frame.seq,)))
        else:
            self.dropped += 1


class PtyBox:
    """A ReferenceBox served on a pseudo-terminal by a thread; ``path`` is the port to open."""

    def __init__(self, buttons: int = 10) -> None:
        self.box = ReferenceBox(buttons)
        self._master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(self._master, False)  # a host that stops reading must not stall us
        self.path = os.ttyname(slave)
        self._slave = slave  # kept open so the pty survives the host closing its side
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._start = time.monotonic()
        #: Set once the host wrote anything (it opened the port): a test presses after it,
        #: since a press the box gives up on (ten tries, a second) before any host reads is
        #: dropped, as the protocol says
        self.heard = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ptybox", daemon=True)
        self._thread.start()

    def now_ms(self) -> int:
        return int((time.monotonic() - self._start) * 1000)

    def press(self, button: int) -> None:
        with self._lock:
            self.box.press(button, self.now_ms())

    def release(self, button: int) -> None:
        with self._lock:
            self.box.release(button, self.now_ms())

    def _run(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master], [], [], 0.005)
            with self._lock:
                now = self.now_ms()
                if ready:
                    try:
                        data = os.read(self._master, 4096)
                    except OSError:
                        data = b""
                    if data:
                        self.heard.set()
                    self.box.receive(data, now)
                self.box.tick(now)
                out = self.box.take_output()
            if out:
                try:
                    os.write(self._master, out)
                except OSError:
                    pass

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> PtyBox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
