"""A table anyone can sit down at: ``tablekit run`` loops from game over to a rematch, new
players or the history; the roster's names are picked and added on the setup screen; leaving a
game asks first.

The runs are real and headless (SDL's dummy driver): the frame loops of ``tablekit.shell`` draw
every frame on a real ``Screen``; only ``pygame.event.get`` is scripted, one batch of key,
text and finger events per frame, so a run goes exactly the same way every time. Every run is
bounded by ``seconds`` (or ``--seconds``): a script that goes wrong ends, it never hangs.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402
from _game_fixtures import game  # noqa: E402

from display.viewmodel import (  # noqa: E402
    GameOverView,
    HistoryView,
    MessageView,
    PlayView,
    ScoreboardView,
    SetupView,
    ViewModel,
)
from display.window import Screen  # noqa: E402
from engine.game.setup import MAX_NAME  # noqa: E402
from engine.variants import all_variants  # noqa: E402
from firmware_bridge import KeyboardButtons, default_keymap  # noqa: E402
from tablekit.cameras import ScriptedCamera  # noqa: E402
from tablekit.clock import ManualClock  # noqa: E402
from tablekit.journal import Journal  # noqa: E402
from tablekit.roster import Roster  # noqa: E402
from tablekit.setup_screen import FINISH_S, HOLD_S, REPEAT_S, WHEEL_SHOWN, TableSetup  # noqa: E402
from tablekit.shell import (  # noqa: E402
    CHOICES,
    CLOSED,
    LEAVE_HOLD_S,
    LEFT,
    NEW_PLAYERS,
    REMATCH,
    choose_game,
    open_screen,
    play_game,
)
from tablekit.table import Table  # noqa: E402

SIZES = [(800, 480), (1920, 1080)]
BOUND = 8.0  # seconds: no run in this file gets longer, whatever goes wrong
COMMON = ["--headless", "--no-box", "--camera", "/nowhere", "--size", "800x480"]


# --- scripted input ---------------------------------------------------------------------------


CODES = {"return": pygame.K_RETURN, "escape": pygame.K_ESCAPE, "backspace": pygame.K_BACKSPACE,
         "m": pygame.K_m, "1": pygame.K_1, "2": pygame.K_2, "3": pygame.K_3}


def keys(*names: str) -> list[pygame.event.Event]:
    """A press and a release of each key, by pygame's name ("return", "m", "escape")."""
    out = []
    for name in names:
        code = CODES[name]
        out += [pygame.event.Event(pygame.KEYDOWN, key=code, unicode=""),
                pygame.event.Event(pygame.KEYUP, key=code)]
    return out


def down(name: str) -> list[pygame.event.Event]:
    return [pygame.event.Event(pygame.KEYDOWN, key=CODES[name], unicode="")]


def up(name: str) -> list[pygame.event.Event]:
    return [pygame.event.Event(pygame.KEYUP, key=CODES[name])]


def typed(text: str) -> list[pygame.event.Event]:
    return [pygame.event.Event(pygame.TEXTINPUT, text=text)]


def finger(screen: Screen, name: str) -> list[pygame.event.Event]:
    """A finger down and up on the middle of region ``name`` of the frame on screen."""
    canvas = screen.renderer.last
    assert canvas is not None and name in canvas.regions, f"{name} is not on the screen"
    x, y = canvas.regions[name].center
    w, h = screen.size
    return [pygame.event.Event(kind, touch_id=1, finger_id=0, x=x / w, y=y / h, dx=0.0, dy=0.0, pressure=1.0)
            for kind in (pygame.FINGERDOWN, pygame.FINGERUP)]


class Frames:
    """``pygame.event.get`` for a scripted run: each frame takes the next batch (a list of
    events, or a function of the screen that makes one); nothing once the script is done."""

    def __init__(self, screen: Screen | None = None) -> None:
        self.batches: list[object] = []
        self.screen = screen

    def then(self, *batches: object) -> Frames:
        self.batches.extend(batches)
        return self

    def __call__(self) -> list[pygame.event.Event]:
        pygame.event.pump()
        if not self.batches:
            return []
        batch = self.batches.pop(0)
        if callable(batch):
            batch = batch(self.screen)
        assert isinstance(batch, list)
        return batch


class StepClock:
    """A steady clock for the frame loops that moves ``step`` seconds each time it is read
    (so ``seconds=`` still ends a run) and jumps when told."""

    def __init__(self, step: float = 0.01) -> None:
        self.t = 100.0
        self.step = step

    def __call__(self) -> float:
        self.t += self.step
        return self.t

    def jump(self, seconds: float) -> list[pygame.event.Event]:
        """A frame's batch that lets ``seconds`` pass (and carries no events)."""
        self.t += seconds
        return []


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[ViewModel]:
    """Every view any screen shows, in order."""
    views: list[ViewModel] = []
    original = Screen.show

    def show(self: Screen, view: ViewModel) -> None:
        views.append(view)
        original(self, view)

    monkeypatch.setattr(Screen, "show", show)
    return views


@pytest.fixture
def frames(monkeypatch: pytest.MonkeyPatch) -> Frames:
    script = Frames()
    monkeypatch.setattr(pygame.event, "get", script)
    return script


@pytest.fixture(params=SIZES, ids=["800x480", "1920x1080"])
def screen(request: pytest.FixtureRequest) -> Iterator[Screen]:
    s = open_screen(request.param, headless=True)
    yield s
    s.close()


def kinds(views: list[ViewModel]) -> list[str]:
    """The screens shown, each once per run of the same screen."""
    out: list[str] = []
    for v in views:
        name = type(v).__name__
        if not out or out[-1] != name:
            out.append(name)
    return out


# Indian points for two (Asha, Ravi) ends after one deal: OK deals, MENU offers the player to
# move a drop, OK takes it, and the game is over.
WHOLE_GAME = (keys("return"), keys("m"), keys("return"))


# --- the run loop -----------------------------------------------------------------------------


def test_a_finished_game_offers_a_rematch_with_the_same_players_and_the_next_dealer(
        tmp_path: Path, frames: Frames, shown: list[ViewModel]) -> None:
    from tablekit.cli import main

    db = tmp_path / "j.sqlite"
    frames.then(*WHOLE_GAME,
                [],  # the game-over screen with its choices
                keys("return"),  # Rematch (the first choice)
                *WHOLE_GAME,  # the second game
                keys("m"), keys("m"), keys("return"),  # History
                [],
                keys("return"),  # back to the game-over screen
                keys("escape"))  # a window: Escape after the game closes the table
    assert main(["run", "--variant", "indian-points", "--players", "Asha,Ravi", "--seconds", str(BOUND),
                 "--journal", str(db), *COMMON]) == 0
    assert not frames.batches, "the run ended before its script did"
    over = [v for v in shown if isinstance(v, GameOverView)]
    assert over[0].choices == CHOICES and over[0].choice == 0 and "MENU" in over[0].prompt
    # each game opens on its deal screen (the table's own SetupView: OK deals)
    assert kinds(shown) == ["SetupView", "PlayView", "GameOverView", "SetupView", "PlayView", "GameOverView",
                            "HistoryView", "GameOverView"]
    with Journal(db) as j:
        games = j.games()
        assert [g.players for g in games] == [("Asha", "Ravi"), ("Asha", "Ravi")]
        assert [g.status for g in games] == ["over", "over"]
        assert j.game(1).variant_id == j.game(2).variant_id == "indian-points"
        assert (j.game(1).first_dealer, j.game(2).first_dealer) == (0, 1)
        assert {r.name for r in j.roster()} == {"Asha", "Ravi"}  # who sat down joins the roster
    history = next(v for v in shown if isinstance(v, HistoryView))
    assert len(history.lines) == 2 and history.page == history.pages == 1
    assert [line.players for line in history.lines] == ["Asha, Ravi", "Asha, Ravi"]
    assert all(line.winners and not line.status for line in history.lines)
    assert all(line.game == "Indian rummy, points" or line.game for line in history.lines)


def test_new_players_goes_back_to_the_setup_screen_and_the_next_game_seats_them(
        tmp_path: Path, frames: Frames, shown: list[ViewModel]) -> None:
    from tablekit.cli import main

    db = tmp_path / "j.sqlite"
    frames.then(*WHOLE_GAME,
                keys("m"), keys("return"),  # New players
                [],  # the setup screen: the roster lists Asha and Ravi
                keys("m"), keys("m"), keys("return"),  # the second name on the list sits down first
                keys("m"), keys("return"), [],  # Add a name: the editor opens
                [*down("m"), *typed("m"), *up("m")],  # M is a letter here, not MENU
                keys("backspace"), typed("Dev"), keys("return"),  # …and Dev sits down second
                keys("m"), keys("m"), keys("m"), keys("m"), keys("return"),  # Start
                keys("return"), keys("escape"), [], keys("return"),  # deal, then leave the new game
                [], keys("escape"))  # Escape on the setup screen (a window) closes the table
    assert main(["run", "--variant", "indian-points", "--players", "Asha,Ravi", "--seconds", str(BOUND),
                 "--journal", str(db), *COMMON]) == 0
    setups = [v for v in shown if isinstance(v, SetupView) and v.roster is not None]  # not a deal's
    assert setups and setups[0].roster is not None
    listed = [r.name for r in setups[0].roster]
    assert sorted(listed) == ["Asha", "Ravi"]
    adding = [v for v in setups if v.entry is not None]
    assert adding and adding[0].entry is not None and adding[0].entry.text == ""
    assert kinds(shown)[:4] == ["SetupView", "PlayView", "GameOverView", "SetupView"]
    assert kinds(shown)[-3:] == ["PlayView", "MessageView", "SetupView"]
    assert any(v.entry is not None and v.entry.text == "m" for v in adding)
    assert not frames.batches, "the run ended before its script did"
    with Journal(db) as j:
        games = j.games()
        assert len(games) == 2 and games[1].players == (listed[1], "Dev", "Player 3")
        assert games[1].status == "playing"  # left, not finished: it can be resumed
        assert j.resumable() == 2
        assert {r.name for r in j.roster()} == {"Asha", "Ravi", "Dev"}


def test_escape_in_a_window_asks_menu_stays_ok_leaves_and_the_game_stays_resumable(
        tmp_path: Path, frames: Frames, shown: list[ViewModel], screen: Screen) -> None:
    frames.screen = screen
    with Journal(tmp_path / "j.sqlite") as j:
        t = Table.start(j, game(), ManualClock(1000), camera=ScriptedCamera(), on_view=screen.show)
        frames.then(keys("return"), keys("escape"), [], keys("m"), [], keys("escape"), [],
                    keys("return"), [])
        outcome = play_game(t, None, KeyboardButtons(default_keymap(3)), seconds=BOUND)
        assert outcome == LEFT
        asked = [i for i, v in enumerate(shown) if isinstance(v, MessageView)]
        assert asked and shown[asked[0]].title == "Leave this game?"
        assert shown[asked[0]].prompt == "OK: leave · MENU: stay"
        assert isinstance(shown[asked[0] - 1], PlayView)
        stayed = next(i for i in range(asked[0], len(shown)) if not isinstance(shown[i], MessageView))
        assert isinstance(shown[stayed], PlayView)  # MENU: back to the game
        assert t.state.phase == "play" and not t.state.menu  # the question's MENU never reached the game
        assert j.resumable() == t.game_id
        canvas = screen.renderer.last
        assert canvas is not None and "Leave this game?" in [x.text for x in canvas.texts]


def test_the_kiosk_leaves_only_on_a_held_menu_and_escape_does_nothing(
        tmp_path: Path, frames: Frames, shown: list[ViewModel], screen: Screen) -> None:
    clock = StepClock()
    with Journal(tmp_path / "j.sqlite") as j:
        t = Table.start(j, game(), ManualClock(1000), camera=ScriptedCamera(), on_view=screen.show)
        frames.then(keys("return"), keys("escape"), [],
                    down("m"), lambda _: clock.jump(LEAVE_HOLD_S / 2), [],  # held a while: a hint
                    lambda _: clock.jump(LEAVE_HOLD_S / 2), [],  # held long enough: the question
                    up("m"), [],  # letting go of MENU is not "stay"
                    keys("return"), [])
        outcome = play_game(t, None, KeyboardButtons(default_keymap(3)), seconds=BOUND, fullscreen=True,
                            clock=clock)
        assert outcome == LEFT
        first_ask = next(i for i, v in enumerate(shown) if isinstance(v, MessageView))
        hints = [v for v in shown[:first_ask] if isinstance(v, PlayView) and v.toast is not None
                 and "holding MENU" in v.toast.text]
        assert hints, "a held MENU says what it will do"
        assert all(isinstance(v, MessageView) for v in shown[first_ask:]), "MENU's release is not 'stay'"
        assert j.resumable() == t.game_id



def test_the_turn_clock_stands_still_while_leave_is_asked_and_runs_on_where_it_was(
        tmp_path: Path, frames: Frames, shown: list[ViewModel], screen: Screen) -> None:
    frames.screen = screen
    table_clock = ManualClock(1000)

    def wait(ms: int) -> list[pygame.event.Event]:
        table_clock.advance(ms)
        return []

    with Journal(tmp_path / "j.sqlite") as j:
        t = Table.start(j, game(), table_clock, camera=ScriptedCamera(), on_view=screen.show)
        frames.then(keys("return"), lambda _: wait(5_000), [],  # dealt; five seconds of the turn
                    keys("escape"), [], lambda _: wait(120_000), [],  # the question, for two minutes
                    keys("m"), [], lambda _: wait(1_000), [],  # stay: a second more of the turn
                    keys("escape"), [], keys("return"), [])
        outcome = play_game(t, None, KeyboardButtons(default_keymap(3)), seconds=BOUND)
        assert outcome == LEFT
        first = next(i for i, v in enumerate(shown) if isinstance(v, MessageView))
        clocks = [(i, v.countdown) for i, v in enumerate(shown)
                  if isinstance(v, PlayView) and v.countdown is not None]
        before = [c.seconds_left for i, c in clocks if i < first]
        after = [c.seconds_left for i, c in clocks if i > first]
        total = clocks[0][1].total_seconds
        assert before and after and before[0] == total
        assert min(before) == pytest.approx(total - 5, abs=0.1)
        # two minutes under the question took nothing off the turn: one second more did
        assert min(after) == pytest.approx(total - 6, abs=0.1)
        deal = t.state.deal
        assert deal is not None and deal.turn_count == 1 and not any(deal.missed_in_row)
        assert deal.deadline_ms is not None and deal.deadline_ms - t.now() == round((total - 6) * 1000)


def finished(tmp_path: Path, screen: Screen) -> tuple[Journal, Table]:
    j = Journal(tmp_path / "j.sqlite")
    t = Table.start(j, game("indian-points", ["Asha", "Ravi"]), ManualClock(1000), camera=ScriptedCamera(),
                    on_view=screen.show)
    t.button(3, True, keyboard=True)
    t.button(2, True, keyboard=True)
    t.button(3, True, keyboard=True)
    assert t.over
    return j, t


def test_a_tap_on_a_choice_takes_it_and_the_soft_keys_page_the_history(
        tmp_path: Path, frames: Frames, shown: list[ViewModel], screen: Screen) -> None:
    frames.screen = screen
    j, t = finished(tmp_path, screen)
    with j:
        for _ in range(8):  # more games than a page holds
            j.new_game(game("indian-pool-101", ["Meera", "王芳", "मीरा"]), 1_700_000_000_000)
        keyboard = KeyboardButtons(default_keymap(2))
        frames.then([], lambda s: finger(s, "row:choice:2"), [],  # History
                    lambda s: finger(s, "key:menu"), [],  # the next page
                    lambda s: finger(s, "key:ok"), [],  # back
                    lambda s: finger(s, "row:choice:3"), [], keys("m"),  # the scores, and back
                    [], lambda s: finger(s, "row:choice:0"))  # Rematch
        assert play_game(t, None, keyboard, seconds=BOUND) == REMATCH
        pages = [v for v in shown if isinstance(v, HistoryView)]
        assert {v.page for v in pages} == {1, 2} and pages[0].pages == 2
        assert pages[0].lines[0].players == "Meera, 王芳, मीरा" and pages[0].lines[0].status == "unfinished"
        assert pages[-1].lines[-1].players == "Asha, Ravi" and pages[-1].lines[-1].winners == "Asha"
        assert any(isinstance(v, ScoreboardView) for v in shown)
        assert isinstance(shown[-1], GameOverView)  # the tap took Rematch at once
        frames.then(keys("m"), keys("return"))
        assert play_game(t, None, keyboard, seconds=BOUND) == NEW_PLAYERS
        frames.then(keys("escape"))
        assert play_game(t, None, keyboard, seconds=BOUND) == CLOSED


# --- the setup screen and the roster ------------------------------------------------------------


def roster_of(tmp_path: Path, *names: str) -> tuple[Journal, Roster]:
    j = Journal(tmp_path / "j.sqlite")
    clock = iter(range(1000, 10**6, 1000))
    roster = Roster(j, now=lambda: next(clock))
    for name in names:
        roster.add(name)
    return j, roster


def test_names_are_picked_from_the_roster_in_seat_order_and_a_duplicate_is_refused(
        tmp_path: Path, frames: Frames, screen: Screen, shown: list[ViewModel]) -> None:
    frames.screen = screen
    j, roster = roster_of(tmp_path, "Asha", "Ravi", "Meera")
    with j:
        setup = TableSetup([v.id for v in all_variants()], roster=roster)
        assert setup.listed == ["Meera", "Ravi", "Asha"]  # the newest first (nobody has played)
        frames.then(keys("m"), keys("m"), keys("m"), keys("return"),  # Asha sits down first
                    keys("m"), lambda s: finger(s, "row:roster:0"), lambda s: finger(s, "row:roster:0"),
                    keys("m"), keys("m"), keys("m"), keys("return"),  # a second tap picked Meera; OK on "Add a name"
                    typed(" ravi "), keys("return"), [],  # refused: Ravi is on the list
                    keys("backspace"), keys("backspace"), keys("backspace"), keys("backspace"),
                    keys("backspace"), keys("backspace"), typed("王芳"), keys("return"), [],
                    *[keys("m")] * 4, [], keys("return"))  # to Start, and start
        # a clock that runs ahead of the frames: the still screen draws without waiting
        chosen = choose_game(setup, screen, None, seconds=300, clock=StepClock(0.5))
        assert chosen is not None, setup.problem
        assert [s.name for s in chosen.seats] == ["Asha", "Meera", "王芳"]
        refused = [v for v in shown if isinstance(v, SetupView) and v.entry is not None and v.entry.problem]
        assert refused and refused[0].entry is not None
        assert refused[0].entry.problem == "Ravi is on the list already"
        assert roster.names().count("Ravi") == 1 and "王芳" in roster.names()
        seated = [r for r in shown[-1].roster or () if r.seat] if isinstance(shown[-1], SetupView) else []
        assert sorted((r.seat, r.name) for r in seated) == [(1, "Asha"), (2, "Meera"), (3, "王芳")]


def test_the_box_spells_a_name_on_the_letter_wheel(tmp_path: Path) -> None:
    j, roster = roster_of(tmp_path, "Ravi")
    with j:
        setup = TableSetup(["indian-pool-101"], roster=roster)
        setup.at = "add"
        setup.button("ok", True, 0.0)
        setup.button("ok", False, 0.1)
        assert setup.editing and setup.view().entry is not None
        t = 1.0

        def tap(control: str, held: float = 0.1) -> None:
            nonlocal t
            setup.button(control, True, t)
            setup.tick(t + held / 2)
            setup.button(control, False, t + held)
            t += held + 0.1

        tap("ok")  # A
        for _ in range(12):  # B … M
            tap("seat")
        entry = setup.view().entry
        assert entry is not None and entry.wheel[entry.wheel_index] == "m"  # after a capital, small
        tap("seat", HOLD_S + 2 * REPEAT_S + 0.01)  # held: back three letters, to j
        tap("ok")
        assert setup.editor is not None and setup.editor.text == "Aj"
        tap("menu")  # erase the j
        tap("seat")  # k
        tap("ok")
        # a tap on the wheel's letter two to the right of the middle takes it (m)
        setup.tap(f"row:wheel:{WHEEL_SHOWN + 2}")
        assert setup.editor.text == "Akm"
        setup.button("ok", True, t)
        setup.tick(t + FINISH_S)  # held: the name is done, before the button is let go
        assert not setup.editing and "Akm" in roster.names()
        setup.button("ok", False, t + FINISH_S + 0.2)  # the release does nothing more
        assert setup.picked() == ["Akm"] and not setup.editing


def test_a_name_too_long_or_empty_is_refused_with_the_reason_and_menu_on_empty_goes_back(
        tmp_path: Path) -> None:
    j, roster = roster_of(tmp_path)
    with j:
        setup = TableSetup(["indian-pool-101"], roster=roster)
        setup.at = "add"
        setup.ok()
        setup.key("return")
        assert setup.editor is not None and setup.editor.problem == "a name cannot be empty"
        setup.typed("x" * (MAX_NAME + 1))
        setup.key("return")
        assert setup.editor.problem == f"a name has at most {MAX_NAME} characters, this one {MAX_NAME + 1}"
        setup.key("backspace")
        setup.key("return")
        assert not setup.editing and roster.names() == ["x" * MAX_NAME]
        setup.ok()
        setup.button("menu", True, 0.0)  # nothing typed: MENU closes the editor
        assert not setup.editing


def test_picking_more_players_than_the_game_takes_is_refused(tmp_path: Path) -> None:
    j, roster = roster_of(tmp_path, *(f"P{i}" for i in range(8)))
    with j:
        setup = TableSetup(["indian-points"], roster=roster, variant="indian-points")
        for i in range(7):
            setup.at = f"pick:{i}"
            setup.ok()
        assert len(setup.picked()) == 6 and "at most 6 players" in setup.problem
        setup.at = "pick:0"
        setup.ok()  # stands up: the seats after move up
        assert len(setup.picked()) == 5 and setup.players == 5
        assert setup.picked()[0] == setup.listed[1]


# --- the new screens, drawn -----------------------------------------------------------------------


def test_the_new_screens_fit_both_screen_sizes(tmp_path: Path, screen: Screen) -> None:
    from display.layout import SOFT_KEYS_TOP

    j, roster = roster_of(tmp_path, "Asha", "Ravi", "Meera", "मीरा", "王芳", "سارا", "Bartholomew Fitzgerald",
                          "Dev", "Kiran", "Li")
    out = Path(os.environ.get("TABLEKIT_SHOTS", tmp_path))
    w, h = screen.size
    with j:
        setup = TableSetup([v.id for v in all_variants()], roster=roster)
        for i in (0, 3, 5):
            setup.at = f"pick:{i}"
            setup.ok()
        setup.at = "pick:8"
        views: dict[str, ViewModel] = {"setup": setup.view()}
        setup.at = "add"
        setup.ok()
        setup.typed("Ash")
        setup.key("return")  # refused? no: Ash is new
        setup.at = "add"
        setup.ok()
        setup.typed("asha")
        setup.key("return")
        views["entry"] = setup.view()
        jj, t = finished(tmp_path / "g", screen)
        with jj:
            from tablekit.shell import AfterGame

            after = AfterGame(jj)
            views["gameover"] = after.view(t, t.view())
            after.take(2)
            views["history"] = after.view(t, t.view())
        from tablekit.shell import LEAVE_VIEW

        views["leave"] = LEAVE_VIEW
        for name, view in views.items():
            screen.show(view)
            screen.save_screenshot(out / f"{name}-{w}x{h}.png")
            canvas = screen.renderer.last
            assert canvas is not None
            texts = [x.text for x in canvas.texts]
            for placed in canvas.texts:
                assert canvas.layout.full.contains(placed.rect), (name, placed.text)
            keys_top = canvas.regions["key:menu"].top
            for region, rect in canvas.regions.items():
                if region.startswith("row:"):
                    assert rect.bottom <= keys_top and rect.bottom <= SOFT_KEYS_TOP * h, (name, region)
                    assert rect.h >= 30 or region.startswith("row:wheel"), (name, region)
            if name == "setup":
                assert "Add a name" in texts and "Seat 3" in texts
                assert [r for r in canvas.regions if r.startswith("row:roster:")]
                assert "cursor" in canvas.regions
            elif name == "entry":
                entry = views["entry"]
                assert isinstance(entry, SetupView) and entry.entry is not None
                assert "Asha is on the list already" in texts and "asha" in texts
                wheel = [r for r in canvas.regions if r.startswith("row:wheel:")]
                assert len(wheel) == 2 * WHEEL_SHOWN + 1
                assert canvas.regions["row:wheel:0"].w >= 24
            elif name == "gameover":
                assert [f"row:choice:{i}" in canvas.regions for i in range(4)] == [True] * 4
                assert all(c in texts for c in CHOICES)
                assert not canvas.regions["row:choice:0"].colliderect(canvas.regions["standing:0"])
            elif name == "history":
                assert "History" in texts and "Asha, Ravi" in texts and "Asha" in texts
            else:
                assert "Leave this game?" in texts and "OK: leave · MENU: stay" in texts
        assert "Ash" in roster.names()


class ScriptedBox:
    """A button box with eight buttons (six seats, MENU 6, OK 7) whose events come one batch
    per frame, as ``BoxLink.pending`` hands them."""

    def __init__(self, *batches: list[tuple[int, str]]) -> None:
        from firmware_bridge.layout import ButtonLayout

        self.batches = list(batches)
        self.layout = ButtonLayout.of_box(8)
        self.buttons = 8

    def pending(self) -> Iterator[object]:
        from firmware_bridge import ButtonEvent

        batch = self.batches.pop(0) if self.batches else []
        for button, edge in batch:
            yield ButtonEvent(button, edge, 0)  # type: ignore[arg-type]


def tapped(button: int, times: int = 1) -> list[tuple[int, str]]:
    return [(button, edge) for _ in range(times) for edge in ("press", "release")]


def test_a_box_adds_a_name_on_the_setup_screen(tmp_path: Path, frames: Frames, screen: Screen,
                                               shown: list[ViewModel]) -> None:
    MENU, OK = 6, 7
    clock = StepClock()
    j, roster = roster_of(tmp_path, "Ravi")
    with j:
        setup = TableSetup([v.id for v in all_variants()], roster=roster)
        box = ScriptedBox([], tapped(MENU, 2) + tapped(OK),  # to "Add a name", and open it
                          tapped(2, 3), tapped(OK),  # any seat button: B, C, D; OK takes the D
                          tapped(0, 5), tapped(OK),  # E … I, taken
                          [(OK, "press")], [],  # OK held a second and more: Di is added and sits down
                          [(OK, "release")], tapped(MENU, 4), tapped(OK))  # to Start, and start
        frames.then(*([[]] * 6), lambda _: clock.jump(FINISH_S + 0.1))
        chosen = choose_game(setup, screen, box, seconds=60, clock=clock)  # type: ignore[arg-type]
        assert chosen is not None, setup.problem
        assert [s.name for s in chosen.seats] == ["Di", "Player 2", "Player 3"]
        assert roster.names()[0] == "Di"
        wheel = [v.entry for v in shown if isinstance(v, SetupView) and v.entry is not None]
        texts = [e.text for e in wheel]
        assert texts[0] == "" and texts.index("D") < texts.index("Di") and texts[-1] == "Di"
        assert any(e.text == "D" and e.wheel[e.wheel_index] == "i" for e in wheel)  # after a capital: small


def test_a_rematch_passes_the_deal_the_way_the_game_passes_it() -> None:
    # Telefunken: "the role of dealer rotates ... counter-clockwise"; Indian rummy passes
    # it clockwise, to the next seat
    from tablekit.shell import rematch

    four = ("Asha", "Ravi", "Meera", "Dev")
    assert rematch(game("indian-pool-101", four, first_dealer=0)).first_dealer == 1
    assert rematch(game("telefunken", four, first_dealer=0)).first_dealer == 3
    assert rematch(game("telefunken", four, first_dealer=2)).first_dealer == 1


class _FullDisk:
    """Stands in for a journal's connection: while ``full``, no event can be written."""

    def __init__(self, db: object) -> None:
        self.db = db
        self.full = False

    def execute(self, sql: str, *args: object) -> object:
        import sqlite3

        if self.full and sql.startswith("INSERT INTO events"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self.db, name)


def test_a_full_disk_mid_game_pauses_the_table_with_a_warning_until_there_is_room(
        tmp_path: Path, frames: Frames, shown: list[ViewModel], screen: Screen) -> None:
    from engine.game import ButtonPressed
    from tablekit.shell import JOURNAL_RETRY_S

    clock = StepClock()
    with Journal(tmp_path / "j.sqlite") as j:
        disk = _FullDisk(j._db)
        j._db = disk  # type: ignore[assignment]
        t = Table.start(j, game(), ManualClock(1000), camera=ScriptedCamera(), on_view=screen.show)

        def fill(full: bool) -> list[pygame.event.Event]:
            disk.full = full
            return []

        frames.then(keys("return"), [],  # OK: the deal starts
                    lambda _: fill(True), keys("1", "2", "3"), [], [],  # pressed, not saved
                    lambda _: fill(False), lambda _: clock.jump(JOURNAL_RETRY_S), [],  # room again
                    keys("1", "2", "3"), [], keys("escape"), [], keys("return"), [])  # then leave
        outcome = play_game(t, None, KeyboardButtons(default_keymap(3)), seconds=BOUND, clock=clock)
        assert outcome == LEFT  # the game went on to the players' leaving: the full disk did not stop it
        warned = [v for v in shown if isinstance(v, PlayView) and v.toast is not None
                  and "cannot be saved" in v.toast.text]
        assert warned and "disk is full" in warned[0].toast.text
        presses = [e for e in j.events(t.game_id) if isinstance(e, ButtonPressed)]
        assert len(presses) == 3  # the three pressed while the disk was full never counted
        assert replay_matches(j, t)


def replay_matches(j: Journal, t: Table) -> bool:
    from engine.game import replay

    return replay(t.state.game, j.events(t.game_id)) == t.state
