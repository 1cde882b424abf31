"""Tile rummy's calls at the table: the call panel from the keyboard (K) and by touch, on
rendered frames at 800x480 and 1080p; each call journaled, refused ones with the reason shown."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import signal  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from _game_fixtures import game  # noqa: E402
from _panel_fixtures import keys, tap  # noqa: E402

from display.viewmodel import CallsView, PlayView  # noqa: E402
from display.window import Screen  # noqa: E402
from engine.families.tile.live import of  # noqa: E402
from engine.game import Called  # noqa: E402
from engine.game.scorepad import draft_record, new_draft  # noqa: E402
from tablekit.call_panel import CallPanel, panel_from_record, panel_record  # noqa: E402
from tablekit.cameras import ScriptedCamera  # noqa: E402
from tablekit.clock import ManualClock  # noqa: E402
from tablekit.journal import Journal  # noqa: E402
from tablekit.shell import call_key, open_screen  # noqa: E402
from tablekit.table import Table  # noqa: E402


@pytest.fixture(params=[(800, 480), (1920, 1080)], ids=["800x480", "1920x1080"])
def screen(request: pytest.FixtureRequest) -> Iterator[Screen]:
    s = open_screen(request.param, headless=True)
    yield s
    s.close()


@pytest.fixture
def table(tmp_path, screen: Screen) -> Iterator[Table]:
    with Journal(tmp_path / "j.sqlite") as journal:
        g = game("tile-rummy", ("Ann", "Bo", "Cy"))
        t = Table.start(journal, g, ManualClock(1000), camera=ScriptedCamera(cuts={1: "R7"}, absent=True),
                        on_view=screen.show)
        t.ok_pressed(t.now())  # the deal: R7 turned up, the doubles window opens
        yield t


def calls(table: Table) -> list[Called]:
    return [e for e in table.journal.events(table.game_id) if isinstance(e, Called)]


def test_a_double_and_the_ace_from_the_keyboard_a_refusal_says_why(table: Table, screen: Screen) -> None:
    view = table.draw()
    assert isinstance(view, PlayView) and view.calls == "Calls"
    assert "call:open" in screen.renderer.last.regions
    assert call_key(table, "k", "k")
    view = table.draw()
    assert isinstance(view, CallsView) and view.seat == table.state.deal.turn
    assert [o.call for o in view.options] == ["double", "ace", "meld", "take", "add", "break"]
    assert not view.options[2].ready and "throwing one tile" in view.options[2].why  # no meld yet
    call_key(table, "right", "")
    seat = table.calls.seat
    keys(table, "b7 b7")
    assert table.draw().options[0].ready
    call_key(table, "return", "\r")
    assert of(table.state.deal).doubles == ((seat, "B7"),) and not table.calls.refused
    keys(table, "r7")  # the ace's twin cannot be a double
    call_key(table, "return", "\r")
    view = table.draw()
    assert view.refused and "ace turned up" in view.said
    assert "call:said" in screen.renderer.last.regions
    call_key(table, "escape", "")  # nothing typed: the panel closes
    assert table.calls is None and isinstance(table.draw(), PlayView)
    assert [(c.seat, c.call, c.cards) for c in calls(table)] == [(seat, "double", (("B7", "B7"),)),
                                                                 (seat, "double", (("R7",),))]


def test_the_ace_shown_and_a_double_by_touch(table: Table, screen: Screen) -> None:
    tap(table, screen, "call:open")
    assert isinstance(table.draw(), CallsView)
    tap(table, screen, "call:seat:2")
    tap(table, screen, "call:what:ace")
    assert "pad:rank:1" not in screen.renderer.last.regions or table.draw().options[1].tiles is False
    tap(table, screen, "call:make")
    assert of(table.state.deal).ace_shown_by == 2 and "shows the ace" in table.calls.said
    tap(table, screen, "call:make")  # again: refused, the reason on the screen
    view = table.draw()
    assert view.refused and "already" in view.said
    tap(table, screen, "call:seat:0")
    tap(table, screen, "call:what:double")
    for key in ("pad:rank:12", "pad:suit:K", "pad:rank:12"):
        tap(table, screen, key)
    assert table.calls.hand.groups == (("K12", "K12"),)
    tap(table, screen, "call:make")
    assert (0, "K12") in of(table.state.deal).doubles
    tap(table, screen, "call:close")
    assert isinstance(table.draw(), PlayView)


def test_a_meld_is_laid_from_the_panel_in_the_seats_turn(table: Table, screen: Screen) -> None:
    table.ok_pressed(table.now())  # OK closes the window
    first = table.state.deal.turn
    table.button(first, True)
    table.clock.advance(100)
    table.button(first, False)  # the opening throw
    seat = table.state.deal.turn
    assert call_key(table, "k", "k") and table.calls.call == "meld" and table.calls.seat == seat
    keys(table, "r1 r2 r3")  # 15 points: not the 45 a first meld needs
    call_key(table, "return", "\r")
    assert table.calls.refused and "first meld" in table.calls.said
    keys(table, " / k10 k11 k12 k13")
    call_key(table, "return", "\r")
    assert not table.calls.refused, table.calls.said
    assert of(table.state.deal).laying_seat == seat


def test_take_add_and_break_are_offered_in_the_players_words_with_what_to_type(table: Table) -> None:
    """tile-rummy-romanian.txt line 106 (a seat that has melded may take the tile the seat before
    it threw instead of drawing), line 104 (it may add tiles to the melds on the table) and line
    49 (it may break a run laid on the table): each call reads as the players say it, and the
    footer says what to type for it, with an example."""
    call_key(table, "k", "k")
    view = table.draw()
    assert isinstance(view, CallsView)
    labels = {o.call: o.label for o in view.options}
    assert labels["take"] == "take the last tile thrown"
    assert labels["add"] == "add tiles to a meld"
    assert labels["break"] == "break a run"
    assert all(o.label != o.call for o in view.options)
    prompts = {}
    for _ in view.options:
        view = table.draw()
        prompts[view.options[view.chosen].call] = view.prompt
        call_key(table, "down", "")
    assert "R5 / R3 R4 R5 R6" in prompts["take"] and "tile taken" in prompts["take"]
    assert "R10 R11 R12 / R13" in prompts["add"] and "tiles added" in prompts["add"]
    assert "Y3 Y4 Y5 Y6 / Y3 Y4 Y5 / Y5 Y6 Y7" in prompts["break"] and "run as it lies" in prompts["break"]
    assert len(set(prompts.values())) == len(prompts)  # each call its own hint


def test_a_call_being_typed_survives_the_process_being_killed(tmp_path: Path) -> None:
    """A real kill (SIGKILL, nothing closed) while a seat types its double: the table resumed
    opens the panel again as it was, the seat, the call and the tiles typed so far."""
    path = tmp_path / "j.sqlite"
    script = f"""
import os, signal, sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from _game_fixtures import game
from _panel_fixtures import keys
from tablekit.cameras import ScriptedCamera
from tablekit.clock import ManualClock
from tablekit.journal import Journal
from tablekit.shell import call_key
from tablekit.table import Table
j = Journal({str(path)!r})
t = Table.start(j, game("tile-rummy", ("Ann", "Bo", "Cy")), ManualClock(1000),
                camera=ScriptedCamera(cuts={{1: "R7"}}, absent=True))
t.ok_pressed(t.now())
call_key(t, "k", "k")
call_key(t, "right", "")
keys(t, "b7 b")
print(t.calls.seat, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert run.returncode == -signal.SIGKILL, run.stderr
    seat = int(run.stdout.split()[0])
    with Journal(path) as journal:
        gid = journal.latest()
        back = Table.resume(journal, gid, ManualClock(journal.last_time(gid)),
                            camera=ScriptedCamera(cuts={1: "R7"}, absent=True))
        back.catch_up()
        panel = back.calls
        assert panel is not None and (panel.seat, panel.call) == (seat, "double")
        assert panel.hand.typed == "B7 B"  # as far as it was typed
        view = back.draw()
        assert isinstance(view, CallsView) and view.seat == seat
        keys(back, "7")
        call_key(back, "return", "\r")
        assert of(back.state.deal).doubles == ((seat, "B7"),) and not back.calls.refused


def test_the_kept_panel_follows_the_game_and_goes_when_play_ends(table: Table) -> None:
    call_key(table, "k", "k")
    keys(table, "b7 b7")
    kept = table.journal.draft(table.game_id)
    assert kept["calls"]["hand"]["typed"] == "B7 B7" and "entry" not in kept
    call_key(table, "return", "\r")  # an event: the panel is kept after it, with what it said
    kept = table.journal.draft(table.game_id)
    assert kept["calls"]["said"] == table.calls.said != "" and kept["calls"]["refused"] is False
    call_key(table, "escape", "")  # closed: nothing kept
    assert table.calls is None and table.journal.draft(table.game_id) is None
    call_key(table, "k", "k")
    assert table.journal.draft(table.game_id)["calls"]["call"] == table.calls.call
    state = table.state
    assert panel_from_record(replace(state, phase="deal-over"), kept["calls"]) is None  # play is over


@pytest.mark.parametrize("change", [
    {"seat": 3}, {"seat": -1}, {"seat": True}, {"call": "rob"}, {"said": 5}, {"said": "x" * 2001},
    {"refused": "no"}, {"hand": {"groups": [["Q7"]], "cursor": [0, 1], "typed": None, "problem": ""}},
    {"hand": None},
], ids=lambda c: next(iter(c)) + ":" + repr(next(iter(c.values())))[:12])
def test_a_kept_panel_that_no_panel_could_be_is_passed_over(table: Table, change: dict) -> None:
    good = panel_record(CallPanel(1, "double", replace(new_draft((), True), typed="B7"), "", False))
    assert panel_from_record(table.state, good) == CallPanel(1, "double", replace(new_draft((), True), typed="B7"))
    assert panel_from_record(table.state, {**good, **change}) is None
    assert draft_record(new_draft((), True))["groups"] == []


def test_a_call_made_is_never_kept_as_a_call_still_to_make(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the call is journaled, no copy of the panel as it was before it is kept: a power
    cut then must not bring back the typed call for a second Return to make again."""
    writes: list[object] = []
    append, keep = table.journal.append, table.journal.keep_draft
    monkeypatch.setattr(table.journal, "append", lambda *a, **k: (writes.append("event"), append(*a, **k))[1])
    monkeypatch.setattr(table.journal, "keep_draft", lambda gid, body: (writes.append(body), keep(gid, body))[1])
    call_key(table, "k", "k")
    keys(table, "b7 b7")
    writes.clear()
    call_key(table, "return", "\r")
    assert writes[0] == "event"
    kept = [w for w in writes[1:] if w != "event"]
    assert kept and all('"typed":"B7 B7"' not in str(w) for w in kept)  # never the call still to make
    assert table.journal.draft(table.game_id)["calls"]["said"] == table.calls.said
