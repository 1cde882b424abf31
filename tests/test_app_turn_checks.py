"""Turn checks at the table: the camera reads the whole table after each turn, an illegal turn
shows on screen with its reason, OK accepts it, MENU reads the table again; resume restores it."""

from __future__ import annotations

import os

import pytest
from _game_fixtures import game

from display.viewmodel import PlayView, TurnCheckView
from engine.game import ReadTable
from tablekit.cameras import ScriptedCamera, SeenTable, TableRequest
from tablekit.clock import ManualClock
from tablekit.journal import Journal
from tablekit.present import present
from tablekit.shell import open_screen
from tablekit.table import Table

NAMES = ["Ann", "Bo", "Cy", "Di"]
MENU, OK = 4, 5


def table_of(melds: dict[int, list[str]], discard: str, stock: int | None) -> SeenTable:
    return SeenTable(tuple(tuple(tuple(g.split()) for g in melds.get(s, [])) for s in range(4)),
                     tuple(discard.split()), stock)


TABLES = {
    (1, 0): table_of({}, "6C", 25),
    (1, 1): table_of({1: ["5S 6S 7S"]}, "6C 9H", 24),  # Bo opens a sequence
    (1, 2): table_of({1: ["5S 6S 7S"]}, "6C 9H KD", 23),  # Cy draws and discards
    (1, 3): table_of({1: ["5S 6S"]}, "6C 9H KD 4D", 22),  # Di pulls 7S off Bo's meld
}
FIXED = table_of({1: ["5S 6S 7S 8S"]}, "6C 9H KD 4D", 22)  # 7S back, and his 8S added


def press(t: Table, button: int, hold: int = 200) -> None:
    t.button(button, True)
    t.clock.advance(hold)
    t.button(button, False)
    t.clock.advance(1000)


@pytest.fixture
def table(tmp_path):
    camera = ScriptedCamera(tables=dict(TABLES))
    with Journal(tmp_path / "j.sqlite") as journal:
        t = Table.start(journal, game("open-rummy-2deck", NAMES), ManualClock(1000), camera=camera)
        press(t, OK)  # deal 1: Ann deals, Bo plays first; the table as dealt is read
        yield t


def kinds(t: Table) -> list[str]:
    return [e.to_json()["type"] for e in t.journal.events(t.game_id)]


def test_each_turn_is_read_and_checked_and_an_illegal_one_shows_its_reason(table, tmp_path):
    assert kinds(table) == ["confirm", "deal-started", "table-seen"]
    for seat in (1, 2):
        press(table, seat)
        assert kinds(table)[-1] == "table-seen" and table.state.phase == "play"
    assert table.effects.count(ReadTable()) == 3
    press(table, 3)  # Di's turn breaks his partner's meld
    view = table.view()
    assert isinstance(view, TurnCheckView)
    assert view.headline == "Di's turn is not legal" and view.next_player == "Ann"
    assert any("5S 6S 7S was taken off the table" in v for v in view.violations)
    assert any("in front of Bo" in v for v in view.violations)  # seats by name, not number
    assert "OK: accept" in view.prompt and "MENU: put it right" in view.prompt
    # the screen shows it (headless screenshot with the reason written on it)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    screen = open_screen((800, 480), headless=True, screenshots=tmp_path / "shots")
    try:
        screen.show(view)
        texts = " ".join(screen.shot_texts[-1])
        assert "Turn check" in texts and "not legal" in texts and "taken off the table" in texts
        assert screen.shots[-1].name.endswith("TurnCheckView.png") and screen.shots[-1].exists()
    finally:
        screen.close()
    # Ann's presses wait until the table settles it
    press(table, 0)
    assert table.state.phase == "turn-check" and table.state.deal.turn == 0


def test_the_table_puts_it_right_and_reads_again_or_accepts_it(table, tmp_path):
    for seat in (1, 2, 3):
        press(table, seat)
    assert table.state.phase == "turn-check"
    press(table, MENU)  # the table is read again: still the same
    assert table.state.deal.watch.check.reads == 2
    assert table.view().headline == "Di's turn is still not legal"
    table.camera.tables[(1, 3)] = FIXED  # Di puts the 7S back (and adds his 8S)
    read_at = table.now()
    press(table, MENU)
    assert table.state.phase == "play" and isinstance(table.view(), PlayView)
    assert table.state.deal.turn == 0
    assert table.state.deal.deadline_ms == read_at + 45_000  # Ann's clock starts afresh
    assert "put right" in table.view().toast.text


def test_ok_accepts_the_turn_and_a_resume_restores_a_pending_check(table):
    for seat in (1, 2, 3):
        press(table, seat)
    restored = Table.resume(table.journal, table.game_id, ManualClock(table.now()),
                            camera=ScriptedCamera(tables=dict(TABLES)))
    assert restored.state == table.state and restored.state.phase == "turn-check"
    assert isinstance(restored.view(), TurnCheckView)
    press(restored, OK)
    assert restored.state.phase == "play"
    assert "accepts Di's turn" in restored.state.notice
    assert [str(m) for m in restored.state.deal.watch.table.seat_melds(1)] == ["5S 6S"]
    assert kinds(restored)[-1] == "confirm"


def test_a_camera_that_cannot_read_the_whole_table_leaves_turns_unchecked(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        t = Table.start(journal, game("open-rummy-2deck", NAMES), ManualClock(1000),
                        camera=ScriptedCamera())
        press(t, OK)
        for seat in (1, 2, 3, 0):
            press(t, seat)
        assert t.state.phase == "play" and t.state.deal.turn == 1
        assert "table-seen" not in kinds(t)


def test_present_names_every_rule_broken_for_a_check():
    from engine.game import DealStarted, TableSeen, apply, new_game

    s = new_game(game("open-rummy-2deck", NAMES))
    s, _ = apply(s, DealStarted("", 10))
    s, _ = apply(s, TableSeen(((), (), (), ()), ("6C",), 25, 20))
    from engine.game import ButtonPressed, ButtonReleased

    s, _ = apply(s, ButtonPressed(1, 30))
    s, _ = apply(s, ButtonReleased(1, 100))
    # two cards gone from the stock, the pile untouched
    s, _ = apply(s, TableSeen(((), (), (), ()), ("6C",), 23, 200))
    view = present(s, 300)
    assert isinstance(view, TurnCheckView) and view.player == "Bo"
    assert any("2 cards left the stock" in v for v in view.violations)
    assert any("no discard" in v for v in view.violations)


def test_a_calibrated_camera_reads_each_seat_zone_and_the_pile_in_the_centre():
    from tablekit.cameras import FrameCamera

    class Reading:
        def group_cards(self):
            return [["5S", "6S", "7S"], ["6C", "9H"], ["3H", "3D", "3C"], ["QS", "QS"], ["KD"]]

    class Mat:  # the mat read from above (vision.calibration.read_calibrated)
        px_per_mm = 2.0

        def for_size(self, width, height):
            return self

        def read_top_down(self, frame, reader):
            return Reading()

        def group_zones(self, reading):
            return ["seat2", "centre", "seat4", None, "seat9"]  # off the mat; a seat not playing

    class Frames:
        name = "frames"

        def frames(self):
            import numpy as np

            while True:
                yield np.zeros((48, 64, 3), np.uint8)

    seen = FrameCamera(Frames(), Mat()).read_table(TableRequest(4, 1))
    assert seen == SeenTable(((), (("5S", "6S", "7S"),), (), (("3H", "3D", "3C"),)), ("6C", "9H"))
    assert FrameCamera(Frames()).read_table(TableRequest(4, 1)) is None  # no zones: nobody's melds are known


def test_the_camera_is_told_whether_the_game_is_played_with_cards_or_tiles(table, tmp_path, monkeypatch):
    import vision.recognize
    from tablekit.cameras import FrameCamera, ZoneRequest
    from vision.reading import TableReading

    assert table.table_request().pieces == table.zone_request(1).pieces == "cards"
    with Journal(tmp_path / "tiles.sqlite") as journal:
        tiles = Table.start(journal, game("tile-rummy", NAMES), ManualClock(1000), camera=ScriptedCamera())
        assert tiles.table_request().pieces == tiles.zone_request(0).pieces == "tiles"

    asked = []

    def spy(image, **kwargs):
        asked.append(kwargs["pieces"])
        return TableReading((), ())

    monkeypatch.setattr(vision.recognize, "read_table", spy)

    class Frames:
        name = "frames"

        def frames(self):
            yield from range(3)

    camera = FrameCamera(Frames())
    camera.read_zone(ZoneRequest(0, 1, pieces="tiles"))
    camera.read_zone(ZoneRequest(0, 1))
    assert asked == ["tiles", "auto"]  # a request that does not say lets the photo tell


def test_a_reading_lost_in_a_crash_is_taken_again_on_resume(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        t = Table.start(journal, game("open-rummy-2deck", NAMES), ManualClock(1000),
                        camera=ScriptedCamera(tables={(1, 0): TABLES[(1, 0)]}))
        press(t, OK)
        press(t, 1)  # Bo ends his turn; the power fails before the table is read
        assert kinds(t)[-1] == "button-released" and t.state.deal.watch.due == 1
        back = Table.resume(journal, t.game_id, ManualClock(t.now()),
                            camera=ScriptedCamera(tables={(1, 1): table_of({1: ["5S 6S"]}, "6C 9H", 24)}))
        back.catch_up()
        assert kinds(back)[-1] == "table-seen"
        assert back.state.phase == "turn-check"  # a two-card meld: Bo's turn is checked after all
        assert any("5S 6S is not a valid meld" in v for v in back.state.deal.watch.check.violations)
