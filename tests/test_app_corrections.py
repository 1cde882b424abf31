"""Correcting a misread card with the box buttons: MENU selects, the owner's seat button
changes the card, OK corrects it. The keyboard's way keeps working beside it."""

from __future__ import annotations

import os

import pygame
import pytest
from _game_fixtures import LOSER_58, VALID_SHOW, game, groups

from display import theme
from display.viewmodel import ShowView
from engine.game import LONG_PRESS_MS, Declare
from tablekit.cameras import ScriptedCamera
from tablekit.clock import ManualClock
from tablekit.corrections import cycle_card
from tablekit.journal import Journal
from tablekit.shell import open_screen
from tablekit.table import Table

MENU, OK = 3, 4  # three seats, then MENU and OK (the box's last two buttons)
MISREAD = VALID_SHOW.replace("QS", "QD")  # Ravi's QS read as a second QD


def press(t: Table, button: int, hold: int = 200) -> None:
    t.button(button, True)
    t.clock.advance(hold)
    t.button(button, False)
    t.clock.advance(100)


def events(t: Table) -> list[str]:
    return [e.to_json()["type"] for e in t.journal.events(t.game_id)]


@pytest.fixture
def table(tmp_path):
    camera = ScriptedCamera({(1, 1): groups(MISREAD), (1, 2): groups(LOSER_58 + " KC"),
                             (1, 0): groups(LOSER_58)}, {1: "5D"})
    with Journal(tmp_path / "j.sqlite") as journal:
        t = Table.start(journal, game(), ManualClock(1000), camera=camera)
        press(t, OK)  # the cut card: deal 1, Ravi (seat 1) plays first
        t.post(Declare(1, t.now()))
        yield t


def test_a_seat_press_cycles_ranks_a_held_one_suits():
    assert cycle_card("QD", False, False) == "KD"
    assert cycle_card("KD", False, False) == "PJ"
    assert cycle_card("PJ", False, False) == ""  # remove the card
    assert cycle_card("", False, False) == "AS"
    assert cycle_card("10H", False, True) == "10D"
    assert cycle_card("9C", False, True) == "9S"
    assert cycle_card("??", False, False) == "AS"  # unread: start from the ace of spades
    assert cycle_card("R13", True, False) == "JY"
    assert cycle_card("K5", True, True) == "R5"


def test_menu_selects_the_card_the_owners_button_changes_and_ok_corrects_it(table, tmp_path):
    assert not table.state.show.declaration.ruling.valid
    shown = table.view()
    assert isinstance(shown, ShowView) and "MENU: read again or correct a card" in shown.prompt
    press(table, MENU)  # first stop: read the zone again
    assert "read Ravi's cards again" in table.view().prompt and table.view().selected is None
    press(table, MENU)  # then the cards, the group found wrong first
    view = table.view()
    assert view.stage == "correcting" and (view.selected.group, view.selected.index) == (2, 0)
    assert view.proposed == "QD" and view.proposed_note == "as read"
    press(table, MENU)  # the misread queen
    assert (table.view().selected.group, table.view().selected.index) == (2, 1)
    logged = len(events(table))
    press(table, 0)  # not Asha's cards: her button changes nothing
    assert table.view().proposed == "QD"
    press(table, 1, LONG_PRESS_MS)  # Ravi holds his: the next suit
    press(table, 1, LONG_PRESS_MS)
    view = table.view()
    assert view.proposed == "QS" and view.proposed_note == ""
    assert "Ravi's button: next rank" in view.prompt
    assert len(events(table)) == logged  # choosing is the screen's business, not the journal's

    # a headless screenshot shows the selection ringed and its replacement beside it
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    screen = open_screen((800, 480), headless=True, screenshots=tmp_path / "shots")
    try:
        screen.show(table.view())
        canvas = screen.renderer.last
        shot = pygame.image.load(str(screen.shots[-1]))
        ring = canvas.regions["selected"].inflate(8, 8)
        ringed = sum(1 for x in range(ring.left, ring.right) for y in (ring.top + 1, ring.bottom - 2)
                     if shot.get_at((x, y))[:3] == theme.SELECTION)
        assert ringed > ring.w // 2
        assert canvas.regions["correction"].contains(canvas.regions["proposed"])
        assert any("Correct card" in t for t in screen.shot_texts[-1])
    finally:
        screen.close()

    press(table, OK)  # correct the card
    assert events(table)[len(events(table)) - 1] == "correction"
    declaration = table.state.show.declaration
    assert declaration.groups[2] == ("QD", "QS", "QC") and declaration.ruling.valid
    assert table.view().stage == "confirm" and table.picking is None
    press(table, OK)  # now OK confirms the verdict
    assert table.state.show.stage == "hand-reading" or table.state.show.stage == "hand-check"
    restored = Table.resume(table.journal, table.game_id, ManualClock(), camera=ScriptedCamera())
    assert restored.state.show.declaration == table.state.show.declaration


def test_a_phantom_card_is_removed_and_the_hand_then_counts(table):
    table.camera.readings[(1, 1)] = groups(VALID_SHOW)
    press(table, MENU)
    press(table, OK)  # read again: a valid show
    press(table, OK)  # confirmed: Meera lays out her hand, read with a KC that is not there
    show = table.state.show
    assert show.current.seat == 2 and len(show.current.groups[3]) == 5
    counted = show.current.points  # the king that is not there counts 10 against Meera
    press(table, MENU)  # read again
    cells = sum(len(g) for g in show.current.groups)
    for _ in range(cells):  # the cards in table order: the phantom is the last
        press(table, MENU)
    view = table.view()
    assert view.proposed == "KC" and (view.selected.group, view.selected.index) == (3, 4)
    press(table, 2)  # Meera's short presses: KC → joker → remove
    press(table, 2)
    view = table.view()
    assert view.proposed == "" and view.proposed_note == "remove this card"
    press(table, OK)
    current = table.state.show.current
    assert current.groups == groups(LOSER_58) and current.points == counted - 10
    assert table.journal.events(table.game_id)[-1].card == ""
    press(table, MENU)  # back round the selection: off again after the last card
    for _ in range(13):
        press(table, MENU)
    assert table.picking is not None and table.picking.cell == (3, 3)
    press(table, MENU)
    assert table.picking is None and table.view().stage == "confirm"
    press(table, OK)  # Meera's hand as corrected
    press(table, OK)  # Asha's
    record = table.state.history[-1]
    assert table.state.phase == "deal-over" and record.winner == 1
    assert record.counts[2] == counted - 10  # the score sheet has the corrected count


def test_ok_on_read_again_reads_the_zone_and_the_keyboard_still_types(table):
    camera = table.camera
    camera.readings[(1, 1)] = groups(VALID_SHOW)  # Ravi lays the cards out better
    press(table, MENU)
    press(table, OK)
    assert events(table)[-2:] == ["menu", "table-read"]
    assert table.state.show.declaration.ruling.valid
    from tablekit.shell import correction_key as _correcting_key

    press(table, MENU)
    press(table, MENU)
    assert table.picking is not None
    assert _correcting_key(table, "c", "c")  # the keyboard takes over: type a card
    assert table.picking is None and table.view().selected.group == 0
    _correcting_key(table, "q", "q")
    assert table.view().proposed == "Q"
    _correcting_key(table, "escape", "")
    assert table.correcting is None


def test_the_keyboard_keys_for_the_buttons_pick_and_correct_the_same_way(table):
    from firmware_bridge import ButtonEvent, KeyboardButtons, default_keymap

    keys = KeyboardButtons(default_keymap(3))  # 1-3 the seats, M for MENU, Return for OK

    def key(name: str, hold: int = 100) -> None:
        for down in (True, False):
            t = table.clock.advance(hold if not down else 100)
            event = keys.key_down(name, t) if down else keys.key_up(name, t)
            assert isinstance(event, ButtonEvent)
            table.button(event.button, event.event == "press", event.t_ms, keyboard=True)

    for _ in range(3):
        key("m")  # read again, then QD, then the misread QD
    key("2", LONG_PRESS_MS)  # Ravi's key held: QD becomes QC
    key("2", LONG_PRESS_MS)  # and QS
    assert table.view().proposed == "QS"
    key("return")
    assert table.state.show.declaration.ruling.valid
    assert table.journal.events(table.game_id)[-1].card == "QS"
