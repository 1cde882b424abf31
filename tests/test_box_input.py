"""Box and keyboard events reach the table the same way from `tablekit run` and the demo."""

from __future__ import annotations

import pytest
from _game_fixtures import game

from display.viewmodel import HEALTH_FALLBACK, HEALTH_OK
from firmware_bridge import ButtonEvent, KeyboardButtons, LinkEvent, default_keymap
from firmware_bridge.layout import ButtonLayout
from tablekit.box_input import (
    BoxDropped,
    BoxLink,
    dropped_health,
    hand_to_table,
    key_to_table,
    tell_buttons,
)
from tablekit.cameras import ScriptedCamera
from tablekit.clock import ManualClock
from tablekit.journal import Journal
from tablekit.table import Table


@pytest.fixture
def t(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        yield Table.start(journal, game(), ManualClock(1000), camera=ScriptedCamera(cuts={1: "5D"}))


def test_a_link_up_names_the_box_s_menu_and_ok_then_ok_deals(t):
    hand_to_table(t, LinkEvent("up"), 8)  # an 8-button box: 6 seats, MENU 6, OK 7
    assert t.layout == ButtonLayout(menu=6, ok=7)
    hand_to_table(t, ButtonEvent(4, "press", 10), 8)  # button 4 is no seat at a 3-seat table
    assert t.state.phase == "setup"
    hand_to_table(t, ButtonEvent(7, "press", 20), 8)
    assert t.state.phase == "play" and t.state.deal.wild == "5D"


def test_a_link_up_before_any_hello_keeps_the_buttons_and_a_lost_link_pauses(t):
    tell_buttons(t, 5)
    hand_to_table(t, LinkEvent("up"), None)
    assert t.layout == ButtonLayout(menu=3, ok=4)
    hand_to_table(t, ButtonEvent(4, "press", 1), 5)  # OK: the deal starts
    hand_to_table(t, LinkEvent("down"), 5)
    assert not t.state.link_ok and t.state.paused
    hand_to_table(t, LinkEvent("up"), 5)
    assert t.state.link_ok


def test_a_seat_button_ends_the_turn_on_its_release(t):
    hand_to_table(t, LinkEvent("up"), 5)
    hand_to_table(t, ButtonEvent(4, "press", 1), 5)
    first = t.state.deal.turn
    hand_to_table(t, ButtonEvent(first, "press", 2), 5)
    assert t.state.deal.turn == first
    t.clock.advance(200)
    hand_to_table(t, ButtonEvent(first, "release", 3), 5)
    assert t.state.deal.turn == (first + 1) % 3


def test_keys_use_the_keyboard_numbering_whatever_the_box_said(t):
    tell_buttons(t, 8)
    keys = KeyboardButtons(default_keymap(3))
    key_to_table(t, keys.key_down("x", 5), 5)  # no button: nothing happens
    assert t.state.phase == "setup"
    key_to_table(t, keys.key_down("return", 10), 10)  # OK is 4 on the keys, 7 on the box
    assert t.state.phase == "play"


def test_a_box_s_last_two_buttons_are_menu_and_ok_the_keyboard_s_follow_the_seats():
    assert [ButtonLayout.of_box(5).control(b) for b in range(5)] == [None, None, None, "menu", "ok"]
    assert ButtonLayout.of_box(1) is None  # a box too small for MENU and OK
    assert [ButtonLayout.keyboard(3).control(b) for b in range(6)] == [None, None, None, "menu", "ok", None]
    keys = default_keymap(3)
    assert (keys["m"], keys["return"]) == (ButtonLayout.keyboard(3).menu, ButtonLayout.keyboard(3).ok)


def test_box_buttons_before_the_box_said_its_size_are_never_menu_or_ok(t):
    # No button count beforehand: the link came up without a HELLO (another source of box
    # events than the bridge, which holds them until the HELLO).
    hand_to_table(t, LinkEvent("up"), None)
    assert t.layout is None
    for button in (3, 4):  # MENU and OK on the keyboard's numbering of a 3-seat table
        hand_to_table(t, ButtonEvent(button, "press", 10), None)
        hand_to_table(t, ButtonEvent(button, "release", 20), None)
    assert t.state.phase == "setup" and t.screen == ""
    hand_to_table(t, LinkEvent("up"), 10)  # the HELLO: a 10-button box, MENU 8 and OK 9
    hand_to_table(t, ButtonEvent(9, "press", 30), 10)
    assert t.state.phase == "play"


class FakeBridge:
    """What BoxLink reads of a ButtonBox: queued events and the box's dropped count."""

    def __init__(self) -> None:
        self.queued: list[ButtonEvent | LinkEvent] = []
        self.box_dropped = 0
        self.buttons = 10

    def get_event(self, timeout=None):
        return self.queued.pop(0) if self.queued else None


def test_the_box_s_dropped_count_is_a_warning_on_the_table(t):
    bridge = FakeBridge()
    link = BoxLink(bridge)  # type: ignore[arg-type]
    bridge.queued = [LinkEvent("up"), ButtonEvent(9, "press", 5)]  # OK: the deal starts
    for event in link.pending():
        hand_to_table(t, event, link.buttons)
    assert t.state.phase == "play"
    assert t.devices.link.state == HEALTH_OK and link.dropped == 0
    bridge.box_dropped = 3  # its HEARTBEAT says it gave up three frames
    got = list(link.pending())
    assert got == [BoxDropped(3)]
    hand_to_table(t, got[0], link.buttons)
    assert t.devices.link.state == HEALTH_FALLBACK and "dropped 3 frames" in t.devices.link.message
    assert t.view().link == t.devices.link  # what the screen shows
    assert list(link.pending()) == []  # said once
    bridge.box_dropped = 1  # the box restarted (its count began again) and dropped one more
    got = list(link.pending())
    assert got == [BoxDropped(4)] and link.health() == dropped_health(4)


# --- the box's own press and release times -------------------------------------------------


def test_the_box_clock_places_stamps_by_the_least_delay_seen_never_later_than_now() -> None:
    from tablekit.box_input import BoxClock

    clock = BoxClock()
    # box time 0 is table time 1000; frames arrive 2–5 ms after the edge, one re-sent 100 ms late
    assert clock.place([0], 1005) == [1005]  # the first knows no better than its arrival
    assert clock.place([2000], 3002) == [3002]  # a quicker frame: the offset is 1002
    (late,) = clock.place([4000], 5105)  # re-sent: placed when it happened, not when it came
    assert abs(late - 5002) <= 3  # (the offset may creep a little: clocks drift)
    # presses held back until a HELLO arrive together: placed by the least delayed of them
    pressed, released = clock.place([6000, 7520], 8600)
    assert released - pressed == 1520 and released <= 8600 and abs(pressed - 7002) <= 6
    # never before the event placed last, never after now
    assert clock.place([7000], 9000) == [released]
    assert clock.place([9999], 9500) == [9500]
    # a box that began counting again unnoticed: the clocks are matched anew
    assert clock.place([10], 20_000) == [20_000]
    assert clock.place([1010], 21_000) == [21_000]


def test_a_long_press_whose_press_frame_came_late_is_a_long_press(t):
    """The box's stamps say the seat held its button 1.52 s (a show); the press frame was re-sent
    and arrived 0.1 s late, so arrival times would say 1.42 s (an end of turn)."""
    from tablekit.box_input import BoxClock

    clock = BoxClock()
    hand_to_table(t, LinkEvent("up"), 5)
    hand_to_table(t, ButtonEvent(4, "press", 1), 5)  # OK: the deal starts
    first = t.state.deal.turn
    box_at = 50_000 - 1005  # the box's uptime when the table's clock read 0
    (_,) = clock.place([box_at + t.now()], t.now())  # an edge that arrived at once: the offset
    t.clock.advance(2000)
    edge = box_at + t.now()  # the seat presses now; its frame is re-sent and comes 100 ms on
    t.clock.advance(100)
    (pressed,) = clock.place([edge], t.now())
    hand_to_table(t, ButtonEvent(first, "press", edge), 5, pressed)
    t.clock.advance(1420)  # let go 1.52 s after the press, the frame on time
    (released,) = clock.place([edge + 1520], t.now())
    hand_to_table(t, ButtonEvent(first, "release", edge + 1520), 5, released)
    assert abs(released - pressed - 1520) <= 3  # (arrival times: 1420, an end of turn)
    assert t.state.phase == "show"  # declared, not the turn ended


def test_the_link_s_events_come_with_their_table_times() -> None:
    class Box:
        box_dropped = 0
        buttons = 5

        def __init__(self, events):  # type: ignore[no-untyped-def]
            self.events = list(events)

        def get_event(self, timeout):  # type: ignore[no-untyped-def]
            return self.events.pop(0) if self.events else None

    link = BoxLink(Box([LinkEvent("up"), ButtonEvent(0, "press", 100), ButtonEvent(0, "release", 400)]))  # type: ignore[arg-type]
    got = link.pending_at(10_000)
    assert got == [(LinkEvent("up"), None), (ButtonEvent(0, "press", 100), 9700),
                   (ButtonEvent(0, "release", 400), 10_000)]  # held 300 ms, as the box timed it
    link.box.events = [LinkEvent("down"), LinkEvent("up"), ButtonEvent(1, "press", 5)]  # it restarted
    assert link.pending_at(12_000)[-1] == (ButtonEvent(1, "press", 5), 12_000)


def test_a_stamped_edge_is_never_placed_before_what_the_table_journaled(t):
    """Presses held back while the link was down come stamped with the box's time, which ran
    on while the table's stood still: none goes before the link's return in the journal."""
    hand_to_table(t, LinkEvent("up"), 5)
    hand_to_table(t, ButtonEvent(4, "press", 1), 5)  # OK: the deal starts
    first = t.state.deal.turn
    t.clock.advance(1000)
    hand_to_table(t, LinkEvent("down"), 5)
    t.clock.advance(30_000)
    hand_to_table(t, LinkEvent("up"), 5)
    back = t.last_event_ms
    hand_to_table(t, ButtonEvent(first, "press", 2), 5, back - 20_000)  # placed in the outage
    pressed = t.journal.events(t.game_id)[-1]
    assert pressed.TYPE == "button-pressed" and pressed.t_ms == back


class _Plugged:
    """A box that has just been opened: no events yet, the lights it was given."""

    link_up = False
    buttons = None
    box_dropped = 0

    def __init__(self) -> None:
        self.lights: list[tuple[int, str]] = []

    def get_event(self, timeout=None):
        return None

    def led(self, button, mode):
        self.lights.append((button, mode))

    def close(self):
        self.lights.append((-1, "closed"))


def test_a_searching_link_looks_every_few_seconds_and_opens_the_box_that_appears():
    now = [0.0]
    ports: list[str | None] = [None, "/dev/gone", "/dev/ttyACM0"]
    looked: list[str | None] = []
    opened: list[str] = []
    found: list[str] = []
    box = _Plugged()

    def find():
        looked.append(ports[0])
        return ports[0]

    def open_box(url):
        opened.append(url)
        if url == "/dev/gone":  # unplugged again between the listing and the open
            raise OSError("no such device")
        return box

    link = BoxLink.searching(find, open_box=open_box, every_s=2.0, clock=lambda: now[0],
                             on_found=found.append)
    link.led(0, "on")
    link.buzz(100)  # nowhere to go: no box
    assert list(link.pending()) == [] and looked == [None]
    now[0] = 1.5
    assert list(link.pending()) == [] and looked == [None]  # not yet time to look again
    ports.pop(0)
    now[0] = 2.0
    assert list(link.pending()) == [] and opened == ["/dev/gone"] and link.box is None
    assert not link.link_up and link.buttons is None and link.dropped == 0
    ports.pop(0)
    now[0] = 4.0
    assert list(link.pending()) == []
    assert link.box is box and found == ["/dev/ttyACM0"] and box.lights == [(0, "on")]
    link.led(2, "fast")  # straight to the box now
    now[0] = 9.0
    list(link.pending())
    assert looked == [None, "/dev/gone", "/dev/ttyACM0"]  # found: never looked for again
    link.close()
    assert box.lights == [(0, "on"), (2, "fast"), (-1, "closed")]


def test_run_without_a_box_uses_the_keyboard_and_looks_for_one(monkeypatch):
    import argparse

    from firmware_bridge import discovery
    from tablekit.commands.run import open_box
    from tablekit.table import Devices

    ports: list[discovery.PortCandidate] = []
    monkeypatch.setattr(discovery, "candidate_ports", lambda: ports)
    devices = Devices()
    link = open_box(argparse.Namespace(no_box=False, port=None), devices)
    assert link is not None and link.box is None
    assert devices.link.state == HEALTH_FALLBACK and "plugged in" in devices.link.message
    ports.append(discovery.PortCandidate("loop://", "a serial loopback standing in for the box"))
    try:
        assert list(link.pending()) == []  # its first look: found and opened (no HELLO yet)
        assert link.box is not None and link.box.url == "loop://"
        assert devices.link.state == HEALTH_OK  # the screen no longer says "keyboard"
    finally:
        link.close()
    assert open_box(argparse.Namespace(no_box=True, port=None), Devices()) is None


def test_a_table_started_on_a_link_already_up_takes_the_box_s_menu_and_ok(t):
    """A rematch, or a game chosen on the setup screen, starts its table after the link came
    up: no "up" reaches it. The standard 10-button box's OK (9) did nothing and its button 4
    (no seat at three seats) was taken for OK, the keyboard's numbering."""
    assert t.layout is None
    hand_to_table(t, ButtonEvent(4, "press", 10), 10)
    assert t.state.phase == "setup" and t.layout == ButtonLayout(menu=8, ok=9)
    hand_to_table(t, ButtonEvent(9, "press", 20), 10)
    assert t.state.phase == "play"


def test_a_cut_the_rules_cannot_use_is_drawn_instead_and_the_deal_starts(tmp_path, caplog):
    """A card read as the tile game's cut (or any misread) was refused at each OK, read again
    the same, and the deal never started."""
    from engine.game import Game, Seat

    with Journal(tmp_path / "j.sqlite") as journal:
        tiles = Game("tile-rummy", (Seat("A"), Seat("B"), Seat("C")))
        table = Table.start(journal, tiles, ManualClock(1000), camera=ScriptedCamera(cuts={1: "AS"}))
        table.ok_pressed(2000)
        assert table.state.phase == "play" and table.state.deal is not None
        assert table.state.deal.wild and table.state.deal.wild != "AS"
        assert "cannot be used" in caplog.text
        cards = Table.start(journal, game(), ManualClock(1000), camera=ScriptedCamera(cuts={1: "5d"}))
        cards.ok_pressed(2000)
        assert cards.state.deal is not None and cards.state.deal.wild == "5D"  # a good one, as read
