"""The screen the table looks at: a fullscreen kiosk on a Pi, a window on a desktop, or none.

Which one is configuration, never a code change: `choose_display` reads the environment
(``TABLEKIT_DISPLAY=kiosk|window|headless``, ``SDL_VIDEODRIVER``, ``WAYLAND_DISPLAY``,
``DISPLAY``) and whether this is a Raspberry Pi, and answers with a plan. Asked-for modes
fail loudly (a kiosk unit should restart, not run blind); the automatic choice falls back
to headless when no window can be opened.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import sys
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pygame

from display.errors import ScreenError
from display.renderer import Renderer
from display.touch import Tap, TouchPad
from display.viewmodel import (
    DealResultView,
    PlayView,
    ScoreboardView,
    ShowView,
    TurnCheckView,
    ViewModel,
)

log = logging.getLogger(__name__)

KIOSK = "kiosk"
WINDOW = "window"
HEADLESS = "headless"
MODES = (KIOSK, WINDOW, HEADLESS)
WINDOW_SIZE = (1280, 720)
HEADLESS_SIZE = (1920, 1080)
PI_MODEL_FILE = "/proc/device-tree/model"


@dataclass(frozen=True, slots=True)
class DisplayPlan:
    """How to open the screen: the mode, the SDL video driver to ask for (None: SDL's
    choice), whether to go fullscreen, and whether the mode was asked for explicitly."""

    mode: str
    driver: str | None
    fullscreen: bool
    explicit: bool


def is_raspberry_pi(model_file: str = PI_MODEL_FILE) -> bool:
    try:
        return "raspberry pi" in Path(model_file).read_text(errors="replace").lower()
    except OSError:
        return False


def choose_display(env: Mapping[str, str], on_pi: bool, platform: str = sys.platform) -> DisplayPlan:
    """The display plan for this environment (pure: give it any environment to test)."""
    asked = env.get("TABLEKIT_DISPLAY", "").strip().lower()
    if asked and asked not in MODES:
        raise ScreenError(f"TABLEKIT_DISPLAY must be one of {', '.join(MODES)}, not {asked!r}")
    driver = env.get("SDL_VIDEODRIVER") or None
    has_desktop = bool(env.get("WAYLAND_DISPLAY") or env.get("DISPLAY"))
    if not asked:
        if driver == "dummy":
            asked_mode = HEADLESS
        elif on_pi:
            asked_mode = KIOSK
        elif has_desktop or platform in ("win32", "darwin"):
            asked_mode = WINDOW
        else:
            asked_mode = HEADLESS
    else:
        asked_mode = asked
    if asked_mode == HEADLESS:
        return DisplayPlan(HEADLESS, "dummy", False, bool(asked))
    if asked_mode == KIOSK and driver is None and not has_desktop and platform.startswith("linux"):
        driver = "kmsdrm"  # Pi OS Lite: no compositor, straight to the display hardware
    return DisplayPlan(asked_mode, driver, asked_mode == KIOSK, bool(asked))


class Screen:
    """A pygame display plus a renderer: `show(view)` draws a frame and puts it on screen.

    With ``screenshots`` (a folder), a PNG of each new screen goes there (``shots``), with the
    words drawn on it (``shot_texts``). ``key`` says what makes a screen a new one: by default
    anything but a ticking countdown (:func:`screen_key`); :func:`scene_key` is coarser.
    """

    def __init__(
        self,
        size: tuple[int, int] | None = None,
        *,
        plan: DisplayPlan | None = None,
        title: str = "Rummy Table Kit",
        renderer: Renderer | None = None,
        screenshots: str | os.PathLike[str] | None = None,
        key: Callable[[ViewModel], Hashable] | None = None,
    ) -> None:
        self.plan = plan or choose_display(os.environ, is_raspberry_pi())
        self.surface = self._open(self.plan, size, title)
        self.renderer = renderer or Renderer()
        self.frames = 0
        self.screenshots = None if screenshots is None else Path(screenshots)
        self.shots: list[Path] = []
        self.shot_texts: list[tuple[str, ...]] = []  # the words drawn on each screenshot
        self.key: Callable[[ViewModel], Hashable] = key or screen_key
        self._last_key: Hashable | None = None
        self.touch = TouchPad()  # fingers held on the screen's regions, across frame loops
        if self.screenshots is not None:
            self.screenshots.mkdir(parents=True, exist_ok=True)

    @staticmethod
    def _open(plan: DisplayPlan, size: tuple[int, int] | None, title: str) -> pygame.Surface:
        def attempt(p: DisplayPlan) -> pygame.Surface:
            if p.driver:
                os.environ["SDL_VIDEODRIVER"] = p.driver
            os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
            pygame.display.quit()
            pygame.display.init()
            pygame.font.init()
            if p.mode == KIOSK:
                surf = pygame.display.set_mode(size or (0, 0), pygame.FULLSCREEN)
                pygame.mouse.set_visible(False)
            elif p.mode == WINDOW:
                surf = pygame.display.set_mode(size or WINDOW_SIZE)
            else:
                surf = pygame.display.set_mode(size or HEADLESS_SIZE)
            pygame.display.set_caption(title)
            return surf

        try:
            return attempt(plan)
        except pygame.error as exc:
            if plan.explicit or plan.mode == HEADLESS:
                raise ScreenError(f"cannot open the {plan.mode} screen ({plan.driver or 'SDL default'}): {exc}") from exc
            log.warning("no %s screen (%s); drawing headless", plan.mode, exc)
            return attempt(DisplayPlan(HEADLESS, "dummy", False, False))

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    @property
    def headless(self) -> bool:
        """True when nothing reaches a real display (SDL's dummy or offscreen driver)."""
        if self.plan.mode == HEADLESS or os.environ.get("SDL_VIDEODRIVER") == "dummy":
            return True
        return pygame.display.get_init() and pygame.display.get_driver() in ("dummy", "offscreen")

    def show(self, view: ViewModel) -> None:
        """Draw ``view`` and put it on the screen."""
        canvas = self.renderer.render(view, self.surface)
        if self.renderer.dirty is None:
            pygame.display.flip()
        else:  # a ticking countdown: send only the ring to the display
            pygame.display.update(self.renderer.dirty)
        self.frames += 1
        if self.screenshots is not None:
            key = self.key(view)
            if key != self._last_key:
                self.shots.append(self.save_screenshot(self.screenshots / f"{len(self.shots) + 1:03d}-{type(view).__name__}.png"))
                self.shot_texts.append(tuple(t.text for t in canvas.texts))
            self._last_key = key

    def events(self) -> list[pygame.event.Event]:
        """Input since the last call (keys, touches, quit); keeps the window responsive."""
        return pygame.event.get()

    def tap(self, event: pygame.event.Event) -> Tap | None:
        """The tap a finger or mouse ``event`` makes on the frame on screen (None: no tap,
        or nothing tappable under it)."""
        return self.touch.handle(event, self.renderer.last)

    def save_screenshot(self, path: str | os.PathLike[str]) -> Path:
        """Write what is on the screen now as an image (PNG by the file's extension)."""
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.surface, str(out))
        return out

    def close(self) -> None:
        pygame.display.quit()

    def __enter__(self) -> Screen:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def screen_key(view: ViewModel) -> tuple[object, ...]:
    """What makes a screen a different screen: the whole view except a ticking countdown."""
    if isinstance(view, PlayView) and view.countdown is not None:
        view = dataclasses.replace(view, countdown=dataclasses.replace(view.countdown, seconds_left=0.0))
    return (type(view).__name__, view)


def scene_key(view: ViewModel) -> tuple[object, ...]:
    """What makes a screen a different scene for the players: the screen, and on the play
    screen the deal, a pause, the seats' states and a claim waiting for its answer; not toasts,
    held buttons or the countdown. (The table's screenshots and the demo's report take one
    picture per scene.)"""
    name = type(view).__name__
    if isinstance(view, PlayView):
        return (name, view.deal_number, view.paused_reason, tuple(s.state for s in view.seats), view.claim)
    if isinstance(view, ShowView):
        return (name, view.declarer, view.stage, view.verdict)
    if isinstance(view, TurnCheckView):
        return (name, view.player, view.reads)
    if isinstance(view, DealResultView):
        return (name, view.deal_number)
    if isinstance(view, ScoreboardView):
        return (name, view.title)
    return (name,)


def render_to_file(view: ViewModel, path: str | os.PathLike[str], size: tuple[int, int] = HEADLESS_SIZE, renderer: Renderer | None = None) -> Path:
    """Draw one view-model off screen and save it (needs no display at all)."""
    if not pygame.font.get_init():
        pygame.font.init()
    surface = pygame.Surface(size)
    (renderer or Renderer()).render(view, surface)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(out))
    return out
