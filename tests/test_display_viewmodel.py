"""The view-models: plain, frozen, hashable data the app can build and the screen can draw."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from display import viewmodel as vm
from display.samples import every_screen


def test_every_view_is_frozen_and_hashable() -> None:
    for name, view in every_screen().items():
        assert dataclasses.is_dataclass(view)
        hash(view)
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.toast = None  # type: ignore[misc]
        assert view == dataclasses.replace(view), name


def test_views_hold_plain_data_only() -> None:
    plain = (str, int, float, bool, type(None))

    def check(value: object, where: str) -> None:
        if dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                check(getattr(value, f.name), f"{where}.{f.name}")
        elif isinstance(value, tuple):
            for i, item in enumerate(value):
                check(item, f"{where}[{i}]")
        else:
            assert isinstance(value, plain), f"{where} is a {type(value).__name__}"

    for name, view in every_screen().items():
        check(view, name)


def test_the_view_module_imports_no_pygame_and_no_engine() -> None:
    import ast
    from pathlib import Path

    tree = ast.parse(Path(vm.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert imported <= {"__future__", "dataclasses", "typing"}


def test_defaults_make_a_minimal_play_view() -> None:
    view = vm.PlayView("Rummy", (vm.SeatView("A"), vm.SeatView("B")))
    assert view.active_seat is None and view.countdown is None
    assert view.link.state == vm.HEALTH_OK and view.camera.state == vm.HEALTH_OK
    assert view.paused_reason == "" and view.toast is None


def test_the_named_states_are_the_ones_listed() -> None:
    assert set(vm.HEALTH_STATES) == {vm.HEALTH_OK, vm.HEALTH_FALLBACK, vm.HEALTH_LOST}
    assert set(vm.SEAT_STATES) == {vm.SEAT_PLAYING, vm.SEAT_DROPPED, vm.SEAT_ELIMINATED}
    assert set(vm.SHOW_STAGES) == {vm.SHOW_READING, vm.SHOW_CONFIRM, vm.SHOW_CORRECTING}
    # every screen's view once, and the same ones as the ViewModel union (screens get added)
    assert len(set(vm.VIEW_TYPES)) == len(vm.VIEW_TYPES) >= 8
    assert set(typing.get_args(vm.ViewModel)) == set(vm.VIEW_TYPES)
