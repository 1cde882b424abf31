"""Tile rummy's limits around the first meld at the real table: a refused take, add or break
shows its reason on the screen (the call panel, the play screen's message) and is journaled
as the call it was, so the journal restores the very same table.

Rule lines (shared rule text ``tile-rummy-romanian.txt``), in our words: line 112, a seat that
has not melded takes the last thrown tile only when it goes into its first meld; line 114,
until its first meld a seat breaks nothing and its board stays at 14 tiles.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402
from _game_fixtures import game, groups  # noqa: E402

from display.viewmodel import CallsView, PlayView  # noqa: E402
from engine.families.tile.live import of  # noqa: E402
from engine.game import Called  # noqa: E402
from tablekit.cameras import ScriptedCamera  # noqa: E402
from tablekit.clock import ManualClock  # noqa: E402
from tablekit.journal import Journal  # noqa: E402
from tablekit.shell import call_key  # noqa: E402
from tablekit.table import Table  # noqa: E402


@pytest.fixture
def table(tmp_path) -> Iterator[Table]:
    """Ann, Bo, Cy; R7 turned up; the window closed by OK and the opening throw made: the
    seat after the first player is in turn, and nobody has melded."""
    with Journal(tmp_path / "j.sqlite") as journal:
        g = game("tile-rummy", ("Ann", "Bo", "Cy"))
        t = Table.start(journal, g, ManualClock(1000), camera=ScriptedCamera(cuts={1: "R7"}, absent=True))
        t.ok_pressed(t.now())  # the deal: the doubles window opens
        t.ok_pressed(t.now())  # OK closes it
        for _ in range(2):  # the opening throw, then one more turn: the game's first tile is out of play
            seat = t.state.deal.turn
            t.button(seat, True)
            t.clock.advance(100)
            t.button(seat, False)
        yield t


def last_call(table: Table) -> Called:
    events = [e for e in table.journal.events(table.game_id) if isinstance(e, Called)]
    return events[-1]


def test_a_refused_take_from_the_panel_shows_why_and_is_journaled(table: Table) -> None:
    seat = table.state.deal.turn
    before = table.state.deal
    assert call_key(table, "k", "k") and table.calls.call == "meld"
    for _ in range(8):  # down the list of calls to "take"
        if table.calls.call == "take":
            break
        call_key(table, "down", "")
    assert table.calls.call == "take"
    for ch in "r5":
        call_key(table, ch, ch)
    call_key(table, "return", "\r")
    view = table.draw()
    assert isinstance(view, CallsView) and view.refused
    assert "only to lay it at once in the first meld" in view.said
    assert (last_call(table).seat, last_call(table).call, last_call(table).cards) == (seat, "take", (("R5",),))
    assert table.state.deal == before  # nothing but the message changed
    assert table.journal.restore(table.game_id) == table.state


def test_a_refused_break_shows_on_the_play_screen_and_replays(table: Table) -> None:
    seat = table.state.deal.turn
    before = table.state.deal
    table.call(seat, "break", groups("Y3 Y4 Y5 Y6 | Y3 Y4 Y5 | Y5 Y6 Y7"))
    view = table.draw()
    assert isinstance(view, PlayView) and view.toast is not None
    assert "has not melded yet" in view.toast.text and "14 tiles" in view.toast.text
    assert last_call(table).call == "break" and table.state.deal == before
    assert of(table.state.deal).table == ()
    assert table.journal.restore(table.game_id) == table.state
