"""Any content the app may send draws inside the screen: random view-models at both sizes."""

from __future__ import annotations

# ruff: noqa: I001 - the fixtures module comes first: it sets SDL's dummy drivers before pygame loads
from tests._display_fixtures import render

from hypothesis import given, settings
from hypothesis import strategies as st

from display import viewmodel as vm

NAMES = st.text(alphabet=st.characters(codec="utf-8", categories=["L", "N", "P", "Zs"]), min_size=0, max_size=40)
SCORES = st.one_of(st.integers(-500, 5000), st.floats(-500, 5000, allow_nan=False, allow_infinity=False))
SIZES = st.sampled_from([(1920, 1080), (800, 480), (1280, 720), (1024, 600)])
TOAST = st.one_of(st.none(), st.builds(vm.Toast, NAMES, st.sampled_from(vm.LEVELS)))
HEALTH = st.builds(vm.DeviceHealth, st.sampled_from(vm.HEALTH_STATES), NAMES)


def _inside(view: vm.ViewModel, size: tuple[int, int]) -> None:
    surface, canvas = render(view, size)
    full = surface.get_rect()
    for placed in canvas.texts:
        assert full.contains(placed.rect) and placed.bounds.contains(placed.rect), placed.text
    for name, rect in canvas.regions.items():
        if name.startswith(("seat:", "row:", "line:", "standing:", "total:")):
            assert full.contains(rect), name


@st.composite
def play_views(draw: st.DrawFn) -> vm.PlayView:
    seats = draw(st.lists(st.builds(vm.SeatView, NAMES, NAMES, SCORES, st.integers(0, 6), st.sampled_from(vm.SEAT_STATES), NAMES), min_size=0, max_size=8))
    index = st.one_of(st.none(), st.integers(-1, len(seats)))
    total = draw(st.floats(0, 120))
    countdown = draw(st.one_of(st.none(), st.builds(vm.Countdown, st.floats(-5, 130), st.just(total), st.booleans(), NAMES)))
    return vm.PlayView(
        draw(NAMES), tuple(seats), draw(index), draw(index), countdown, draw(st.integers(0, 5)), draw(st.integers(0, 99)),
        draw(st.one_of(st.none(), st.integers(1, 99))), draw(NAMES), draw(HEALTH), draw(HEALTH), draw(NAMES), draw(NAMES), draw(TOAST),
    )


@settings(max_examples=30, deadline=None)
@given(view=play_views(), size=SIZES)
def test_any_play_view_draws_inside_the_screen(view: vm.PlayView, size: tuple[int, int]) -> None:
    _inside(view, size)


@settings(max_examples=20, deadline=None)
@given(
    players=st.lists(st.builds(vm.SetupPlayer, NAMES, NAMES), max_size=8),
    options=st.lists(st.builds(vm.SetupOption, NAMES, NAMES, NAMES), max_size=8),
    section=st.sampled_from(["variant", "player", "option", "start", "elsewhere"]),
    index=st.integers(-1, 9),
    editing=st.booleans(),
    problem=NAMES,
    size=SIZES,
)
def test_any_setup_view_draws_inside_the_screen(players: list[vm.SetupPlayer], options: list[vm.SetupOption], section: str, index: int, editing: bool, problem: str, size: tuple[int, int]) -> None:
    view = vm.SetupView("id", "A variant with a name", tuple(players), tuple(options), vm.SetupCursor(section, index), editing, "hint", problem)
    _inside(view, size)


@settings(max_examples=20, deadline=None)
@given(
    lines=st.lists(st.builds(vm.DealLine, NAMES, SCORES, SCORES, NAMES, st.booleans(), st.booleans()), max_size=8),
    headline=NAMES,
    size=SIZES,
)
def test_any_deal_result_draws_inside_the_screen(lines: list[vm.DealLine], headline: str, size: tuple[int, int]) -> None:
    _inside(vm.DealResultView(7, tuple(lines), headline, "OK"), size)


@settings(max_examples=20, deadline=None)
@given(
    series=st.lists(st.builds(vm.ScoreSeries, NAMES, st.lists(SCORES, max_size=30).map(tuple), st.booleans()), max_size=8),
    target=st.one_of(st.none(), SCORES),
    label=NAMES,
    size=SIZES,
)
def test_any_scoreboard_draws_inside_the_screen(series: list[vm.ScoreSeries], target: float | None, label: str, size: tuple[int, int]) -> None:
    _inside(vm.ScoreboardView("Scores", tuple(series), target, label), size)


@settings(max_examples=20, deadline=None)
@given(
    standings=st.lists(st.builds(vm.Standing, st.integers(1, 8), NAMES, SCORES, NAMES), max_size=8),
    message=st.builds(vm.MessageView, NAMES, st.text(max_size=600), st.sampled_from(vm.LEVELS), NAMES, TOAST),
    size=SIZES,
)
def test_any_game_over_and_message_draw_inside_the_screen(standings: list[vm.Standing], message: vm.MessageView, size: tuple[int, int]) -> None:
    _inside(vm.GameOverView("Somebody", tuple(standings), "", 3, "OK"), size)
    _inside(message, size)


@settings(max_examples=20, deadline=None)
@given(
    view=st.builds(vm.TurnCheckView, NAMES, NAMES, st.lists(st.text(max_size=300), max_size=7).map(tuple),
                   st.integers(1, 9), NAMES, NAMES, TOAST),
    size=SIZES,
)
def test_any_turn_check_draws_inside_the_screen(view: vm.TurnCheckView, size: tuple[int, int]) -> None:
    _inside(view, size)


@settings(max_examples=20, deadline=None)
@given(
    proposed=st.sampled_from(["", "QS", "10H", "PJ", "??", "JY"]),
    note=NAMES,
    prompt=NAMES,
    size=SIZES,
)
def test_any_card_under_correction_draws_inside_the_screen(proposed: str, note: str, prompt: str, size: tuple[int, int]) -> None:
    from display.samples import show_view

    view = show_view(False, correcting=True)
    _inside(vm.ShowView(view.declarer, view.groups, False, view.verdict, vm.SHOW_CORRECTING, prompt,
                        view.selected, proposed, proposed_note=note), size)
