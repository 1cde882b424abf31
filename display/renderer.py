"""The renderer: draws any view-model onto a surface, caching what does not move.

`Renderer.render(view, surface)` fills the whole surface from the view-model alone and
returns the frame's `Canvas` record (where every text and named region landed). On the play
screen the table, seats and header are drawn once per change of the game and reused while
only the countdown moves, which keeps a running timer cheap.
"""

from __future__ import annotations

import dataclasses
from typing import TypeAlias, assert_never

import pygame

from display import chrome, theme
from display.canvas import Canvas, TextCache, TextPlacement
from display.cardface import FaceDrawer
from display.errors import UnknownViewError
from display.fonts import Fonts
from display.screens import (
    calls,
    deal,
    gameover,
    history,
    message,
    play,
    scoreboard,
    scorepad,
    setup,
    show,
    turncheck,
)
from display.viewmodel import (
    CallsView,
    DealResultView,
    GameOverView,
    HistoryView,
    MessageView,
    PlayView,
    ScoreboardView,
    ScorepadView,
    SetupView,
    ShowView,
    TurnCheckView,
    ViewModel,
)

_Static = tuple[pygame.Surface, list[TextPlacement], dict[str, pygame.Rect]]
# The play screen's still part is redrawn when the surface size or the view (countdown at 0) changes.
_StaticKey = tuple[tuple[int, int], PlayView]
# The screens drawn in one go (the play screen is drawn in layers).
_WholeView: TypeAlias = (
    SetupView | ShowView | TurnCheckView | DealResultView | ScoreboardView | GameOverView | MessageView
    | HistoryView | ScorepadView | CallsView
)
_WHOLE_VIEWS = (SetupView, ShowView, TurnCheckView, DealResultView, ScoreboardView, GameOverView, MessageView,
                HistoryView, ScorepadView, CallsView)


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
        self._static_key: _StaticKey | None = None
        self._static: _Static | None = None
        self._veil: pygame.Surface | None = None

    def render(self, view: ViewModel, surface: pygame.Surface) -> Canvas:
        """Draw ``view`` over the whole of ``surface``; return the frame's record."""
        self.dirty = None
        if isinstance(view, PlayView):
            canvas = self._render_play(view, surface)
        elif type(view) not in _WHOLE_VIEWS:  # the exact class: a subclass may not draw alike
            raise UnknownViewError(f"no screen draws a {type(view).__name__}")
        else:
            canvas = Canvas(surface, self.texts)
            surface.fill(theme.BACKGROUND)
            self._draw_whole(canvas, view)
            chrome.soft_keys(canvas)
            chrome.toast(canvas, view.toast)
        self.last = canvas
        self._last_surface = id(surface)
        return canvas

    def _draw_whole(self, canvas: Canvas, view: _WholeView) -> None:
        match view:
            case SetupView():
                setup.draw(canvas, view)
            case ShowView():
                show.draw(canvas, view, self.faces)
            case TurnCheckView():
                turncheck.draw(canvas, view)
            case DealResultView():
                deal.draw(canvas, view)
            case ScoreboardView():
                scoreboard.draw(canvas, view)
            case GameOverView():
                gameover.draw(canvas, view)
            case MessageView():
                message.draw(canvas, view)
            case ScorepadView():
                scorepad.draw(canvas, view, self.faces)
            case HistoryView():
                history.draw(canvas, view)
            case CallsView():
                calls.draw(canvas, view, self.faces)
            case _:
                assert_never(view)

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
