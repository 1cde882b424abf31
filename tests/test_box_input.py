"""Box and keyboard events reach the table the same way from `tablekit run` and the demo."""

from __future__ import annotations

import pytest
from _game_fixtures import game

from firmware_bridge import ButtonEvent, KeyboardButtons, LinkEvent, default_keymap
from firmware_bridge.layout import ButtonLayout
from tablekit.box_input import hand_to_table, key_to_table, tell_buttons
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
