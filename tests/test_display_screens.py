"""Every screen at both sizes: text stays inside, PNGs are written, each screen shows its part."""

from __future__ import annotations

# ruff: noqa: I001 - the fixtures module comes first: it sets SDL's dummy drivers before pygame loads
from tests._display_fixtures import BOTH, assert_texts_inside, count, render, share

import dataclasses

import pygame
import pytest

from display import theme
from display.__main__ import shots
from display.chart import nice_step
from display.renderer import Renderer
from display.samples import deal_view, every_screen, gameover_view, scoreboard_view, setup_view
from display.viewmodel import VIEW_TYPES, MessageView, SetupCursor, Toast
from display.window import render_to_file

SCREENS = every_screen()


@BOTH
@pytest.mark.parametrize("name", sorted(SCREENS))
def test_every_screen_keeps_its_text_inside_the_screen(name: str, size: tuple[int, int]) -> None:
    surface, canvas = render(SCREENS[name], size)
    assert_texts_inside(canvas)
    # readable across a table: no text shorter than the floor for its screen
    floor = 12 if size[1] < 600 else 20
    assert min(t.rect.h for t in canvas.texts if t.text) >= floor


def test_the_samples_cover_every_kind_of_screen() -> None:
    assert {type(v) for v in SCREENS.values()} == set(VIEW_TYPES)


@BOTH
def test_screenshots_are_written_as_png_of_the_right_size(tmp_path: object, size: tuple[int, int]) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    for name in ("play", "show-invalid", "scoreboard"):
        out = render_to_file(SCREENS[name], tmp_path / f"{name}.png", size)
        back = pygame.image.load(str(out))
        assert back.get_size() == size
        colours = {back.get_at((x, y))[:3] for x in range(0, size[0], 17) for y in range(0, size[1], 13)}
        assert len(colours) > 8, f"{name} looks blank"


def test_the_preview_command_writes_every_sample(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    written = shots(tmp_path, [(800, 480)])
    assert {p.name for p in written} == {f"{name}-800x480.png" for name in SCREENS}
    assert all(p.stat().st_size > 1000 for p in written)


@BOTH
def test_the_setup_cursor_is_highlighted_where_it_stands(size: tuple[int, int]) -> None:
    for cursor, row in ((SetupCursor("player", 2), "row:player:2"), (SetupCursor("option", 0), "row:option:0"), (SetupCursor("start"), "row:start")):
        surface, canvas = render(dataclasses.replace(setup_view(), cursor=cursor), size)
        assert canvas.regions["cursor"] == canvas.regions[row]
        assert share(surface, canvas.regions[row].inflate(-8, -8), theme.HIGHLIGHT, 4) > 0.4
        others = [k for k in canvas.regions if k.startswith("row:player") and k != row]
        assert all(share(surface, canvas.regions[k], theme.HIGHLIGHT, 4) == 0.0 for k in others)


@BOTH
def test_setup_editing_rings_the_row_instead_of_filling_it(size: tuple[int, int]) -> None:
    surface, canvas = render(dataclasses.replace(setup_view(), editing=True), size)
    row = canvas.regions["cursor"]
    assert share(surface, row, theme.HIGHLIGHT, 4) == 0.0
    assert share(surface, row, theme.SELECTION, 4) > 0.02


@BOTH
def test_setup_with_eight_players_and_a_problem_fits(size: tuple[int, int]) -> None:
    view = dataclasses.replace(setup_view(8), problem="Indian rummy seats two to six players")
    _, canvas = render(view, size)
    assert_texts_inside(canvas)
    assert "problem" in canvas.regions
    rows = [canvas.regions[f"row:player:{i}"] for i in range(8)]
    assert not any(r.colliderect(canvas.regions["problem"]) for r in rows)


@BOTH
def test_the_deal_winner_is_highlighted_and_totals_listed(size: tuple[int, int]) -> None:
    surface, canvas = render(deal_view(), size)
    assert share(surface, canvas.regions["line:0"].inflate(-8, -8), theme.HIGHLIGHT, 4) > 0.4
    assert share(surface, canvas.regions["line:1"], theme.HIGHLIGHT, 4) == 0.0
    words = [t.text for t in canvas.texts]
    assert "157" in words and "wrong show" in words


@BOTH
def test_the_chart_puts_higher_totals_higher_and_draws_the_target(size: tuple[int, int]) -> None:
    view = scoreboard_view(6)
    surface, canvas = render(view, size)
    ends = {s.name: canvas.regions[f"chart:end:{i}"].centery for i, s in enumerate(view.series)}
    finals = {s.name: s.totals[-1] for s in view.series}
    ranked = sorted(finals, key=finals.__getitem__)
    assert [ends[n] for n in ranked] == sorted((ends[n] for n in ranked), reverse=True)
    target = canvas.regions["chart:target"]
    plot = canvas.regions["chart:plot"]
    assert plot.top < target.centery < plot.bottom
    assert count(surface, target.inflate(0, 4), theme.WARNING, 10) > 0.4 * target.w  # dashes: about half the width
    for i in range(len(view.series)):  # each player's line in their own colour
        assert share(surface, canvas.regions[f"chart:end:{i}"], theme.series_colour(i), 10) > 0.3


@BOTH
def test_a_scoreboard_after_one_deal_and_after_many(size: tuple[int, int]) -> None:
    for deals in (1, 10):
        _, canvas = render(scoreboard_view(deals), size)
        assert_texts_inside(canvas)
        assert canvas.regions["chart:plot"].contains(canvas.regions["chart:end:0"].clip(canvas.regions["chart:plot"]))


def test_nice_steps_are_round() -> None:
    assert nice_step(101) in (20.0, 50.0)
    assert nice_step(7) in (1.0, 2.0)
    assert nice_step(0) == 1.0
    for span in (3, 17, 250, 999, 12345):
        step = nice_step(span)
        mantissa = step / 10 ** len(str(int(step))[1:])
        assert mantissa in (1, 2, 5) and 2 <= span / step <= 10


@BOTH
def test_game_over_names_the_winner_first(size: tuple[int, int]) -> None:
    surface, canvas = render(gameover_view(), size)
    assert share(surface, canvas.regions["standing:0"].inflate(-8, -8), theme.HIGHLIGHT, 4) > 0.4
    assert "Ravi wins pool 101" in [t.text for t in canvas.texts]
    assert share(surface, canvas.regions["trophy"], theme.HIGHLIGHT, 4) > 0.2


@BOTH
def test_a_toast_shows_on_any_screen_in_its_level_colour(size: tuple[int, int]) -> None:
    for name in ("setup", "play", "show-valid", "deal", "scoreboard", "gameover", "message"):
        view = dataclasses.replace(SCREENS[name], toast=Toast("Camera back", "error"))  # type: ignore[type-var]
        surface, canvas = render(view, size)
        assert "Camera back" in [t.text for t in canvas.texts], name
        assert share(surface, canvas.regions["toast"], theme.LEVEL_COLOURS["error"], 4) > 0.3, name


@BOTH
def test_a_long_message_wraps_inside_its_box(size: tuple[int, int]) -> None:
    sentence = "The camera cannot see the table: check that nothing covers the lens."
    body = " ".join([sentence] * 15)
    _, canvas = render(MessageView("Camera", body, "error"), size)
    assert_texts_inside(canvas)
    lines = [t for t in canvas.texts if canvas.regions["body"].contains(t.rect)]
    assert len(lines) >= 3
    assert " ".join(t.text for t in lines) == body  # the type shrinks so all of it is read
    # far too long even for the smaller type: the box is filled and the last line cut
    _, canvas = render(MessageView("Camera", " ".join([sentence] * 40), "error"), size)
    assert_texts_inside(canvas)
    lines = [t for t in canvas.texts if canvas.regions["body"].contains(t.rect)]
    assert lines[-1].text.endswith("…")
    assert lines[-1].rect.bottom > canvas.regions["body"].bottom - 2 * lines[-1].rect.h


def test_an_unknown_view_is_refused() -> None:
    from display.errors import UnknownViewError
    from engine.errors import TablekitError

    with pytest.raises(UnknownViewError) as caught:
        Renderer().render(object(), pygame.Surface((80, 48)))  # type: ignore[arg-type]
    assert isinstance(caught.value, TablekitError) and isinstance(caught.value, TypeError)


def test_control_characters_in_names_do_not_break_drawing() -> None:
    view = dataclasses.replace(deal_view(), headline="Ravi\x00 wins\n deal 3")
    _, canvas = render(view, (800, 480))
    assert any(t.text.startswith("Ravi") for t in canvas.texts)


@BOTH
def test_without_dejavu_the_bundled_font_fits_as_well(size: tuple[int, int]) -> None:
    from display.fonts import Fonts

    bundled = Renderer(Fonts(search=False))
    assert bundled.fonts.face == "default"
    for name in ("setup", "play-8-seats", "show-correcting", "show-tiles", "scoreboard", "gameover"):
        _, canvas = render(SCREENS[name], size, bundled)
        assert_texts_inside(canvas)


def test_suit_symbols_the_font_lacks_are_written_as_letters() -> None:
    from display.canvas import TextCache
    from display.fonts import Fonts

    bundled = TextCache(Fonts(search=False))  # pygame's own face has no suit symbols
    assert bundled.displayable("2♦ 7♣ A♠ 9♥", 24) == "2D 7C AS 9H"
    assert bundled.displayable("plain words", 24) == "plain words"
    dejavu = TextCache(Fonts())
    if dejavu.fonts.face != "default":  # DejaVu draws them as they are
        assert dejavu.displayable("2♦ 7♣", 24) == "2♦ 7♣"


@BOTH
def test_the_chart_s_deal_numbers_never_run_together(size: tuple[int, int]) -> None:
    from display.viewmodel import ScoreSeries

    for deals in (13, 14, 15, 23, 37):
        base = scoreboard_view(10)
        series = tuple(ScoreSeries(s.name, tuple((k + 1) * (i + 2) for k in range(deals)))
                       for i, s in enumerate(base.series))
        _, canvas = render(dataclasses.replace(base, series=series, title=f"Scores after deal {deals}"), size)
        plot = canvas.regions["chart:plot"]
        labels = [t for t in canvas.texts if t.text.isdigit() and t.rect.top >= plot.bottom]
        assert str(deals) in [t.text for t in labels]  # the last deal is always named
        boxes = sorted((t.rect for t in labels), key=lambda r: r.x)
        assert all(a.right < b.left for a, b in zip(boxes, boxes[1:], strict=False)), (deals, [t.text for t in labels])


def test_a_name_s_joiners_and_emoji_tints_are_never_question_marks() -> None:
    from display.canvas import TextCache, printable
    from display.fonts import Fonts

    cache = TextCache(Fonts())
    # a Persian name and a Devanagari conjunct keep their joiners; control characters do not
    assert printable("علی\u200cرضا") == "علی\u200cرضا" and printable("क्\u200dष") == "क्\u200dष"
    assert printable("Ann\tBo\n") == "Ann Bo"
    for name in ("Mum \u2764\ufe0f", "Ravi\U0001F44D\U0001F3FD", "\U0001F469\u200d\U0001F467"):
        shown = cache.displayable(name, 20)
        # what no face draws is one "?" a symbol at most, never one for a tint or a joiner
        assert shown.count("?") <= sum(1 for ch in name if 0x2600 <= ord(ch) < 0xFE00 or ord(ch) >= 0x1F400), (name, shown)
        assert "\ufe0f" not in shown or cache.fonts.covers("\ufe0f", True)


def test_chart_tags_tell_every_player_apart_with_few_characters() -> None:
    from display.chart import tags

    assert tags(["Anita", "Ravi", "Meera", "Joseph"]) == ["A", "R", "M", "J"]
    assert tags(["Asha", "Arjun", "Ravi"]) == ["As", "Ar", "Ra"]
    assert tags(["Ana Li", "Ana Lu"]) == ["An1", "An2"]  # alike for three: two and a place
    assert tags(["Sam", "Sam"]) == ["Sa1", "Sa2"]
    # a letter keeps its marks, a joined emoji stays whole
    assert tags(["क्षमा", "कमल"]) == ["क्", "क"]
    assert tags(["\U0001F469\u200d\U0001F373 Jo", "Jo"]) == ["\U0001F469\u200d\U0001F373", "J"]
    # a flag is its two letters together; a subdivision flag its tag letters too
    india, britain = "\U0001F1EE\U0001F1F3", "\U0001F1EC\U0001F1E7"
    scotland = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
    assert tags([f"{india} Ravi", f"{britain} Jo", f"{scotland} Ian"]) == [india, britain, scotland]


@BOTH
def test_each_chart_line_ends_in_its_player_s_tag_in_its_colour(size: tuple[int, int]) -> None:
    from display.viewmodel import ScoreSeries

    base = scoreboard_view(6)
    # eight players, five of them ending on the same total: their tags must stack, not overlap
    names = ["Anita", "Ravi", "Meera", "Joseph", "Asha", "Rohan", "Mina", "Jo"]
    series = tuple(ScoreSeries(n, (10 * i, 100 if i < 4 else 20 * i)) for i, n in enumerate(names))
    surface, canvas = render(dataclasses.replace(base, series=series), size)
    assert_texts_inside(canvas)
    plot = canvas.regions["chart:plot"]
    boxes = [canvas.regions[f"chart:tag:{i}"] for i in range(len(names))]
    assert all(b.left > plot.right and canvas.regions["chart"].contains(b) for b in boxes)
    ordered = sorted(boxes, key=lambda b: b.top)
    assert all(a.bottom <= b.top for a, b in zip(ordered, ordered[1:], strict=False))
    shown = {t.text for t in canvas.texts if any(b.contains(t.rect) for b in boxes)}
    assert shown == {"Ani", "Rav", "Mee", "Jos", "Ash", "Roh", "Min", "Jo"}  # "Jo" is whole
    for i, box in enumerate(boxes):
        assert share(surface, box, theme.series_colour(i), 40) > 0.02, names[i]
    # tags follow their lines: top to bottom in the order of the lines' ends
    ends = [canvas.regions[f"chart:end:{i}"].centery for i in range(len(names))]
    assert sorted(range(len(names)), key=lambda i: (boxes[i].top, i)) == \
        sorted(range(len(names)), key=lambda i: (ends[i], i))


@BOTH
def test_the_calls_button_keeps_clear_of_every_seat(size: tuple[int, int]) -> None:
    base = SCREENS["play-8-seats"]
    for seats in (6, 7, 8):
        view = dataclasses.replace(base, seats=base.seats[:seats], calls="Calls (2)")
        _, canvas = render(view, size)
        key = canvas.regions["call:open"]
        assert key.w > 0.1 * size[0] and key.h > 0.06 * size[1]  # still a button to press
        for name, rect in canvas.regions.items():
            if name.startswith("seat:") and name.count(":") == 1:
                assert not key.colliderect(rect), (seats, name)


@BOTH
def test_a_long_name_on_a_crowded_table_keeps_its_size_as_a_first_name_and_initials(size: tuple[int, int]) -> None:
    base = SCREENS["play-8-seats"]
    names = ["Alexandrina Fitzgerald", "Bo", "Ana Maria Sousa Oliveira", "Ramakrishnan", "Li", "Jo",
             "Wilhelmina", "Evangeline"]
    view = dataclasses.replace(base, seats=tuple(dataclasses.replace(s, name=n) for s, n in
                                                 zip(base.seats, names, strict=True)))
    _, canvas = render(view, size)
    assert_texts_inside(canvas)
    shown = {t.text: t for t in canvas.texts}
    assert "Alexandrina F." in shown and "Ana M. S. O." in shown
    assert "Bo" in shown and "Wilhelmina" in shown  # names that fit are never shortened
    # larger than the whole name shrunk and cut (0.60-0.67 of a short name's height; seat 0
    # also holds the dealer's chip)
    assert shown["Alexandrina F."].rect.h >= 0.75 * shown["Bo"].rect.h
    assert shown["Ana M. S. O."].rect.h >= 0.95 * shown["Bo"].rect.h


def test_a_name_cut_short_keeps_whole_letters_and_emoji() -> None:
    from display.canvas import Canvas, TextCache
    from display.fonts import Fonts

    canvas = Canvas(pygame.Surface((800, 480)), TextCache(Fonts()))
    for text in ("\U0001F469\u200d\U0001F469\u200d\U0001F467" * 12, "क्षमा" * 20):
        shown, _ = canvas.fit(text, 24, 120)
        body = shown.removesuffix("…")
        assert shown.endswith("…") and text.startswith(body)
        assert not body.endswith("\u200d") and (len(body) == 0 or body[-1] not in "\u094d")


@BOTH
def test_a_tie_headline_names_every_winner_whole(size: tuple[int, int]) -> None:
    """A two-way tie's headline was one line, cut before the second winner's name."""
    text = "Bartholomew Ashworth-Lee and Wolfeschlegelsteinhausen share the win"
    _, canvas = render(dataclasses.replace(gameover_view(), headline=text), size)
    shown = " ".join(t.text for t in canvas.texts if t.rect.colliderect(canvas.regions["headline"]))
    assert shown == text
