"""``tablekit run``: the table itself — camera, button box, screen and journal around the engine.

Devices are found with safe fallbacks and the screen says which stand-in is used: no button
box → the keyboard (digits for seats, M for MENU, Return for OK); no camera → a photo folder
(``--photos``), read one photo per reading. ``--resume`` picks up the last unfinished game
exactly where the journal left it (after a power cut, say).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from engine.errors import TablekitError
from engine.game import Game, Seat
from tablekit.box_input import control_of, hand_to_table, key_to_table

NAME = "run"
HELP = "run the table: camera, button box and screen (keyboard and photo-folder fallbacks)"
FPS = 30


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", help="variant id (see `tablekit variants`); without it the setup "
                   "screen asks (MENU: next row, OK: change, OK on Start: play)")
    p.add_argument("--players", default="",
                   help="comma-separated names in seat order (clockwise); 'name/team' for partners")
    p.add_argument("--turn-seconds", type=int, default=0, help="turn timer (default: the variant's, 45 s)")
    p.add_argument("--dealer", type=int, default=1, help="seat number (1-based) that deals first")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="house rule, e.g. count=arranged, deals=3, wrap=true (repeatable)")
    p.add_argument("--resume", action="store_true", help="resume the last unfinished game")
    p.add_argument("--journal", type=Path, help="journal database (default: $TABLEKIT_JOURNAL or ~/.local/share/tablekit)")
    p.add_argument("--port", help="button box serial URL (default: the first one found)")
    p.add_argument("--no-box", action="store_true", help="use the keyboard even if a box is present")
    p.add_argument("--camera", default="picamera", help="camera: picamera, a device number, or a video file")
    p.add_argument("--photos", type=Path, help="photo folder to read when there is no camera")
    p.add_argument("--calibration", type=Path, help="mat calibration (zones per seat)")
    p.add_argument("--size", default="1280x720", help="window size (e.g. 1920x1080, 800x480)")
    p.add_argument("--fullscreen", action="store_true", help="kiosk: full screen, no way out by keyboard")
    p.add_argument("--headless", action="store_true", help="no window (SDL's dummy driver)")
    p.add_argument("--seconds", type=float, default=0, help="stop after this many seconds (0: never)")


def _option(text: str) -> tuple[str, bool | int | str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise TablekitError(f"bad --option {text!r}: expected KEY=VALUE")
    low = value.lower()
    if low in ("true", "yes", "on"):
        return key, True
    if low in ("false", "no", "off"):
        return key, False
    try:
        return key, int(value)
    except ValueError:
        return key, value


def game_from_args(args: argparse.Namespace) -> Game:
    seats = []
    for part in (args.players or "Player 1,Player 2,Player 3").split(","):
        name, _, team = part.strip().partition("/")
        if name:
            seats.append(Seat(name, team))
    options = dict(_option(o) for o in args.option)
    return Game(args.variant, tuple(seats), args.turn_seconds, args.dealer - 1, options)


class BoxLights:
    """LED and buzzer commands to the real box."""

    def __init__(self, box: Any) -> None:
        self.box = box

    def led(self, button: int, mode: str) -> None:
        self.box.led(button, mode)

    def buzz(self, ms: int) -> None:
        self.box.buzz(ms)


def open_box(args: argparse.Namespace) -> Any:
    """The button box, or None (the keyboard stands in)."""
    if args.no_box:
        return None
    try:
        from firmware_bridge import ButtonBox, require_port

        return ButtonBox(require_port(args.port)).start()
    except (TablekitError, OSError, ImportError) as exc:
        print(f"no button box ({exc}): using the keyboard", file=sys.stderr)
        return None


def open_camera(args: argparse.Namespace) -> Any:
    """A frame camera, else the photo folder, else a camera that reads nothing."""
    from tablekit.app import FrameCamera, ScriptedCamera

    calibration = None
    if args.calibration:
        from vision.calibration import Calibration

        calibration = Calibration.load(args.calibration)
    try:
        from vision.sources import open_source

        return FrameCamera(open_source(args.camera), calibration, live=True)
    except (TablekitError, OSError, ImportError) as exc:
        print(f"no camera ({exc})", file=sys.stderr)
    if args.photos:
        from vision.sources import FolderSource

        return FrameCamera(FolderSource(args.photos), calibration, fallback=True)
    none = ScriptedCamera()
    none.name = "no camera and no photo folder"
    none.no_tables = "no camera"
    return none


def run(args: argparse.Namespace) -> int:
    """Bad input raises a TablekitError; tablekit.cli prints it as one error line (exit 2)."""
    from firmware_bridge import KeyboardButtons, default_keymap
    from tablekit.app import Devices, Screen, Table, fallback_health
    from tablekit.clock import MonotonicClock
    from tablekit.journal import Journal, JournalError, default_path

    if args.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    journal = Journal(args.journal or default_path())
    box = open_box(args)
    camera = open_camera(args)
    devices = Devices()
    if box is None:
        devices.link = fallback_health("keyboard instead of the button box")
    if getattr(camera, "fallback", False):
        devices.camera = fallback_health(f"{camera.name} instead of the camera")
    w, _, h = args.size.partition("x")
    screen = Screen((int(w), int(h)), fullscreen=args.fullscreen)
    kw: dict[str, Any] = dict(camera=camera, box=BoxLights(box) if box else None,
                              devices=devices, on_view=screen.show, rng=random.Random())
    if args.resume:
        game_id = journal.resumable()
        if game_id is None:
            raise JournalError("no unfinished game to resume")
        clock = MonotonicClock(journal.last_time(game_id))
        table = Table.resume(journal, game_id, clock, **kw)
        table.catch_up()
    else:
        game = game_from_args(args) if args.variant else _setup(args, box, screen)
        if game is None:
            return 0
        table = Table.start(journal, game, MonotonicClock(), **kw)
    try:
        return _loop(table, box, KeyboardButtons(default_keymap(table.state.game.players)), args)
    finally:
        if box is not None:
            box.close()
        screen.close()
        journal.close()


def _setup(args: argparse.Namespace, box: Any, screen: Any) -> Game | None:
    """The setup screen until OK on Start (None: the window was closed)."""
    import pygame

    from engine.variants import all_variants
    from firmware_bridge import KeyboardButtons, default_keymap
    from tablekit.app import TableSetup

    names = [p.strip() for p in args.players.split(",") if p.strip()] if args.players else []
    setup = TableSetup([v.id for v in all_variants()], names, players=max(len(names), 3))
    keys = KeyboardButtons(default_keymap())  # digits, M (8) and Return (9)
    frame = pygame.time.Clock()
    started = time.monotonic()
    while True:
        if args.seconds and time.monotonic() - started >= args.seconds:
            return None
        presses: list[str] = []
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT and not args.fullscreen:
                return None
            if ev.type == pygame.KEYDOWN:
                got = keys.key_down(pygame.key.name(ev.key), 0)
                if got is not None and got.button in (8, 9):
                    presses.append("menu" if got.button == 8 else "ok")
            elif ev.type == pygame.KEYUP:
                keys.key_up(pygame.key.name(ev.key), 0)
        if box is not None:
            while (event := box.get_event(timeout=0)) is not None:
                hello = box.protocol.box
                if event.type == "button" and event.event == "press" and hello is not None:
                    control = control_of(event.button, hello.buttons)
                    if control is not None:
                        presses.append(control)
        for press in presses:
            if press == "menu":
                setup.menu()
            elif (game := setup.ok()) is not None:
                return game
        screen.show(setup.view())
        frame.tick(FPS)


def _correcting_key(table: Any, name: str, text: str) -> bool:
    """Keys of the on-screen correction of a misread card (C starts it on a show screen)."""
    if table.correcting is None:
        return name == "c" and table.start_correction()
    if name in ("left", "up"):
        table.move_selection(-1)
    elif name in ("right", "down", "tab"):
        table.move_selection(1)
    elif name == "backspace":
        table.proposed = table.proposed[:-1]
    elif name in ("return", "enter"):
        table.finish_correction(True)
    elif name == "escape":
        table.finish_correction(False)
    elif text and text.isalnum():
        table.type_card(text)
    return True


def _loop(table: Any, box: Any, keys: Any, args: argparse.Namespace) -> int:
    import pygame

    frame = pygame.time.Clock()
    started = time.monotonic()
    while True:
        if args.seconds and time.monotonic() - started >= args.seconds:
            return 0
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT and not args.fullscreen:
                return 0
            if ev.type in (pygame.KEYDOWN, pygame.KEYUP):
                name = pygame.key.name(ev.key)
                if ev.type == pygame.KEYDOWN and _correcting_key(table, name, getattr(ev, "unicode", "")):
                    continue
                if table.correcting is not None and ev.type == pygame.KEYUP:
                    continue
                if name == "escape" and not args.fullscreen:
                    return 0
                t = table.now()
                key_to_table(table, keys.key_down(name, t) if ev.type == pygame.KEYDOWN
                             else keys.key_up(name, t), t)
        if box is not None:
            while (event := box.get_event(timeout=0)) is not None:
                hello = box.protocol.box
                hand_to_table(table, event, hello.buttons if hello is not None else None)
        table.tick()
        table.draw()
        frame.tick(FPS)
