"""Helpers for the screen tests: headless pygame, a shared renderer, pixel counting.

Imported by ``tests/test_display_*.py``. Setting the SDL drivers here, before pygame is
imported anywhere in these tests, keeps every frame off any real display.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from display.canvas import Canvas  # noqa: E402
from display.layout import SIZES  # noqa: E402
from display.renderer import Renderer  # noqa: E402
from display.theme import Colour  # noqa: E402
from display.viewmodel import ViewModel  # noqa: E402

pygame.font.init()

BOTH_SIZES = [SIZES["table"], SIZES["pi"]]
SIZE_IDS = ["1920x1080", "800x480"]

_RENDERER: Renderer | None = None


def shared_renderer() -> Renderer:
    global _RENDERER
    if _RENDERER is None:
        _RENDERER = Renderer()
    return _RENDERER


# Decorate a test taking ``size`` to run it at the table's and the Pi's resolution.
BOTH = pytest.mark.parametrize("size", BOTH_SIZES, ids=SIZE_IDS)


def render(view: ViewModel, size: tuple[int, int], renderer: Renderer | None = None) -> tuple[pygame.Surface, Canvas]:
    surface = pygame.Surface(size)
    canvas = (renderer or shared_renderer()).render(view, surface)
    return surface, canvas


def pixels(surface: pygame.Surface, rect: pygame.Rect | None = None) -> np.ndarray:
    """The RGB pixels of ``rect`` as an (h, w, 3) array."""
    rect = (rect or surface.get_rect()).clip(surface.get_rect())
    arr = pygame.surfarray.array3d(surface.subsurface(rect))
    return arr.transpose(1, 0, 2).astype(int)


def share(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, tolerance: int = 12) -> float:
    """The share of the pixels in ``rect`` within ``tolerance`` of ``colour`` (per channel)."""
    px = pixels(surface, rect)
    if px.size == 0:
        return 0.0
    close = np.all(np.abs(px - np.array(colour)) <= tolerance, axis=2)
    return float(close.mean())


def count(surface: pygame.Surface, rect: pygame.Rect, colour: Colour, tolerance: int = 12) -> int:
    px = pixels(surface, rect)
    return int(np.all(np.abs(px - np.array(colour)) <= tolerance, axis=2).sum())


def assert_texts_inside(canvas: Canvas) -> None:
    """Every text drawn lies inside the surface and inside the box it was given."""
    full = canvas.surface.get_rect()
    assert canvas.texts, "nothing was written"
    for placed in canvas.texts:
        assert full.contains(placed.rect), f"{placed.text!r} at {placed.rect} leaves the {full.size} screen"
        assert placed.bounds.contains(placed.rect), f"{placed.text!r} at {placed.rect} overflows its box {placed.bounds}"
