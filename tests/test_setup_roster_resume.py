"""The setup screen resumes a game left unfinished and takes names off the roster.

A game left (OK on "Leave this game?") is offered on a "Resume" row; OK on it (the box, the
keyboard's Return, a second tap) picks the game up exactly where its journal left it. A
roster name comes off the list only after a question: OK held on it, Delete, or a tap on the
"remove" beside it; the games it played keep it. Runs are real and headless, as in
``test_kiosk_loop``: only ``pygame.event.get`` is scripted.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import test_kiosk_loop as kiosk  # noqa: E402
from _game_fixtures import game  # noqa: E402
from test_kiosk_loop import BOUND, CODES, COMMON, Frames, finger, keys  # noqa: E402

from display.viewmodel import MessageView, PlayView, SetupView, ViewModel  # noqa: E402
from display.window import Screen  # noqa: E402
from engine.variants import all_variants  # noqa: E402
from tablekit.cameras import ScriptedCamera  # noqa: E402
from tablekit.clock import ManualClock  # noqa: E402
from tablekit.journal import Journal  # noqa: E402
from tablekit.roster import Roster  # noqa: E402
from tablekit.setup_screen import REMOVE_HOLD_S, REMOVE_PROMPT, Resume, TableSetup, left_game  # noqa: E402
from tablekit.shell import choose_game  # noqa: E402
from tablekit.table import Table  # noqa: E402

CODES.setdefault("delete", pygame.K_DELETE)
frames, shown, screen = kiosk.frames, kiosk.shown, kiosk.screen  # the kiosk tests' fixtures
VARIANTS = [v.id for v in all_variants()]


def _left(journal: Journal) -> Table:
    """A game of three dealt and left in play (its journal says it is unfinished)."""
    t = Table.start(journal, game(), ManualClock(1000), camera=ScriptedCamera())
    t.button(4, True, keyboard=True)  # OK deals
    assert t.state.phase == "play"
    return t


def _to(setup: TableSetup, row: str) -> None:
    while setup.at != row:
        setup.menu()


# --- resuming a game left unfinished ----------------------------------------------------------


def test_a_game_left_is_offered_on_a_resume_row_and_ok_resumes_it(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite") as j:
        assert left_game(j) is None
        assert "resume" not in TableSetup(VARIANTS, roster=Roster(j)).ROWS
        t = _left(j)
        left = left_game(j)
        assert left is not None and left.game_id == t.game_id
        assert "Asha, Ravi, Meera" in left.text and "deal 1" in left.text
        setup = TableSetup(VARIANTS, roster=Roster(j), left=left)
        assert setup.ROWS[-2:] == ("resume", "start")
        assert setup.view().resume == left.text
        _to(setup, "resume")
        assert setup.view().cursor.section == "resume"
        assert setup.button("ok", True, 0.0) == Resume(t.game_id)
        # a second tap on the row resumes too; the first only moves there
        setup.at = "variant"
        assert setup.tap("row:resume") is None and setup.at == "resume"
        assert setup.tap("row:resume") == Resume(t.game_id)


def test_run_resumes_a_game_left_from_the_setup_screen_exactly_where_it_was(
        tmp_path: Path, frames: Frames, shown: list[ViewModel]) -> None:
    from tablekit.cli import main

    db = tmp_path / "j.sqlite"
    # rows: variant, Asha, Ravi, Add a name, players, turn timer, losing hands, Resume, Start
    to_resume = [keys("m") for _ in range(7)]
    frames.then(keys("return"), [], keys("2"), [],  # deal; Ravi's turn ends (a short press)
                keys("escape"), [], keys("return"), [],  # leave: the setup screen
                *to_resume, keys("return"), [], [],  # Resume
                keys("escape"), [], keys("return"), [],  # leave again
                [], keys("escape"))  # Escape on the setup screen closes the table
    assert main(["run", "--variant", "indian-points", "--players", "Asha,Ravi", "--seconds", str(BOUND),
                 "--journal", str(db), *COMMON]) == 0
    assert not frames.batches, "the run ended before its script did"
    setups = [i for i, v in enumerate(shown) if isinstance(v, SetupView) and v.roster is not None]
    first = shown[setups[0]]
    assert isinstance(first, SetupView) and first.resume and "Asha, Ravi" in first.resume
    asked = [i for i, v in enumerate(shown) if isinstance(v, MessageView)]
    before = shown[asked[0] - 1]
    after = next(v for v in shown[setups[0]:] if isinstance(v, PlayView))
    assert isinstance(before, PlayView) and isinstance(after, PlayView)
    assert after.active_seat == before.active_seat and after.seats == before.seats
    assert after.deal_number == before.deal_number
    with Journal(db) as j:
        assert len(j.games()) == 1 and j.resumable() == 1  # the same game, still unfinished
        kinds = [e.TYPE for e in j.events(1)]
        assert kinds.count("deal-started") == 1  # picked up in its deal, never dealt again


# --- taking a name off the roster ----------------------------------------------------------------


def _roster(j: Journal, *names: str) -> Roster:
    roster = Roster(j)
    for name in names:
        roster.add(name)
    return roster


def test_ok_held_on_a_name_asks_and_ok_takes_it_off_but_its_games_keep_it(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite") as j:
        j.new_game(game("indian-points", ["Asha", "Ravi"]), 1000)
        roster = _roster(j, "Asha", "Ravi", "李娜")
        setup = TableSetup(VARIANTS, roster=roster)
        at = setup.listed.index("Ravi")
        _to(setup, f"pick:{at}")
        assert setup.button("ok", True, 10.0) is None
        setup.tick(10.0 + REMOVE_HOLD_S / 2)
        assert setup.removing is None  # not held long enough yet
        setup.tick(10.0 + REMOVE_HOLD_S)
        question = setup.screen()
        assert isinstance(question, MessageView) and question.title == "Take Ravi off the list?"
        assert question.prompt == REMOVE_PROMPT
        assert setup.button("ok", False, 11.5) is None  # letting go of the hold answers nothing
        assert "Ravi" in roster.names() and setup.names == []  # nor did it pick Ravi
        setup.button("ok", True, 12.0)
        assert "Ravi" not in roster.names() and sorted(roster.names()) == ["Asha", "李娜"]
        assert isinstance(setup.screen(), SetupView) and setup.removing is None
        assert j.games()[0].players == ("Asha", "Ravi")  # the journaled game keeps the name
        # a short press still picks
        _to(setup, f"pick:{setup.listed.index('Asha')}")
        setup.button("ok", True, 20.0)
        setup.button("ok", False, 20.2)
        assert setup.names == ["Asha"]


def test_menu_keeps_the_name_and_a_picked_name_taken_off_stands_up(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite") as j:
        roster = _roster(j, "Asha", "Ravi")
        setup = TableSetup(VARIANTS, roster=roster)
        _to(setup, f"pick:{setup.listed.index('Asha')}")
        setup.button("ok", True, 0.0)
        setup.button("ok", False, 0.1)
        assert setup.names == ["Asha"]
        assert setup.key("delete") and setup.removing == "Asha"
        setup.button("menu", True, 1.0)  # MENU: keep it
        assert setup.removing is None and "Asha" in roster.names() and setup.names == ["Asha"]
        assert setup.key("backspace") and setup.removing == "Asha"
        assert setup.key("escape") and setup.removing is None  # Escape keeps it too
        assert setup.key("delete") and setup.key("return")
        assert roster.names() == ["Ravi"] and setup.names == []  # off the list, and stood up
        assert setup.at == "pick:0"  # the cursor stays on the list
        assert setup.key("delete") and setup.removing == "Ravi"


def test_a_name_taken_off_elsewhere_meanwhile_is_a_clear_problem(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite") as j:
        roster = _roster(j, "Asha", "Ravi")
        setup = TableSetup(VARIANTS, roster=roster)
        _to(setup, f"pick:{setup.listed.index('Ravi')}")
        setup.key("delete")
        j.remove_player("Ravi")  # another table took it off first
        setup.key("return")
        assert setup.problem == "Ravi is not on the list" and setup.listed == ["Asha"]


def test_a_finger_takes_a_name_off_with_the_remove_key_and_the_soft_ok(
        tmp_path: Path, frames: Frames, shown: list[ViewModel], screen: Screen) -> None:
    frames.screen = screen
    with Journal(tmp_path / "j.sqlite") as j:
        roster = _roster(j, "Asha", "Ravi", "रवि")
        setup = TableSetup(VARIANTS, roster=roster)
        at = setup.listed.index("रवि")
        frames.then([], lambda s: finger(s, f"row:roster:{at}"), [],  # the cursor on the name
                    lambda s: finger(s, f"row:remove:{at}"), [],  # its remove key: the question
                    lambda s: finger(s, "key:menu"), [],  # keep it
                    lambda s: finger(s, f"row:remove:{at}"), [],
                    lambda s: finger(s, "key:ok"), [], [])  # take it off
        assert choose_game(setup, screen, None, seconds=BOUND / 2) is None
        questions = [v for v in shown if isinstance(v, MessageView)]
        assert questions and questions[0].title == "Take रवि off the list?"
        assert sorted(roster.names()) == ["Asha", "Ravi"]
        assert setup.names == []  # the taps on the name's key never picked it


def test_the_resume_row_and_the_remove_key_fit_both_screens(tmp_path: Path, screen: Screen) -> None:
    with Journal(tmp_path / "j.sqlite") as j:
        _left(j)
        roster = _roster(j, "Asha", "Ravi", "Jean-Baptiste Poquelin")
        setup = TableSetup(VARIANTS, roster=roster, left=left_game(j))
        _to(setup, f"pick:{setup.listed.index('Jean-Baptiste Poquelin')}")
        screen.show(setup.screen())
        canvas = screen.renderer.last
        assert canvas is not None
        texts = [t.text for t in canvas.texts]
        assert "remove" in texts and "Resume" in texts
        row = canvas.regions[f"row:roster:{setup.listed.index('Jean-Baptiste Poquelin')}"]
        key = canvas.regions[f"row:remove:{setup.listed.index('Jean-Baptiste Poquelin')}"]
        assert row.contains(key) and key.h >= 0.6 * row.h
        resume = canvas.regions["row:resume"]
        assert resume.bottom <= canvas.regions["row:start"].top
        for t in canvas.texts:
            assert canvas.layout.full.contains(t.rect) and t.bounds.contains(t.rect)
        name = next(t for t in canvas.texts if t.text.startswith("Jean"))
        assert not name.rect.colliderect(key)  # the name stays clear of its key
