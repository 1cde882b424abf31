"""The host side of the button box protocol as a state machine with no I/O and no clock of its own.

Feed it received bytes and the time (``receive``, ``tick``); take the bytes to send
(``take_output``) and the events for the game (``take_events``). ``ButtonBox`` wraps it with a
port and a thread; tests drive it directly against the reference box with a fake clock.

Rules, from the spec: acknowledge every BUTTON frame, repeats included; deliver each event
once; link up on HELLO, down after 3 s without a valid frame; HELLO_REQ after (re)opening the
port. One exception keeps the first two rules from fighting: a BUTTON frame read while the
HELLO asked for is awaited is held, not acknowledged (below).

**The link is up only once a HELLO of protocol 1 has arrived since the port was opened.** Until
then the host asks again and again (HELLO_REQ after 0.25 s, then 0.5, 1 and every 2 s: a
bounded backoff), so a lost or corrupted HELLO costs a moment, never the box's MENU and OK:
the game learns the button count, and with it which buttons are MENU and OK, in the same
breath as "up". BUTTON frames that come before the HELLO are held, then delivered right after
the "up" (nothing is lost while the host waits), and not acknowledged: they are in the box's
numbering from before the HELLO_REQ, and an ACK of one would reach the box after its HELLO
renumbered its queue and could take off another event that then holds that seq (one the host
may never have had). The box sends each again after its HELLO, and that repeat is
acknowledged; should it give up first (the HELLO_REQ lost for over a second), it counts a
drop, but the host has the event all the same. A box that says HELLO
with another protocol version is refused: nothing it sends is delivered or acknowledged, and
the host stops asking until the port is reopened.

**Each event is delivered once, across reopens too.** A HELLO makes the box renumber the
event it has in flight, so a seq cannot tell an event delivered before a reopen (whose ACK
was lost with the port) from a new one. The event itself can: its button, edge and box time
(``t_ms``) name it for the whole run of the box (the box stamps one edge per button per
millisecond at most). The host remembers the last 64 events it delivered by that key, keeps
them across reopens and HELLOs, and acknowledges but ignores any BUTTON frame whose event it
already delivered. The memory is cleared only when the box has evidently restarted (its
clock went back: a HEARTBEAT with a smaller uptime than the last one, or a HELLO the host did
not ask for in the last 3 s), since a new run of the box counts its time from zero again; a
restart seen only at a heartbeat keeps the events delivered since the heartbeat before it
that the box stamped no later than its new uptime (the new run's, whose re-sends are still
repeats). Before the HELLO, events are held for the game (64 at most); one that finds the hold
full is counted and left for the box to send again.

LED and BUZZ are re-sent every 100 ms until the box acknowledges them (10 tries), and the LED
modes are sent again whenever the link comes up, so a box that restarted shows what the game
last asked for. The host's own seq restarts only on a HELLO, so commands after a reopen never
reuse a seq the box just saw.
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

#: Events remembered by (button, edge, t_ms) to recognise a repeat, even renumbered.
DEDUP_WINDOW = 64
#: BUTTON events held while the host waits for the box's HELLO (more are counted as lost).
HOLD_MAX = 64
#: HELLO_REQ backoff: the first repeat after this long, doubling up to ``HELLO_EVERY_MAX``.
HELLO_FIRST = 0.25
HELLO_EVERY_MAX = 2.0
#: The fewest buttons a box may name in its HELLO: one seat, then MENU and OK (the last two).
MIN_BUTTONS = 3

EventKey = tuple[int, int, int]  # button, edge, box time (ms)


@dataclass
class LinkStats:
    """Counters worth showing on a diagnostics screen."""

    events: int = 0
    repeats: int = 0
    bad_payloads: int = 0
    commands_unacked: int = 0
    box_dropped: int = 0  # the box's own count, from its last HEARTBEAT
    box_uptime_ms: int = 0
    box_restarts: int = 0  # runs of the box seen to end (its clock went back)
    hellos: int = 0
    hello_reqs: int = 0
    opens: int = 0
    refused_frames: int = 0  # frames from a box of another protocol, ignored
    held_full: int = 0  # events that came before a HELLO with the hold full: left for the box


@dataclass
class _Pending:
    frame: bytes
    tries: int
    sent_at: float
    #: What the command sets (an LED's button, or the buzzer): a newer command for the same
    #: thing replaces it, so a re-send of the old one never undoes the new one on the box.
    sets: tuple[int, int] = (0, 0)
    #: A buzz re-sent after it would have ended sounds late: it is given up then (None: never).
    until: float | None = None


def _before(a: int, b: int) -> bool:
    """Box time ``a`` is earlier than ``b`` (u32 milliseconds that wrap after 49 days)."""
    return a != b and ((b - a) & 0xFFFFFFFF) < 0x80000000


@dataclass
class HostProtocol:
    """Link tracking, acknowledgement and de-duplication for one box."""

    lost_after: float = 3.0
    resend_after: float = 0.1
    max_tries: int = 10
    hello_first: float = HELLO_FIRST
    hello_every_max: float = HELLO_EVERY_MAX
    stats: LinkStats = field(default_factory=LinkStats)

    def __post_init__(self) -> None:
        self.packetizer = Packetizer(BOX_TYPES)
        self.up = False
        self.box: Hello | None = None
        self.want_reopen = False
        self.leds: dict[int, int] = {}
        self._seq = 0
        #: the seq of the last LED and of the last BUZZ (by type): the box knows a repeat of
        #: either by its own last seq, however many frames ago it came
        self._last_command_seqs: dict[int, int] = {}
        self._out = bytearray()
        self._events: list[BoxEvent] = []
        self._delivered: deque[EventKey] = deque(maxlen=DEDUP_WINDOW)
        # the events delivered since the last heartbeat: when the next one shows the box's
        # clock went back, those it stamped before that new uptime may be the new run's
        self._since_heartbeat: deque[EventKey] = deque(maxlen=DEDUP_WINDOW)
        self._held: list[ButtonEvent] = []
        self._pending: dict[int, _Pending] = {}
        self._last_valid = 0.0
        self._last_hello_req = 0.0
        self._hello_wait = self.hello_first
        self._hello_ok = False  # a HELLO of our protocol since the port was opened
        self._refused = False  # the box said HELLO with another protocol version
        self._last_uptime: int | None = None

    # --- what the owner of the port calls -------------------------------------------------

    def opened(self, now: float) -> None:
        """The port was (re)opened: forget half frames, start counting again, ask for HELLO."""
        self.stats.opens += 1
        self.want_reopen = False
        self.packetizer.reset()
        self._pending.clear()
        # events held for a HELLO stay held: the box has their ACKs and will not send them again
        self._hello_ok = False
        self._refused = False
        self._last_valid = now
        self._hello_wait = self.hello_first
        self._hello_req(now)

    def closed(self) -> None:
        """The port failed or was closed."""
        self._set_down()

    def receive(self, data: bytes, now: float) -> None:
        for frame in self.packetizer.feed(data):
            self._last_valid = now
            try:
                self._handle(frame, now)
            except ValueError:
                self.stats.bad_payloads += 1

    def tick(self, now: float) -> None:
        if now - self._last_valid >= self.lost_after:
            self._set_down()
            self.want_reopen = True
            self._last_valid = now
        if not self._hello_ok and not self._refused and now - self._last_hello_req >= self._hello_wait:
            self._hello_req(now)
            self._hello_wait = min(self._hello_wait * 2, self.hello_every_max)
        for seq, p in list(self._pending.items()):
            if now - p.sent_at < self.resend_after:
                continue
            if p.until is not None and now >= p.until:
                del self._pending[seq]  # a buzz that would come late: not sent again
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

    @property
    def refused(self) -> bool:
        """The box on the port speaks another protocol version: nothing of it is delivered."""
        return self._refused

    # --- commands from the game -------------------------------------------------------------

    def led(self, button: int, mode: int, now: float) -> None:
        """Set a seat's LED. Kept for the box (and set again after a restart) whatever the
        box; sent only to a seat the box has (its HELLO named the buttons: the seats are all
        but the last two), since a box acknowledges an LED it has not and sets nothing."""
        if not 0 <= button <= 255 or not LED_OFF <= mode <= LED_FAST:
            raise ValueError(f"no LED mode {mode} for button {button}")
        self.leds[button] = mode
        if self.up and self._has_seat(button):
            self._command(Msg.LED, led_payload(button, mode), now, sets=(Msg.LED, button))

    def buzz(self, ms: int, now: float) -> None:
        if not 0 <= ms <= 0xFFFF:
            raise ValueError(f"buzz of {ms} ms is out of range")
        if self.up:  # a buzz that comes late is worse than none
            self._command(Msg.BUZZ, buzz_payload(ms), now, sets=(Msg.BUZZ, 0), until=now + ms / 1000)

    def _has_seat(self, button: int) -> bool:
        return self.box is None or button < self.box.buttons - 2

    # --- internals --------------------------------------------------------------------------

    def _next_seq(self) -> int:
        seq = self._seq
        self._seq = (self._seq + 1) & 0xFF
        return seq

    def _send(self, msg: int, payload: bytes, seq: int | None = None) -> bytes:
        """Queues one frame after a lone delimiter (an empty frame, which receivers skip).

        Line noise just before the frame then ends as a bad frame of its own instead of
        spoiling this one (``test_garbage_on_the_line_does_not_stop_the_reader``: without
        it, noise between the box's frames spoils the host's acks and the box's queue jams).
        Returns the bytes, for re-sending.
        """
        frame = b"\x00" + encode_frame(msg, self._next_seq() if seq is None else seq, payload)
        self._out += frame
        return frame

    def _hello_req(self, now: float) -> None:
        self._last_hello_req = now
        self.stats.hello_reqs += 1
        self._send(Msg.HELLO_REQ, b"")

    def _command(self, msg: int, payload: bytes, now: float, sets: tuple[int, int] = (0, 0),
                 until: float | None = None) -> None:
        for old, p in list(self._pending.items()):  # replaced: never re-sent after this one
            if p.sets == sets:
                del self._pending[old]
        seq = self._next_seq()
        while seq in self._last_command_seqs.values():
            # 256 frames (acks, mostly) since the last LED or the last BUZZ: the box, which
            # knows a repeat of each kind by its last seq, would take this new command for
            # that one (acknowledged, never done); the seq moves on
            seq = self._next_seq()
        self._last_command_seqs[msg] = seq
        frame = self._send(msg, payload, seq)
        self._pending[seq] = _Pending(frame, 1, now, sets, until)

    def _set_down(self) -> None:
        if self.up:
            self.up = False
            self._events.append(LinkEvent("down"))

    def _handle(self, frame: Frame, now: float) -> None:
        if frame.type == Msg.HELLO:
            self._on_hello(parse_hello(frame.payload), now)
        elif self._refused:
            self.stats.refused_frames += 1  # not our protocol: not even its acks are trusted
        elif frame.type == Msg.BUTTON:
            self._on_button(frame)
        elif frame.type == Msg.HEARTBEAT:
            uptime, dropped = parse_heartbeat(frame.payload)
            if self._last_uptime is not None and _before(uptime, self._last_uptime):
                # the box began a new run since the last heartbeat: the events delivered before
                # that heartbeat were the old run's; those since, stamped no later than this
                # uptime, may be the new run's, still to be told from their repeats
                self._box_restarted(keep=[k for k in self._since_heartbeat if not _before(uptime, k[2])])
                if self.up:
                    self._resync_leds(now)  # its LEDs went dark with the restart
            self._last_uptime = uptime
            self._since_heartbeat.clear()
            self.stats.box_uptime_ms, self.stats.box_dropped = uptime, dropped
        elif frame.type == Msg.ACK:
            self._pending.pop(parse_ack(frame.payload), None)

    def _on_button(self, frame: Frame) -> None:
        # After the HELLO every BUTTON frame is acknowledged, a bad one too (else the box
        # re-sends it for a second and holds every later press behind it); its payload is
        # judged after. Before it (the port just opened, its HELLO_REQ on the way) none is: a
        # frame read then is in the box's old numbering, and its ACK, reaching the box after
        # the HELLO renumbered its queue, could take off whichever event then holds that seq,
        # one the host may never have had. The event is held, once; the box sends it again
        # after its HELLO, renumbered, and that repeat is acknowledged (should the box give up
        # on it first, it counts a drop, but the host has it all the same).
        if not self._hello_ok and len(self._held) >= HOLD_MAX:
            self.stats.held_full += 1
            return
        if self._hello_ok:
            self._send(Msg.HOST_ACK, bytes((frame.seq,)))
        button, edge, t_ms = parse_button(frame.payload)
        if self._hello_ok and self.box is not None and button >= self.box.buttons:
            raise ValueError(f"button {button} on a box of {self.box.buttons}")
        key = (button, edge, t_ms)
        if key in self._delivered:
            self.stats.repeats += 1
            return
        event = ButtonEvent(button, "press" if edge == PRESS else "release", t_ms)
        if not self._hello_ok:
            self._held.append(event)
        else:
            self._events.append(event)
        self._delivered.append(key)
        self._since_heartbeat.append(key)
        self.stats.events += 1

    def _box_restarted(self, keep: list[EventKey] | None = None) -> None:
        """A new run of the box: its times start again from zero, so the old run's keys mean
        nothing (``keep``: the keys that may be the new run's)."""
        self.stats.box_restarts += 1
        self._delivered.clear()
        self._delivered.extend(keep or ())
        self._since_heartbeat.clear()
        self._last_uptime = None

    def _on_hello(self, hello: Hello, now: float) -> None:
        self.stats.hellos += 1
        if hello.protocol != PROTOCOL_VERSION:
            self._refused = True
            self._held.clear()
            self._pending.clear()
            self._set_down()
            raise ValueError(f"box speaks protocol {hello.protocol}")
        if hello.buttons < MIN_BUTTONS:
            raise ValueError(f"a box of {hello.buttons} buttons has no seat, MENU and OK")
        if self._hello_ok and now - self._last_hello_req > self.lost_after:
            # a HELLO nobody asked for lately: the box powered up again on its own
            self._box_restarted()
        self._refused = False
        self._hello_ok = True
        self.box = hello
        # Both counters start again after a HELLO; old acks can no longer be matched.
        self._seq = 0
        self._last_command_seqs.clear()
        self._pending.clear()
        if self.up:
            self._resync_leds(now)
        else:
            self._set_up(now)
        held, self._held = self._held, []
        self.stats.bad_payloads += sum(e.button >= hello.buttons for e in held)
        self._events += [e for e in held if e.button < hello.buttons]

    def _set_up(self, now: float) -> None:
        self.up = True
        self._events.append(LinkEvent("up"))
        self._resync_leds(now)

    def _resync_leds(self, now: float) -> None:
        """Every LED the game has set, off ones too: a box that kept its lights through a
        lost link still shows one turned off meanwhile."""
        for button, mode in sorted(self.leds.items()):
            if self._has_seat(button):
                self._command(Msg.LED, led_payload(button, mode), now, sets=(Msg.LED, button))
