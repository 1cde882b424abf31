"""The soft MENU and OK keys on every screen, and taps hit-tested on the regions drawn."""

from __future__ import annotations

# ruff: noqa: I001 - the fixtures module comes first: it sets SDL's dummy drivers before pygame loads
from tests._display_fixtures import BOTH, assert_texts_inside, render, share

import pygame
import pytest

from display import theme
from display.layout import MIN_SOFT_KEY_PX, SIZES
from display.samples import every_screen, play_view, setup_view
from display.touch import Tap, TouchPad, hit

SCREENS = every_screen()
KEYS = ("key:menu", "key:ok")


@BOTH
@pytest.mark.parametrize("name", list(SCREENS))
def test_every_screen_has_finger_sized_menu_and_ok_keys_clear_of_everything(name: str, size: tuple[int, int]) -> None:
    surface, canvas = render(SCREENS[name], size)
    assert_texts_inside(canvas)
    full = surface.get_rect()
    floor = MIN_SOFT_KEY_PX * size[1] / SIZES["pi"][1]
    keys = [canvas.regions[k] for k in KEYS]
    for key, label in zip(keys, ("MENU", "OK"), strict=True):
        assert full.contains(key)
        assert key.h >= floor and key.w >= floor, f"{key.size} is too small for a finger at {size}"
        assert share(surface, key.inflate(-key.h // 2, -key.h // 2), theme.KEY, 4) > 0.3  # drawn, not just marked
        assert any(t.text == label and key.contains(t.rect) for t in canvas.texts)
    assert not keys[0].colliderect(keys[1])
    for placed in canvas.texts:
        if placed.text not in ("MENU", "OK"):
            assert not any(k.colliderect(placed.rect) for k in keys), f"{placed.text!r} under a soft key"
    for region, rect in canvas.regions.items():
        if not region.startswith("key:") and region not in ("toast",):
            assert not any(k.colliderect(rect) for k in keys), f"{region} under a soft key on {name}"
    if "toast" in canvas.regions:
        assert not any(k.colliderect(canvas.regions["toast"]) for k in keys)


def _finger(kind: int, x: float, y: float, finger_id: int = 0) -> pygame.event.Event:
    return pygame.event.Event(kind, touch_id=1, finger_id=finger_id, x=x, y=y, dx=0.0, dy=0.0, pressure=1.0)


@BOTH
def test_a_finger_hits_the_region_drawn_under_it_and_lifts_where_it_went_down(size: tuple[int, int]) -> None:
    _, canvas = render(play_view(6), size)
    pad = TouchPad()
    seat = canvas.regions["seat:2"]
    w, h = size
    assert hit(canvas, seat.center) == "seat:2"  # not "score:2" or "missed:2" inside it
    assert pad.handle(_finger(pygame.FINGERDOWN, seat.centerx / w, seat.centery / h), canvas) == Tap("seat:2", True)
    # the finger slid off the panel before it lifted: still the seat it pressed
    assert pad.handle(_finger(pygame.FINGERUP, 0.5, 0.5), canvas) == Tap("seat:2", False)
    assert pad.handle(_finger(pygame.FINGERUP, seat.centerx / w, seat.centery / h), canvas) is None  # lifted already
    ok = canvas.regions["key:ok"]
    assert pad.handle(_finger(pygame.FINGERDOWN, ok.centerx / w, ok.centery / h, 7), canvas) == Tap("key:ok", True)
    assert pad.release_all() == [Tap("key:ok", False)]
    assert pad.handle(_finger(pygame.FINGERDOWN, 0.5, 0.5), canvas) is None  # the ring: nothing to tap


@BOTH
def test_mouse_left_clicks_count_and_a_touchs_mouse_copy_does_not(size: tuple[int, int]) -> None:
    _, canvas = render(setup_view(), size)
    pad = TouchPad()
    start = canvas.regions["row:start"].center
    copy = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1, touch=True)
    right = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=3, touch=False)
    left = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1, touch=False)
    assert pad.handle(copy, canvas) is None
    assert pad.handle(right, canvas) is None
    assert pad.handle(left, canvas) == Tap("row:start", True)
    assert pad.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(0, 0), button=1), canvas) == Tap("row:start", False)
    assert pad.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_m), canvas) is None
    assert pad.handle(left, None) is None  # nothing drawn yet


@BOTH
def test_the_footer_prompt_stays_left_of_the_soft_keys(size: tuple[int, int]) -> None:
    _, canvas = render(play_view(4), size)
    assert canvas.regions["footer"].right <= canvas.regions["key:menu"].left
