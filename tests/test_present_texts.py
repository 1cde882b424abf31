"""The words on the table's screens: the play hint names only what MENU does in the family,
the game-over headline agrees with its winners (a team, a tie), a wrong show says so once,
and the play screen notes when turns go unchecked for want of a mat calibration."""

from __future__ import annotations

# ruff: noqa: I001 - the fixtures module comes first: it sets SDL's dummy drivers before pygame loads
from tests._display_fixtures import BOTH, render, share

from dataclasses import replace
from pathlib import Path

import pytest
from _game_fixtures import NO_PURE, Driver, game

from display.layout import HEADER
from display.samples import play_view
from display import theme
from display.viewmodel import GameOverView, PlayView, ShowView
from engine.cards import UNREADABLE
from engine.game import DealStarted, MenuPressed, TableRead, apply, policy_for
from engine.game.flow import MENU_CLOSE
from engine.game.show import wrong_show_text
from engine.variants import all_variants
from tablekit.cameras import FrameCamera, ScriptedCamera, SeenTable, TableRequest
from tablekit.shell import open_screen
from tablekit.table import Table
from tablekit.clock import ManualClock
from tablekit.journal import Journal
from tablekit.present import present

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
MENU, OK = 4, 5  # the keyboard's MENU and OK at a four-seat table


def dealt(variant: str, players: int | None = None, **options: object) -> Driver:
    """A game of ``variant`` in play: the first deal started, the first turn's clock running."""
    v = next(v for v in all_variants() if v.id == variant)
    n = players or max(v.min_players, 3)
    d = Driver(game(variant, NAMES[:n], options=options) if options else game(variant, NAMES[:n]))
    wild = {"indian": "5D", "tile": "R7"}.get(policy_for(d.state.game).family, "")
    d(DealStarted(wild, d.at(1000)))
    assert d.state.phase == "play"
    return d


def play(d: Driver) -> PlayView:
    view = present(d.state, d.t)
    assert isinstance(view, PlayView)
    return view


# --- 1. the play hint names only what MENU does ----------------------------------------------


@pytest.mark.parametrize("variant, menu", [
    ("indian-pool-101", "MENU: drop"),
    ("indian-deals", ""),  # deals rummy has no drop
    ("open-rummy-2deck", "MENU: the stock ran out"),
    ("open-rummy-6p", "MENU: the stock ran out"),
    ("push", "MENU: the stock ran out or push the upcard on"),
    ("tile-rummy", "MENU: the pool ran out"),
    ("shanghai", ""),
])
def test_the_play_hint_names_what_menu_does_in_the_family(variant: str, menu: str) -> None:
    hint = play(dealt(variant)).hint
    assert hint.startswith("short press: end turn · hold 1.5 s: show")
    if menu:
        assert hint.endswith(f" · {menu}")
    else:
        assert "MENU" not in hint
    if "drop" not in menu:
        assert "drop" not in hint  # the old hint offered a drop everywhere


@pytest.mark.parametrize("variant", [v.id for v in all_variants()])
def test_the_hint_offers_exactly_the_choices_the_engine_opens(variant: str) -> None:
    d = dealt(variant)
    hint = play(d).hint
    opened, _ = apply(d.state, MenuPressed(d.t))
    choices = [c for c in opened.menu if c != MENU_CLOSE]
    assert ("MENU" in hint) == bool(choices)
    assert ("drop" in hint) == ("drop" in choices)
    assert ("ran out" in hint) == ("stock-out" in choices)


def test_with_the_menu_open_the_hint_stays_and_the_toast_says_what_ok_does() -> None:
    d = dealt("open-rummy-2deck")
    d.menu()
    view = play(d)
    assert view.toast is not None and view.toast.text == "MENU: next choice · OK: ground show: the stock ran out"
    assert view.hint.endswith("MENU: the stock ran out") and "drop" not in view.hint


# --- 2. the game-over headline --------------------------------------------------------------


def over(variant: str, names: list[str], winners: tuple[int, ...]) -> GameOverView:
    d = Driver(game(variant, names))
    view = present(replace(d.state, phase="game-over", winners=winners), 0)
    assert isinstance(view, GameOverView)
    return view


@pytest.mark.parametrize("variant, names, winners, headline, winner", [
    ("indian-pool-101", NAMES[:3], (1,), "Bo wins Indian rummy, pool 101", "Bo"),
    ("push", NAMES[:4], (1, 3), "Bo & Di win Push", "Bo & Di"),
    ("open-rummy", NAMES[:4], (0, 2), "Ann & Cy win Open Rummy (4 players, 4 decks)", "Ann & Cy"),
    ("open-rummy-6p", NAMES[:6], (1, 3, 5), "Bo & Di & Flo win", "Bo & Di & Flo"),
    ("push", NAMES[:4], (0, 1, 2, 3), "Ann & Cy and Bo & Di share the win", "Ann & Cy and Bo & Di"),
    ("shanghai", NAMES[:3], (0, 2), "Ann and Cy share the win", "Ann and Cy"),
    ("shanghai", NAMES[:3], (0, 1, 2), "Ann, Bo and Cy share the win", "Ann, Bo and Cy"),
])
def test_the_game_over_headline_agrees_with_its_winners(variant, names, winners, headline, winner) -> None:
    view = over(variant, names, winners)
    assert view.headline.startswith(headline) and view.winner == winner
    assert "& Cy wins" not in view.headline and "& Di wins" not in view.headline


def test_the_game_over_screen_draws_the_team_headline(tmp_path: Path) -> None:
    view = over("push", NAMES[:4], (0, 2))
    screen = open_screen((800, 480), headless=True, screenshots=tmp_path / "shots")
    try:
        screen.show(view)
        texts = screen.shot_texts[-1]
        assert "Ann & Cy win Push" in texts and not any("wins" in t for t in texts)
        assert screen.shots[-1].name.endswith("GameOverView.png") and screen.shots[-1].exists()
    finally:
        screen.close()


def test_a_game_over_view_without_a_headline_adds_no_verb() -> None:
    _, canvas = render(GameOverView("Ann & Cy", ()), (800, 480))
    assert "Ann & Cy" in [t.text for t in canvas.texts]


# --- 3. a wrong show says "wrong show" once ----------------------------------------------------


@pytest.mark.parametrize("why, text", [
    ("wrong show (80 points): no pure sequence", "Bo made a wrong show (80 points): no pure sequence"),
    ("wrong show: the team scores nothing this deal; 3S 4S 5S",
     "Bo made a wrong show: the team scores nothing this deal; 3S 4S 5S"),
    ("Wrong show", "Bo made a wrong show"),
    ("no pure sequence", "Bo made a wrong show: no pure sequence"),
    ("", "Bo made a wrong show"),
])
def test_the_wrong_show_text_does_not_repeat_the_judges_words(why: str, text: str) -> None:
    assert wrong_show_text("Bo", why) == text


def test_an_indian_wrong_show_is_announced_once() -> None:
    d = dealt("indian-pool-101")
    seat = d.state.deal.turn
    d.declare(seat)
    d.read(seat, NO_PURE)
    d.ok()
    view = play(d)
    assert view.toast is not None
    assert view.toast.text.startswith("Bo made a wrong show (80 points): ")
    assert "wrong show: wrong show" not in view.toast.text and view.toast.text.count("wrong show") == 1


def test_an_open_rummy_wrong_show_is_announced_once_while_the_hands_are_read() -> None:
    d = dealt("open-rummy-2deck")
    seat = d.state.deal.turn
    d.declare(seat)
    d.read(seat, "3S 4S 5S")
    d.ok()
    assert d.state.phase == "show" and d.state.show.stage == "hand-reading"
    view = present(d.state, d.t)
    assert view.prompt.startswith("Bo made a wrong show: the team scores nothing this deal")
    assert view.prompt.count("wrong show") == 1


# --- 4. unchecked turns are noted on the play screen -------------------------------------------


class NoFrames:
    name = "test camera"

    def frames(self):  # a live camera that never delivers: nothing is read in these tests
        return iter(())


def table(tmp_path: Path, variant: str, camera, **options: object) -> Table:
    journal = Journal(tmp_path / f"{variant}.sqlite")
    g = game(variant, NAMES[:4], options=options) if options else game(variant, NAMES[:4])
    t = Table.start(journal, g, ManualClock(1000), camera=camera)
    t.button(OK, True, keyboard=True)  # deal 1
    t.button(OK, False, keyboard=True)
    assert t.state.phase == "play"
    return t


NOTE = "turns not checked: no mat calibration"


def test_open_rummy_without_a_mat_calibration_notes_that_turns_go_unchecked(tmp_path: Path) -> None:
    t = table(tmp_path, "open-rummy-2deck", FrameCamera(NoFrames()))
    view = t.view()
    assert isinstance(view, PlayView) and view.note == NOTE
    t.journal.close()


class Calibrated(FrameCamera):
    """A camera with a mat calibration whose whole-table reading finds nothing this time."""

    def read_table(self, request: TableRequest) -> SeenTable | None:
        return None


@pytest.mark.parametrize("camera, options", [
    ("frames", {"turn_checks": False}),  # the house turned checks off
    ("calibrated", {}),  # the camera can read the whole table
    ("scripted tables", {}),
])
def test_no_note_where_turns_are_checked_or_turned_off(tmp_path: Path, camera, options) -> None:
    cam = {"frames": lambda: FrameCamera(NoFrames()),
           "calibrated": lambda: Calibrated(NoFrames(), calibration=object()),
           "scripted tables": lambda: ScriptedCamera(tables={(1, 0): SeenTable(((), (), (), ()), ("6C",), 25)})}[camera]()
    t = table(tmp_path, "open-rummy-2deck", cam, **options)
    view = t.view()
    assert isinstance(view, PlayView) and view.note == ""
    t.journal.close()


@pytest.mark.parametrize("variant", ["indian-pool-101", "push", "shanghai", "tile-rummy"])
def test_families_that_check_no_turns_have_no_note(variant: str) -> None:
    view = present(dealt(variant).state, 0, table_unread="no mat calibration")
    assert isinstance(view, PlayView) and view.note == ""


def test_a_camera_without_whole_table_readings_says_why() -> None:
    assert FrameCamera(NoFrames()).table_unread == "no mat calibration"
    assert Calibrated(NoFrames(), calibration=object()).table_unread == ""
    assert ScriptedCamera().table_unread == "no whole-table readings"
    none = ScriptedCamera()
    none.no_tables = "no camera"
    assert none.table_unread == "no camera"
    view = present(dealt("open-rummy-2deck").state, 0, table_unread="no whole-table readings")
    assert view.note == "turns not checked: no whole-table readings"


def test_the_note_is_drawn_small_under_the_header_in_a_screenshot(tmp_path: Path) -> None:
    t = table(tmp_path, "open-rummy-2deck", FrameCamera(NoFrames()))
    screen = open_screen((1280, 720), headless=True, screenshots=tmp_path / "shots")
    try:
        screen.show(t.view())
        texts = screen.shot_texts[-1]
        assert NOTE in texts
        assert "short press: end turn · hold 1.5 s: show · MENU: the stock ran out" in texts
        assert not any("drop" in text for text in texts)
        assert screen.shots[-1].name.endswith("PlayView.png") and screen.shots[-1].exists()
    finally:
        screen.close()
        t.journal.close()


@BOTH
def test_the_note_stays_clear_of_the_header_and_every_seat(size: tuple[int, int]) -> None:
    for seats in range(2, 9):
        _, canvas = render(play_view(seats, note=NOTE), size)
        note = canvas.regions["note"]
        assert not note.colliderect(canvas.layout.rect(HEADER))
        for i in range(seats):
            assert not note.colliderect(canvas.regions[f"seat:{i}"]), f"the note covers seat {i} of {seats}"
        drawn = [p for p in canvas.texts if p.bounds == note]
        assert drawn and drawn[0].text == NOTE, f"the note was cut at {size}: {drawn}"


@BOTH
def test_a_seat_names_its_team_once(size: tuple[int, int]) -> None:
    d = dealt("open-rummy-2deck")
    _, canvas = render(play(d), size)
    texts = [t.text for t in canvas.texts]
    assert texts.count("team A") == 2 and texts.count("team B") == 2
    assert not any("team team" in t for t in texts)


def test_run_without_a_camera_says_so_where_turns_go_unchecked(tmp_path: Path,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    import argparse

    from tablekit.commands.run import open_camera

    camera = open_camera(argparse.Namespace(camera=str(tmp_path / "none.mp4"), calibration=None,
                                            photos=None))
    assert any("no camera" in r.getMessage() and r.levelname == "WARNING" for r in caplog.records)
    assert camera.table_unread == "no camera yet"
    view = present(dealt("open-rummy-2deck").state, 0, table_unread=camera.table_unread)
    assert view.note == "turns not checked: no camera yet"


# --- 5. an unread card is said on its own group, never as a parse error ---------------------

UNREAD_SHOW = (("4H", "5H", "6H", "7H"), ("KC", "QC", "PJ"), ("QD", "QS", UNREADABLE), ("7S", "7D", "7C"))


def _declared_with_unread(variant: str = "indian-pool-101") -> Driver:
    d = dealt(variant)
    assert d.state.deal is not None
    d.declare(d.state.deal.turn)
    assert d.state.show is not None
    d(TableRead(d.state.show.declarer, UNREAD_SHOW, d.at(500)))
    assert d.state.show.declaration is not None and d.state.show.declaration.ruling is None
    return d


def test_an_unread_card_is_said_only_on_its_group() -> None:
    view = present(_declared_with_unread().state, 0)
    assert isinstance(view, ShowView)
    assert view.verdict == "Cannot judge: a card could not be read"
    assert view.valid is None  # not judged: neither a valid nor a wrong show yet
    assert [g.reason for g in view.groups] == ["", "", "a card could not be read", ""]
    assert [g.kind for g in view.groups] == ["not judged", "not judged", "unread", "not judged"]
    assert not any(g.judged for g in view.groups)
    words = repr(view)
    assert "bad suit" not in words and "unknown card" not in words


def test_unread_cards_are_counted_and_tiles_named_as_tiles() -> None:
    d = dealt("tile-rummy")
    assert d.state.deal is not None
    d.ok()  # the doubles window closes (a long press in it shows the ace instead)
    d.declare(d.state.deal.turn)
    assert d.state.show is not None
    d(TableRead(d.state.show.declarer, (("R1", "R2", "R3"), ("B5", "?", "??")), d.at(500)))
    view = present(d.state, 0)
    assert isinstance(view, ShowView)
    assert view.verdict == "Cannot judge: 2 tiles could not be read"
    assert [g.reason for g in view.groups] == ["", "2 tiles could not be read"]


@BOTH
def test_the_show_screen_marks_only_the_unread_group(size: tuple[int, int]) -> None:
    view = present(_declared_with_unread().state, 0)
    surface, canvas = render(view, size)
    texts = [t.text for t in canvas.texts]
    assert texts.count("a card could not be read") == 1
    assert canvas.regions["group:2"].contains(next(t.rect for t in canvas.texts if t.text == "a card could not be read"))
    assert not any("bad suit" in t or "unknown card" in t for t in texts)
    assert not any(k.startswith("badge:") for k in canvas.regions)  # no tick nor cross without a ruling
    assert share(surface, canvas.regions["marker:2"].inflate(-2, -8), theme.WARNING, 4) > 0.9
    for i in (0, 1, 3):
        assert share(surface, canvas.regions[f"marker:{i}"].inflate(-2, -8), theme.NEUTRAL, 4) > 0.9
        assert share(surface, canvas.regions[f"marker:{i}"], theme.INVALID, 4) == 0.0


def test_a_declaration_that_cannot_be_judged_stays_on_screen_naming_no_parse_error() -> None:
    d = _declared_with_unread()
    d.ok()  # refused: a card the camera could not read is no wrong show
    view = present(d.state, d.t)
    assert isinstance(view, ShowView) and view.valid is None
    assert "could not be read" in view.verdict
    assert "bad suit" not in view.verdict and "'??'" not in view.verdict
