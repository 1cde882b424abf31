"""``tablekit demo`` with its presses from the simulated button box, and its fallback to keys.

With the AVR toolchain and simavr here, the demo's presses are pin presses on the real firmware
in simavr, read through the bridge: the game must end exactly as with scripted keys (journal
event for event), every press must have crossed the firmware, and the report and the screen
must say which input was used. Without them (faked here, so these run everywhere) the demo
falls back to keys and says so. The simulator tests skip only when the toolchain is absent.
"""

from __future__ import annotations

import json
import time

import pytest
from _game_fixtures import DEMO_SCRIPT
from conftest_hardware import require_sim

from engine.game import LONG_PRESS_MS
from firmware_bridge import LinkError
from tablekit.cli import main
from tablekit.commands.demo import Player, load_script
from tablekit.journal import Journal

SCRIPT = load_script(DEMO_SCRIPT)


def _events(path) -> list[dict]:
    with Journal(path) as j:
        return [e.to_json() for e in j.events(j.latest())]


def _play(out, *args: str) -> tuple[dict, list[dict]]:
    out.mkdir(parents=True, exist_ok=True)
    code = main(["demo", "--report", str(out / "r.json"), "--journal", str(out / "j.sqlite"), *args])
    assert code == 0
    return json.loads((out / "r.json").read_text()), _events(out / "j.sqlite")


def _play_texts(report: dict) -> str:
    return " ".join(" ".join(s["texts"]) for s in report["screenshots"] if "PlayView" in s["file"])


def _long_press() -> int:
    """The table time of the script's first long press (a show is declared on its release)."""
    acts = SCRIPT.actions
    return next(a.t for a, b in zip(acts, acts[1:], strict=False)
                if a.kind == "down" and b.kind == "up" and b.t - a.t >= LONG_PRESS_MS)


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    return _play(tmp_path_factory.mktemp("keys"), "--no-screen", "--box", "keys")


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    require_sim()
    out = tmp_path_factory.mktemp("sim")
    started = time.monotonic()
    report, events = _play(out, "--headless", "--box", "sim", "--screenshots", str(out / "shots"))
    return report, events, time.monotonic() - started


def test_the_demo_through_the_simulated_box_ends_exactly_like_the_keys_run(sim, keys):
    report, events, _ = sim
    keys_report, keys_events = keys
    assert report["input"] == "simulated box" and keys_report["input"] == "scripted keys"
    assert report["over"] and report["winners"] == ["Asha"]
    assert report["standings"] == keys_report["standings"]
    assert report["deals"] == keys_report["deals"]
    assert events == keys_events  # the same journal, event for event, times included


def test_every_press_crossed_the_firmware_and_the_bridge(sim):
    report, _, seconds = sim
    box = report["box"]
    kinds = [a.kind for a in SCRIPT.actions]
    # a seat press is two edges, a MENU or OK tap too; nothing else came from the box
    assert box["edges"] == kinds.count("down") + kinds.count("up") + 2 * (kinds.count("ok") + kinds.count("menu"))
    assert box["stray_events"] == 0 and box["why"] == ""
    assert box["firmware"].startswith("tablekit-box") and box["buttons"] == 10
    # the box timed every hold itself: never shorter than scripted, long presses really long
    holds = box["holds"]
    assert len(holds) == kinds.count("down")
    assert all(h["box_ms"] >= h["scripted_ms"] - 2 for h in holds)
    assert sum(h["box_ms"] >= LONG_PRESS_MS for h in holds) == sum(h["scripted_ms"] >= LONG_PRESS_MS for h in holds) == 2
    assert box["replugs"] == 1  # the script's lost link: the simulator killed, a fresh one plugged in
    assert box["keys_while_unplugged"] == 0
    assert box["led_commands"] > 0  # the seat lights went back to the box
    scripted_holds_s = sum(h["scripted_ms"] for h in holds) / 1000
    assert scripted_holds_s <= seconds < 120  # holds take their time, the whole run is bounded


def test_the_screen_says_the_presses_come_from_the_simulated_box(sim):
    report, _, _ = sim
    texts = _play_texts(report)
    assert "simulated button box" in texts and "scripted keys" not in texts
    assert "Paused" in texts or "paused" in texts  # the unplugged box paused play


def _no_toolchain(monkeypatch):
    def build(timeout: float = 0) -> None:
        raise LinkError("make -C hardware/firmware failed:\nmake: avr-gcc: No such file or directory")

    monkeypatch.setattr("tablekit.demo_box.build", build)


def test_without_the_simulator_the_demo_plays_on_keys_and_says_so(tmp_path, monkeypatch, keys, capsys):
    _no_toolchain(monkeypatch)
    report, events = _play(tmp_path, "--headless", "--screenshots", str(tmp_path / "shots"))
    assert report["input"] == "scripted keys"
    assert "avr-gcc" in report["box"]["why"]
    assert "scripted keys: no simulated button box here" in _play_texts(report)
    assert "button presses: scripted keys (no simulated box" in capsys.readouterr().out
    assert report["standings"] == keys[0]["standings"] and events == keys[1]


def test_asking_for_the_simulated_box_where_there_is_none_is_an_error(tmp_path, monkeypatch, capsys):
    _no_toolchain(monkeypatch)
    assert main(["demo", "--no-screen", "--box", "sim", "--journal", str(tmp_path / "j.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "avr-gcc" in err and err.count("\n") == 1


def test_a_box_that_dies_mid_game_hands_over_to_keys(tmp_path, monkeypatch, keys):
    require_sim()
    at = _long_press()
    real_do = Player.do

    def do(self, action):
        real_do(self, action)
        if action.t == at:  # the cable is pulled while a show is being declared
            self.presses.sim.kill()

    monkeypatch.setattr(Player, "do", do)
    report, events = _play(tmp_path, "--no-screen", "--box", "sim")
    assert report["input"] == "simulated box, then scripted keys"
    assert "simulator" in report["box"]["why"]
    assert report["standings"] == keys[0]["standings"] and events == keys[1]


class Interrupted(BaseException):
    """The power going: nothing in the kit catches it (the command line turns every Exception
    into one error line)."""


def test_a_resumed_demo_holds_down_the_button_the_journal_left_down(tmp_path, monkeypatch, keys):
    require_sim()
    at = _long_press()
    real_do = Player.do

    def do(self, action):
        real_do(self, action)
        if action.t == at:
            raise Interrupted  # the power goes with Asha's button down

    monkeypatch.setattr(Player, "do", do)
    with pytest.raises(Interrupted):
        main(["demo", "--no-screen", "--box", "keys", "--journal", str(tmp_path / "j.sqlite")])
    monkeypatch.setattr(Player, "do", real_do)
    report, events = _play(tmp_path, "--no-screen", "--box", "sim", "--resume")
    assert report["input"] == "simulated box"
    first = report["box"]["holds"][0]  # the held pin, released on the box after the full hold
    assert first["scripted_ms"] >= LONG_PRESS_MS and first["box_ms"] >= first["scripted_ms"] - 2
    assert report["standings"] == keys[0]["standings"] and events == keys[1]


def test_a_held_button_keeps_the_window_drawing_and_the_lights_follow_the_turn(tmp_path):
    require_sim()
    from tablekit.cameras import ScriptedCamera
    from tablekit.clock import ManualClock
    from tablekit.demo_box import SimulatedPresses
    from tablekit.table import Table

    presses = SimulatedPresses().start()
    try:
        with Journal(tmp_path / "j.sqlite") as journal:
            clock = ManualClock()
            table = Table.start(journal, SCRIPT.game, clock, box=presses,
                                camera=ScriptedCamera(SCRIPT.readings, SCRIPT.cuts))
            drawn: list[int] = []
            presses.attach(table, clock, draw=lambda: drawn.append(clock.now_ms()))
            clock.set(1000)
            presses.control("ok", 1000)  # OK on the box: the deal starts
            turn = table.state.deal.turn
            deadline = time.monotonic() + 5
            while (leds := presses.leds())[turn] != "1" and time.monotonic() < deadline:
                time.sleep(0.01)
            assert leds == "".join("1" if s == turn else "0" for s in range(8))
            assert drawn == []  # a tap is not drawn, and the table's clock stays put
            clock.set(5000)
            presses.seat(turn, True, 5000)
            presses.hold(turn, 5400)
            assert len(drawn) >= 3 and drawn == sorted(drawn) and 5000 <= drawn[0] and drawn[-1] < 5400
            clock.set(5400)
            presses.seat(turn, False, 5400)
            assert table.state.deal.turn != turn  # a short press on the box ended the turn
            assert presses.holds == [{"seat": turn, "scripted_ms": 400, "box_ms": presses.holds[0]["box_ms"]}]
            assert presses.holds[0]["box_ms"] >= 398
    finally:
        presses.close()


def _table_events(tmp_path, presses, name: str) -> list[dict]:
    """A short session on ``presses``, a button held across a pulled cable; the journal."""
    from tablekit.cameras import ScriptedCamera
    from tablekit.clock import ManualClock
    from tablekit.table import Table

    with Journal(tmp_path / f"{name}.sqlite") as journal:
        clock = ManualClock()
        table = Table.start(journal, SCRIPT.game, clock, box=presses,
                            camera=ScriptedCamera(SCRIPT.readings, SCRIPT.cuts))
        presses.attach(table, clock)

        def at(t, call, *args):
            clock.set(t)
            table.tick()
            call(*args, t)

        at(1000, presses.control, "ok")
        first = table.state.deal.turn
        at(3000, presses.seat, first, True)
        at(3300, presses.seat, first, False)
        second = table.state.deal.turn
        at(5000, presses.seat, second, True)
        at(5100, presses.link, False)  # the cable is pulled with the button down
        at(5300, presses.seat, second, False)
        at(6000, presses.seat, second, True)  # the keyboard stands in
        at(6200, presses.seat, second, False)
        at(9000, presses.link, True)
        at(9500, presses.seat, second, True)
        at(9800, presses.seat, second, False)
        at(11000, presses.control, "menu")
        return [e.to_json() for e in journal.events(table.game_id)]


def test_a_button_held_across_a_pulled_cable_is_released_on_the_keyboard(tmp_path):
    require_sim()
    from tablekit.demo_box import KeyPresses, SimulatedPresses

    presses = SimulatedPresses().start()
    try:
        events = _table_events(tmp_path, presses, "sim")
        report = presses.report()
    finally:
        presses.close()
    assert events == _table_events(tmp_path, KeyPresses(), "keys")
    assert report["input"] == "simulated box" and report["replugs"] == 1
    assert report["keys_while_unplugged"] == 3 and report["stray_events"] == 0
    assert [h["scripted_ms"] for h in report["holds"]] == [300, 300]  # the presses the box saw whole
