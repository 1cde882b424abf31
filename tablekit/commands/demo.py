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
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import TablekitError
from engine.game import Correction, Game
from engine.notation import split_groups
from engine.ruling import plain_number
from tablekit.app import ScriptedCamera, SeenTable
from tablekit.demo_box import BOX_CHOICES, open_presses

NAME = "demo"
HELP = "play a whole scripted game (deals, shows, a timeout, drops) through engine, journal and screen"

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
    kind: str  # down, up, ok, menu, wait, link, camera, correct
    seat: int = -1
    data: Any = None
    note: str = ""


Groups = tuple[tuple[str, ...], ...]


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
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ScriptError(f"cannot read demo script {path}: {exc}") from None
    game = Game.from_json(data["game"])
    cuts = {int(k): str(v) for k, v in data.get("cuts", {}).items()}
    readings = {}
    for deal, zones in data.get("readings", {}).items():
        for seat, text in zones.items():
            readings[(int(deal), int(seat))] = _groups(text)
    tables = {}
    for deal, turns in data.get("tables", {}).items():
        for turn, seen in turns.items():
            series = seen if isinstance(seen, list) else [seen]
            tables[(int(deal), int(turn))] = tuple(_seen_table(t, game.players, path) for t in series)
    return Script(str(data.get("title", path.stem)), game, cuts, readings,
                  list(expand(data.get("steps", []))), tables)


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


def expand(steps: list[dict[str, Any]]) -> Iterator[Action]:
    """Steps (each ``after`` ms from the previous one) as timed actions."""
    t = 0
    last = -1
    note = ""
    for step in steps:
        if "note" in step and len(step) == 1:
            note = str(step["note"])
            continue
        t += int(step.get("after", 1000))
        found: list[Action] = []
        if "press" in step:
            seat = int(step["press"])
            found = [Action(t, "down", seat, note=note), Action(t + int(step.get("hold", 200)), "up", seat)]
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
            found = [Action(t, "correct", data=dict(step["correct"]), note=note)]
        else:
            raise ScriptError(f"unknown demo step {step!r}")
        note = ""
        for action in found:
            if action.t <= last:
                raise ScriptError(f"demo step at {action.t} ms does not come after {last} ms")
            last = action.t
            yield action


class TableCamera(ScriptedCamera):
    """The script's camera, which also reads the whole table after each turn (turn checks).

    A table reading is keyed by deal and the number of turns ended in it. A key may hold
    several readings: the first is what the camera sees when the turn ends; each MENU on the
    turn-check screen (the player has put the table right) reads the next one, the last one
    repeating. Which one is due follows from the game state, so a resumed demo reads the same.
    """

    def __init__(self, readings: dict[tuple[int, int], Groups], cuts: dict[int, str],
                 tables: dict[tuple[int, int], tuple[SeenTable, ...]]) -> None:
        super().__init__(readings, cuts)
        self.series = dict(tables)

    def read_table(self, seats: int) -> SeenTable | None:
        state = self.state_of() if self.state_of is not None else None
        deal = state.deal if state is not None else None
        turns = deal.turn_count - 1 if deal is not None else 0
        series = self.series.get((self._deal(False), turns), ())
        if not series:
            return None  # the camera cannot see the table now: the turn goes unchecked
        check = deal.watch.check if deal is not None and deal.watch is not None else None
        again = check.reads if state is not None and state.phase == "turn-check" and check else 0
        return series[min(again, len(series) - 1)]


class VisionCamera:
    """Draws the scripted cards as a table photo and reads it with the vision package."""

    fallback = True
    name = "synthetic table images read by vision"

    def __init__(self, scripted: Any, seed: int = 0, size: tuple[int, int] = (1280, 960)) -> None:
        self.scripted = scripted
        self.seed = seed
        self.size = size
        self.reads = 0
        self.exact = 0
        self.cards = 0
        self.cards_right = 0

    @property
    def state_of(self) -> Any:
        return self.scripted.state_of

    @state_of.setter
    def state_of(self, value: Any) -> None:
        self.scripted.state_of = value

    def truth(self, seat: int) -> Any:
        return self.scripted.read_zone(seat)

    def read_zone(self, seat: int) -> Any:
        import numpy as np

        from vision.recognize import read_table
        from vision.synth import scene

        truth = self.scripted.read_zone(seat)
        if truth is None:
            return None
        deal = self.scripted._deal(False)
        rng = np.random.default_rng([self.seed, deal, seat, self.reads])
        image, _ = scene(rng, self.size, [list(g) for g in truth])
        got = tuple(tuple(g) for g in read_table(image).group_cards())
        self.reads += 1
        self.exact += got == truth
        flat_true = [c for g in truth for c in g]
        flat_got = [c for g in got for c in g]
        self.cards += len(flat_true)
        self.cards_right += sum(a == b for a, b in zip(flat_true, flat_got, strict=False))
        return got or (("??",),)

    def read_cut(self) -> Any:
        return self.scripted.read_cut()

    def read_table(self, seats: int) -> Any:
        """The whole table stays the script's: synthetic photos are drawn one zone at a time."""
        read = getattr(self.scripted, "read_table", None)
        return read(seats) if read is not None else None


class Player:
    """Plays a script's actions on a table; the buttons go through ``presses`` (box or keys)."""

    def __init__(self, table: Any, clock: Any, presses: Any = None) -> None:
        from tablekit.demo_box import KeyPresses

        self.table = table
        self.clock = clock
        self.presses = presses if presses is not None else KeyPresses()
        if presses is None:
            self.presses.attach(table, clock)

    def fix_misreads(self, t: int) -> None:
        """Correct what the camera misread, card by card, or lay the hand out again."""
        camera = self.table.camera
        if not isinstance(camera, VisionCamera):
            return
        from engine.game import TableRead

        for _ in range(40):
            state = self.table.state
            show = state.show
            if state.phase != "show" or show is None:
                return
            if show.stage == "verdict":
                reading = show.declaration
            elif show.stage == "hand-check":
                reading = show.current
            else:
                return
            if reading is None:
                return
            truth = camera.truth(reading.seat)
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
    which.add_argument("--script", type=Path, default=None, help="demo script (JSON)")
    p.add_argument("--headless", action="store_true", help="no window (SDL's dummy video driver)")
    p.add_argument("--report", type=Path, help="write the final standings here (JSON)")
    p.add_argument("--screenshots", type=Path, help="save a PNG of every screen in this folder")
    p.add_argument("--journal", type=Path, help="journal database (default: a temporary file)")
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


def _size(text: str) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    return int(w), int(h)


def _open_screen(args: argparse.Namespace) -> tuple[Any, str]:
    from tablekit.app import Screen

    if args.no_screen:
        return None, "none"
    if args.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        return Screen(_size(args.size), screenshots=args.screenshots), "headless"
    try:
        screen = Screen(_size(args.size), screenshots=args.screenshots)
        import pygame

        if pygame.display.get_driver() in ("dummy", "offscreen"):
            print("no display here: running headless", file=sys.stderr)
            return screen, "headless"
        return screen, "window"
    except Exception as exc:  # no display here: say so and carry on headless
        print(f"no window available ({exc}); running headless", file=sys.stderr)
        import pygame

        pygame.display.quit()
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        return Screen(_size(args.size), screenshots=args.screenshots), "headless"


def run(args: argparse.Namespace) -> int:
    """Bad input raises a TablekitError; tablekit.cli prints it as one error line (exit 2)."""
    from tablekit.clock import ManualClock
    from tablekit.journal import Journal

    path = args.script or DEMO_DIR / f"{args.game or DEFAULT_GAME}.json"
    script = load_script(path)
    journal_path = args.journal or Path(tempfile.mkdtemp(prefix="tablekit-demo-")) / "journal.sqlite"
    journal = Journal(journal_path)
    camera: Any = (TableCamera(script.readings, script.cuts, script.tables) if script.tables
                   else ScriptedCamera(script.readings, script.cuts))
    if args.vision:
        camera = VisionCamera(camera)
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
        if mode != "none":
            why = getattr(presses, "why", "") if args.box == "auto" else ""
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
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if mode != "none":
        print(_summary(report))
    if screen is not None:
        screen.close()
    journal.close()
    return 0 if table.over else 1


def _table(args: argparse.Namespace, script: Script, journal: Any, journal_path: Path, clock: Any,
           camera: Any, presses: Any, on_view: Callable[[Any], None] | None) -> tuple[Any, int]:
    """The script's table, new or resumed from the journal, and the time it resumes after."""
    from tablekit.app import Devices, Table, fallback_health

    kw: dict[str, Any] = dict(
        camera=camera, on_view=on_view, box=presses,
        devices=Devices(link=fallback_health(presses.health),
                        camera=fallback_health(f"{camera.name} instead of the camera")))
    if not args.resume:
        return Table.start(journal, script.game, clock, **kw), -1
    game_id = journal.resumable()
    if game_id is None:
        raise ScriptError(f"nothing to resume in {journal_path}")
    start_after = journal.last_time(game_id)
    clock.set(start_after)
    table = Table.resume(journal, game_id, clock, **kw)
    table.catch_up()
    return table, start_after


def _animate(table: Any, clock: Any, start: int, end: int, pace_ms: int) -> None:
    """Sweep the scripted clock from ``start`` to ``end`` over about ``pace_ms`` real ms."""
    frames = max(1, pace_ms * 30 // 1000)
    for k in range(1, frames + 1):
        clock.set(start + (end - start) * k // (frames + 1))
        table.draw()
        time.sleep(pace_ms / 1000 / frames)


def standings_report(table: Any, script: Script, journal_path: Path, screen: Any) -> dict[str, Any]:
    state = table.state
    game = state.game
    names = [s.name for s in game.seats]
    from engine.game import policy_for

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
