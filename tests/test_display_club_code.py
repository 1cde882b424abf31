"""The club's QR code on the play screen: drawn only for a table in a club, clear of every seat
and of the footer at the kiosk's sizes, and read back by a QR reader as the table's page."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pygame
import pytest

from display import qr
from display.renderer import Renderer
from display.samples import play_view

URL = "http://club.local:8080/table/east-1"
SIZES = ((800, 480), (1280, 720), (1920, 1080))


def frame(seats: int, size: tuple[int, int], url: str):  # type: ignore[no-untyped-def]
    surface = pygame.Surface(size)
    canvas = Renderer().render(replace(play_view(seats), club_url=url), surface)
    return surface, canvas


def decoded(surface: pygame.Surface) -> str:
    """What OpenCV's QR reader finds on the frame seen as a phone's camera sees a screen, a
    few of its pixels to each of the screen's (here two, nearest neighbour)."""
    rgb = pygame.surfarray.array3d(surface).transpose(1, 0, 2)
    bgr = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2BGR)
    seen = cv2.resize(bgr, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(seen)
    return str(text)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("seats", [2, 4, 6, 8])
def test_the_code_lies_clear_of_the_seats_and_the_footer(seats: int, size: tuple[int, int]) -> None:
    _, canvas = frame(seats, size, URL)
    code = canvas.regions["club-code"]
    assert pygame.Rect(0, 0, *size).contains(code)
    for name, rect in canvas.regions.items():
        if name.startswith(("seat:", "score:", "countdown", "header")):
            assert not code.colliderect(rect), f"the code covers {name} at {size} with {seats} seats"
    assert code.bottom <= round(0.91 * size[1])  # above the footer's prompt
    modules = len(qr.modules(URL) or ()) + 2 * qr.QUIET
    assert code.w // modules >= 2  # 2 px a module at the least: 14 mm on a 7" screen, for a phone held near


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("seats", [4, 6])
def test_a_phone_reads_the_tables_page_off_the_screen(seats: int, size: tuple[int, int]) -> None:
    surface, _ = frame(seats, size, URL)
    assert decoded(surface) == URL


def test_no_code_outside_a_club_or_for_a_text_no_code_holds() -> None:
    surface, canvas = frame(4, (800, 480), "")
    assert "club-code" not in canvas.regions and decoded(surface) == ""
    assert qr.modules("x" * 5000) is None  # more than any QR code holds: no code, no error
    _, canvas = frame(4, (800, 480), "x" * 5000)
    assert "club-code" not in canvas.regions


def test_a_table_in_a_club_shows_its_page_in_play(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from _game_fixtures import game

    from display.viewmodel import PlayView
    from engine.errors import TablekitError
    from tablekit.cameras import ScriptedCamera
    from tablekit.clock import ManualClock
    from tablekit.club.join import club_page
    from tablekit.journal import Journal
    from tablekit.table import Table

    assert club_page(None, "east", None) == ""
    assert club_page("mqtt://club.local:1883", "east 1", None) == "http://club.local:8080/table/east%201"
    assert club_page("mqtt://[fd00::1]", "east", None) == "http://[fd00::1]:8080/table/east"
    assert club_page("mqtt://club.local", "east", "https://club.example/t/east") == "https://club.example/t/east"
    with pytest.raises(TablekitError, match="--club-page"):
        club_page("mqtt://club.local", "east", "club.example/t/east")
    with Journal(tmp_path / "j.sqlite") as journal:
        table = Table.start(journal, game(), ManualClock(1000), camera=ScriptedCamera({}, {1: "5D"}))
        table.button(4, True)  # OK: the cut card read, the deal starts
        assert isinstance(table.view(), PlayView) and table.view().club_url == ""
        table.club_page = URL
        view = table.view()
        assert isinstance(view, PlayView) and view.club_url == URL
        surface = pygame.Surface((800, 480))
        Renderer().render(view, surface)
        assert decoded(surface) == URL
