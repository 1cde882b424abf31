"""A table with no camera: every show and hand entered on the scorepad, to the end of the game."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import json  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402
import sqlite3  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from _game_fixtures import VALID_SHOW, game, groups  # noqa: E402

from display.viewmodel import DealResultView, GameOverView, ScorepadView  # noqa: E402
from engine.game import LONG_PRESS_MS, CameraLost, HandEntered, TableRead, replay  # noqa: E402
from engine.game.scorepad import CARDS, CONFIRMING, ENTERING, HOLD_MS, POINTS  # noqa: E402
from engine.game.show import judge_declaration  # noqa: E402
from firmware_bridge import KeyboardButtons, default_keymap  # noqa: E402
from tablekit.box_input import key_to_table  # noqa: E402
from tablekit.cameras import ScriptedCamera  # noqa: E402
from tablekit.clock import ManualClock  # noqa: E402
from tablekit.journal import Journal, JournalFullError  # noqa: E402
from tablekit.shell import correction_key  # noqa: E402
from tablekit.table import Table  # noqa: E402

NO_CAMERA = "no camera and no photo folder"


class Keyboard:
    """Keys as ``tablekit run`` hands them to the table (tablekit.shell.play): the scorepad and
    the correction editor first, then the keyboard mapper (digits the seats, M, Return)."""

    def __init__(self, table: Table, clock: ManualClock) -> None:
        self.table = table
        self.clock = clock
        self.keys = KeyboardButtons(default_keymap(table.state.game.players))

    def edge(self, name: str, down: bool, text: str = "") -> None:
        table = self.table
        if down and correction_key(table, name, text):
            return
        if table.correcting is not None and not down:
            return
        t = table.now()
        key_to_table(table, self.keys.key_down(name, t) if down else self.keys.key_up(name, t), t)

    def tap(self, name: str, hold: int = 150, text: str = "") -> None:
        self.edge(name, True, text)
        self.clock.advance(hold)
        self.edge(name, False)
        self.clock.advance(250)

    def seat(self, seat: int, hold: int = 150) -> None:
        self.tap(str(seat + 1), hold)

    def type(self, text: str) -> None:
        for ch in text:
            self.tap(ch, text=ch)


@pytest.fixture
def table(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    clock = ManualClock(1000)
    camera = ScriptedCamera(name=NO_CAMERA, no_tables="no camera")
    t = Table.start(journal, game(), clock, camera=camera, rng=random.Random(5))
    yield t
    journal.close()


def play_round(table: Table, keys: Keyboard) -> None:
    """Every seat still playing ends one turn with a short press."""
    for _ in range(len(table.state.deal.playing())):
        keys.seat(table.state.deal.turn)


def declare(table: Table, keys: Keyboard) -> int:
    seat = table.state.deal.turn
    keys.seat(seat, hold=LONG_PRESS_MS + 100)
    return seat


def journaled(table: Table) -> int:
    return len(table.journal.events(table.game_id))


def test_without_a_camera_a_show_asks_for_the_verdict_instead_of_reading_for_ever(table):
    keys = Keyboard(table, table.clock)
    keys.tap("return")
    seat = declare(table, keys)
    assert table.state.phase == "show" and table.state.camera_ok  # no camera is no camera lost
    view = table.view()
    assert isinstance(view, ScorepadView) and view.player == "Ravi" and view.verdict is True
    assert view.why == "no camera" and "then a different seat" in view.confirm_by
    before = journaled(table)
    keys.tap("return")  # the verdict as shown: valid
    assert table.entry.stage == CONFIRMING and journaled(table) == before
    view = table.view()
    assert view.confirming and "Asha, Ravi or Meera" in view.confirm_by
    keys.seat(0)
    event = table.journal.events(table.game_id)[-1]
    assert event == HandEntered(seat, None, True, None, 0, event.t_ms)
    assert table.entry is not None and table.entry.kind == POINTS and table.entry.seat == 2


def test_the_keyboard_types_a_count_and_one_over_the_cap_is_refused_with_the_reason(table):
    keys = Keyboard(table, table.clock)
    keys.tap("return")
    declare(table, keys)
    keys.tap("return")
    keys.seat(0)
    assert table.entry.seat == 2
    before = journaled(table)
    keys.type("95")
    assert table.view().value == "95" and table.view().typing
    keys.tap("return")
    view = table.view()
    assert table.entry.stage == ENTERING and "at most 80 points" in view.problem
    keys.tap("backspace")
    keys.tap("escape")
    keys.type("45")
    keys.tap("return")
    assert table.entry.stage == CONFIRMING and table.entry.points == 45
    assert journaled(table) == before  # nothing journaled until a second seat confirms
    keys.tap("m")  # MENU: the entry was wrong after all
    assert table.entry.stage == ENTERING
    keys.tap("return")
    keys.seat(1)
    assert journaled(table) == before + 1
    assert table.state.show.hands[-1].points == 45 and table.entry.seat == 0


def test_box_buttons_step_the_count_and_the_seat_that_entered_cannot_confirm(table):
    table.button(4, True)  # OK
    seat = table.state.deal.turn
    table.button(seat, True)
    table.clock.advance(LONG_PRESS_MS + 100)
    table.button(seat, False)
    table.button(4, True)  # OK: valid, as shown
    table.button(2, True)
    table.button(2, False)  # Meera confirms the verdict
    assert table.entry.seat == 2 and table.entry.kind == POINTS

    def press(s: int, hold: int = 100) -> None:
        table.button(s, True)
        table.clock.advance(hold)
        table.button(s, False)

    for _ in range(3):
        press(2, HOLD_MS)  # held: +10
    press(2)
    press(2)
    table.button(3, True)  # MENU: -1
    assert table.entry.points == 31 and table.entry.by_seat == 2
    view = table.view()
    assert view.value == "31" and view.entered_by == "entered by Meera"
    table.button(4, True)  # OK: done
    press(2)
    assert table.entry.stage == CONFIRMING and "cannot confirm" in table.view().problem
    assert "Asha or Ravi" in table.view().confirm_by
    table.button(4, True)  # OK cannot say whose it is
    assert table.entry.stage == CONFIRMING and "a seat's button confirms" in table.entry.problem
    press(0)
    assert table.journal.events(table.game_id)[-1].confirmed_by == 0
    assert table.state.show.hands[-1].points == 31


def test_a_whole_indian_game_with_no_camera_through_the_keyboard_to_the_end(table, tmp_path):
    keys = Keyboard(table, table.clock)
    counts = iter([55, 30, 60, 70, 45, 50, 65, 20, 80, 80, 80, 80, 80, 80])
    for _ in range(12):  # deals; a pool of 101 is over long before
        if table.over:
            break
        keys.tap("return")  # OK: deal
        assert table.state.phase == "play"
        play_round(table, keys)
        declare(table, keys)
        if len(table.state.history) == 1:  # a wrong show first, typed as W
            keys.tap("w", text="w")
            keys.tap("return")
            keys.seat((table.entry.seat + 1) % 3)
            assert table.state.phase == "play" and "wrong show" in table.state.notice
            declare(table, keys)
        keys.tap("return")
        keys.seat((table.entry.seat + 1) % 3)
        for _ in range(3):
            if table.state.phase != "show":
                break
            assert table.entry is not None and table.entry.kind == POINTS
            keys.type(str(next(counts)))
            keys.tap("return")
            keys.seat((table.entry.seat + 2) % 3)
        assert table.state.phase in ("deal-over", "game-over")
        assert isinstance(table.view(), DealResultView | GameOverView)
    assert table.over and len(table.state.winners) == 1
    assert isinstance(table.view(), GameOverView)
    events = table.journal.events(table.game_id)
    assert sum(isinstance(e, HandEntered) for e in events) >= 6
    assert not any(isinstance(e, CameraLost) for e in events)
    assert replay(table.state.game, events) == table.state
    assert any(r.outcomes.count("wrong-show") for r in table.state.history)
    with sqlite3.connect(table.journal.path) as db:  # the last hand confirmed left no stale copy
        assert db.execute("SELECT count(*) FROM drafts").fetchone() == (0,)


def counting_seat_2(j: Journal, camera: ScriptedCamera | None = None) -> tuple[Table, Keyboard]:
    """A game with no camera at its first show: Ravi's show entered valid and confirmed, the
    scorepad now asks for seat 2's (Meera's) count."""
    t = Table.start(j, game(), ManualClock(1000), camera=camera or ScriptedCamera(name=NO_CAMERA),
                    rng=random.Random(1))
    keys = Keyboard(t, t.clock)
    keys.tap("return")
    declare(t, keys)
    keys.tap("return")
    keys.seat(0)
    assert t.entry is not None and (t.entry.seat, t.entry.kind) == (2, POINTS)
    return t, keys


def test_a_game_resumed_mid_show_asks_for_the_same_hand_with_what_was_entered(tmp_path):
    path = tmp_path / "j.sqlite"
    camera = ScriptedCamera(name=NO_CAMERA)
    with Journal(path) as j:
        t, keys = counting_seat_2(j, camera)
        keys.type("12")  # typed, not yet taken: the power goes
        state, gid, events = t.state, t.game_id, journaled(t)
    with Journal(path) as j:
        back = Table.resume(j, gid, ManualClock(j.last_time(gid)), camera=camera)
        assert back.state == state and journaled(back) == events  # the entry is no event
        assert back.entry is not None and (back.entry.seat, back.entry.kind) == (2, POINTS)
        assert back.entry.typed == "12" and back.view().why == "no camera"
        back.catch_up()  # the zone asked of the camera again: nothing, so the entry stays as it was
        assert back.entry.typed == "12"
        assert "entered for Meera's hand before the table stopped is back" in back.view().toast.text
        keys = Keyboard(back, back.clock)
        keys.tap("return")
        assert back.entry.stage == CONFIRMING and back.entry.points == 12
        keys.seat(0)
        assert back.state.show.hands[-1].points == 12 and back.state.show.hands[-1].entered
        kept = back.journal.draft(gid)  # taken: what is kept now is the next hand's entry
        assert kept["entry"]["seat"] == back.entry.seat == 0 and kept["entry"]["typed"] is None


def test_a_hand_being_entered_survives_the_process_being_killed(tmp_path):
    """A real kill (SIGKILL, nothing closed) in the middle of an entry of tiles."""
    path = tmp_path / "j.sqlite"
    script = f"""
import os, random, signal, sys
sys.path.insert(0, {str(Path(__file__).parent)!r})
from test_app_scorepad import Keyboard, declare, game
from tablekit.cameras import ScriptedCamera
from tablekit.clock import ManualClock
from tablekit.journal import Journal
from tablekit.table import Table
j = Journal({str(path)!r})
t = Table.start(j, game("tile-rummy", ("Ann", "Bo", "Cy")), ManualClock(1000),
                camera=ScriptedCamera(cuts={{1: "R7"}}, absent=True), rng=random.Random(2))
keys = Keyboard(t, t.clock)
keys.tap("return")
keys.tap("return")
keys.seat(t.state.deal.turn)
declare(t, keys)
keys.type("r10 r11 r12 / k9 b9 y9 / r1 r")
print(t.entry.seat, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == -signal.SIGKILL, run.stderr
    seat = int(run.stdout.split()[0])
    with Journal(path) as j:
        gid = j.latest()
        back = Table.resume(j, gid, ManualClock(j.last_time(gid)), camera=ScriptedCamera(absent=True))
        back.catch_up()
        entry = back.entry
        assert entry is not None and entry.kind == CARDS and entry.declared and entry.seat == seat
        assert entry.hand.typed == "R10 R11 R12 / K9 B9 Y9 / R1 R"  # as far as it was typed
        keys = Keyboard(back, back.clock)
        keys.type("2 r3")
        keys.tap("return")
        assert back.entry.stage == CONFIRMING
        assert back.entry.hand.groups == (("R10", "R11", "R12"), ("K9", "B9", "Y9"), ("R1", "R2", "R3"))


def test_a_kept_entry_the_show_no_longer_asks_for_is_not_taken_back(tmp_path, caplog):
    path = tmp_path / "j.sqlite"
    camera = ScriptedCamera(name=NO_CAMERA)
    with Journal(path) as j:
        t, keys = counting_seat_2(j, camera)
        keys.type("7")
        gid = t.game_id
        kept = j.draft(gid)
        assert kept["entry"]["typed"] == "7" and kept["why"] == "no camera"
        keys.tap("return")
        keys.seat(0)  # taken: the show asks for the next hand
        assert t.entry is not None and t.entry.seat == 0 and j.draft(gid)["entry"]["seat"] == 0
        state = t.state
    # a copy of seat 2's entry, as if the kill came before the answer was kept: not taken back
    with Journal(path) as j:
        j.keep_draft(gid, json.dumps(kept))
        back = Table.resume(j, gid, ManualClock(j.last_time(gid)), camera=camera)
        assert back.state == state and back.entry is None
        back.catch_up()
        assert back.entry.seat == 0 and back.entry.typed is None
    # a damaged copy is passed over, said, and the hand entered again
    with Journal(path) as j:
        j.keep_draft(gid, json.dumps({"entry": {**kept["entry"], "seat": 0}, "why": "no camera"}))
    db = sqlite3.connect(path)
    db.execute("UPDATE drafts SET body = replace(body, '\"7\"', '\"9\"')")
    db.commit()
    db.close()
    with Journal(path) as j, caplog.at_level("WARNING"):
        back = Table.resume(j, gid, ManualClock(j.last_time(gid)), camera=camera)
        assert back.entry is None
        assert any("cannot be read back" in r.getMessage() for r in caplog.records)
        back.catch_up()
        assert back.entry.seat == 0 and back.entry.typed is None


def test_an_entry_the_journal_cannot_keep_goes_on_and_is_said_once(tmp_path, caplog, monkeypatch):
    with Journal(tmp_path / "j.sqlite") as j:
        t, keys = counting_seat_2(j)

        def full(*_):
            raise JournalFullError("the disk holding j.sqlite is full")

        monkeypatch.setattr(j, "keep_draft", full)
        with caplog.at_level("WARNING", logger="tablekit.table"):
            keys.type("31")
            keys.tap("return")
        assert t.entry.stage == CONFIRMING and t.entry.points == 31
        said = [r.getMessage() for r in caplog.records if "cannot be kept" in r.getMessage()]
        assert len(said) == 1 and "full" in said[0]
        monkeypatch.undo()
        keys.seat(0)
        assert t.state.show.hands[-1].points == 31


def test_the_camera_back_after_a_restart_reads_the_hand_being_entered(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:  # no camera: the declarer's show and then seat 2's count entered
        t, keys = counting_seat_2(j)
        keys.type("4")
        gid = t.game_id
    # restarted with a camera plugged in: the zone asked for is read, and the reading is ruled
    camera = ScriptedCamera({(1, 2): groups("4H 5H 6H | KD")}, {1: "5D"})
    with Journal(path) as j:
        back = Table.resume(j, gid, ManualClock(j.last_time(gid)), camera=camera)
        assert back.entry is not None and back.entry.typed == "4"
        back.catch_up()
        assert back.entry is None and j.draft(gid) is None
        assert back.state.show.current.seat == 2 and not back.state.show.current.entered
        assert "before the table stopped" not in str(getattr(back.view(), "toast", ""))


def test_a_lost_camera_is_not_asked_again_by_a_restart_and_the_entry_goes_on(tmp_path):
    path = tmp_path / "j.sqlite"
    camera = ScriptedCamera({(1, 1): groups(VALID_SHOW)}, {1: "5D"})
    with Journal(path) as j:
        t = Table.start(j, game(), ManualClock(1000), camera=camera, rng=random.Random(1))
        keys = Keyboard(t, t.clock)
        keys.tap("return")
        declare(t, keys)
        keys.tap("return")
        assert not t.state.camera_ok and t.entry is not None and t.entry.seat == 2
        keys.type("4")
        gid = t.game_id
    with Journal(path) as j:
        back = Table.resume(j, gid, ManualClock(j.last_time(gid)), camera=camera)
        back.catch_up()
        assert back.entry.typed == "4" and back.view().why == "the camera read nothing"
        keys = Keyboard(back, back.clock)
        keys.tap("return")
        keys.seat(0)
        assert back.state.show.hands[-1].points == 4


def test_a_camera_that_reads_nothing_is_lost_and_the_hand_is_entered_all_the_same(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        camera = ScriptedCamera({(1, 1): groups(VALID_SHOW)}, {1: "5D"})
        t = Table.start(j, game(), ManualClock(1000), camera=camera)
        assert not camera.absent
        keys = Keyboard(t, t.clock)
        keys.tap("return")
        declare(t, keys)
        assert t.state.show.stage == "verdict"  # the camera read the show
        keys.tap("return")
        assert not t.state.camera_ok and t.entry is not None and t.entry.seat == 2
        assert t.view().why == "the camera read nothing"


def test_a_camera_that_fails_is_a_camera_that_reads_nothing_and_the_game_goes_on(tmp_path, caplog):
    class Failing(ScriptedCamera):
        """Reads the show, then its frame source breaks (a loose ribbon cable)."""

        reads = 0

        def read_zone(self, request):
            self.reads += 1
            if self.reads > 1:
                raise RuntimeError("camera frontend has timed out")
            return super().read_zone(request)

        def read_cut(self, deal):
            raise RuntimeError("camera frontend has timed out")

    with Journal(tmp_path / "j.sqlite") as j:
        camera = Failing({(1, 1): groups(VALID_SHOW)}, {1: "5D"})
        t = Table.start(j, game(), ManualClock(1000), camera=camera)
        keys = Keyboard(t, t.clock)
        with caplog.at_level("WARNING", logger="tablekit.table"):
            keys.tap("return")  # the cut card cannot be read: it is drawn here
            declare(t, keys)
            assert t.state.show.stage == "verdict"  # the camera read the show
            keys.tap("return")
        assert not t.state.camera_ok and t.entry is not None and t.entry.seat == 2
        assert t.view().why == "the camera read nothing"
        said = [r.getMessage() for r in caplog.records]
        assert any("read_cut" in m and "timed out" in m for m in said)
        assert any("read_zone" in m and "RuntimeError" in m for m in said)


def test_ok_on_a_hand_that_cannot_be_counted_opens_the_scorepad(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        camera = ScriptedCamera({(1, 1): groups(VALID_SHOW), (1, 2): groups("4H 5H ?? | KD")}, {1: "5D"})
        t = Table.start(j, game(), ManualClock(1000), camera=camera)
        keys = Keyboard(t, t.clock)
        keys.tap("return")
        declare(t, keys)
        keys.tap("return")
        assert t.state.show.stage == "hand-check" and t.entry is None
        keys.tap("return")  # refused: the hand cannot be counted
        assert t.entry is not None and t.entry.seat == 2 and t.entry.kind == POINTS
        assert t.view().why == "the reading cannot be counted"
        keys.type("9")
        keys.tap("return")
        keys.seat(0)
        assert t.state.show.hands[-1].points == 9 and t.state.show.hands[-1].entered


def box(table: Table, seat: int, hold: int = 150) -> None:
    """A seat's button on the box: down, held ``hold`` ms, up."""
    table.button(seat, True)
    table.clock.advance(hold)
    table.button(seat, False)
    table.clock.advance(250)


def test_tile_rummy_with_no_camera_is_played_to_the_end_with_the_tiles_entered(tmp_path):
    """The declarer's tiles typed, a loser's stepped on the box, one typed wrong and mended; each
    confirmed by another seat and journaled as the camera's reading of the zone, replayed alike."""
    with Journal(tmp_path / "j.sqlite") as j:
        g = game("tile-rummy", ("Ann", "Bo", "Cy"))
        t = Table.start(j, g, ManualClock(1000), camera=ScriptedCamera(cuts={1: "R7"}, absent=True))
        keys = Keyboard(t, t.clock)
        keys.tap("return")
        keys.tap("return")  # tile rummy's opening window: OK starts the first turn's clock
        keys.seat(t.state.deal.turn)  # the opening throw (nobody closes in that turn)
        seat = declare(t, keys)
        assert t.entry.kind == CARDS and t.entry.declared and t.entry.seat == seat
        view = t.view()
        assert isinstance(view, ScorepadView) and view.hand is not None and view.hand.tiles
        keys.type("r10 r11 r12 / k9 b9 y9 / r1 r2 r3 / b4 b5 b6 b7")
        keys.tap("return")
        assert t.entry.stage == CONFIRMING and t.view().hand.ruling == "a valid show"
        keys.seat((seat + 1) % 3)
        assert t.state.show.declaration.groups[0] == ("R10", "R11", "R12")
        nxt = t.entry.seat
        assert nxt == (seat + 1) % 3 and not t.entry.declared
        keys.type("y3 y3 q8")  # not a tile: refused, the text kept to mend
        keys.tap("return")
        assert t.entry.stage == ENTERING and "not a tile" in t.view().problem
        for _ in range(2):
            keys.tap("backspace")
        keys.type("k8")
        keys.tap("return")
        assert t.view().hand.ruling.startswith(f"{g.seats[nxt].name}'s hand:")
        keys.seat(nxt)  # the keyboard typed it: any seat confirms
        last = t.entry.seat
        for _ in range(5):  # the box: R1 … R5, a short press each, then a held one: Y5
            box(t, seat)
        box(t, seat, HOLD_MS + 100)
        assert t.entry.hand.groups == (("Y5",),) and t.entry.by_seat == seat
        t.button(4, True)  # the box's OK (MENU and OK follow the seats)
        box(t, seat)  # the seat that entered it cannot confirm
        assert t.entry is not None and "cannot confirm" in t.view().problem
        box(t, (seat + 1) % 3)
        assert t.over
        record = t.state.history[-1]
        assert record.winner == seat and record.scores[last] < 0 and record.scores[seat] > 0
        reads = [e for e in j.events(t.game_id) if isinstance(e, TableRead)]
        assert [r.zone for r in reads] == [seat, nxt, last]
        assert replay(j.game(t.game_id), list(j.events(t.game_id))) == t.state
        with sqlite3.connect(j.path) as db:  # the last hand's tiles confirmed left no stale copy
            assert db.execute("SELECT count(*) FROM drafts").fetchone() == (0,)


def test_open_rummy_hands_are_entered_as_cards_and_a_wrong_show_is_ruled_as_read(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        g = game("open-rummy", ("Ann", "Bo", "Cy", "Di"))
        t = Table.start(j, g, ManualClock(1000), camera=ScriptedCamera(absent=True), rng=random.Random(3))
        keys = Keyboard(t, t.clock)
        keys.tap("return")
        for _ in range(4):
            keys.seat(t.state.deal.turn)
        seat = declare(t, keys)
        assert t.entry.kind == CARDS and not t.entry.hand.tiles
        keys.type("4h 5h 7s | kd")
        keys.tap("return")
        view = t.view()
        assert t.entry.stage == CONFIRMING and view.hand.valid is False
        assert view.hand.ruling.startswith("wrong show")
        ruling = judge_declaration(t.state, t.entry.hand.groups)
        keys.seat((seat + 1) % 4)
        assert t.state.notice.startswith(g.seats[seat].name + " made a wrong show")
        assert t.state.show is None or t.state.show.declaration.ruling == ruling.ruling


def test_a_count_whose_event_the_journal_cannot_take_waits_to_be_confirmed_again(tmp_path, monkeypatch):
    with Journal(tmp_path / "j.sqlite") as j:
        t, keys = counting_seat_2(j)
        keys.type("31")
        keys.tap("return")
        assert t.entry.stage == CONFIRMING and t.entry.points == 31
        before = journaled(t)

        def full(*_args, **_kw):
            raise JournalFullError("the disk holding j.sqlite is full")

        monkeypatch.setattr(j, "append", full)
        with pytest.raises(JournalFullError):
            t.button(0, True)
            t.clock.advance(150)
            t.button(0, False)
        assert t.entry is not None and t.entry.stage == CONFIRMING and t.entry.points == 31
        monkeypatch.undo()
        t.recover()
        assert journaled(t) == before and t.entry.points == 31
        keys.seat(0)
        assert t.state.show.hands[-1].points == 31 and t.state.show.hands[-1].entered


def test_a_kept_draft_too_big_or_too_deep_to_be_one_is_passed_over(tmp_path, caplog):
    path = tmp_path / "j.sqlite"
    camera = ScriptedCamera(name=NO_CAMERA)
    with Journal(path) as j:
        t, keys = counting_seat_2(j, camera)
        gid = t.game_id
    # nested too deep to parse (under the size bound), too big, and of a size no hand takes
    for body in ("[" * 8000 + "]" * 8000, "[" * 200_000 + "]" * 200_000,
                 json.dumps({"entry": {}, "why": "x" * 20_000})):
        with Journal(path) as j:
            j.keep_draft(gid, body)  # a well-formed row (its checksum right) holding nonsense
        with Journal(path) as j, caplog.at_level("WARNING"):
            back = Table.resume(j, gid, ManualClock(j.last_time(gid)), camera=camera)
            back.catch_up()
            assert back.entry is not None and back.entry.seat == 2 and back.entry.typed is None
        assert any("cannot be read back" in r.getMessage() for r in caplog.records)
        caplog.clear()


def test_a_confirm_on_a_full_disk_that_kept_no_draft_still_keeps_the_entry(tmp_path, monkeypatch):
    with Journal(tmp_path / "j.sqlite") as j:
        t, keys = counting_seat_2(j)

        def full(*_args, **_kw):
            raise JournalFullError("the disk holding j.sqlite is full")

        monkeypatch.setattr(j, "keep_draft", full)  # the disk filled before the count was entered
        keys.type("31")
        keys.tap("return")
        monkeypatch.setattr(j, "append", full)
        with pytest.raises(JournalFullError):
            keys.seat(0)
        assert t.entry is not None and t.entry.stage == CONFIRMING and t.entry.points == 31
