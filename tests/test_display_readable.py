"""Readable across the table: the scores are the biggest thing in a seat, on the Pi's screen too."""

from __future__ import annotations

# ruff: noqa: I001 - the fixtures module comes first: it sets SDL's dummy drivers before pygame loads
from tests._display_fixtures import BOTH, assert_texts_inside, pixels, render

import dataclasses

import numpy as np
import pygame
import pytest

from display.canvas import Canvas, TextPlacement, number_text
from display.layout import SIZES
from display.samples import NAMES, deal_view, play_view, scoreboard_view
from display.viewmodel import DealLine, ScoreSeries

PI, TABLE = SIZES["pi"], SIZES["table"]
MIN_SCORE_PX = 32  # a seat's score, as drawn on the 800×480 screen: its digits' ink
WIDE_SCORE_SHARE = 0.8  # a score too wide for its seat (-1234.5) keeps this much of it
MIN_NAME_PX = 20


def _placed(canvas: Canvas, text: str, inside: pygame.Rect) -> TextPlacement:
    found = [t for t in canvas.texts if t.text == text and inside.contains(t.rect)]
    assert found, f"{text!r} is not drawn inside {inside}"
    return max(found, key=lambda t: t.rect.h)


def ink_height(surface: pygame.Surface, rect: pygame.Rect) -> int:
    """The height of what is drawn in ``rect``: the rows holding a pixel unlike the fill."""
    px = pixels(surface, rect)
    fill = px[0, 0]
    rows = np.nonzero(np.any(np.abs(px - fill).sum(axis=2) > 60, axis=1))[0]
    return int(rows[-1] - rows[0] + 1) if rows.size else 0


def _scores(size: tuple[int, int], seats: int) -> list[tuple[int, int, int]]:
    """(score's line height, its ink height, the name's line height) for every seat."""
    view = play_view(seats)
    surface, canvas = render(view, size)
    assert_texts_inside(canvas)
    out = []
    for i, seat in enumerate(view.seats):
        panel = canvas.regions[f"seat:{i}"]
        score = _placed(canvas, number_text(seat.score), panel)
        assert canvas.regions[f"score:{i}"] == score.rect
        name = _placed(canvas, seat.name, panel)
        assert not name.text.endswith("…"), "a sample name is cut"
        # the fill is read off the panel just left of the digits (the rect hugs their ink)
        out.append((score.rect.h, ink_height(surface, score.rect.inflate(4, 0)), name.rect.h))
    return out


@pytest.mark.parametrize("seats", range(2, 9))
def test_seat_scores_are_drawn_large_at_800x480_and_grow_at_1080p(seats: int) -> None:
    small = _scores(PI, seats)
    large = _scores(TABLE, seats)
    for (line, ink, name), (big_line, big_ink, big_name) in zip(small, large, strict=True):
        # measured on the frame: the rows of the score's box the digits' pixels reach
        assert ink >= MIN_SCORE_PX, f"{seats} seats: a score's digits {ink} px tall at 800x480"
        assert ink >= 0.9 * line  # the digits fill their box: no tiny glyph in a tall box
        assert ink > 1.4 * name, "the score is the seat's big element"
        assert name >= MIN_NAME_PX
        assert big_line >= 2 * line and big_ink >= 2 * ink, "scores scale up at 1080p"
        assert big_name >= 2 * name


@BOTH
def test_a_wide_score_shrinks_a_little_but_stays_whole(size: tuple[int, int]) -> None:
    view = play_view(8)
    seats = tuple(dataclasses.replace(s, score=-1234.5) for s in view.seats)
    surface, canvas = render(dataclasses.replace(view, seats=seats), size)
    for i in range(8):
        placed = _placed(canvas, "-1234.5", canvas.regions[f"seat:{i}"])
        assert ink_height(surface, placed.rect.inflate(4, 0)) >= WIDE_SCORE_SHARE * MIN_SCORE_PX * size[1] / PI[1]


@BOTH
def test_totals_on_the_deal_result_and_scoreboard_are_large_with_eight_players(size: tuple[int, int]) -> None:
    lines = tuple(DealLine(n, 10 * i, 25 * i) for i, n in enumerate(NAMES))
    deal = dataclasses.replace(deal_view(), lines=lines)
    board = dataclasses.replace(scoreboard_view(), series=tuple(ScoreSeries(n, (5, 30 + i)) for i, n in enumerate(NAMES)))
    floor = MIN_SCORE_PX * size[1] / PI[1]
    _, canvas = render(deal, size)
    assert_texts_inside(canvas)
    for i, line in enumerate(lines):
        assert _placed(canvas, number_text(line.total), canvas.regions[f"line:{i}"]).rect.h >= floor
    _, canvas = render(board, size)
    assert_texts_inside(canvas)
    for i, s in enumerate(board.series):
        assert _placed(canvas, number_text(s.totals[-1]), canvas.regions[f"total:{i}"]).rect.h >= floor


@pytest.mark.parametrize("size", [PI, TABLE, (600, 1024), (480, 800), (800, 400)],
                         ids=["800x480", "1920x1080", "600x1024", "480x800", "800x400"])
def test_no_score_is_ever_cut_to_another_number(size: tuple[int, int]) -> None:
    """A score too wide for its cell shrinks as far as it must: cut, "157" would read "1…"."""
    deal = deal_view()
    long_totals = dataclasses.replace(deal, lines=tuple(
        dataclasses.replace(line, total=-12345.5 + i) for i, line in enumerate(deal.lines)))
    for view in (deal, long_totals):
        _, canvas = render(view, size)
        shown = [t.text for t in canvas.texts]
        for line in view.lines:
            for value in (line.points, line.total):
                assert number_text(value) in shown, f"{number_text(value)} at {size}: shown as {shown}"
        assert_texts_inside(canvas)
    play = play_view(8)
    seats = tuple(dataclasses.replace(s, score=-1234.5 - i) for i, s in enumerate(play.seats))
    _, canvas = render(dataclasses.replace(play, seats=seats), size)
    shown = [t.text for t in canvas.texts]
    assert all(number_text(s.score) in shown for s in seats), shown


def test_what_counts_as_a_number_on_the_screen() -> None:
    from display.canvas import is_number

    assert all(is_number(t) for t in ("0", "157", "-12", "+3", "12.5", " 80 ", "−4"))
    assert not any(is_number(t) for t in ("", "-", "1.2.3", "12 pts", "R12", "٣", "²", "1e5", "."))


@pytest.mark.parametrize("size", [(600, 1024), (480, 800), PI, (480, 320), (320, 480)],
                         ids=["600x1024", "480x800", "800x480", "480x320", "320x480"])
def test_the_footer_says_what_the_buttons_do_whole_beside_the_soft_keys(size: tuple[int, int]) -> None:
    """Where the band left of MENU and OK is narrow (a portrait screen) the prompt wraps; on a
    short screen (a 3.5" 480×320 one) the band reaches up into the gap under the body so that
    two lines of the smallest type fit, and so that a long prompt's three lines fit in a
    320×480 screen's narrow band."""
    from display.samples import every_screen

    for name, view in every_screen().items():
        prompt = getattr(view, "hint", "") or getattr(view, "prompt", "")
        if not prompt or getattr(view, "toast", None) is not None:
            continue  # a message in its pill stands over the prompt while it is up
        _, canvas = render(view, size)
        band = canvas.regions["footer"]
        lines = [t.text for t in canvas.texts if band.contains(t.rect)]
        assert " ".join(lines).split() == prompt.split(), f"{name} at {size}: {lines} for {prompt!r}"


@pytest.mark.parametrize("size", [(600, 1024), (480, 800), PI, TABLE, (320, 480), (320, 240)],
                         ids=["600x1024", "480x800", "800x480", "1920x1080", "320x480", "320x240"])
def test_no_header_is_cut(size: tuple[int, int]) -> None:
    """A title and its status shrink, then take two lines, in a narrow header (a portrait
    screen); where one is still too long for its share (a 320×240 screen's one-line header)
    it takes the room the other leaves."""
    from display.samples import every_screen

    for name, view in every_screen().items():
        _, canvas = render(view, size)
        band = canvas.regions.get("header")
        if band is None:
            continue
        cut = [t.text for t in canvas.texts if band.contains(t.rect) and t.text.endswith("…")]
        assert not cut, f"{name} at {size}: {cut}"


PLAYING_SCREENS = ("setup", "setup-roster", "setup-adding-a-name", "play", "show-valid", "show-invalid", "show-correcting",
                   "show-correcting-by-button", "show-tiles", "turn-check",
                   "turn-check-read-again", "deal", "scoreboard", "gameover", "gameover-choices",
                   "scorepad-count", "scorepad-cards", "scorepad-verdict", "calls", "message", "history")


@pytest.mark.parametrize("size", [(600, 1024), (480, 800), (1080, 1920), (320, 480)],
                         ids=["600x1024", "480x800", "1080x1920", "320x480"])
def test_on_a_portrait_screen_the_screens_of_a_game_cut_no_word(size: tuple[int, int]) -> None:
    """Type is sized as on a 4:3 screen of the same width, so lines laid out across the
    width fit it (sized by the height alone, 88 texts were cut on a 600×1024 screen), and the
    setup screen's narrow, tall rows put each label above its value."""
    from display.samples import every_screen

    for name, view in every_screen().items():
        if name not in PLAYING_SCREENS:
            continue
        _, canvas = render(view, size)
        cut = [t.text for t in canvas.texts if t.text.endswith("…")]
        assert not cut, f"{name} at {size}: {cut}"


def test_type_follows_the_height_on_a_landscape_screen_and_the_width_on_a_portrait_one() -> None:
    from display.layout import Layout

    for role in ("title", "large", "body", "small"):
        assert Layout(1920, 1080).line(role) == Layout(2560, 1080).line(role)  # wider: the same
        assert Layout(800, 600).line(role) == Layout(1000, 600).line(role)  # 4:3 and wider alike
        assert Layout(600, 1024).line(role) == Layout(600, 450).line(role)  # portrait: as 600×450


@BOTH
def test_the_history_list_wraps_a_long_game_line_instead_of_cutting_it(size: tuple[int, int]) -> None:
    from display.samples import every_screen

    view = every_screen()["history"]
    _, canvas = render(view, size)
    assert not [t.text for t in canvas.texts if t.text.endswith("…")]
    for i, line in enumerate(view.lines):  # each game's words all there, on one line or two
        row = canvas.regions[f"game:{i}"]
        words = " ".join(t.text for t in canvas.texts if row.contains(t.rect)).split()
        game = line.game + (f" · {line.deals} deal{'s' * (line.deals != 1)}" if line.deals else "")
        assert " ".join(game.split()) in " ".join(words), (game, words)


@pytest.mark.parametrize("size", [(600, 1024), (480, 800), (1080, 1920)], ids=["600x1024", "480x800", "1080x1920"])
def test_eight_seats_names_are_whole_on_a_portrait_screen(size: tuple[int, int]) -> None:
    view = play_view(8)
    _, canvas = render(view, size)
    shown = [t.text for t in canvas.texts]
    assert all(seat.name in shown for seat in view.seats), shown


@pytest.mark.parametrize("size", [(600, 1024), (480, 800)], ids=["600x1024", "480x800"])
@pytest.mark.parametrize("seats", [6, 8])
def test_a_seats_note_is_whole_where_the_turns_left_give_way(size: tuple[int, int], seats: int) -> None:
    """In a portrait screen's narrow seat box the hollow dots of the turns left give way to a
    note that would be cut beside them; the turns missed stay marked."""
    view = play_view(seats)
    _, canvas = render(view, size)
    shown = [t.text for t in canvas.texts]
    noted = [s for s in view.seats if s.note]
    assert noted and all(s.note in shown for s in noted), shown
    missed = [i for i, s in enumerate(view.seats) if s.missed_turns]
    assert missed and all(f"missed:{i}" in canvas.regions for i in missed)


@pytest.mark.parametrize("size", [PI, TABLE, (800, 400), (480, 320)], ids=["800x480", "1920x1080", "800x400", "480x320"])
def test_no_sample_screen_cuts_a_word_on_a_landscape_screen(size: tuple[int, int]) -> None:
    from display.samples import every_screen

    for name, view in every_screen().items():
        _, canvas = render(view, size)
        cut = [t.text for t in canvas.texts if t.text.endswith("…")]
        assert not cut, f"{name} at {size}: {cut}"
