"""The renderer: draws any view-model onto a surface, caching what does not move.

`Renderer.render(view, surface)` fills the whole surface from the view-model alone and
returns the frame's `Canvas` record (where every text and named region landed). On the play
screen the table, seats and header are drawn once per change of the game and reused while
only the countdown moves, which keeps a running timer cheap.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pygame

from display import chrome, theme
from display.canvas import Canvas, TextCache, TextPlacement
from display.cardface import FaceDrawer
from display.errors import UnknownViewError
from display.fonts import Fonts
from display.screens import deal, gameover, message, play, scoreboard, setup, show, turncheck
from display.viewmodel import (
    DealResultView,
    GameOverView,
    MessageView,
    PlayView,
    ScoreboardView,
    SetupView,
    ShowView,
    TurnCheckView,
    ViewModel,
)

_Static = tuple[pygame.Surface, list[TextPlacement], dict[str, pygame.Rect]]


class Renderer:
    """Draws view-models. One renderer may serve surfaces of any size."""

    def __init__(self, fonts: Fonts | None = None) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.fonts = fonts or Fonts()
        self.texts = TextCache(self.fonts)
        self.faces = FaceDrawer(self.texts)
        self.last: Canvas | None = None
        # What changed since the previous frame on the same surface: None means everything.
        self.dirty: list[pygame.Rect] | None = None
        self._last_surface: int | None = None
        self._static_key: Any = None
        self._static: _Static | None = None
        self._veil: pygame.Surface | None = None
        self._screens: dict[type, Callable[[Canvas, Any], None]] = {
            SetupView: setup.draw,
            ShowView: lambda c, v: show.draw(c, v, self.faces),
            TurnCheckView: turncheck.draw,
            DealResultView: deal.draw,
            ScoreboardView: scoreboard.draw,
            GameOverView: gameover.draw,
            MessageView: message.draw,
        }

    def render(self, view: ViewModel, surface: pygame.Surface) -> Canvas:
        """Draw ``view`` over the whole of ``surface``; return the frame's record."""
        self.dirty = None
        if isinstance(view, PlayView):
            canvas = self._render_play(view, surface)
        else:
            draw = self._screens.get(type(view))
            if draw is None:
                raise UnknownViewError(f"no screen draws a {type(view).__name__}")
            canvas = Canvas(surface, self.texts)
            surface.fill(theme.BACKGROUND)
            draw(canvas, view)
            chrome.toast(canvas, view.toast)
        self.last = canvas
        self._last_surface = id(surface)
        return canvas

    def _render_play(self, view: PlayView, surface: pygame.Surface) -> Canvas:
        still = view
        if view.countdown is not None:
            still = dataclasses.replace(view, countdown=dataclasses.replace(view.countdown, seconds_left=0.0))
        key = (surface.get_size(), still)
        reused = key == self._static_key and self._static is not None and self._last_surface == id(surface)
        if key != self._static_key or self._static is None:
            layer = self._static[0] if self._static is not None else None
            if layer is None or layer.get_size() != surface.get_size():
                layer = pygame.Surface(surface.get_size(), 0, surface)  # same pixel format: fast blits
            base = Canvas(layer, self.texts)
            play.draw_table(base, view)
            self._static = (layer, list(base.texts), dict(base.regions))
            self._static_key = key
        layer, texts, regions = self._static
        surface.blit(layer, (0, 0))
        canvas = Canvas(surface, self.texts)
        canvas.texts.extend(texts)
        canvas.regions.update(regions)
        play.draw_countdown(canvas, view)
        self._veil = play.draw_pause(canvas, view, self._veil)
        if reused:  # only the ring (and a pause banner over it) can differ from the last frame
            self.dirty = [canvas.regions[name] for name in ("countdown", "paused") if name in canvas.regions]
        return canvas
