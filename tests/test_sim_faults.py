"""Faults on the way, with the real firmware in simavr behind a pty: nothing lost, nothing doubled.

The bridge opens the simulator's pty through ``firmware_bridge.faults``, which makes the port
fail at a chosen step of the ACK exchange, loses or damages the box's HELLOs, or swallows
everything the host writes (a saturated line). A sample of each here; ``bench/bench_buttons.py
--faults N`` runs every step N times and prints the counts. Every wait has a deadline.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from _game_fixtures import game
from conftest_hardware import VirtualBox, collect_buttons, drain, require_sim, wait_link

from firmware_bridge import ButtonBox, ButtonEvent, LinkEvent
from firmware_bridge.faults import PortFaults
from firmware_bridge.layout import ButtonLayout
from tablekit.box_input import BoxDropped, BoxLink, hand_to_table
from tablekit.cameras import ScriptedCamera
from tablekit.clock import ManualClock
from tablekit.journal import Journal
from tablekit.table import Table


@pytest.fixture
def sim() -> Iterator[VirtualBox]:
    require_sim()
    with VirtualBox() as box_sim:
        yield box_sim


def edges(events: list[ButtonEvent]) -> list[tuple[int, str]]:
    return [(e.button, e.event) for e in events]


@pytest.mark.parametrize(
    "plan",
    [
        ("event-read",),
        ("ack-write",),
        ("ack-written",),
        ("read-after-ack",),
        ("ack-write", "hello-req-write"),  # and the reopen's HELLO_REQ fails too
        ("ack-write", "ack-write"),  # and the ACK of the renumbered re-send
    ],
    ids="+".join,
)
def test_a_press_whose_ack_exchange_fails_is_delivered_exactly_once(
    sim: VirtualBox, plan: tuple[str, ...]
) -> None:
    faults = PortFaults(plan, armed=False)
    with ButtonBox(sim.url, opener=faults.opener(), reopen_every=0.05) as box:
        wait_link(box, "up", timeout=10)
        faults.armed = True
        sim.press(6)
        sim.sleep(40)
        sim.release(6)
        got = collect_buttons(box, 2, timeout=10)
        rest = drain(box, quiet=0.8)  # long enough for a reopen, a HELLO and a re-send
        assert faults.todo == [], f"fired only {faults.fired}"
        assert faults.opens >= 2  # the port was really lost and opened again
        assert edges(got) == [(6, "press"), (6, "release")]
        assert [e for e in rest if isinstance(e, ButtonEvent)] == []
        assert box.link_up


def test_lost_and_corrupted_hellos_leave_menu_and_ok_unmapped_until_one_arrives(
    sim: VirtualBox, tmp_path: Path
) -> None:
    # The box's HELLOs are lost twice and damaged once: the host keeps asking, holds what the
    # box sends meanwhile, and only then is the link up, with the box's size known. Nothing
    # tells the table the button count beforehand.
    faults = PortFaults(("lose-hello", "lose-hello", "corrupt-hello"))
    with ButtonBox(sim.url, opener=faults.opener()) as bridge, Journal(tmp_path / "j.sqlite") as journal:
        table = Table.start(journal, game(), ManualClock(1000), camera=ScriptedCamera(cuts={1: "5D"}))
        link = BoxLink(bridge)
        # buttons 3 and 4: MENU and OK on a 3-seat keyboard; box seats with nobody on them here
        for button in (3, 4):
            sim.press(button)
            sim.sleep(30)
            sim.release(button)
            sim.sleep(30)
        events = []
        deadline = time.monotonic() + 10
        while faults.todo or not bridge.link_up:
            assert time.monotonic() < deadline, f"no HELLO got through: {faults.fired}"
            for event in link.pending():
                assert not isinstance(event, ButtonEvent), "a box event before the HELLO"
                events.append(event)
            time.sleep(0.02)
        assert faults.fired == ["lose-hello", "lose-hello", "corrupt-hello"]
        got = collect_buttons(bridge, 4, timeout=5)
        assert bridge.buttons == 10 and bridge.protocol.stats.hello_reqs >= 3
        hand_to_table(table, LinkEvent("up"), link.buttons)
        for event in got:
            hand_to_table(table, event, link.buttons)
        assert table.layout == ButtonLayout(8, 9)
        assert table.state.phase == "setup"  # neither 3 nor 4 was taken for MENU or OK
        assert edges(got) == [(3, "press"), (3, "release"), (4, "press"), (4, "release")]
        sim.press(9)  # the box's own OK
        hand_to_table(table, collect_buttons(bridge, 1, timeout=5)[0], link.buttons)
        assert table.state.phase == "play"


def test_a_saturated_line_loses_no_press_silently(sim: VirtualBox) -> None:
    # Nothing the host sends gets through (no ACK reaches the box) while the players press 18
    # edges: the box keeps 16, gives up the rest, and re-sends its head until it gives that up
    # too. When the line clears, every press either arrived once or is in the box's dropped
    # count, which reaches the table as a warning.
    faults = PortFaults()
    with ButtonBox(sim.url, opener=faults.opener()) as bridge:
        wait_link(bridge, "up", timeout=10)
        link = BoxLink(bridge)
        assert list(link.pending()) == [] and link.dropped == 0
        faults.swallow_writes = True
        sent = []
        for b in range(9):
            sim.press(b)
            sent.append((b, "press"))
        sim.sleep(30)
        for b in range(9):
            sim.release(b)
            sent.append((b, "release"))
        sim.sleep(1300)  # the head is given up after 10 tries
        faults.swallow_writes = False
        got: list[ButtonEvent] = []
        warnings: list[BoxDropped] = []
        deadline = time.monotonic() + 10
        while not warnings or link.dropped < len(sent) - len(got):
            assert time.monotonic() < deadline, f"got {got}, box says {link.dropped} dropped"
            for event in link.pending():
                if isinstance(event, ButtonEvent):
                    got.append(event)
                elif isinstance(event, BoxDropped):
                    warnings.append(event)
            time.sleep(0.02)
        assert len(set(got)) == len(got)
        assert set(edges(got)) <= set(sent)
        assert len(sent) - len(got) >= 2  # at least two had no room in the box: really lost
        assert warnings[-1].dropped == link.dropped
        health = link.health()
        assert health.state == "fallback" and f"dropped {link.dropped} frames" in health.message


def test_a_box_plugged_in_after_the_table_started_is_found_and_given_its_lights(
        sim: VirtualBox, tmp_path: Path) -> None:
    # The table started with no box (the keyboard stood in). The box is "plugged in" when the
    # search first names its port: the link opens it, gives it the lights the table set
    # meanwhile, and its presses reach the table from then on.
    plugged: list[bool] = [False]
    found: list[str] = []
    link = BoxLink.searching(lambda: sim.url if plugged[0] else None, every_s=0.05,
                             on_found=found.append)
    with Journal(tmp_path / "j.sqlite") as journal:
        table = Table.start(journal, game(), ManualClock(1000), camera=ScriptedCamera(cuts={1: "5D"}),
                            box=link)
        link.led(1, "on")  # as the table sets the seats' lights
        link.led(3, "on")
        assert list(link.pending()) == [] and link.box is None and link.buttons is None
        plugged[0] = True
        events = []
        deadline = time.monotonic() + 10
        while not link.link_up:
            assert time.monotonic() < deadline, f"the box never came up: {events}"
            events += link.pending()
            time.sleep(0.06)
        assert found == [sim.url] and link.buttons == 10
        try:
            deadline = time.monotonic() + 5
            while sim.leds()[:4] != "0101":  # the 74HC595's outputs, seat 0 first
                assert time.monotonic() < deadline, f"the box shows lights {sim.leds()}"
                time.sleep(0.05)
            sim.press(9)  # the box's own OK starts the deal
            deadline = time.monotonic() + 5
            while table.state.phase != "play":
                assert time.monotonic() < deadline, "OK never reached the table"
                for event, at in link.pending_at(table.now()):
                    hand_to_table(table, event, link.buttons, at)
                time.sleep(0.02)
        finally:
            link.close()
