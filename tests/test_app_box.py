"""The run loop with a button box on a serial port: the reference box behind a pty."""

from __future__ import annotations

import os
import threading
import time

from _game_fixtures import VALID_SHOW, game, groups

from firmware_bridge import ButtonBox, KeyboardButtons, default_keymap
from firmware_bridge.layout import ButtonLayout
from firmware_bridge.protocol import LED_FAST, LED_OFF, LED_ON
from firmware_bridge.refbox import PtyBox
from tablekit.box_input import BoxLink
from tablekit.cameras import ScriptedCamera
from tablekit.clock import MonotonicClock
from tablekit.journal import Journal
from tablekit.shell import open_screen, play
from tablekit.table import Table


def test_presses_on_the_box_drive_the_table_and_its_lights_follow(tmp_path):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    screen = open_screen((800, 480), headless=True)
    camera = ScriptedCamera({(1, 1): groups(VALID_SHOW)}, {1: "5D"})
    with PtyBox(buttons=5) as ref, ButtonBox(ref.path) as bridge, Journal(tmp_path / "j.sqlite") as j:
        # three seats, then MENU (3) and OK (4): the box says it has 5 buttons
        box = BoxLink(bridge)
        table = Table.start(j, game(), MonotonicClock(), camera=camera, box=box,
                            on_view=screen.show)

        def players() -> None:
            deadline = time.monotonic() + 5
            while table.layout != ButtonLayout(3, 4) and time.monotonic() < deadline:
                time.sleep(0.02)
            for button, hold in ((4, 0.05), (1, 0.05), (2, 0.05), (0, 0.05), (1, 1.7)):
                ref.press(button)
                time.sleep(hold)
                ref.release(button)
                time.sleep(0.15)

        helper = threading.Thread(target=players)
        helper.start()
        play(table, box, KeyboardButtons(default_keymap(3)), seconds=4.5)
        helper.join()
        assert table.state.phase == "show" and table.state.show.declarer == 1
        assert table.state.show.declaration.ruling.valid
        assert table.state.deal.turns_played == (1, 1, 1)
        deadline = time.monotonic() + 3
        while ref.box.leds[1] != LED_FAST and time.monotonic() < deadline:
            time.sleep(0.02)
        assert ref.box.leds[1] == LED_FAST  # the declarer's button blinks
        assert ref.box.leds[0] == LED_OFF and ref.box.leds[2] == LED_OFF
        assert LED_ON not in ref.box.leds[:3]
    screen.close()
