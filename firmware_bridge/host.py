"""The host side of the button box protocol as a state machine with no I/O and no clock of its own.

Feed it received bytes and the time (``receive``, ``tick``); take the bytes to send
(``take_output``) and the events for the game (``take_events``). ``ButtonBox`` wraps it with a
port and a thread; tests drive it directly against the reference box with a fake clock.

Rules, from the spec: acknowledge every BUTTON frame, repeats included; deliver each one once
(a repeat among the last 16 delivered is ignored); link up on HELLO, down after 3 s without a
valid frame; HELLO_REQ after (re)opening the port.

The link is up once any valid frame arrives after opening (a lost HELLO must not keep the game
paused). HELLO_REQ is repeated every second only while nothing at all has been heard since
opening: a HELLO makes the box renumber an event that may already have been delivered, so the
host asks for one only when the box might have restarted. The host's own seq restarts only
on a HELLO, so commands after a reopen whose HELLO_REQ was lost never reuse a seq the box
just saw. LED and BUZZ are re-sent every 100 ms until
the box acknowledges them (10 tries), and the LED modes are sent again whenever the link comes
up, so a box that restarted shows what the game last asked for.

A repeat is recognised by its seq *and* its payload (button, edge, box time): the box's seq is
shared with heartbeats and acks and wraps every 256 frames, so a seq alone could match a new
event after a quiet spell.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from firmware_bridge.events import BoxEvent, ButtonEvent, LinkEvent
from firmware_bridge.protocol import (
    BOX_TYPES,
    LED_FAST,
    LED_OFF,
    PRESS,
    PROTOCOL_VERSION,
    Frame,
    Hello,
    Msg,
    Packetizer,
    buzz_payload,
    encode_frame,
    led_payload,
    parse_ack,
    parse_button,
    parse_heartbeat,
    parse_hello,
)

DEDUP_WINDOW = 16


@dataclass
class LinkStats:
    """Counters worth showing on a diagnostics screen."""

    events: int = 0
    repeats: int = 0
    bad_payloads: int = 0
    commands_unacked: int = 0
    box_dropped: int = 0
    box_uptime_ms: int = 0
    hellos: int = 0
    opens: int = 0


@dataclass
class _Pending:
    frame: bytes
    tries: int
    sent_at: float


@dataclass
class HostProtocol:
    """Link tracking, acknowledgement and de-duplication for one box."""

    lost_after: float = 3.0
    resend_after: float = 0.1
    max_tries: int = 10
    hello_every: float = 1.0
    stats: LinkStats = field(default_factory=LinkStats)

    def __post_init__(self) -> None:
        self.packetizer = Packetizer(BOX_TYPES)
        self.up = False
        self.box: Hello | None = None
        self.want_reopen = False
        self.leds: dict[int, int] = {}
        self._seq = 0
        self._out = bytearray()
        self._events: list[BoxEvent] = []
        self._delivered: deque[tuple[int, bytes]] = deque(maxlen=DEDUP_WINDOW)
        self._pending: dict[int, _Pending] = {}
        self._last_valid = 0.0
        self._last_hello_req = 0.0
        self._heard = False  # any valid frame since the port was opened
        self._refused = False  # the box said HELLO with another protocol version

    # --- what the owner of the port calls -------------------------------------------------

    def opened(self, now: float) -> None:
        """The port was (re)opened: forget half frames, start counting again, ask for HELLO."""
        self.stats.opens += 1
        self.want_reopen = False
        self.packetizer.reset()
        self._pending.clear()
        self._heard = False
        self._refused = False
        self._last_valid = now
        self._hello_req(now)

    def closed(self) -> None:
        """The port failed or was closed."""
        self._set_down()

    def receive(self, data: bytes, now: float) -> None:
        for frame in self.packetizer.feed(data):
            self._last_valid = now
            self._heard = True
            try:
                self._handle(frame, now)
            except ValueError:
                self.stats.bad_payloads += 1
                continue
            if not self.up and not self._refused:
                self._set_up(now)

    def tick(self, now: float) -> None:
        if now - self._last_valid >= self.lost_after:
            self._set_down()
            self.want_reopen = True
            self._last_valid = now
        if not self._heard and now - self._last_hello_req >= self.hello_every:
            self._hello_req(now)
        for seq, p in list(self._pending.items()):
            if now - p.sent_at < self.resend_after:
                continue
            if p.tries >= self.max_tries:
                del self._pending[seq]
                self.stats.commands_unacked += 1
                continue
            p.tries += 1
            p.sent_at = now
            self._out += p.frame

    def take_output(self) -> bytes:
        out = bytes(self._out)
        self._out.clear()
        return out

    def take_events(self) -> list[BoxEvent]:
        events, self._events = self._events, []
        return events

    @property
    def dropped(self) -> int:
        """Frames this side dropped: malformed ones plus well-framed ones with a bad payload."""
        return self.packetizer.dropped + self.stats.bad_payloads

    # --- commands from the game -------------------------------------------------------------

    def led(self, button: int, mode: int, now: float) -> None:
        if not 0 <= button <= 255 or not LED_OFF <= mode <= LED_FAST:
            raise ValueError(f"no LED mode {mode} for button {button}")
        self.leds[button] = mode
        if self.up:
            self._command(Msg.LED, led_payload(button, mode), now)

    def buzz(self, ms: int, now: float) -> None:
        if not 0 <= ms <= 0xFFFF:
            raise ValueError(f"buzz of {ms} ms is out of range")
        if self.up:  # a buzz that comes late is worse than none
            self._command(Msg.BUZZ, buzz_payload(ms), now)

    # --- internals --------------------------------------------------------------------------

    def _next_seq(self) -> int:
        seq = self._seq
        self._seq = (self._seq + 1) & 0xFF
        return seq

    def _send(self, msg: int, payload: bytes, seq: int | None = None) -> bytes:
        """Queues one frame after a lone delimiter (an empty frame, which receivers skip).

        Line noise just before the frame then ends as a bad frame of its own instead of
        spoiling this one. Returns the bytes, for re-sending.
        """
        frame = b"\x00" + encode_frame(msg, self._next_seq() if seq is None else seq, payload)
        self._out += frame
        return frame

    def _hello_req(self, now: float) -> None:
        self._last_hello_req = now
        self._send(Msg.HELLO_REQ, b"")

    def _command(self, msg: int, payload: bytes, now: float) -> None:
        seq = self._next_seq()
        frame = self._send(msg, payload, seq)
        self._pending[seq] = _Pending(frame, 1, now)

    def _set_down(self) -> None:
        if self.up:
            self.up = False
            self._events.append(LinkEvent("down"))

    def _handle(self, frame: Frame, now: float) -> None:
        if frame.type == Msg.BUTTON:
            button, edge, t_ms = parse_button(frame.payload)
            self._send(Msg.HOST_ACK, bytes((frame.seq,)))
            key = (frame.seq, frame.payload)
            if key in self._delivered:
                self.stats.repeats += 1
                return
            self._delivered.append(key)
            self.stats.events += 1
            self._events.append(ButtonEvent(button, "press" if edge == PRESS else "release", t_ms))
        elif frame.type == Msg.HEARTBEAT:
            self.stats.box_uptime_ms, self.stats.box_dropped = parse_heartbeat(frame.payload)
        elif frame.type == Msg.ACK:
            self._pending.pop(parse_ack(frame.payload), None)
        elif frame.type == Msg.HELLO:
            self._on_hello(parse_hello(frame.payload), now)

    def _on_hello(self, hello: Hello, now: float) -> None:
        self.stats.hellos += 1
        if hello.protocol != PROTOCOL_VERSION:
            self._refused = True
            self._set_down()
            raise ValueError(f"box speaks protocol {hello.protocol}")
        self.box = hello
        # Both counters start again after a HELLO; old acks can no longer be matched.
        self._seq = 0
        self._pending.clear()
        self._delivered.clear()
        if self.up:
            self._resync_leds(now)  # the box restarted on its own
        else:
            self._set_up(now)

    def _set_up(self, now: float) -> None:
        self.up = True
        self._events.append(LinkEvent("up"))
        self._resync_leds(now)

    def _resync_leds(self, now: float) -> None:
        for button, mode in sorted(self.leds.items()):
            if mode != LED_OFF:
                self._command(Msg.LED, led_payload(button, mode), now)
