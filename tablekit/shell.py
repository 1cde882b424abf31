"""The table on a screen: which screen to open, and the frame loops that feed a table its inputs.

``tablekit run`` and ``tablekit demo`` open their screen here (``display.window.Screen``: a
window, the kiosk's full screen, or headless), and ``run`` plays the setup screen and the table
in ``display.frameloop.FrameLoop``: each frame takes the box's events, lets the table's time
pass and draws; the keys pressed since go to the keyboard mapper, or to the on-screen
correction of a misread card.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from display.window import HEADLESS, KIOSK, WINDOW, DisplayPlan, choose_display, is_raspberry_pi
from engine.game import Game
from firmware_bridge import ButtonEvent, KeyboardButtons, default_keymap
from firmware_bridge.layout import ButtonLayout
from tablekit.box_input import BoxLink, hand_to_table, key_to_table
from tablekit.setup_screen import TableSetup
from tablekit.table import Table

if TYPE_CHECKING:
    import pygame

    from display.touch import Tap
    from display.viewmodel import ViewModel
    from display.window import Screen

log = logging.getLogger(__name__)
#: The keyboard on the setup screen: before a game there are no seats yet, so the mapper
#: numbers MENU and OK after as many seats as any game has.
SETUP_SEATS = 8
#: The table's frame rate, still screens included: the inputs are taken once a frame, and a
#: button's hold (a show, a card's next suit) is timed by the frames it spans.
TABLE_FPS = 30.0


def display_plan(*, headless: bool = False, fullscreen: bool = False) -> DisplayPlan:
    """The screen the command line asks for: ``--headless``, ``--fullscreen`` (the kiosk),
    else what the environment says (``TABLEKIT_DISPLAY``…) — a window on a Pi too, unless the
    kiosk is asked for there."""
    if headless:
        return DisplayPlan(HEADLESS, "dummy", False, True)
    env = dict(os.environ)
    if fullscreen:
        env["TABLEKIT_DISPLAY"] = KIOSK
    plan = choose_display(env, is_raspberry_pi())
    if plan.mode == KIOSK and not plan.explicit:
        return DisplayPlan(WINDOW, env.get("SDL_VIDEODRIVER") or None, False, False)
    return plan


def open_screen(size: tuple[int, int], *, headless: bool = False, fullscreen: bool = False,
                screenshots: Path | None = None) -> Screen:
    """The table's screen; with ``screenshots``, one PNG per new scene (``scene_key``)."""
    from display.window import Screen, scene_key

    plan = display_plan(headless=headless, fullscreen=fullscreen)
    log.info("screen: %s %dx%d (%s)", plan.mode, *size, plan.driver or "SDL's choice")
    return Screen(size, plan=plan, screenshots=screenshots, key=scene_key)


def correction_key(table: Table, name: str, text: str) -> bool:
    """Keys of the on-screen correction of a misread card (C starts it on a show screen);
    True when the key was the correction's."""
    if table.correcting is None:
        return name == "c" and table.start_correction()
    if name in ("left", "up"):
        table.move_selection(-1)
    elif name in ("right", "down", "tab"):
        table.move_selection(1)
    elif name == "backspace":
        table.erase_card()
    elif name in ("return", "enter"):
        table.finish_correction(True)
    elif name == "escape":
        table.finish_correction(False)
    elif text and text.isalnum():
        table.type_card(text)
    return True


def screen_of(table: Table) -> Screen | None:
    """The screen the table draws on (its ``on_view`` is a screen's ``show``), if any."""
    from display.window import Screen

    owner = getattr(table.on_view, "__self__", None)
    return owner if isinstance(owner, Screen) else None


def tap_to_table(table: Table, tap: Tap) -> None:
    """A tap on the play screen as the box's button it stands for: a seat's panel is that
    seat's button (a short tap ends the turn, a hold declares a show, timed by the table like
    a key's), the soft keys are MENU and OK."""
    control = ButtonLayout.keyboard(table.state.game.players)
    if tap.target == "key:menu":
        button = control.menu
    elif tap.target == "key:ok":
        button = control.ok
    elif tap.target.startswith("seat:"):
        button = int(tap.target.split(":", 1)[1])
    else:
        return
    table.button(button, tap.down, table.now(), keyboard=True)


def play(table: Table, box: BoxLink | None, keys: KeyboardButtons, *, seconds: float = 0,
         fullscreen: bool = False, screen: Screen | None = None) -> int:
    """Run the table until the window closes, Escape (not in the kiosk: ``fullscreen``) or
    ``seconds`` (0: for ever). Taps on ``screen`` (by default the one the table draws on) act
    as the box's buttons."""
    import pygame

    from display.frameloop import FrameLoop
    from display.touch import POINTER_EVENTS

    screen = screen or screen_of(table)

    def frame(now: float) -> ViewModel:
        if box is not None:
            for event in box.pending():
                hand_to_table(table, event, box.buttons)
        table.tick()
        return table.view()

    def key(ev: pygame.event.Event) -> None:
        if loop.running and ev.type in POINTER_EVENTS and screen is not None:
            tap = screen.tap(ev)
            if tap is not None:
                tap_to_table(table, tap)
            return
        if not loop.running or ev.type not in (pygame.KEYDOWN, pygame.KEYUP):
            return
        down = ev.type == pygame.KEYDOWN
        name = pygame.key.name(ev.key)
        if down and correction_key(table, name, getattr(ev, "unicode", "")):
            return
        if table.correcting is not None and not down:
            return
        if name == "escape" and not fullscreen:
            loop.stop()
            return
        t = table.now()
        key_to_table(table, keys.key_down(name, t) if down else keys.key_up(name, t), t)

    loop = FrameLoop(table.show, frame, events=pygame.event.get, on_event=key,
                     active_fps=TABLE_FPS, idle_fps=TABLE_FPS, closable=not fullscreen)
    loop.run(seconds=seconds or None)
    return 0


def choose_game(setup: TableSetup, screen: Screen, box: BoxLink | None, *, seconds: float = 0,
                fullscreen: bool = False) -> Game | None:
    """The setup screen until OK on Start (None: the window was closed, or ``seconds`` ran
    out). MENU and OK come from the box, the keyboard (M and Return) or the screen's soft
    keys, and a tap on a row moves to it; only their presses count, so a still setup screen
    is drawn at the frame loop's idle rate."""
    import pygame

    from display.frameloop import FrameLoop
    from display.touch import POINTER_EVENTS

    keys = KeyboardButtons(default_keymap(SETUP_SEATS))  # digits, then M and Return
    on_keys = ButtonLayout.keyboard(SETUP_SEATS)
    chosen: list[Game] = []

    def press(control: str | None) -> None:
        if control == "menu":
            setup.menu()
        elif control == "ok" and not chosen and (game := setup.ok()) is not None:
            chosen.append(game)
            loop.stop()

    def frame(now: float) -> ViewModel:
        if box is not None:
            for event in box.pending():
                layout = box.layout
                if isinstance(event, ButtonEvent) and event.event == "press" and layout is not None:
                    press(layout.control(event.button))
        return setup.view()

    def key(ev: pygame.event.Event) -> None:
        if ev.type in POINTER_EVENTS:
            tap = screen.tap(ev)
            if tap is None or not tap.down:
                return
            if tap.target in ("key:menu", "key:ok"):
                press(tap.target.split(":", 1)[1])
            else:
                setup.tap(tap.target)
        elif ev.type == pygame.KEYDOWN:
            got = keys.key_down(pygame.key.name(ev.key), 0)
            if got is not None:
                press(on_keys.control(got.button))
        elif ev.type == pygame.KEYUP:
            keys.key_up(pygame.key.name(ev.key), 0)

    loop = FrameLoop(screen.show, frame, events=pygame.event.get, on_event=key,
                     closable=not fullscreen)
    loop.run(seconds=seconds or None)
    return chosen[0] if chosen else None
