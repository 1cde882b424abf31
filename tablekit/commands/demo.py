"""``tablekit demo``: a whole scripted game through the real pipeline, on screen or headless.

The script (``tablekit/demos/*.json``, picked with ``--game NAME`` or ``--script FILE``) holds the game,
the cut cards, what the camera sees in each seat's zone per deal, for games that check every
turn (Open Rummy) what it sees on the whole table after each turn, and the table's actions in
time: presses, MENU and OK, waits that run a clock out, a lost box link, a corrected misread.
The engine, the journal and the screen are the real ones; only the clock is scripted, so the
demo takes a minute in a window and seconds headless.

The presses come from the simulated button box when it can run here (``--box auto``, the
default, or ``--box sim``): the real firmware in simavr behind a pseudo-terminal, read through
``firmware_bridge`` as ``tablekit run`` reads a real box (see ``tablekit.demo_box``). Without
the simulator or the AVR toolchain (or with ``--box keys``) they are typed on the keyboard
mapper instead, and the screen and the report say so. Either way the journal, and so the
standings, are the same.

By default the camera readings come from the script. With ``--vision`` every reading is a
synthetic table image of the scripted cards (drawn by ``vision.synth``) read by the real
recognizer; the demo's table then corrects each misread card on screen, as players would, or
lays the reading out again when the camera saw a different number of cards.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.cards import Groups
from engine.errors import TablekitError
from engine.game import Correction, Game, TableRead, policy_for
from engine.game.house_options import check_options
from engine.game.setup import check_names
from engine.notation import split_groups
from engine.ruling import plain_number
from tablekit.cameras import Camera, ScriptedCamera, SeenTable, VisionCamera
from tablekit.demo_box import BOX_CHOICES, KeyPresses, Presses, open_presses
from tablekit.table import Devices, Table, fallback_health
from tablekit.values import path_arg

if TYPE_CHECKING:
    from display.viewmodel import ViewModel
    from display.window import Screen
    from tablekit.clock import ManualClock
    from tablekit.journal import Journal

NAME = "demo"
HELP = "play a whole scripted game (deals, shows, a timeout, drops) through engine, journal and screen"
log = logging.getLogger(__name__)

DEMO_DIR = Path(__file__).resolve().parents[1] / "demos"
DEFAULT_GAME = "indian-pool-101"
DEFAULT_SCRIPT = DEMO_DIR / f"{DEFAULT_GAME}.json"


def demo_games() -> list[str]:
    """The scripts under ``tablekit/demos/`` by name (``--game``): the file name without ``.json``."""
    return sorted(p.stem for p in DEMO_DIR.glob("*.json"))


class ScriptError(TablekitError, ValueError):
    """A demo script that cannot be played."""


@dataclass(frozen=True, slots=True)
class Action:
    """One thing the table does at table time ``t`` (strictly increasing through a script)."""

    t: int
    kind: str  # down, up, call, ok, menu, wait, link, camera, correct
    seat: int = -1
    data: Any = None  # link/camera: up (bool); correct: the correction (a JSON object);
    # call: (what, the tiles or cards as groups)
    note: str = ""


@dataclass
class Script:
    title: str
    game: Game
    cuts: dict[int, str]
    readings: dict[tuple[int, int], Groups]
    actions: list[Action] = field(default_factory=list)
    #: (deal, turns ended) -> the whole table as the camera reads it then, and again after
    #: each MENU on the turn-check screen (the last one repeats)
    tables: dict[tuple[int, int], tuple[SeenTable, ...]] = field(default_factory=dict)


def _groups(text: str) -> Groups:
    return tuple(tuple(g) for g in split_groups(text))


def load_script(path: Path) -> Script:
    """The script at ``path``; :class:`ScriptError` names the file and what in it is wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise ScriptError(f"cannot read demo script {path}: {exc}") from None
    try:
        return _script(data, path)
    except TablekitError as exc:
        raise ScriptError(f"{path}: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ScriptError(f"{path}: not a demo script ({type(exc).__name__}: {exc})") from None


def _mapping(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ScriptError(f"{what} must be a JSON object, not {json.dumps(value)[:60]}")
    return value


def _number(value: Any, what: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ScriptError(f"{what} must be a whole number from {low}, not {json.dumps(value)[:60]}")
    return value


def _key(text: str, what: str, low: int, high: int) -> int:
    """A JSON object's key naming a deal or a seat (``"1"``), within ``low..high``."""
    if not (text.strip().isascii() and text.strip().isdigit()) or not low <= int(text) <= high:
        raise ScriptError(f"{what} {text!r} must be a number from {low} to {high}")
    return int(text)


def _cut(game: Game, value: Any) -> str:
    """A cut card (or turned-up tile) as the game writes one."""
    items = [i for g in game.variant.parse(str(value)) for i in g]
    if len(items) != 1:
        raise ScriptError(f"a cut must be one card, not {value!r}")
    return str(value)


def _script(data: Any, path: Path) -> Script:
    data = _mapping(data, "a demo script")
    if "game" not in data:
        raise ScriptError("the script names no game (its \"game\" object)")
    game = Game.from_json(_mapping(data["game"], "\"game\""))
    check_names(game.seats)
    check_options(game.variant, game.options)
    seats = game.players
    cuts = {_key(k, "a cut's deal", 1, 999): _cut(game, v)
            for k, v in _mapping(data.get("cuts", {}), "\"cuts\"").items()}
    readings: dict[tuple[int, int], Groups] = {}
    for deal, zones in _mapping(data.get("readings", {}), "\"readings\"").items():
        for seat, text in _mapping(zones, f"the readings of deal {deal}").items():
            readings[(_key(deal, "a reading's deal", 1, 999),
                      _key(seat, "a reading's seat", 0, seats - 1))] = _groups(str(text))
    tables: dict[tuple[int, int], tuple[SeenTable, ...]] = {}
    for deal, turns in _mapping(data.get("tables", {}), "\"tables\"").items():
        for turn, seen in _mapping(turns, f"the tables of deal {deal}").items():
            series = seen if isinstance(seen, list) else [seen]
            tables[(_key(deal, "a table's deal", 1, 999), _key(turn, "a table's turn", 0, 10**6))] = \
                tuple(_seen_table(t, seats, path) for t in series)
    steps = data.get("steps", [])
    if not isinstance(steps, list):
        raise ScriptError(f"\"steps\" must be a list, not {json.dumps(steps)[:60]}")
    return Script(str(data.get("title", path.stem)), game, cuts, readings,
                  list(expand(steps, seats)), tables)


def _seen_table(data: Any, players: int, path: Path) -> SeenTable:
    """``{"melds": {"1": "5S 6S 7S | ..."}, "discard": "6C 9H", "stock": 24}`` as a reading."""
    try:
        melds = {int(seat): _groups(text) for seat, text in data.get("melds", {}).items()}
        if any(not 0 <= seat < players for seat in melds):
            raise ValueError(f"a seat beyond the {players} at the table")
        stock = data.get("stock")
        return SeenTable(tuple(melds.get(s, ()) for s in range(players)),
                         tuple(str(data.get("discard", "")).split()),
                         None if stock is None else int(stock))
    except (AttributeError, TypeError, ValueError) as exc:
        raise ScriptError(f"{path}: a table reading that cannot be used ({exc}): {data!r}") from None


def expand(steps: list[Any], seats: int = 8) -> Iterator[Action]:
    """Steps (each ``after`` ms from the previous one) as timed actions; a step that is not
    one of the kinds below, or names a seat the game lacks, is a :class:`ScriptError`."""
    t = 0
    last = -1
    note = ""
    for n, step in enumerate(steps, 1):
        step = _mapping(step, f"step {n}")
        if "note" in step and len(step) == 1:
            note = str(step["note"])
            continue
        t += _number(step.get("after", 1000), f"step {n}'s \"after\" (ms)")
        found: list[Action] = []
        if "press" in step or "claim" in step:
            # a claim is a short press out of turn ("May I", a buy, a call): the same button
            kind = "press" if "press" in step else "claim"
            seat = _number(step[kind], f"step {n}'s \"{kind}\" (a seat)")
            if seat >= seats:
                raise ScriptError(f"step {n} presses seat {seat}, but the game has seats 0 to {seats - 1}")
            hold = _number(step.get("hold", 200), f"step {n}'s \"hold\" (ms)", low=1)
            found = [Action(t, "down", seat, note=note), Action(t + hold, "up", seat)]
        elif "call" in step:
            # a seat's call its family's rules answer (tile rummy: a double, the ace, a meld)
            seat = _number(step["call"], f"step {n}'s \"call\" (a seat)")
            if seat >= seats:
                raise ScriptError(f"step {n} is a call by seat {seat}, but the game has seats 0 to {seats - 1}")
            what = step.get("what")
            if not isinstance(what, str) or not what:
                raise ScriptError(f"step {n}'s call needs \"what\" (double, ace, meld), not {json.dumps(what)}")
            found = [Action(t, "call", seat, data=(what, _groups(str(step.get("tiles", ""))),), note=note)]
        elif "chord" in step:
            # a seat's button held while OK is pressed: that seat's call (see tablekit.box_input)
            seat = _number(step["chord"], f"step {n}'s \"chord\" (a seat)")
            if seat >= seats:
                raise ScriptError(f"step {n} holds seat {seat}, but the game has seats 0 to {seats - 1}")
            found = [Action(t, "down", seat, note=note), Action(t + 300, "ok"), Action(t + 600, "up", seat)]
        elif step.get("ok"):
            found = [Action(t, "ok", note=note)]
        elif step.get("menu"):
            found = [Action(t, "menu", note=note)]
        elif step.get("wait"):
            found = [Action(t, "wait", note=note)]
        elif "link" in step:
            found = [Action(t, "link", data=step["link"] == "up", note=note)]
        elif "camera" in step:
            found = [Action(t, "camera", data=step["camera"] == "up", note=note)]
        elif "correct" in step:
            found = [Action(t, "correct", data=_correction(step["correct"], n, seats), note=note)]
        else:
            raise ScriptError(f"unknown demo step {step!r}")
        note = ""
        for action in found:
            if action.t <= last:
                raise ScriptError(f"demo step at {action.t} ms does not come after {last} ms")
            last = action.t
            yield action


def _correction(value: Any, n: int, seats: int) -> dict[str, Any]:
    """A ``correct`` step's ``{"zone", "group", "position", "card"}``, checked."""
    d = _mapping(value, f"step {n}'s \"correct\"")
    zone = _number(d.get("zone"), f"step {n}'s correction zone")
    if zone >= seats:
        raise ScriptError(f"step {n} corrects zone {zone}, but the game has seats 0 to {seats - 1}")
    _number(d.get("group"), f"step {n}'s correction group")
    _number(d.get("position"), f"step {n}'s correction position")
    return dict(d)


class Player:
    """Plays a script's actions on a table; the buttons go through ``presses`` (box or keys)."""

    def __init__(self, table: Table, clock: ManualClock, presses: Presses | None = None) -> None:
        self.table = table
        self.clock = clock
        self.presses: Presses = presses if presses is not None else KeyPresses()
        if presses is None:
            self.presses.attach(table, clock)

    def fix_misreads(self, t: int) -> None:
        """Correct what the camera misread, card by card, or lay the hand out again."""
        camera = self.table.camera
        if not isinstance(camera, VisionCamera):
            return
        for _ in range(40):
            state = self.table.state
            show = state.show
            if state.phase != "show" or show is None:
                return
            reading = self.table.reading()
            if reading is None:
                return
            truth = camera.truth(self.table.zone_request(reading.seat))
            if truth is None or reading.groups == truth:
                return
            shape = [len(g) for g in truth]
            if [len(g) for g in reading.groups] != shape:
                self.table.post(TableRead(reading.seat, truth, t))
                continue
            gi, pi = next((gi, pi) for gi, g in enumerate(truth) for pi, c in enumerate(g)
                          if reading.groups[gi][pi] != c)
            self.table.post(Correction(reading.seat, gi, pi, truth[gi][pi], t))

    def do(self, action: Action) -> None:
        if action.kind == "up":  # a box holds the button for the scripted time first
            self.presses.hold(action.seat, action.t)
        self.clock.set(action.t)
        table = self.table
        table.tick()
        if action.kind in ("down", "up"):
            self.presses.seat(action.seat, action.kind == "down", action.t)
        elif action.kind in ("ok", "menu"):
            self.presses.control(action.kind, action.t)
        elif action.kind == "call":
            what, tiles = action.data
            table.call(action.seat, what, tiles, action.t)
        elif action.kind == "link":
            self.presses.link(bool(action.data), action.t)
        elif action.kind == "camera":
            table.camera_health(bool(action.data))
        elif action.kind == "correct":
            d = action.data
            if not isinstance(table.camera, VisionCamera):
                table.post(Correction(int(d["zone"]), int(d["group"]), int(d["position"]),
                                      str(d.get("card", "")), action.t))
        self.fix_misreads(action.t)


def add_arguments(p: argparse.ArgumentParser) -> None:
    which = p.add_mutually_exclusive_group()
    which.add_argument("--game", choices=demo_games(), default=None,
                       help=f"which of the demo's games to play (default: {DEFAULT_GAME})")
    which.add_argument("--script", type=path_arg, default=None, help="demo script (JSON)")
    p.add_argument("--headless", action="store_true", help="no window (SDL's dummy video driver)")
    p.add_argument("--report", type=path_arg, help="write the final standings here (JSON)")
    p.add_argument("--screenshots", type=path_arg, help="save a PNG of every screen in this folder")
    p.add_argument("--journal", type=path_arg, help="journal database (default: a temporary file)")
    p.add_argument("--resume", action="store_true", help="continue the script's game from the journal")
    p.add_argument("--no-screen", action="store_true", help="do not draw at all (tests)")
    p.add_argument("--pace-ms", type=int, default=-1,
                   help="real milliseconds between actions (default: 0 headless, ~0.5 s in a window)")
    p.add_argument("--size", default="1280x720", help="window size, e.g. 800x480")
    p.add_argument("--vision", action="store_true",
                   help="read synthetic table images with the vision package instead of scripted readings")
    p.add_argument("--box", choices=BOX_CHOICES, default="auto",
                   help="where presses come from: sim (the firmware in simavr, read through the "
                   "bridge), keys (the keyboard mapper), auto (sim if it runs here, else keys)")


def _open_screen(args: argparse.Namespace) -> tuple[Screen | None, str]:
    """The screen and how it draws: "window", "headless", or "none" (``--no-screen``)."""
    from display.errors import ScreenError
    from tablekit.shell import open_screen
    from tablekit.values import parse_size

    if args.no_screen:
        return None, "none"
    size = parse_size(args.size, example="800x480")
    if args.headless:
        return open_screen(size, headless=True, screenshots=args.screenshots), "headless"
    try:
        screen = open_screen(size, screenshots=args.screenshots)
    except ScreenError as exc:  # no display here: say so and carry on headless
        log.warning("no window available (%s); running headless", exc)
        return open_screen(size, headless=True, screenshots=args.screenshots), "headless"
    if screen.headless:
        log.warning("no display here: running headless")
        return screen, "headless"
    return screen, "window"


def run(args: argparse.Namespace) -> int:
    """Bad input raises a TablekitError; tablekit.cli prints it as one error line (exit 2)."""
    from tablekit.clock import ManualClock
    from tablekit.journal_open import journal_files, open_table_journal
    from tablekit.values import output_file, output_folder, parse_size

    path = args.script or DEMO_DIR / f"{args.game or DEFAULT_GAME}.json"
    script = load_script(path)
    parse_size(args.size, example="800x480")  # before the game is played, not after
    if args.pace_ms < -1 or args.pace_ms > 60_000:
        raise ScriptError(f"bad --pace-ms {args.pace_ms}: 0 to 60000 real milliseconds between "
                          "actions (left out: the default)")
    if args.resume and not args.journal:
        raise ScriptError("--resume needs --journal: the journal of the demo to go on with")
    if args.report:
        output_file(args.report, "--report", [(path, "the demo script"),
                                              *(journal_files(args.journal) if args.journal else ())])
    if args.screenshots:
        output_folder(args.screenshots, "--screenshots")
    journal_path = args.journal or Path(tempfile.mkdtemp(prefix="tablekit-demo-")) / "journal.sqlite"
    if args.resume and not journal_path.exists():  # never a new, empty journal to resume from
        raise ScriptError(f"no journal at {journal_path} to resume the demo from")
    journal, damaged = open_table_journal(journal_path)
    if damaged:
        log.warning("%s", damaged)
    scripted = ScriptedCamera(script.readings, script.cuts, script.tables)
    camera: Camera = VisionCamera(scripted) if args.vision else scripted
    clock = ManualClock()
    screen, mode = _open_screen(args)
    try:
        presses = open_presses(args.box)
    except TablekitError:
        if screen is not None:
            screen.close()
        journal.close()
        raise
    try:
        table, start_after = _table(args, script, journal, journal_path, clock, camera, presses,
                                    screen.show if screen is not None else None)
        if damaged:
            table.warn(damaged)
        if mode != "none":
            why = presses.why if args.box == "auto" else ""
            print(f"button presses: {presses.input}" + (f" ({why})" if why else ""), flush=True)
        presses.attach(table, clock, table.draw if mode == "window" else None)
        player = Player(table, clock, presses)
        pace = args.pace_ms if args.pace_ms >= 0 else (500 if mode == "window" else 0)
        table.draw()
        previous = start_after if start_after >= 0 else 0
        for action in script.actions:
            if action.t <= start_after:
                continue
            if action.note and mode != "none":
                print(f"[{action.t / 1000:7.1f} s] {action.note}", flush=True)
            if pace and mode == "window" and not (action.kind == "up" and presses.real_holds):
                _animate(table, clock, previous, action.t, pace)
            elif pace and not (action.kind == "up" and presses.real_holds):
                time.sleep(pace / 1000)
            player.do(action)
            table.draw()
            previous = action.t
        box = presses.report()
    finally:
        presses.close()
    report = standings_report(table, script, journal_path, screen)
    report["input"] = box["input"]
    report["box"] = box
    if isinstance(camera, VisionCamera):
        report["vision"] = {"readings": camera.reads, "read_exactly": camera.exact,
                            "cards": camera.cards, "cards_read_right": camera.cards_right}
    if args.report:
        args.report.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if mode != "none":
        print(_summary(report))
    if screen is not None:
        screen.close()
    journal.close()
    if not table.over:  # said even with no summary printed: the script ran out mid-game
        print(f"tablekit demo: the script's steps ended before the game did (the game is in "
              f"{journal_path}; a script with more steps for the same game goes on with it, given "
              f"--journal {journal_path} --resume)", file=sys.stderr)
    return 0 if table.over else 1


def _table(args: argparse.Namespace, script: Script, journal: Journal, journal_path: Path,
           clock: ManualClock, camera: Camera, presses: Presses,
           on_view: Callable[[ViewModel], None] | None) -> tuple[Table, int]:
    """The script's table, new or resumed from the journal, and the time it resumes after."""
    devices = Devices(link=fallback_health(presses.health),
                      camera=fallback_health(f"{camera.name} instead of the camera"))
    if not args.resume:
        return Table.start(journal, script.game, clock, camera=camera, box=presses,
                           devices=devices, on_view=on_view), -1
    game_id = journal.resumable()
    if game_id is not None and journal.game(game_id) != script.game:
        raise ScriptError(f"the unfinished game in {journal_path} is not this script's "
                          f"({journal.game(game_id).variant_id}, not {script.game.variant_id}, or "
                          f"other players): resume it with its own script")
    if game_id is None:
        # cut off after the game's last event: it is over, so only its report is left to make
        game_id = journal.latest()
        if game_id is None or journal.game(game_id) != script.game or journal.restore(game_id).phase != "game-over":
            raise ScriptError(f"nothing to resume in {journal_path}")
    start_after = journal.last_time(game_id)
    clock.set(start_after)
    table = Table.resume(journal, game_id, clock, camera=camera, box=presses, devices=devices,
                         on_view=on_view)
    table.catch_up()
    return table, start_after


def _animate(table: Table, clock: ManualClock, start: int, end: int, pace_ms: int) -> None:
    """Sweep the scripted clock from ``start`` to ``end`` over about ``pace_ms`` real ms."""
    frames = max(1, pace_ms * 30 // 1000)
    for k in range(1, frames + 1):
        clock.set(start + (end - start) * k // (frames + 1))
        table.draw()
        time.sleep(pace_ms / 1000 / frames)


def standings_report(table: Table, script: Script, journal_path: Path,
                     screen: Screen | None) -> dict[str, Any]:
    state = table.state
    game = state.game
    names = [s.name for s in game.seats]
    lower = policy_for(game).lower_wins(game)
    order = sorted(range(game.players), key=lambda s: (state.eliminated[s],
                                                        state.totals[s] if lower else -state.totals[s]))
    return {
        "title": script.title,
        "variant": game.variant_id,
        "over": table.over,
        "winners": [names[s] for s in state.winners],
        "standings": [{"place": i + 1, "name": names[s], "total": plain_number(state.totals[s]),
                       "eliminated": state.eliminated[s]} for i, s in enumerate(order)],
        "deals": [{"deal": r.number, "dealer": names[r.dealer], "cut": r.wild,
                   "winner": names[r.winner] if r.winner is not None else None,
                   "scores": dict(zip(names, map(plain_number, r.scores), strict=True)),
                   "outcomes": dict(zip(names, r.outcomes, strict=True)),
                   "totals": dict(zip(names, map(plain_number, r.totals), strict=True))}
                  for r in state.history],
        "game_id": table.game_id,
        "journal": str(journal_path),
        "events": len(table.journal.events(table.game_id)),
        "screenshots": [{"file": str(p), "texts": list(t)} for p, t in
                        zip(screen.shots if screen is not None else [],
                            screen.shot_texts if screen is not None else [], strict=True)],
    }


def _summary(report: dict[str, Any]) -> str:
    lines = [f"{report['title']}: {'over' if report['over'] else 'NOT finished'}"]
    for d in report["deals"]:
        scores = ", ".join(f"{k} {v}" for k, v in d["scores"].items())
        lines.append(f"  deal {d['deal']} (cut {d['cut'] or '-'}): {d['winner']} wins; {scores}")
    for s in report["standings"]:
        lines.append(f"  {s['place']}. {s['name']:<10} {s['total']:>4}{'  (out)' if s['eliminated'] else ''}")
    lines.append(f"winner: {', '.join(report['winners']) or '-'}   journal: {report['journal']}")
    if "input" in report:
        lines.append(f"presses: {report['input']}")
    return "\n".join(lines)
