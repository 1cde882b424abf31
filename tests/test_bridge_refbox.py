"""The host side against the reference box, joined by an in-memory cable and a fake clock.

No threads and no waiting: time is a number the test moves. The cable can lose whole frames
and add noise, so the retransmission and de-duplication rules are checked both ways.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.events import BoxEvent, ButtonEvent, LinkEvent
from firmware_bridge.host import HostProtocol
from firmware_bridge.protocol import (
    HOST_TYPES,
    LED_ON,
    LED_SLOW,
    PRESS,
    Msg,
    Packetizer,
    button_payload,
    encode_frame,
    heartbeat_payload,
    hello_payload,
    parse_heartbeat,
)
from firmware_bridge.refbox import ReferenceBox


def frames_of(data: bytes) -> list[bytes]:
    return [part + b"\x00" for part in data.split(b"\x00")[:-1]]


class Cable:
    """Host and reference box, with frame loss and noise chosen by a seeded random source.

    ``reopen_at``: milliseconds at which the host's port fails (what it was writing is lost,
    and what the box sent that moment) and is opened again, as ``ButtonBox`` does.
    ``hello_faults``: what happens to the box's next HELLOs, in order ("lose", "corrupt").
    """

    def __init__(self, loss: float = 0.0, noise: float = 0.0, seed: int = 0,
                 reopen_at: frozenset[int] = frozenset(), hello_faults: tuple[str, ...] = ()) -> None:
        self.host = HostProtocol()
        self.box = ReferenceBox()
        self.rng = random.Random(seed)
        self.loss = loss
        self.noise = noise
        self.reopen_at = reopen_at
        self.hello_faults = list(hello_faults)
        self.connected = True
        self.now_ms = 0
        self.events: list[BoxEvent] = []
        self.to_host: list[bytes] = []  # every frame the box sent, for inspection
        self.hello_reqs: list[int] = []  # when the host asked for HELLO (ms)
        self.host.opened(0.0)

    def _tamper_hellos(self, data: bytes) -> bytes:
        out = bytearray()
        for frame in frames_of(data):
            is_hello = Packetizer(frozenset({Msg.HELLO})).feed(frame) != []
            if is_hello and self.hello_faults:
                fault = self.hello_faults.pop(0)
                if fault == "lose":
                    continue
                frame = frame[:3] + bytes((frame[3] ^ 0x40 or 1,)) + frame[4:]  # CRC fails
            out += frame
        return bytes(out)

    def _carry(self, data: bytes) -> bytes:
        out = bytearray()
        for frame in frames_of(data):
            if self.rng.random() < self.noise:
                out += bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 12)))
            if self.rng.random() >= self.loss:
                out += frame
        return bytes(out)

    def run(self, ms: int) -> None:
        for _ in range(ms):
            self.now_ms += 1
            now_s = self.now_ms / 1000
            self.box.tick(self.now_ms)
            self.host.tick(now_s)
            down = self.host.take_output()
            up = self.box.take_output()
            self.to_host += frames_of(up)
            if Msg.HELLO_REQ in {f.type for f in Packetizer(HOST_TYPES).feed(down)}:
                self.hello_reqs.append(self.now_ms)
            if self.now_ms in self.reopen_at:  # the write fails: the port is closed, reopened
                self.host.closed()
                self.host.opened(now_s)
                self.events += self.host.take_events()
                continue
            up = self._tamper_hellos(up)
            if self.connected:
                self.box.receive(self._carry(down), self.now_ms)
                self.host.receive(self._carry(up), now_s)
            self.events += self.host.take_events()

    def buttons(self) -> list[tuple[int, str, int]]:
        return [(e.button, e.event, e.t_ms) for e in self.events if isinstance(e, ButtonEvent)]


def test_link_comes_up_on_hello() -> None:
    cable = Cable()
    cable.run(5)
    assert cable.events == [LinkEvent("up")]
    assert cable.host.box is not None and cable.host.box.buttons == 10


def test_presses_arrive_once_in_order() -> None:
    cable = Cable()
    cable.run(5)
    sent = []
    for i in range(40):
        button = i % 10
        cable.box.press(button, cable.now_ms)
        sent.append((button, "press", cable.now_ms))
        cable.run(3)
        cable.box.release(button, cable.now_ms)
        sent.append((button, "release", cable.now_ms))
        cable.run(3)
    cable.run(50)
    assert cable.buttons() == sent
    assert cable.box.pending == 0


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    loss=st.floats(0.0, 0.35),
    noise=st.floats(0.0, 0.3),
    gaps=st.lists(st.integers(0, 40), min_size=1, max_size=40),
)
def test_lossy_cable_never_duplicates_or_reorders(
    seed: int, loss: float, noise: float, gaps: list[int]
) -> None:
    cable = Cable(loss=loss, noise=noise, seed=seed)
    cable.run(200)
    sent = []
    for i, gap in enumerate(gaps):
        edge = (i % 10, "press" if i % 2 == 0 else "release", cable.now_ms)
        (cable.box.press if edge[1] == "press" else cable.box.release)(edge[0], cable.now_ms)
        sent.append(edge)
        cable.run(gap + 1)
    # Let the box finish: every queued edge is either acknowledged or given up (10 tries each),
    # and the host has its HELLO (edges that came before it are held until then).
    for _ in range(400):
        if not cable.box.pending and cable.host.up:
            break
        cable.run(100)
    assert cable.box.pending == 0 and cable.host.up
    got = cable.buttons()
    assert len(set(got)) == len(got), "an event was delivered twice"
    it = iter(sent)
    assert all(edge in it for edge in got), "events out of order"
    # What never arrived was given up by the box, and counted there.
    assert len(sent) - len(got) <= cable.box.dropped


def test_a_repeat_is_acknowledged_but_delivered_once() -> None:
    host = HostProtocol()
    host.opened(0.0)
    host.receive(encode_frame(Msg.HELLO, 0, hello_payload(10, "x")), 0.0)
    host.take_output()
    frame = encode_frame(Msg.BUTTON, 1, button_payload(4, 1, 500))
    host.receive(frame, 0.1)
    host.receive(frame, 0.2)
    acks = Packetizer(HOST_TYPES).feed(host.take_output())
    assert [(a.type, a.payload) for a in acks] == [(Msg.HOST_ACK, b"\x01")] * 2
    assert [e for e in host.take_events() if isinstance(e, ButtonEvent)] == [
        ButtonEvent(4, "press", 500)
    ]
    assert host.stats.repeats == 1


def test_a_wrapped_seq_is_not_mistaken_for_a_repeat() -> None:
    host = HostProtocol()
    host.opened(0.0)
    host.receive(encode_frame(Msg.HELLO, 0, hello_payload(10, "x")), 0.0)
    host.receive(encode_frame(Msg.BUTTON, 9, button_payload(1, 1, 100)), 0.0)
    host.receive(encode_frame(Msg.BUTTON, 9, button_payload(1, 2, 70_000)), 1.0)
    assert len([e for e in host.take_events() if isinstance(e, ButtonEvent)]) == 2


def test_box_resends_every_100ms_ten_times_then_counts_the_drop() -> None:
    box = ReferenceBox()
    box.take_output()
    box.press(2, 0)
    for t in range(1, 2500):
        box.tick(t)
    assert [n for _, n in box.sent_buttons] == list(range(1, 11))
    assert len({seq for seq, _ in box.sent_buttons}) == 1
    assert box.pending == 0 and box.dropped == 1
    beats = [f for f in Packetizer(frozenset({Msg.HEARTBEAT})).feed(box.take_output())]
    assert parse_heartbeat(beats[-1].payload) == (2000, 1)


def test_box_keeps_sixteen_events_and_counts_the_rest() -> None:
    box = ReferenceBox()
    for i in range(20):
        box.press(i % 10, 0)
    assert box.pending == 16 and box.dropped == 4


def test_heartbeats_keep_the_link_and_silence_drops_it() -> None:
    cable = Cable()
    cable.run(10_000)
    assert cable.events == [LinkEvent("up")]
    cable.connected = False
    cable.run(2_900)
    assert cable.events[-1] == LinkEvent("up")
    cable.run(1_200)
    assert cable.events[-1] == LinkEvent("down") and cable.host.want_reopen
    cable.connected = True
    cable.host.opened(cable.now_ms / 1000)  # what ButtonBox does after reopening the port
    cable.run(20)
    assert cable.events[-1] == LinkEvent("up")


def test_events_pending_across_a_hello_are_not_lost() -> None:
    cable = Cable()
    cable.run(5)
    cable.connected = False
    cable.box.press(3, cable.now_ms)
    cable.run(50)
    cable.connected = True
    cable.host.opened(cable.now_ms / 1000)
    cable.run(300)
    assert [b for b, _, _ in cable.buttons()] == [3]


def test_leds_are_applied_and_restored_after_the_box_restarts() -> None:
    cable = Cable()
    cable.run(5)
    cable.host.led(2, LED_ON, cable.now_ms / 1000)
    cable.host.led(5, LED_SLOW, cable.now_ms / 1000)
    cable.run(5)
    assert cable.box.leds[2] == LED_ON and cable.box.leds[5] == LED_SLOW
    cable.box.power_up(cable.now_ms)  # a power cut: the box forgets its LEDs
    assert cable.box.leds[2] == 0
    cable.run(5)
    assert cable.box.leds[2] == LED_ON and cable.box.leds[5] == LED_SLOW


def test_a_buzz_whose_ack_is_lost_sounds_once() -> None:
    cable = Cable()
    cable.run(5)
    cable.host.buzz(200, cable.now_ms / 1000)
    sent_at = cable.now_ms
    cable.loss = 1.0  # the box's ack never comes back; the host repeats the BUZZ…
    cable.box.receive(cable.host.take_output(), cable.now_ms)
    first = cable.box.buzz_until
    assert first == sent_at + 200
    cable.loss = 0.0
    cable.connected = False
    cable.run(150)
    cable.connected = True
    cable.run(120)  # …and the box acknowledges the repeat without buzzing again
    assert cable.box.buzz_until == first
    assert not cable.host._pending


def test_unacknowledged_commands_give_up_after_ten_tries() -> None:
    cable = Cable()
    cable.run(5)
    cable.connected = False
    cable.host.led(1, LED_ON, cable.now_ms / 1000)
    cable.run(1500)
    assert cable.host.stats.commands_unacked == 1


def test_a_box_of_another_protocol_version_is_refused() -> None:
    host = HostProtocol()
    host.opened(0.0)
    host.receive(encode_frame(Msg.HELLO, 0, bytes((2, 10)) + b"future"), 0.0)
    host.receive(encode_frame(Msg.HEARTBEAT, 1, bytes(6)), 0.5)
    assert not host.up and host.stats.bad_payloads == 1


def test_noise_from_the_host_is_counted_by_the_box() -> None:
    box = ReferenceBox()
    box.receive(b"\x13\x37garbage\x00" + encode_frame(0x99, 0), 5)
    assert box.dropped == 2


# --- nothing doubled across a reopen, HELLOs that get lost, a box of another protocol --------


def test_an_event_whose_ack_is_lost_with_the_port_is_delivered_once_after_the_reopen() -> None:
    cable = Cable()
    cable.run(5)
    cable.box.press(3, cable.now_ms)
    pressed_at = cable.now_ms
    # The BUTTON reaches the host, which delivers it; writing its ACK fails, so the port is
    # closed and opened again, and the host asks for HELLO. The box renumbers the event it
    # still holds and sends it again: the host must recognise it.
    cable.host.receive(cable.box.take_output(), cable.now_ms / 1000)
    cable.events += cable.host.take_events()
    cable.host.take_output()  # the ACK, lost with the port
    cable.host.closed()
    cable.host.opened(cable.now_ms / 1000)
    cable.run(500)
    assert cable.buttons() == [(3, "press", pressed_at)]
    assert cable.box.pending == 0 and cable.host.stats.repeats >= 1
    assert cable.events[-1] == LinkEvent("up")


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    reopens=st.sets(st.integers(201, 1400), max_size=12),
    gaps=st.lists(st.integers(0, 60), min_size=1, max_size=30),
)
def test_reopens_at_any_moment_never_double_or_reorder_an_event(
    seed: int, reopens: set[int], gaps: list[int]
) -> None:
    cable = Cable(seed=seed, reopen_at=frozenset(reopens))
    cable.run(200)
    sent = []
    for i, gap in enumerate(gaps):
        edge = (i % 10, "press" if i % 2 == 0 else "release", cable.now_ms)
        (cable.box.press if edge[1] == "press" else cable.box.release)(edge[0], cable.now_ms)
        sent.append(edge)
        cable.run(gap + 1)
    for _ in range(400):
        if not cable.box.pending and cable.host.up:
            break
        cable.run(100)
    got = cable.buttons()
    assert len(set(got)) == len(got), "an event was delivered twice"
    it = iter(sent)
    assert all(edge in it for edge in got), "events out of order"
    assert len(sent) - len(got) <= cable.box.dropped


def test_lost_and_corrupted_hellos_are_asked_for_again_with_a_bounded_backoff() -> None:
    # The power-up HELLO and the answer to the first HELLO_REQ are lost, the next one arrives
    # damaged: the host keeps asking (0.25 s, then 0.5, 1, 2, 2… s apart) until one arrives.
    cable = Cable(hello_faults=("lose", "lose", "corrupt", "lose", "corrupt", "lose"))
    cable.run(100)
    cable.box.press(4, cable.now_ms)  # OK on a 5-button box, a seat on this one: nobody knows yet
    pressed_at = cable.now_ms
    cable.run(3000)
    assert not cable.host.up and [e for e in cable.events if isinstance(e, ButtonEvent)] == []
    cable.run(3000)
    assert cable.host.up and cable.host.box is not None and cable.host.box.buttons == 10
    # asked on opening (sent on the first millisecond), then after each wait of the backoff
    assert cable.hello_reqs == [1, 250, 750, 1750, 3750, 5750]
    # the press that came before the HELLO is delivered once, after the "up"
    assert cable.events == [LinkEvent("up"), ButtonEvent(4, "press", pressed_at)]
    asked = len(cable.hello_reqs)
    cable.run(5000)
    assert len(cable.hello_reqs) == asked  # it stops asking once it knows


def test_heartbeats_alone_do_not_bring_the_link_up() -> None:
    host = HostProtocol()
    host.opened(0.0)
    for i in range(5):
        host.receive(encode_frame(Msg.HEARTBEAT, i, heartbeat_payload(1000 * (i + 1), 0)), i + 0.5)
        host.tick(i + 0.5)
    assert not host.up and host.take_events() == []
    host.receive(encode_frame(Msg.HELLO, 0, hello_payload(6, "x")), 5.0)
    assert host.take_events() == [LinkEvent("up")] and host.box is not None


def test_nothing_from_a_box_of_another_protocol_is_delivered() -> None:
    host = HostProtocol()
    host.opened(0.0)
    host.take_output()
    host.receive(encode_frame(Msg.HELLO, 0, bytes((2, 10)) + b"future"), 0.0)
    host.receive(encode_frame(Msg.BUTTON, 1, button_payload(4, 1, 500)), 0.1)
    host.receive(encode_frame(Msg.BUTTON, 2, button_payload(4, 2, 600)), 0.2)
    for t in range(1, 40):
        host.tick(t / 10)
    assert host.take_events() == [] and not host.up and host.refused
    assert Packetizer(HOST_TYPES).feed(host.take_output()) == []  # no ACK, no HELLO_REQ either
    assert host.stats.refused_frames == 2
    # reflashed and plugged in again: a box of protocol 1 is welcome
    host.opened(5.0)
    host.receive(encode_frame(Msg.HELLO, 0, hello_payload(10, "x")), 5.0)
    host.receive(encode_frame(Msg.BUTTON, 1, button_payload(4, 1, 700)), 5.1)
    assert host.take_events() == [LinkEvent("up"), ButtonEvent(4, "press", 700)]


def test_a_box_restart_is_noticed_and_its_new_events_are_not_taken_for_repeats() -> None:
    host = HostProtocol()
    host.opened(0.0)
    host.receive(encode_frame(Msg.HELLO, 0, hello_payload(10, "x")), 0.0)
    host.receive(encode_frame(Msg.BUTTON, 1, button_payload(4, 1, 700)), 0.1)
    host.receive(encode_frame(Msg.HEARTBEAT, 2, heartbeat_payload(2000, 0)), 1.0)
    # the box lost power and came back, its HELLO lost: its clock says so
    host.receive(encode_frame(Msg.HEARTBEAT, 0, heartbeat_payload(1000, 0)), 2.0)
    host.receive(encode_frame(Msg.BUTTON, 1, button_payload(4, 1, 700)), 2.1)
    presses = [e for e in host.take_events() if isinstance(e, ButtonEvent)]
    assert presses == [ButtonEvent(4, "press", 700)] * 2 and host.stats.box_restarts == 1


def test_events_held_for_a_hello_survive_a_reopen_before_it() -> None:
    host = HostProtocol()
    host.opened(0.0)
    host.receive(encode_frame(Msg.BUTTON, 1, button_payload(2, 1, 300)), 0.1)
    # held, not acknowledged before the HELLO (the box would have renumbered it by the time an
    # ACK came): the box sends it again, and the host has it should the box give up on it
    assert Msg.HOST_ACK not in {f.type for f in Packetizer(HOST_TYPES).feed(host.take_output())}
    host.closed()  # the port fails before any HELLO
    host.opened(0.5)
    host.receive(encode_frame(Msg.HELLO, 0, hello_payload(10, "x")), 0.6)
    assert host.take_events() == [LinkEvent("up"), ButtonEvent(2, "press", 300)]


def test_an_led_turned_off_while_the_link_was_down_is_off_when_it_comes_back() -> None:
    cable = Cable()
    cable.run(5)
    cable.host.led(2, LED_ON, cable.now_ms / 1000)
    cable.run(5)
    assert cable.box.leds[2] == LED_ON
    cable.connected = False  # the cable is pulled; the box keeps its lights
    cable.run(3500)
    assert not cable.host.up
    cable.host.led(2, 0, cable.now_ms / 1000)  # the turn moved on meanwhile
    cable.connected = True
    cable.host.closed()
    cable.host.opened(cable.now_ms / 1000)  # the port opened again, HELLO asked for
    cable.run(300)
    assert cable.host.up and cable.box.leds[2] == 0


def test_a_button_frame_with_a_bad_payload_is_acknowledged_all_the_same() -> None:
    host = HostProtocol()
    host.opened(0.0)
    host.receive(encode_frame(Msg.HELLO, 0, hello_payload(10, "box")), 0.0)
    host.take_output()
    host.receive(encode_frame(Msg.BUTTON, 7, bytes((1, 3, 0, 0, 0, 0))), 0.1)  # event 3: none
    acks = [f for f in Packetizer(HOST_TYPES).feed(host.take_output()) if f.type == Msg.HOST_ACK]
    assert [f.payload for f in acks] == [bytes((7,))]  # else the box re-sends it for a second
    assert host.stats.bad_payloads == 1 and not [e for e in host.take_events() if isinstance(e, ButtonEvent)]


def test_a_hello_is_judged_by_its_version_and_a_long_name_is_cut_short() -> None:
    host = HostProtocol()
    host.opened(0.0)
    host.receive(encode_frame(Msg.HELLO, 0, bytes((1, 10)) + b"a-very-long-firmware-name"), 0.0)
    assert host.up and host.box is not None and host.box.firmware == "a-very-long-firm"
    other = HostProtocol()
    other.opened(0.0)
    other.receive(encode_frame(Msg.HELLO, 0, bytes((2, 10)) + b"x" * 40), 0.0)  # a later box
    assert other.refused and not other.up


def test_a_command_256_frames_after_the_last_never_takes_its_seq() -> None:
    """The box knows a repeated LED or BUZZ by the last one's seq: a new command 256 frames
    (acks, mostly) later must not come with that seq, or the box ignores it as a repeat."""
    cable = Cable()
    cable.run(5)
    cable.host.led(1, LED_ON, cable.now_ms / 1000)
    cable.run(5)
    assert cable.box.leds[1] == LED_ON
    first = cable.host._last_command_seqs[Msg.LED]
    for i in range(255):  # 255 presses acknowledged: the host's seq comes round again
        cable.box.press(i % 3, cable.now_ms)
        cable.run(2)
    cable.run(20)
    assert cable.host._seq == first  # the next frame would take the last command's seq
    cable.host.led(1, 0, cable.now_ms / 1000)
    cable.run(10)
    assert cable.box.leds[1] == 0 and cable.host._last_command_seqs[Msg.LED] != first


def test_a_command_never_takes_the_seq_of_the_last_command_of_the_other_kind() -> None:
    """The box keeps the last LED's seq and the last BUZZ's apart: an LED, a BUZZ, 254 frames,
    and the next LED came with the last LED's seq (the host avoided only its last command's,
    the BUZZ's): the box acknowledged it as a repeat and the LED stayed lit."""
    cable = Cable()
    cable.run(5)
    cable.host.led(0, LED_ON, cable.now_ms / 1000)
    cable.run(5)
    cable.host.buzz(30, cable.now_ms / 1000)
    cable.run(50)
    led_seq = cable.host._last_command_seqs[Msg.LED]
    presses = 0
    while (cable.host._seq - led_seq) % 256 != 0:  # acks until the LED's seq comes round
        cable.box.press(presses % 3, cable.now_ms)
        presses += 1
        cable.run(2)
        assert presses < 400
    cable.run(20)
    cable.host.led(0, 0, cable.now_ms / 1000)
    cable.run(10)
    assert cable.box.leds[0] == 0 and cable.host.leds[0] == 0
    assert cable.host._last_command_seqs[Msg.LED] != led_seq


def test_an_led_whose_ack_is_lost_is_never_undone_by_its_own_re_send() -> None:
    """The box knows a repeat by the last command's seq only: the host must not re-send an
    LED command a newer one for the same LED replaced (the old "on" would win on the box)."""
    cable = Cable()
    cable.run(5)
    cable.host.led(0, LED_ON, cable.now_ms / 1000)
    cable.loss = 1.0  # the box applies it; its ack is lost
    cable.box.receive(cable.host.take_output(), cable.now_ms)
    assert cable.box.leds[0] == LED_ON
    cable.loss = 0.0
    cable.host.led(0, 0, cable.now_ms / 1000)  # then turned off, before any re-send
    cable.run(400)  # past several re-send times
    assert cable.box.leds[0] == 0 and cable.host.leds[0] == 0
    assert not cable.host._pending


def test_a_buzz_is_not_sent_again_once_it_would_have_ended() -> None:
    cable = Cable()
    cable.run(5)
    cable.connected = False  # the line is out for longer than the buzz
    cable.host.buzz(150, cable.now_ms / 1000)
    cable.run(400)
    cable.connected = True
    cable.run(300)
    assert cable.box.buzz_until == 0  # no buzz long after the moment it was for
    assert not cable.host._pending and cable.host.stats.commands_unacked == 0


def test_a_box_naming_too_few_buttons_or_a_button_it_has_not_is_refused() -> None:
    host = HostProtocol()
    host.opened(0.0)
    host.receive(encode_frame(Msg.HELLO, 0, hello_payload(2, "box")), 0.0)  # no seat at all
    assert not host.up and host.stats.bad_payloads == 1
    host.receive(encode_frame(Msg.HELLO, 1, hello_payload(6, "box")), 0.1)
    assert host.up and host.box is not None and host.box.buttons == 6
    host.take_events()
    host.receive(encode_frame(Msg.BUTTON, 2, button_payload(200, PRESS, 5)), 0.2)
    host.receive(encode_frame(Msg.BUTTON, 3, button_payload(5, PRESS, 6)), 0.2)  # its OK
    assert [e.button for e in host.take_events() if isinstance(e, ButtonEvent)] == [5]
    assert host.stats.bad_payloads == 2
    acks = [f.payload for f in Packetizer(HOST_TYPES).feed(host.take_output()) if f.type == Msg.HOST_ACK]
    assert acks == [bytes((2,)), bytes((3,))]  # both acknowledged: the box moves on


def test_an_led_for_a_seat_the_box_has_not_is_kept_but_not_sent() -> None:
    host = HostProtocol()
    host.opened(0.0)
    host.receive(encode_frame(Msg.HELLO, 0, hello_payload(6, "box")), 0.0)  # seats 0-3
    host.take_output()
    host.led(4, LED_ON, 0.1)  # button 4 is the box's MENU
    host.led(3, LED_ON, 0.1)
    sent = [f.payload for f in Packetizer(HOST_TYPES).feed(host.take_output()) if f.type == Msg.LED]
    assert sent == [bytes((3, LED_ON))] and host.leds == {4: LED_ON, 3: LED_ON}


# --- found by a fault review: a restart seen late, a full hold


def _joined(drop_acks: list[bool]) -> tuple[HostProtocol, ReferenceBox, list[int], list[int], Callable[..., None]]:
    """Host and box stepped a millisecond at a time by hand (``step``), the host's acks to
    the box dropped while ``drop_acks[0]``; ``boot[0]`` is the host time the box's clock began."""
    host, box = HostProtocol(), ReferenceBox()
    now, boot = [0], [0]

    def step(n: int = 1) -> None:
        for _ in range(n):
            now[0] += 1
            host.tick(now[0] / 1000)
            box.tick(now[0] - boot[0])
            down = host.take_output()
            if not drop_acks[0]:
                box.receive(down, now[0] - boot[0])
            host.receive(box.take_output(), now[0] / 1000)

    return host, box, now, boot, step


def _a_run_then_a_yank(host: HostProtocol, box: ReferenceBox, now: list[int], boot: list[int],
                       step: Callable[..., None]) -> None:
    """A press and release in a run of the box over a second long, then the cable out for
    300 ms (the port closed)."""
    host.opened(0.0)
    step(20)
    box.press(0, now[0] - boot[0])
    step(60)
    box.release(0, now[0] - boot[0])
    step(5000)
    host.closed()
    now[0] += 300


def test_a_press_of_a_box_that_restarted_is_delivered_once_though_the_restart_is_seen_late() -> None:
    """A yanked cable that cut the box's power: the host asked for the HELLO after reopening,
    so the restart shows only at the next heartbeat; a press of the new run whose ack was lost
    and is sent again after that heartbeat is still a repeat."""
    drop = [False]
    host, box, now, boot, step = _joined(drop)
    _a_run_then_a_yank(host, box, now, boot, step)
    boot[0] = now[0]
    box.power_up(0)
    box.take_output()  # its power-up HELLO lost while the port opened
    host.opened(now[0] / 1000)
    step(50)
    step(950 - (now[0] - boot[0]))
    box.press(3, now[0] - boot[0])  # at 950 ms of the new run
    drop[0] = True
    step(5)  # its ack is lost
    drop[0] = False
    step(400)  # the heartbeat at 1000 ms shows the restart; the press is sent again
    got = [(e.button, e.event, e.t_ms) for e in host.take_events() if isinstance(e, ButtonEvent)]
    assert got.count((3, "press", 950)) == 1 and host.stats.box_restarts == 1


def test_before_the_hello_events_are_held_up_to_a_bound_and_none_is_acknowledged() -> None:
    """Before the HELLO the host holds events for the game and acknowledges none (the box
    keeps each and sends it again after its HELLO); past ``HOLD_MAX`` held it counts them."""
    from firmware_bridge.host import HOLD_MAX

    host = HostProtocol()
    host.opened(0.0)
    frames = [encode_frame(Msg.BUTTON, i % 256, button_payload(0, PRESS if i % 2 == 0 else 2, 100 + i))
              for i in range(HOLD_MAX + 3)]
    for frame in frames:
        host.receive(frame, 0.01)
    acks = [f for f in frames_of(host.take_output()) if Packetizer(HOST_TYPES).feed(f)
            and Packetizer(HOST_TYPES).feed(f)[0].type == Msg.HOST_ACK]
    assert acks == [] and host.stats.held_full == 3
    host.receive(encode_frame(Msg.HELLO, 0, hello_payload(10, "x")), 0.02)
    assert len([e for e in host.take_events() if isinstance(e, ButtonEvent)]) == HOLD_MAX


def test_a_press_held_for_a_hello_is_delivered_once_when_the_restart_shows_before_the_hello() -> None:
    """The box came back between the host's HELLO requests, its power-up HELLO lost: its first
    heartbeat shows the restart before any HELLO, and a press of the new run whose ack was lost
    is still a repeat when sent again."""
    drop = [False]
    host, box, now, boot, step = _joined(drop)
    _a_run_then_a_yank(host, box, now, boot, step)
    host.opened(now[0] / 1000)
    for _ in range(1800):  # the box still without power: the host's requests go nowhere
        now[0] += 1
        host.tick(now[0] / 1000)
        host.take_output()
    boot[0] = now[0]
    box.power_up(0)
    box.take_output()  # its power-up HELLO lost
    step(950 - (now[0] - boot[0]))
    box.press(3, now[0] - boot[0])
    drop[0] = True
    step(5)
    drop[0] = False
    step(1500)
    got = [(e.button, e.event, e.t_ms) for e in host.take_events() if isinstance(e, ButtonEvent)]
    assert got.count((3, "press", 950)) == 1 and host.stats.box_restarts == 1


def test_a_buzz_whose_ack_is_lost_sounds_once_though_an_led_command_came_between() -> None:
    """The box remembers the last LED and the last BUZZ by their own seqs: the buzz re-sent
    behind an LED command is known as a repeat, not sounded again."""
    host, box = HostProtocol(), ReferenceBox()
    applied: list[int] = []
    handle = box._handle

    def spy(frame, now_ms):  # type: ignore[no-untyped-def]
        before = box.buzz_until
        handle(frame, now_ms)
        if frame.type == Msg.BUZZ and box.buzz_until != before:
            applied.append(frame.seq)

    box._handle = spy  # type: ignore[method-assign]
    lose, now = [False], [0]

    def step(n: int = 1) -> None:
        for _ in range(n):
            now[0] += 1
            host.tick(now[0] / 1000)
            box.tick(now[0])
            box.receive(host.take_output(), now[0])
            up = box.take_output()
            host.receive(b"" if lose[0] else up, now[0] / 1000)

    host.opened(0.0)
    step(50)
    lose[0] = True
    host.buzz(400, now[0] / 1000)
    step(2)
    host.led(0, LED_ON, now[0] / 1000)
    step(2)
    lose[0] = False
    step(300)
    assert len(applied) == 1 and box.leds[0] == LED_ON


def test_a_repeat_read_while_the_hello_is_awaited_never_acknowledges_a_renumbered_event() -> None:
    # The box sends a press (seq 1) and, its ACK late, the same press again; the host's ACK
    # then takes it off and the release, next in the queue, goes out as seq 2 and is lost with
    # the port's failure. The host reopens and asks for HELLO; the box renumbers its queue (the
    # HELLO seq 0, the release seq 1) and that frame is lost too. Then the host reads the old
    # repeat of the press, seq 1: acknowledging it would take the release off the box for good.
    box, host = ReferenceBox(), HostProtocol()
    host.opened(0.0)
    box.receive(host.take_output(), 1)
    host.receive(box.take_output(), 0.002)
    assert host.up
    box.receive(host.take_output(), 3)
    box.take_output()
    box.press(3, 10)
    first = box.take_output()
    box.tick(115)
    repeat = box.take_output()  # the press again, seq 1: its ACK not yet there
    box.release(3, 120)
    assert box.pending == 2
    host.receive(first, 0.125)  # delivered and acknowledged
    box.receive(host.take_output(), 130)
    assert box.pending == 1
    box.take_output()  # the release, seq 2: lost as the port fails
    host.closed()
    host.opened(0.2)
    box.receive(host.take_output(), 200)  # the HELLO_REQ: HELLO 0, the release renumbered 1
    hello = frames_of(box.take_output())[0]  # the release's new frame lost with it
    host.receive(repeat, 0.21)  # the old repeat of the press, read only now
    box.receive(host.take_output(), 210)
    assert box.pending == 1, "an ACK in the old numbering took the release off the box"
    host.receive(hello, 0.22)
    for t in range(300, 1000, 50):
        box.tick(t)
        host.receive(box.take_output(), t / 1000)
        box.receive(host.take_output(), t)
    presses = [e for e in host.take_events() if isinstance(e, ButtonEvent)]
    assert presses == [ButtonEvent(3, "press", 10), ButtonEvent(3, "release", 120)]
    assert box.pending == 0 and box.dropped == 0


def test_the_last_try_of_an_event_the_box_gave_up_on_read_after_a_reopen_is_not_acknowledged() -> None:
    # The host reads nothing for a second: the box gives up on a press after its tenth try,
    # which waits in the port's buffer. The port fails (the release, next, is lost with it) and
    # is opened again; the box's HELLO renumbers the release 1, and that frame is lost too.
    # The press's last try, seq 1 in the old numbering, is read only now: acknowledged, it
    # would take the release off the box, and the game would see a press with no release.
    box, host = ReferenceBox(), HostProtocol()
    host.opened(0.0)
    box.receive(host.take_output(), 1)
    host.receive(box.take_output(), 0.002)
    box.receive(host.take_output(), 3)
    box.take_output()
    box.press(3, 10)
    box.take_output()
    last_try = b""
    for t in range(11, 1015):
        box.tick(t)
        out = box.take_output()
        if 905 <= t <= 915 and out:
            last_try = out
    assert last_try and box.dropped == 1 and box.pending == 0
    box.release(3, 1020)
    box.take_output()
    host.closed()
    host.opened(1.05)
    box.receive(host.take_output(), 1050)
    box.take_output()  # the HELLO and the release renumbered: lost
    host.receive(last_try, 1.06)
    box.receive(host.take_output(), 1060)
    assert box.pending == 1
    got = []
    for t in range(1061, 4000, 10):
        box.tick(t)
        host.tick(t / 1000)
        host.receive(box.take_output(), t / 1000)
        box.receive(host.take_output(), t)
        got += [e for e in host.take_events() if isinstance(e, ButtonEvent)]
    assert got == [ButtonEvent(3, "press", 10), ButtonEvent(3, "release", 1020)]
