"""The app shell: journal before effect, timers on an injected clock, devices, resume, present()."""

from __future__ import annotations

import os

import pytest
from _game_fixtures import LOSER_58, VALID_SHOW, game, groups

from display.viewmodel import (
    HEALTH_FALLBACK,
    HEALTH_LOST,
    DealResultView,
    GameOverView,
    PlayView,
    ScoreboardView,
    SetupView,
    ShowView,
)
from engine.game import ButtonPressed, DealStarted, Declare, TableRead
from firmware_bridge.layout import ButtonLayout
from tablekit.cameras import ScriptedCamera, ZoneRequest
from tablekit.clock import ManualClock, MonotonicClock
from tablekit.journal import Journal
from tablekit.present import present, wild_cards
from tablekit.table import Table, fallback_health


class FakeBox:
    def __init__(self) -> None:
        self.leds: dict[int, str] = {}
        self.buzzes: list[int] = []

    def led(self, button: int, mode: str) -> None:
        self.leds[button] = mode

    def buzz(self, ms: int) -> None:
        self.buzzes.append(ms)


def camera() -> ScriptedCamera:
    return ScriptedCamera({(1, 1): groups(VALID_SHOW), (1, 2): groups(LOSER_58), (1, 0): groups(LOSER_58)},
                          {1: "5D"})


@pytest.fixture
def table(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    clock = ManualClock(1000)
    box = FakeBox()
    t = Table.start(journal, game(), clock, camera=camera(), box=box)
    t.fake_box = box
    yield t
    journal.close()


def test_ok_reads_the_cut_card_and_starts_the_deal(table):
    table.button(4, True)  # OK: the number after the seats and MENU
    assert table.state.phase == "play" and table.state.deal.wild == "5D"
    types = [e.to_json()["type"] for e in table.journal.events(table.game_id)]
    assert types == ["confirm", "deal-started"]
    assert table.fake_box.leds == {0: "off", 1: "on", 2: "off"}


def test_the_cut_card_is_drawn_when_the_camera_cannot_read_it(tmp_path):
    import random

    with Journal(tmp_path / "j.sqlite") as j:
        t = Table.start(j, game(), ManualClock(), camera=ScriptedCamera(), rng=random.Random(3))
        t.button(4, True)
        wild = t.state.deal.wild
        assert wild and j.events(t.game_id)[-1] == DealStarted(wild, 0)


def test_idle_ticks_are_not_journaled_but_a_timeout_is(table):
    table.button(4, True)
    before = len(table.journal.events(table.game_id))
    for _ in range(44):
        table.clock.advance(1000)
        table.tick()
    assert len(table.journal.events(table.game_id)) == before
    table.clock.advance(1000)
    table.tick()
    assert table.state.deal.turn == 2 and table.state.deal.missed_in_row[1] == 1
    assert len(table.journal.events(table.game_id)) == before + 1
    assert table.fake_box.buzzes  # the missed turn buzzes


def test_every_event_is_journaled_before_its_effects_are_performed(table):
    seen = []

    class WatchingCamera(ScriptedCamera):
        def read_zone(self, request):
            seen.append(len(table.journal.events(table.game_id)))
            return super().read_zone(request)

    table.camera = WatchingCamera(camera().readings, {1: "5D"})
    table.button(4, True)
    table.post(Declare(1, table.now()))
    # the declaration was on disk when the camera was asked to read
    assert seen == [3]
    assert isinstance(table.journal.events(table.game_id)[-1], TableRead)
    assert table.state.show.stage == "verdict"


def test_a_game_resumed_mid_show_reads_the_zone_it_was_waiting_for(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        gid = j.new_game(game(), 0)
        j.append(gid, DealStarted("5D", 1000))
        j.append(gid, Declare(1, 2000))  # the power failed before the camera answered
    with Journal(path) as j:
        t = Table.resume(j, gid, ManualClock(j.last_time(gid)), camera=camera())
        assert t.state.phase == "show" and t.state.show.stage == "reading"
        t.catch_up()
        assert t.state.show.stage == "verdict" and t.state.show.declaration.ruling.valid
        assert j.resumable() == gid


def test_a_reading_that_fails_pauses_the_game_as_camera_lost(table):
    table.button(4, True)
    table.camera.readings.clear()
    table.post(Declare(1, table.now()))
    assert not table.state.camera_ok


def test_box_buttons_map_menu_and_ok_to_its_last_two_buttons(table):
    table.layout = ButtonLayout.of_box(8)  # a box with six seat buttons: MENU 6, OK 7
    table.button(7, True)
    assert table.state.phase == "play"
    table.button(6, True)
    assert table.state.menu
    table.button(4, True)  # a seat button with nobody in that seat
    assert table.state.menu and table.state.phase == "play"


def test_menu_flips_to_the_scoreboard_between_deals(table):
    table.button(4, True)
    for seat in (1, 2, 0):
        table.button(seat, True)
        table.clock.advance(100)
        table.button(seat, False)
    table.post(Declare(1, table.now()))
    for _ in range(3):
        table.button(4, True)
    assert table.state.phase == "deal-over"
    assert isinstance(table.view(), DealResultView)
    table.button(3, True)
    assert isinstance(table.view(), ScoreboardView)
    table.button(3, True)
    assert isinstance(table.view(), DealResultView)


def test_present_shows_each_phase(table):
    assert isinstance(table.view(), SetupView)
    table.button(4, True)
    view = table.view()
    assert isinstance(view, PlayView) and view.active_seat == 1 and view.dealer_seat == 0
    assert view.countdown.seconds_left == 45 and view.countdown.running
    table.clock.advance(15_500)
    assert table.view().countdown.seconds_left == pytest.approx(29.5)
    table.link(False)
    paused = table.view()
    assert paused.paused_reason == "button box lost" and paused.link.state == HEALTH_LOST
    assert not paused.countdown.running
    table.link(True)
    table.post(Declare(1, table.now()))
    show = table.view()
    assert isinstance(show, ShowView) and show.valid is True
    assert [g.kind for g in show.groups] == ["pure sequence", "sequence", "set", "set"]
    assert "5D" in show.wild_cards


def test_present_game_over_lists_standings(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        t = Table.start(j, game("indian-points", ["A", "B"]), ManualClock(), camera=camera())
        t.button(3, True)
        t.post(ButtonPressed(1, 10))
        t.menu_pressed(20)
        t.button(3, True)
        view = t.view()
        assert isinstance(view, GameOverView)
        assert view.winner == "A" and [s.name for s in view.standings] == ["A", "B"]


def test_fallback_devices_are_said_on_screen(table):
    table.devices.link = fallback_health("keyboard instead of the button box")
    table.button(4, True)
    view = present(table.state, table.now(), link=table.devices.link)
    assert view.link.state == HEALTH_FALLBACK and "keyboard" in view.link.message


def test_wild_cards_of_a_cut():
    assert wild_cards("5D") == ("5S", "5H", "5D", "5C", "PJ")
    assert wild_cards("PJ")[:4] == ("AS", "AH", "AD", "AC")
    assert wild_cards("") == ()


def test_clocks():
    c = ManualClock(5)
    assert c.advance(10) == 15 and c.now_ms() == 15
    c.set(3)
    assert c.now_ms() == 15
    assert MonotonicClock(1000).now_ms() >= 1000


def test_run_loop_takes_keyboard_presses(tmp_path):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from firmware_bridge import KeyboardButtons, default_keymap
    from tablekit.shell import open_screen, play

    screen = open_screen((800, 480), headless=True)
    with Journal(tmp_path / "j.sqlite") as j:
        t = Table.start(j, game(), MonotonicClock(), camera=camera(), on_view=screen.show)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_2))
        assert play(t, None, KeyboardButtons(default_keymap(3)), seconds=0.3) == 0
        assert t.state.phase == "play" and t.state.deal.turn == 2
    screen.close()


def test_run_command_starts_and_resumes_headless(tmp_path, capsys):
    from tablekit.cli import main

    db = str(tmp_path / "j.sqlite")
    common = ["--headless", "--seconds", "0.2", "--journal", db, "--no-box", "--camera", "/nowhere"]
    assert main(["run", "--players", "A,B", "--variant", "indian-points"] + common) == 0
    assert main(["run", "--resume"] + common) == 0
    with Journal(db) as j:
        assert len(j.games()) == 1 and j.game(1).seats[1].name == "B"
    assert main(["run", "--variant", "indian-points", "--players", "Solo"] + common) == 2


def test_ok_after_a_lost_camera_tells_the_table_it_is_back(table):
    table.button(4, True)
    table.camera_health(False)
    assert table.state.paused
    table.button(4, True)
    assert table.state.camera_ok and not table.state.paused


def test_open_rummy_seats_show_their_team():
    from engine.game import new_game

    g = game("open-rummy-2deck", ["A", "B", "C", "D"])
    s = new_game(g)
    from engine.game import apply

    s, _ = apply(s, DealStarted("", 10))
    view = present(s, 20)
    assert [v.team for v in view.seats] == ["team A", "team B", "team A", "team B"]


def test_holding_a_button_long_enough_says_a_release_declares(table):
    table.button(4, True)
    table.button(1, True)
    table.clock.advance(1000)
    assert table.view().toast is None or "release" not in table.view().toast.text
    table.clock.advance(600)
    assert "release to declare a show" in table.view().toast.text
    table.button(1, False)
    assert table.state.phase == "show"


def test_the_setup_screen_chooses_the_game_with_menu_and_ok():
    from tablekit.setup_screen import TableSetup

    setup = TableSetup(["indian-pool-101", "indian-points", "shanghai"], ["Asha", "Ravi"], players=2)
    view = setup.view()
    assert isinstance(view, SetupView) and view.cursor.section == "variant"
    assert setup.ok() is None and setup.view().variant_id == "indian-points"
    setup.menu()
    setup.ok()  # players 2 -> 3
    assert [p.name for p in setup.view().players] == ["Asha", "Ravi", "Player 3"]
    setup.menu()
    setup.ok()  # turn timer: 30 s
    assert setup.view().options[1].value == "30 s"
    setup.menu()
    setup.ok()
    setup.menu()
    assert setup.view().cursor.section == "start"
    g = setup.ok()
    assert g.variant_id == "indian-points" and g.players == 3 and g.turn_seconds == 30
    assert g.options == {"count": "arranged"}


def test_run_without_a_variant_opens_the_setup_screen(tmp_path):
    from tablekit.cli import main

    db = tmp_path / "j.sqlite"
    assert main(["run", "--headless", "--seconds", "0.3", "--journal", str(db), "--no-box",
                 "--camera", "/nowhere"]) == 0
    with Journal(db) as j:
        assert j.games() == []  # nobody pressed Start


def test_the_box_buzzes_once_when_ten_seconds_are_left(table):
    table.button(4, True)
    table.clock.advance(34_000)
    table.tick()
    assert table.fake_box.buzzes == []
    table.clock.advance(1_000)
    table.tick()
    table.clock.advance(1_000)
    table.tick()
    assert table.fake_box.buzzes == [40]


def test_a_misread_card_is_corrected_on_screen_from_the_keyboard(tmp_path):
    from tablekit.shell import correction_key as _correcting_key

    misread = VALID_SHOW.replace("QS", "QD")
    with Journal(tmp_path / "j.sqlite") as j:
        t = Table.start(j, game(), ManualClock(), camera=ScriptedCamera({(1, 1): groups(misread)}, {1: "5D"}))
        t.button(4, True)
        t.post(Declare(1, t.now()))
        assert not t.state.show.declaration.ruling.valid
        assert not _correcting_key(t, "q", "q")  # not correcting yet: an ordinary key
        assert _correcting_key(t, "c", "c")
        for _ in range(8):  # to the third group, second card
            _correcting_key(t, "right", "")
        _correcting_key(t, "q", "q")
        _correcting_key(t, "s", "s")
        view = t.view()
        assert view.stage == "correcting" and view.selected.group == 2 and view.selected.index == 1
        assert view.proposed == "QS"
        _correcting_key(t, "return", "\r")
        assert t.correcting is None
        assert t.state.show.declaration.groups[2] == ("QD", "QS", "QC")
        assert t.state.show.declaration.ruling.valid
        assert t.view().stage == "confirm"


def test_the_menu_toast_names_the_choice(tmp_path):
    from engine.game import MenuPressed, apply, new_game

    s, _ = apply(new_game(game("open-rummy-2deck", ["A", "B", "C", "D"])), DealStarted("", 10))
    s, _ = apply(s, MenuPressed(20))
    assert "ground show" in present(s, 30).toast.text
    s, _ = apply(s, MenuPressed(40))
    assert "close the menu" in present(s, 50).toast.text


def test_a_frame_camera_reads_a_photo_folder_and_a_live_one_waits_for_stillness(tmp_path):
    import numpy as np

    from tablekit.cameras import FrameCamera

    class Frames:
        name = "frames"

        def __init__(self, frames):
            self._frames = frames

        def frames(self):
            yield from self._frames

    still = np.full((120, 160, 3), 90, np.uint8)
    moving = [np.random.default_rng(i).integers(0, 255, (120, 160, 3), dtype=np.uint8) for i in range(4)]
    live = FrameCamera(Frames(moving + [still] * 8), live=True)
    assert live._frame() is still  # the first frame after the table came to rest
    folder = FrameCamera(Frames([still]))
    assert folder.read_zone(ZoneRequest(0, 1)) == ()  # a blank table: no cards
    assert folder.read_zone(ZoneRequest(0, 1)) is None  # the folder is used up: no reading
    assert folder.read_cut(1) is None


def test_partnership_setups_show_each_seat_its_team():
    from engine.game import Seat, new_game
    from tablekit.setup_screen import TableSetup

    named = game("open-rummy", ["A", "B", "C", "D"])
    view = present(new_game(named), 0)
    assert [p.team for p in view.players] == ["team A", "team B", "team A", "team B"]
    from engine.game import Game

    own = Game("push", (Seat("A", "us"), Seat("B", "them"), Seat("C", "us"), Seat("D", "them")))
    assert [p.team for p in present(new_game(own), 0).players] == ["us", "them", "us", "them"]
    setup = TableSetup(["indian-pool-101", "open-rummy"], variant="open-rummy", players=4)
    assert [p.team for p in setup.view().players] == ["team A", "team B", "team A", "team B"]
    assert [p.team for p in TableSetup(["indian-pool-101"]).view().players] == ["", "", ""]


def test_what_happens_on_the_way_is_logged_on_stderr_more_with_verbose_none_with_quiet(tmp_path, capsys):
    from tablekit.cli import main

    common = ["run", "--variant", "indian-points", "--players", "A,B", "--headless", "--seconds", "0.1",
              "--journal", str(tmp_path / "j.sqlite"), "--no-box", "--camera", "/nowhere"]
    assert main(common) == 0
    out, err = capsys.readouterr()
    assert out == "" and "tablekit: no camera" in err and "screen: headless" not in err
    assert main(["--verbose", *common]) == 0
    err = capsys.readouterr().err
    assert "tablekit: no camera" in err and "tablekit: screen: headless 1280x720" in err
    assert main(["--quiet", *common]) == 0
    assert capsys.readouterr().err == ""


def test_run_opens_full_screen_at_the_screen_s_own_size_unless_told(tmp_path, monkeypatch):
    import tablekit.shell as shell
    from tablekit.cli import main

    asked = []
    real = shell.open_screen

    def recording(size, **kw):  # type: ignore[no-untyped-def]
        asked.append((size, kw.get("fullscreen")))
        return real(size, **{**kw, "headless": True})

    monkeypatch.setattr(shell, "open_screen", recording)
    db = str(tmp_path / "j.sqlite")
    common = ["--seconds", "0.2", "--journal", db, "--no-box", "--camera", "/nowhere",
              "--players", "A,B", "--variant", "indian-points"]
    assert main(["run", "--fullscreen", *common]) == 0
    assert main(["run", "--headless", "--resume", *common[:7]]) == 0
    assert main(["run", "--fullscreen", "--size", "800x480", "--resume", *common[:7]]) == 0
    assert asked == [(None, True), ((1280, 720), False), ((800, 480), True)]
