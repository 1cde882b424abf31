"""Every player's name drawn in its own script: the face chain (DejaVu, then Noto faces from
Debian's fonts-noto-core and fonts-noto-cjk, which ``make test`` installs), shaped runs, no
``?`` in place of a name, at 800×480 and 1920×1080."""

from __future__ import annotations

# ruff: noqa: I001 - the fixtures module comes first: it sets SDL's dummy drivers before pygame loads
from tests._display_fixtures import pixels, render

import dataclasses
from pathlib import Path

import numpy as np
import pygame
import pytest

from display.fonts import Fonts, script_of, visual_order
from display.samples import play_view
from display.viewmodel import SeatView

NAMES = ("Ravi", "रवि शर्मा", "王小明", "José", "Андрей", "محمد", "தமிழ்செல்வி", "জয়া")


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    return Fonts()


def test_the_chain_has_faces_for_indic_cjk_and_arabic(fonts: Fonts) -> None:
    files = " ".join(Path(p).name for p in fonts.chain)
    for face in ("NotoSansDevanagari", "NotoSansCJK", "NotoSansArabic", "NotoSansTamil", "NotoSansBengali"):
        assert face in files, f"{face} missing from {files}"


@pytest.mark.parametrize("name", NAMES)
def test_every_character_of_every_name_is_drawn_as_itself(fonts: Fonts, name: str) -> None:
    assert all(fonts.covers(ch) for ch in name), name
    font = fonts.get(40)
    missing = font.render("\ue000" * len(name), True, (255, 255, 255))
    drawn = font.render(name, True, (255, 255, 255))
    assert drawn.get_height() == font.get_height()  # a mixed line keeps the primary's height
    assert pygame.image.tobytes(drawn, "RGBA") != pygame.image.tobytes(missing, "RGBA")


def test_runs_follow_faces_and_scripts(fonts: Fonts) -> None:
    runs = fonts.get(40).runs("Ravi रवि 王")
    assert [(r.text, r.script) for r in runs] == [("Ravi ", "Latn"), ("रवि ", "Deva"), ("王", "Hani")]
    assert runs[0].face == 0 and runs[1].face != runs[2].face != 0
    assert script_of("م") == "Arab" and script_of("ж") == "Latn"


def test_words_of_a_right_to_left_name_are_laid_from_the_right(fonts: Fonts) -> None:
    """"سارة أحمد" (Sara Ahmad): the first word is read first, so it lies on the right; a Latin
    word after it stays on the right of the Arabic, as written in a left-to-right line."""
    font = fonts.get(40)
    runs = font.runs("سارة أحمد")
    assert [r.text for r in visual_order(runs)] == ["أحمد", " ", "سارة"]
    mixed = font.runs("Seat 2: سارة أحمد 40")
    laid = [r.text.strip() for r in visual_order(mixed)]
    assert laid.index("أحمد") < laid.index("سارة") and laid[0].startswith("Seat") and laid[-1] == "40"
    assert [r.text for r in visual_order(font.runs("בן-גוריון"))] == ["גוריון", "-", "בן"]
    white = (255, 255, 255)
    whole = font.render("سارة أحمد", True, white)
    first, second = font.render("سارة", True, white), font.render("أحمد", True, white)
    # the first word's ink is on the right of the whole line
    right = pygame.surfarray.pixels_alpha(whole)[whole.get_width() - first.get_width():, :]
    left = pygame.surfarray.pixels_alpha(whole)[:second.get_width(), :]
    assert np.array_equal(right, pygame.surfarray.pixels_alpha(first)[:, :])
    assert np.array_equal(left, pygame.surfarray.pixels_alpha(second)[:, :])


def test_conjuncts_are_shaped(fonts: Fonts) -> None:
    """क्ष is one conjunct glyph when shaped for Devanagari, narrower than its three letters."""
    font = fonts.get(40)
    assert font.size("क्ष")[0] < sum(font.size(ch)[0] for ch in "क्ष") * 0.8


def test_shaping_leaves_plain_text_as_it_was(fonts: Fonts) -> None:
    font = fonts.get(36)
    before = pygame.image.tobytes(font.render("Seat 3: 40 points", True, (255, 255, 255)), "RGBA")
    font.render("محمد रवि", True, (255, 255, 255))
    after = pygame.image.tobytes(font.render("Seat 3: 40 points", True, (255, 255, 255)), "RGBA")
    assert before == after


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_table_of_names_in_many_scripts_is_drawn_without_stand_ins(size: tuple[int, int]) -> None:
    base = play_view(6)
    seats = tuple(dataclasses.replace(s, name=n) for s, n in zip(base.seats, NAMES[1:7], strict=True))
    view = dataclasses.replace(base, seats=seats)
    surface, canvas = render(view, size)
    shown = {t.text: t for t in canvas.texts}
    for seat in seats:
        assert isinstance(seat, SeatView)
        placed = next((t for text, t in shown.items() if seat.name in text), None)
        assert placed is not None, f"{seat.name!r} not drawn whole; drawn: {sorted(shown)}"
        ink = pixels(surface, placed.rect)
        assert np.ptp(ink.reshape(-1, 3), axis=0).max() > 60  # letters, not an empty box
    assert "?" not in "".join(shown)
