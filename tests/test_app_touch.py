"""Touch at the table: taps on the screen act as the box's buttons, at 800×480 and at 1080p.

Synthetic finger and mouse events are posted into headless runs of ``shell.play`` and
``shell.choose_game`` with a real table (a scripted camera, a manual clock); where a tap lands
is taken from the regions the frame on screen recorded, as the shell's hit test does.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Iterator  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402
from _game_fixtures import LOSER_58, VALID_SHOW, game, groups  # noqa: E402

from display.viewmodel import PlayView, SetupView  # noqa: E402
from display.window import Screen  # noqa: E402
from engine.game import LONG_PRESS_MS  # noqa: E402
from engine.variants import all_variants  # noqa: E402
from firmware_bridge import KeyboardButtons, default_keymap  # noqa: E402
from tablekit.cameras import ScriptedCamera  # noqa: E402
from tablekit.clock import ManualClock  # noqa: E402
from tablekit.journal import Journal  # noqa: E402
from tablekit.setup_screen import TableSetup  # noqa: E402
from tablekit.shell import choose_game, open_screen, play  # noqa: E402
from tablekit.table import Table  # noqa: E402

SIZES = [(800, 480), (1920, 1080)]
RUN = 0.1  # seconds of frame loop per step: a few frames, never a hang


@pytest.fixture(params=SIZES, ids=["800x480", "1920x1080"])
def screen(request: pytest.FixtureRequest) -> Iterator[Screen]:
    s = open_screen(request.param, headless=True)
    pygame.event.clear()
    yield s
    s.close()


@pytest.fixture
def table(tmp_path, screen: Screen) -> Iterator[Table]:
    camera = ScriptedCamera({(1, 1): groups(VALID_SHOW), (1, 2): groups(LOSER_58), (1, 0): groups(LOSER_58)},
                            {1: "5D"})
    with Journal(tmp_path / "j.sqlite") as journal:
        yield Table.start(journal, game(), ManualClock(1000), camera=camera, on_view=screen.show)


def region(screen: Screen, name: str) -> pygame.Rect:
    canvas = screen.renderer.last
    assert canvas is not None and name in canvas.regions, f"{name} is not on the screen"
    return canvas.regions[name]


def finger(screen: Screen, name: str, *, down: bool = True, up: bool = True, finger_id: int = 0) -> None:
    """A finger on the middle of region ``name`` of the frame on screen (normalised x, y)."""
    w, h = screen.size
    x, y = region(screen, name).center
    for kind, wanted in ((pygame.FINGERDOWN, down), (pygame.FINGERUP, up)):
        if wanted:
            pygame.event.post(pygame.event.Event(kind, touch_id=1, finger_id=finger_id, x=x / w, y=y / h,
                                                 dx=0.0, dy=0.0, pressure=1.0))


def click(screen: Screen, name: str, *, touch: bool = False) -> None:
    pos = region(screen, name).center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=touch))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=touch))


def run(t: Table) -> None:
    assert play(t, None, KeyboardButtons(default_keymap(t.state.game.players)), seconds=RUN) == 0


def dealt(t: Table, screen: Screen) -> None:
    """OK tapped on the first screen: the deal starts, Ravi (seat 1) to play."""
    t.draw()
    finger(screen, "key:ok")
    run(t)
    assert t.state.phase == "play" and t.state.deal is not None and t.state.deal.turn == 1
    assert isinstance(t.view(), PlayView)


def test_a_short_tap_on_the_seat_ends_its_turn(table: Table, screen: Screen) -> None:
    dealt(table, screen)
    finger(screen, "seat:1")
    run(table)
    assert table.state.deal is not None and table.state.deal.turn == 2
    assert table.state.phase == "play"


def test_holding_a_finger_on_the_seat_declares_a_show(table: Table, screen: Screen) -> None:
    dealt(table, screen)
    finger(screen, "seat:1", up=False)
    run(table)
    assert table.state.pressed_at[1] is not None and table.state.phase == "play"
    table.clock.advance(LONG_PRESS_MS)
    run(table)
    view = table.view()
    assert isinstance(view, PlayView) and view.toast is not None and "release to declare" in view.toast.text
    finger(screen, "seat:1", down=False)  # lifted: wherever it lifts, the seat it pressed is released
    run(table)
    assert table.state.phase == "show" and table.state.show is not None
    assert table.state.show.declarer == 1 and table.state.show.declaration is not None
    assert table.state.show.declaration.ruling is not None and table.state.show.declaration.ruling.valid


def test_a_finger_held_a_little_is_still_a_short_press(table: Table, screen: Screen) -> None:
    dealt(table, screen)
    finger(screen, "seat:1", up=False)
    run(table)
    table.clock.advance(LONG_PRESS_MS - 300)
    finger(screen, "seat:1", down=False)
    run(table)
    assert table.state.phase == "play" and table.state.deal is not None and table.state.deal.turn == 2


def test_the_mouse_clicks_like_a_finger_and_a_fingers_mouse_copy_is_not_a_second_press(
        table: Table, screen: Screen) -> None:
    dealt(table, screen)
    finger(screen, "seat:1")
    click(screen, "seat:1", touch=True)  # SDL's copy of the same touch
    run(table)
    assert table.state.deal is not None and table.state.deal.turn == 2
    click(screen, "seat:2")
    run(table)
    assert table.state.deal is not None and table.state.deal.turn == 0


def test_a_tap_on_another_seat_is_that_seats_button(table: Table, screen: Screen) -> None:
    dealt(table, screen)
    finger(screen, "seat:0")  # not Asha's turn: a short press out of turn ends nobody's turn
    run(table)
    assert table.state.deal is not None and table.state.deal.turn == 1


def test_the_soft_menu_and_ok_keys_drop_the_player_to_move(table: Table, screen: Screen) -> None:
    dealt(table, screen)
    finger(screen, "key:menu")
    run(table)
    assert table.state.menu and table.state.menu[0] == "drop"
    finger(screen, "key:ok")
    run(table)
    assert not table.state.menu
    assert table.state.deal is not None and table.state.deal.status[1] != "playing"


def test_the_soft_keys_confirm_a_verdict(table: Table, screen: Screen) -> None:
    dealt(table, screen)
    finger(screen, "seat:1", up=False)
    run(table)
    table.clock.advance(LONG_PRESS_MS)
    finger(screen, "seat:1", down=False)
    run(table)
    assert table.state.phase == "show" and table.state.show is not None and table.state.show.stage == "verdict"
    finger(screen, "key:ok")  # the verdict screen's own soft key
    run(table)
    assert table.state.show is not None and table.state.show.stage != "verdict"


def test_taps_choose_the_setup_row_and_ok_changes_it_then_starts(screen: Screen) -> None:
    setup = TableSetup([v.id for v in all_variants()], ["Ann", "Bo", "Cy"])
    screen.show(setup.view())
    finger(screen, "row:option:1")  # the turn timer's row
    assert choose_game(setup, screen, None, seconds=RUN) is None
    assert setup.ROWS[setup.row] == "turn_seconds" and setup.turn == 0
    view = setup.view()
    assert isinstance(view, SetupView) and view.cursor.section == "option" and view.cursor.index == 1
    finger(screen, "key:ok")
    assert choose_game(setup, screen, None, seconds=RUN) is None
    assert setup.turn == 1
    finger(screen, "key:menu")
    assert choose_game(setup, screen, None, seconds=RUN) is None
    assert setup.ROWS[setup.row] == "count"
    finger(screen, "row:start")
    finger(screen, "key:ok")
    chosen = choose_game(setup, screen, None, seconds=RUN)
    assert chosen is not None and chosen.turn_seconds == 30 and [s.name for s in chosen.seats] == ["Ann", "Bo", "Cy"]


def test_a_tap_on_a_seat_row_goes_to_the_number_of_players(screen: Screen) -> None:
    setup = TableSetup([v.id for v in all_variants()], ["Ann", "Bo", "Cy"])
    screen.show(setup.view())
    finger(screen, "row:player:2")
    finger(screen, "key:ok")  # one more player
    assert choose_game(setup, screen, None, seconds=RUN) is None
    assert setup.ROWS[setup.row] == "players" and setup.players == 4
    assert [p.name for p in setup.view().players][-1] == "Player 4"


def test_a_tap_on_nothing_does_nothing(table: Table, screen: Screen) -> None:
    dealt(table, screen)
    w, h = screen.size
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, touch_id=1, finger_id=0, x=0.5, y=0.5,
                                         dx=0.0, dy=0.0, pressure=1.0))  # the countdown ring
    pygame.event.post(pygame.event.Event(pygame.FINGERUP, touch_id=1, finger_id=0, x=0.5, y=0.5,
                                         dx=0.0, dy=0.0, pressure=1.0))
    run(table)
    assert table.state.deal is not None and table.state.deal.turn == 1 and not table.state.menu


def test_a_whole_game_with_no_camera_is_played_by_touch_alone(tmp_path, screen: Screen) -> None:
    """No camera, no box, no keyboard: taps on the seats, the soft keys and the scorepad's
    steps and confirm buttons play an Indian pool game to its end."""
    from display.viewmodel import GameOverView, ScorepadView
    from engine.game import HandEntered, replay

    camera = ScriptedCamera(name="no camera and no photo folder", no_tables="no camera")
    with Journal(tmp_path / "j.sqlite") as journal:
        t = Table.start(journal, game(), ManualClock(1000), camera=camera, on_view=screen.show)
        t.draw()
        for _ in range(8):  # deals: a pool of 101 ends long before
            if t.over:
                break
            finger(screen, "key:ok")  # the deal starts
            run(t)
            assert t.state.phase == "play"
            for _ in range(3):  # a round of short taps, each on the seat whose turn it is
                finger(screen, f"seat:{t.state.deal.turn}")
                run(t)
            declarer = t.state.deal.turn
            finger(screen, f"seat:{declarer}", up=False)  # held: a show
            run(t)
            t.clock.advance(LONG_PRESS_MS + 100)
            finger(screen, f"seat:{declarer}", down=False)
            run(t)
            assert isinstance(t.view(), ScorepadView)  # the verdict, asked for: no camera
            finger(screen, "key:ok")  # valid, as it stands
            run(t)
            finger(screen, f"seat:{(declarer + 1) % 3}")  # another seat's confirm button
            run(t)
            while t.state.phase == "show":  # each losing hand's points
                view = t.view()
                assert isinstance(view, ScorepadView) and view.verdict is None
                for target in ("pad:plus10",) * 6 + ("pad:plus",) * 2 + ("pad:minus",):
                    finger(screen, target)
                    run(t)
                assert t.entry is not None and t.entry.points == 61
                finger(screen, "key:ok")
                run(t)
                confirmers = t.view()
                assert isinstance(confirmers, ScorepadView) and confirmers.confirmers
                finger(screen, f"seat:{confirmers.confirmers[-1][0]}")
                run(t)
            assert t.state.phase in ("deal-over", "game-over")
        assert t.over and isinstance(t.view(), GameOverView)
        events = journal.events(t.game_id)
        assert sum(isinstance(e, HandEntered) for e in events) >= 4
        assert replay(t.state.game, events) == t.state
