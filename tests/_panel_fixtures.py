"""Driving the call panel of a real table as the shell does: keys typed, regions tapped."""

from __future__ import annotations

import pygame

from display.window import Screen
from tablekit.shell import call_key
from tablekit.table import Table


def keys(table: Table, text: str) -> None:
    """Type ``text`` into the open call panel, key by key."""
    for ch in text:
        call_key(table, ch if ch != " " else "space", ch)


def tap(table: Table, screen: Screen, name: str) -> None:
    """A finger down and up on region ``name`` of the frame on screen, routed as the shell does."""
    table.draw()
    canvas = screen.renderer.last
    assert canvas is not None and name in canvas.regions, f"{name} is not on the screen"
    x, y = canvas.regions[name].center
    w, h = canvas.surface.get_size()
    for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
        got = screen.tap(pygame.event.Event(kind, x=x / w, y=y / h, touch_id=1, finger_id=0))
        assert got is not None and got.target == name
        if got.down:
            table.calls_tap(got.target)
