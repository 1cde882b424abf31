"""Claims through the real table: a seat's key (or the box's button, or a tap on its panel)
pressed briefly out of turn is journaled as a claim; OK and MENU answer it; the screen says
what waits and why a claim was refused; a resumed game stands exactly where it was."""

from __future__ import annotations

import os

import pytest
from _game_fixtures import game

from display.touch import TAPPABLE, Tap
from display.viewmodel import PlayView
from firmware_bridge import KeyboardButtons, default_keymap
from tablekit.box_input import key_to_table
from tablekit.cameras import ScriptedCamera
from tablekit.clock import ManualClock
from tablekit.journal import Journal
from tablekit.shell import tap_to_table
from tablekit.table import Table

NAMES = ("Ann", "Bo", "Cy", "Di")


class FakeBox:
    def __init__(self) -> None:
        self.leds: dict[int, str] = {}

    def led(self, button: int, mode: str) -> None:
        self.leds[button] = mode

    def buzz(self, ms: int) -> None:
        pass


@pytest.fixture
def table(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    clock = ManualClock(1000)
    box = FakeBox()
    t = Table.start(journal, game("contract-rummy", NAMES), clock, camera=ScriptedCamera({}, {}), box=box)
    t.fake_box = box  # type: ignore[attr-defined]
    yield t
    journal.close()


def key(table: Table, keys: KeyboardButtons, name: str, hold: int = 100) -> None:
    clock = table.clock
    assert isinstance(clock, ManualClock)
    t = clock.advance(500)
    key_to_table(table, keys.key_down(name, t), t)
    t = clock.advance(hold)
    key_to_table(table, keys.key_up(name, t), t)


def types(table: Table) -> list[str]:
    return [e.TYPE for e in table.journal.events(table.game_id)]


def test_an_out_of_turn_key_is_a_claim_journaled_and_answered_with_ok(table):
    keys = KeyboardButtons(default_keymap(4))
    key(table, keys, "return")  # OK: deal
    first = table.state.deal.turn
    key(table, keys, str(first + 1))  # the first turn ends: Cy's turn, Bo discarded
    turn = table.state.deal.turn
    claimant = (turn + 1) % 4
    key(table, keys, str(claimant + 1))
    assert types(table)[-1] == "claim"
    assert table.fake_box.leds[claimant] == "slow"
    view = table.view()
    assert isinstance(view, PlayView)
    assert view.hint == f"OK: {NAMES[claimant]} takes it and 1 card from the stock · MENU: {NAMES[turn]} takes it"
    assert view.toast is not None and view.toast.text == f'{NAMES[claimant]}: "May I?" · {view.hint}'
    assert '"May I?"' in view.seats[claimant].note
    key(table, keys, "return")
    assert table.state.notice == f"{NAMES[claimant]} takes the upcard and 1 card from the stock"
    assert table.fake_box.leds[claimant] == "off"
    assert "May I ×1" in table.view().seats[claimant].note


def test_a_refused_claim_is_journaled_said_on_screen_and_replayed(table, tmp_path):
    keys = KeyboardButtons(default_keymap(4))
    key(table, keys, "return")
    discarder = table.state.deal.turn
    key(table, keys, str(discarder + 1))
    key(table, keys, str(discarder + 1))  # a claim of one's own discard
    assert types(table)[-1] == "claim"
    text = f"{NAMES[discarder]} discarded that card: no May I of one's own discard"
    view = table.view()
    assert view.toast is not None and view.toast.text == text  # nothing waits: the refusal alone
    resumed = Table.resume(table.journal, table.game_id, ManualClock(table.clock.now_ms()),
                           camera=ScriptedCamera({}, {}))
    assert resumed.state == table.state and resumed.state.notice == text


def test_a_tap_on_another_seat_s_panel_claims_too(table):
    assert "seat:" in TAPPABLE
    keys = KeyboardButtons(default_keymap(4))
    key(table, keys, "return")
    key(table, keys, str(table.state.deal.turn + 1))
    turn = table.state.deal.turn
    claimant = (turn + 2) % 4
    tap_to_table(table, Tap(f"seat:{claimant}", True))
    table.clock.advance(150)
    tap_to_table(table, Tap(f"seat:{claimant}", False))
    assert types(table)[-1] == "claim"
    tap_to_table(table, Tap("key:menu", True))  # MENU: the player in turn keeps it
    assert table.state.notice == f"{NAMES[turn]} takes the upcard: no May I"


def test_a_long_press_out_of_turn_is_no_claim(table):
    keys = KeyboardButtons(default_keymap(4))
    key(table, keys, "return")
    turn = table.state.deal.turn
    other = (turn + 1) % 4
    key(table, keys, str(other + 1), hold=1600)
    assert "claim" not in types(table)
    assert table.state.notice == f"{NAMES[other]} can declare only on their own turn"


def test_the_claim_screen_draws_headless(table, tmp_path):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from tablekit.shell import open_screen

    keys = KeyboardButtons(default_keymap(4))
    key(table, keys, "return")
    key(table, keys, str(table.state.deal.turn + 1))
    claimant = (table.state.deal.turn + 1) % 4
    key(table, keys, str(claimant + 1))
    screen = open_screen((800, 480), headless=True, screenshots=tmp_path / "shots")
    try:
        screen.show(table.view())
        texts = " ".join(screen.shot_texts[-1])
        assert "May I?" in texts and "OK:" in texts
    finally:
        screen.close()
