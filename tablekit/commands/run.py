"""``tablekit run``: the table itself — camera, button box, screen and journal around the engine.

Devices are found with safe fallbacks and the screen says which stand-in is used: no button
box → the keyboard (digits for seats, M for MENU, Return for OK), while the table looks for a
box every few seconds and takes one plugged in later; no camera → a photo folder
(``--photos``), read one photo per reading, or with none the hands entered at the table while
each reading looks for a camera again and takes one plugged in later. ``--resume`` picks up the last unfinished game
exactly where the journal left it (after a power cut, say).
"""

from __future__ import annotations

import argparse
import logging
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.errors import TablekitError
from engine.game import Game, Seat
from tablekit.cameras import CENTRE, FrameCamera, SeenTable, TableRequest
from tablekit.values import path_arg, text_arg

if TYPE_CHECKING:
    import numpy as np

    from display.viewmodel import ViewModel
    from tablekit.box_input import BoxLink
    from tablekit.cameras import Camera
    from tablekit.table import Devices
    from vision.reading import TableReading

NAME = "run"
HELP = "run the table: camera, button box and screen (keyboard and photo-folder fallbacks)"
log = logging.getLogger(__name__)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", type=text_arg, help="variant id (see `tablekit variants`); without it the setup "
                   "screen asks (MENU: next row, OK: change, OK on Start: play)")
    p.add_argument("--players", default="",
                   help="comma-separated names in seat order (clockwise); 'name/team' for partners")
    p.add_argument("--turn-seconds", type=int, default=0, help="turn timer (default: the variant's, 45 s)")
    p.add_argument("--dealer", type=int, default=1, help="seat number (1-based) that deals first")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="house rule, e.g. count=arranged, deals=3, wrap=true (repeatable)")
    p.add_argument("--resume", action="store_true", help="resume the last unfinished game")
    p.add_argument("--journal", type=path_arg, help="journal database (default: $TABLEKIT_JOURNAL or ~/.local/share/tablekit)")
    p.add_argument("--port", type=text_arg, help="button box serial URL (default: the first one found)")
    p.add_argument("--no-box", action="store_true", help="use the keyboard even if a box is present")
    p.add_argument("--camera", type=text_arg, default="auto",
                   help="camera: auto (the Pi camera through picamera2 if there is one, else USB "
                        "camera 0), picamera, a device number, or a video file")
    p.add_argument("--photos", type=path_arg, help="photo folder to read when there is no camera")
    p.add_argument("--calibration", type=path_arg, help="mat calibration (zones per seat)")
    p.add_argument("--size", default=None,
                   help="window size (e.g. 1920x1080, 800x480; default 1280x720, and with "
                        "--fullscreen the screen's own size)")
    p.add_argument("--fullscreen", action="store_true", help="kiosk: full screen, no way out by keyboard")
    p.add_argument("--headless", action="store_true", help="no window (SDL's dummy driver)")
    p.add_argument("--seconds", type=float, default=0, help="stop after this many seconds (0: never)")
    p.add_argument("--photo-budget-mb", type=float, default=None, metavar="MB",
                   help="the most the journal keeps of the photos behind rulings, oldest finished "
                        "games pruned first (default: $TABLEKIT_PHOTO_BUDGET_MB or 200)")
    p.add_argument("--club", metavar="mqtt://HOST:PORT",
                   help="publish every journaled event to the club's broker (see docs/club.md)")
    p.add_argument("--table-id", help="this table's id at the club (default: the machine's name)")
    p.add_argument("--club-page", metavar="URL",
                   help="this table's page at the club, shown as a QR code on the play screen "
                        "(default with --club: the club's page on the broker's host, port 8080)")
    p.add_argument("--mute", action="store_true",
                   help="say nothing aloud (by default, where there is a sound device, the table "
                        "says short phrases with espeak-ng: whose clock is at ten seconds, the verdict, the winner)")


def game_from_args(args: argparse.Namespace) -> Game:
    """The game the options describe; a house rule the variant does not take is refused."""
    from engine.game.house_options import check_options
    from engine.game.setup import SetupError, check_names
    from engine.variants import find
    from tablekit.values import ValueRefused, parse_option

    seats: list[Seat] = []
    for part in (args.players or "Player 1,Player 2,Player 3").split(","):
        name, _, team = (p.strip() for p in part.partition("/"))
        seats.append(Seat(name, team))
    try:
        check_names(tuple(seats))
    except SetupError as exc:
        raise ValueRefused(f"bad --players {args.players!r}: {exc}") from None
    options = dict(parse_option(o) for o in args.option)
    if not 1 <= args.dealer <= len(seats):
        raise ValueRefused(f"bad --dealer {args.dealer}: the seats are numbered 1 to {len(seats)}")
    return Game(args.variant, tuple(seats), args.turn_seconds, args.dealer - 1,
                check_options(find(args.variant), options))


def spoken(show: Callable[[ViewModel], None], args: argparse.Namespace) -> Callable[[ViewModel], None]:
    """``show``, and the table's phrases said aloud when there is a sound device and a voice
    (espeak-ng) and the players did not ask for ``--mute``."""
    from tablekit.speech import Speaker, sound_device

    if args.mute:
        return show
    if not sound_device():
        log.info("no sound device: the table is silent")
        return show
    try:
        speaker = Speaker()
    except FileNotFoundError as exc:
        log.info("%s: the table is silent", exc)
        return show

    def both(view: ViewModel) -> None:
        show(view)
        speaker.hear(view)
    return both


def open_box(args: argparse.Namespace, devices: Devices) -> BoxLink | None:
    """The button box, or None (``--no-box``: the keyboard alone). With no ``--port`` and no
    box found, the keyboard stands in (``devices.link`` says so) while the link looks for a
    box every few seconds, and the box plugged in later is used from then on."""
    if args.no_box:
        return None
    try:
        from firmware_bridge import ButtonBox, LinkError, require_port
        from tablekit.box_input import BoxLink, dropped_health
        from tablekit.table import fallback_health
    except ImportError as exc:
        log.warning("no button box (%s): using the keyboard", exc)
        return None
    try:
        port = require_port(args.port)
    except LinkError as exc:
        log.warning("%s: using the keyboard until a box is plugged in", exc)
        devices.link = fallback_health("keyboard until a button box is plugged in")

        def found(url: str) -> None:
            devices.link = dropped_health(0)

        return BoxLink.searching(first_port, on_found=found)
    button_box = ButtonBox(port)
    try:
        button_box.open()
        log.info("button box on %s", port)
    except LinkError as exc:  # said now; the link keeps trying the port (a box plugged in later)
        log.warning("%s: using the keyboard until it opens", exc)
    try:
        return BoxLink(button_box.start())
    except (TablekitError, OSError) as exc:
        log.warning("no button box (%s): using the keyboard", exc)
        return None


def first_port() -> str | None:
    """The first button box this machine shows (``firmware_bridge.discovery``), or None."""
    from firmware_bridge.discovery import candidate_ports
    found = candidate_ports()
    return found[0].url if found else None


class EvidenceCamera(FrameCamera):
    """A :class:`~tablekit.cameras.FrameCamera` that also gives the photos of its whole-table
    readings (``table_photo``: the frame, every read box drawn) and of the cut cards it read
    (``cut_photo``: the mat's centre), which the table keeps with the events they made
    (:mod:`tablekit.evidence`): every ruling made from a camera reading keeps its photo."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._table_seen: tuple[np.ndarray, TableReading] | None = None
        self._cuts_read: set[int] = set()  # the deals whose cut card was read, not drawn

    def read_table(self, request: TableRequest) -> SeenTable | None:
        seen = super().read_table(request)
        self._table_seen = self._last if seen is not None else None
        return seen

    def table_photo(self, request: TableRequest) -> bytes | None:
        """The JPEG of the frame the last whole table was read from (None: none was)."""
        from tablekit.evidence import zone_photo

        if self._table_seen is None:
            return None
        frame, reading = self._table_seen
        return zone_photo(frame, reading)

    def read_cut(self, deal: int) -> str | None:
        card = super().read_cut(deal)
        if card is None:
            self._cuts_read.discard(deal)
        else:
            self._cuts_read.add(deal)
        return card

    def cut_photo(self, deal: int) -> bytes | None:
        """The JPEG of the centre the cut card of ``deal`` was read from (None: it was not
        read, the table drew it)."""
        from tablekit.evidence import zone_photo

        seen = self.seen.get(CENTRE)
        if deal not in self._cuts_read or seen is None:
            return None
        frame, reading = seen
        return zone_photo(frame, reading, self.calibration, CENTRE)

def open_camera(args: argparse.Namespace, devices: Devices | None = None) -> Camera:
    """A frame camera, else the photo folder, else a camera still to be found: each reading
    looks for it again (``vision.sources.SearchingSource``), the hands entered at the table
    meanwhile, and ``devices.camera`` says so until it is found. A frame camera keeps the
    photo of every reading a ruling is made from (:class:`EvidenceCamera`)."""

    calibration = deck = None
    if args.calibration:
        from vision.calibration import Calibration
        from vision.enroll import DeckTemplates

        calibration = Calibration.load(args.calibration)
        if calibration.deck is not None:
            try:
                deck = DeckTemplates.load(calibration.deck)
                log.info("enrolled deck: %d templates from %s", len(deck.cards), calibration.deck)
            except TablekitError as exc:  # the camera still reads, without the club's deck
                log.warning("%s; reading without the enrolled deck", exc)
    try:
        from vision.sources import open_source

        return EvidenceCamera(open_source(args.camera), calibration, live=True, deck=deck)
    except (TablekitError, OSError, ImportError) as exc:
        log.warning("no camera (%s)", exc)
    if args.photos:
        from tablekit.values import ValueRefused
        from vision.sources import FolderSource

        if not args.photos.is_dir():
            raise ValueRefused(f"--photos {args.photos}: " + ("is a file; name a folder of photos"
                                                             if args.photos.exists() else "no such folder"))

        return EvidenceCamera(FolderSource(args.photos), calibration, fallback=True, deck=deck)
    from display.viewmodel import DeviceHealth
    from tablekit.table import fallback_health
    from vision.sources import SearchingSource

    if devices is not None:
        devices.camera = fallback_health("hands entered until a camera is found")

    def found(source: object) -> None:
        if devices is not None:
            devices.camera = DeviceHealth()

    return EvidenceCamera(SearchingSource(args.camera, on_found=found), calibration, live=True, deck=deck)


def run(args: argparse.Namespace) -> int:
    """Bad input raises a TablekitError; tablekit.cli prints it as one error line (exit 2).

    The table loops until the window closes (or ``--seconds`` run out): the setup screen, the
    game, and after it a rematch (the same players, the next dealer first), new players (the
    setup screen again) or the history; a game left in play stays resumable.
    """
    import time

    from engine.variants import all_variants
    from firmware_bridge import KeyboardButtons, default_keymap
    from tablekit.clock import MonotonicClock
    from tablekit.journal import JournalError, default_path
    from tablekit.journal_open import open_table_journal
    from tablekit.roster import Roster
    from tablekit.setup_screen import Resume, TableSetup, left_game
    from tablekit.shell import (
        LEFT,
        NEW_PLAYERS,
        REMATCH,
        choose_game,
        open_screen,
        play_game,
        rematch,
    )
    from tablekit.table import Devices, Table, fallback_health
    from tablekit.values import ValueRefused, check_seconds, parse_size

    # full screen with no size given: the screen's own (a mode it may not have is refused
    # under KMSDRM); a window: 1280x720
    size = parse_size(args.size) if args.size else None if args.fullscreen else (1280, 720)
    check_seconds(args.seconds, zero="never stop")
    if args.photo_budget_mb is not None and not 0 <= args.photo_budget_mb <= 1_000_000:
        raise ValueRefused(f"bad --photo-budget-mb {args.photo_budget_mb:g}: 0 (keep none) to 1000000")
    chosen = game_from_args(args) if args.variant and not args.resume else None
    where = args.journal or default_path()
    if args.resume and not where.exists():  # never a new, empty journal for a game to resume
        raise JournalError(f"no journal at {where} to resume a game from")
    journal, damaged = open_table_journal(where)
    stuck = journal.stuck()
    if stuck and not damaged:  # an unfinished game with a damaged row: said, not passed over
        damaged = f"game {stuck[-1][0]} cannot be resumed: {stuck[-1][1]}"
    if damaged:
        log.warning("%s", damaged)
    from tablekit.club.join import club_page, start_publisher
    page = club_page(args.club, args.table_id, args.club_page)
    publisher = start_publisher(args.club, args.table_id, journal.path)
    devices = Devices()
    box = open_box(args, devices)
    if box is None:
        devices.link = fallback_health("keyboard instead of the button box")
    camera = open_camera(args, devices)
    log.info("camera: %s", camera.name)
    if camera.fallback:
        devices.camera = fallback_health(f"{camera.name} instead of the camera")
    screen = open_screen(size, headless=args.headless, fullscreen=args.fullscreen)
    on_view = spoken(screen.show, args)
    roster = Roster(journal)
    ends = time.monotonic() + args.seconds if args.seconds else None

    def left() -> float | None:
        """The seconds left of ``--seconds`` (None: no limit; 0 or less: none left)."""
        return None if ends is None else ends - time.monotonic()

    def played(names: list[str]) -> None:
        try:
            roster.played(names)
        except JournalError as exc:  # the roster is a convenience: the game goes on
            log.warning("the roster was not updated: %s", exc)

    def resumed(game_id: int) -> Table:
        """The game ``game_id`` exactly where its journal left it."""
        log.info("resuming game %d", game_id)
        table = Table.resume(journal, game_id, MonotonicClock(journal.last_time(game_id)),
                             camera=camera, box=box, devices=devices, on_view=on_view,
                             rng=random.Random())
        table.catch_up()
        return table

    try:
        table: Table | None = None
        if args.resume:
            game_id = journal.resumable()
            if game_id is None and stuck:  # there is one, but damage keeps it from going on
                raise JournalError(f"no unfinished game can be resumed: game {stuck[-1][0]} "
                                   f"cannot be: {stuck[-1][1]} (`tablekit history --journal "
                                   f"{journal.path}` shows what of it can still be read)")
            if game_id is None:
                raise JournalError("no unfinished game to resume")
            # the kiosk passes its new game's choice with its table settings: said, not refused
            given = [flag for flag, value in (("--variant", args.variant), ("--players", args.players),
                                              ("--turn-seconds", args.turn_seconds),
                                              ("--dealer", args.dealer != 1), ("--option", args.option))
                     if value]
            if given:
                log.info("resuming game %d: its game, players and rules come from the journal, not "
                         "%s", game_id, ", ".join(given))
            table = resumed(game_id)
        names = [p.partition("/")[0].strip() for p in args.players.split(",") if p.strip()] if args.players else []
        try:  # "ravi" on the command line is the roster's "Ravi"
            names = [roster.find(n) or n for n in names]
        except JournalError as exc:
            log.warning("the roster cannot be read: %s", exc)
        picked = names  # the players who sat down by name (the roster's last game for them)
        game: Game | None = chosen
        variant = args.variant or "indian-pool-101"
        while True:
            if table is None:
                if game is None:
                    remaining = left()
                    if remaining is not None and remaining <= 0:
                        return 0
                    setup = TableSetup([v.id for v in all_variants()], names, variant=variant,
                                       players=max(len(names), 3), roster=roster,
                                       left=left_game(journal))
                    choice = choose_game(setup, screen, box, seconds=remaining or 0,
                                         fullscreen=args.fullscreen)
                    if choice is None:
                        return 0
                    if isinstance(choice, Resume):  # the game left unfinished, picked up again
                        table, picked = resumed(choice.game_id), []
                    else:
                        game, picked = choice, setup.picked()
                if table is None and game is not None:
                    table = Table.start(journal, game, MonotonicClock(), camera=camera, box=box,
                                        devices=devices, on_view=on_view, rng=random.Random())
                    played(picked)
                if table is None:
                    return 0
            if args.photo_budget_mb is not None:
                table.photo_budget = int(args.photo_budget_mb * 1024 * 1024)
            table.club_page = page
            if damaged:
                table.warn(damaged)
                damaged = ""
            remaining = left()
            if remaining is not None and remaining <= 0:
                return 0
            keys = KeyboardButtons(default_keymap(table.state.game.players))
            outcome = play_game(table, box, keys, seconds=remaining or 0, fullscreen=args.fullscreen,
                                screen=screen)
            last = table.state.game
            table = None
            variant = last.variant_id
            if outcome == REMATCH:
                game = rematch(last)
            elif outcome in (NEW_PLAYERS, LEFT):
                game, names = None, []  # new players, or a game left: the setup screen
            else:
                return 0
    finally:
        if publisher is not None:
            publisher.stop()
        if box is not None:
            box.close()
        screen.close()
        journal.close()
