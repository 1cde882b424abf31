"""Indices partly under other cards in drawn scenes: how much of their rank and suit shows
(``vision.synth``), and what the index classifier is taught of them (``vision.train.crops``)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.labels import INDEX_CLASSES, index_class
from vision.synth import CARD_H, CARD_W, Face, SceneCard, draw_face, scene
from vision.train.crops import (
    BACKGROUND,
    INK_SHOWN,
    RANK_LOST,
    SUIT_LOST,
    partial_crops,
    partial_target,
)
from vision.train.dataset import Photo, _scene_photo

SCALE = 0.8


def _two_cards(edge: float, above: bool = False) -> tuple[Face, list[SceneCard]]:
    """A seven of hearts, and over it a card whose top edge (its bottom edge, ``above``) lies
    ``edge`` of the way down the seven's upper index box: the seven's face, and both scene
    cards."""
    seven = draw_face("7H", np.random.default_rng(3))
    x0, y0, x1, y1 = seven.indices[0]
    at = y0 + edge * (y1 - y0) - (CARD_H if above else 0)
    corners = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float64)

    def layout(n: int, rng: np.random.Generator, scale: float, tight: bool = False) -> list[np.ndarray]:
        return [corners * scale, (corners + [-20.0, at]) * scale]

    faces = iter([seven, draw_face("KS", np.random.default_rng(4))])
    _, cards = scene(np.random.default_rng(5), (640, 640), [["7H", "KS"]], draw=lambda card, rng: next(faces),
                     scale=SCALE, layout=layout)
    return seven, cards


def test_an_index_whose_suit_lies_under_another_card_shows_its_rank_only() -> None:
    _, (seven, king) = _two_cards(0.55)
    assert seven.visible_indices == ()           # its upper index is partly covered, its lower one wholly
    assert len(seven.partial) == 1
    _, rank, suit = seven.partial[0]
    assert rank >= INK_SHOWN and suit < SUIT_LOST
    assert len(king.visible_indices) == 2 and king.partial == ()


def test_an_index_covered_from_above_shows_too_little_of_its_rank() -> None:
    _, (seven, _) = _two_cards(0.4, above=True)
    assert len(seven.visible_indices) == 1  # the lower one
    (_, rank, suit), = seven.partial
    assert rank < RANK_LOST and suit >= INK_SHOWN


def test_an_index_nearly_all_under_another_card_is_not_listed() -> None:
    _, (seven, _) = _two_cards(0.1)
    assert seven.visible_indices == () and seven.partial == ()


def test_an_index_covered_a_little_is_still_visible_and_not_partial() -> None:
    _, (seven, _) = _two_cards(1.2)
    assert len(seven.visible_indices) == 1 and seven.partial == ()  # the lower one hidden wholly


def _taught(k: int, rank: float, suit: float) -> np.ndarray:
    target = partial_target(k, rank, suit)
    assert target is not None
    return target


def test_what_a_partly_hidden_index_is_taught() -> None:
    k = index_class("7H")
    assert _taught(k, 0.2, 1.0)[BACKGROUND] == 1.0              # most of the rank hidden: no index
    assert partial_target(k, 0.8, 1.0) is None                  # some of the rank hidden: not taught
    whole = _taught(k, 1.0, INK_SHOWN)
    assert whole[k] == pytest.approx(1.0)                       # the suit shows: the card itself
    lost = _taught(k, 1.0, SUIT_LOST)
    sevens = [index_class(f"7{s}") for s in "CDHS"]
    assert lost[sevens] == pytest.approx([0.25] * 4)            # the suit hidden: any seven
    half = _taught(k, 1.0, (SUIT_LOST + INK_SHOWN) / 2)
    assert half[k] == pytest.approx(0.625) and half[index_class("7S")] == pytest.approx(0.125)
    for target in (whole, lost, half):
        assert target.sum() == pytest.approx(1.0)
    joker = INDEX_CLASSES.index("PJ")
    assert _taught(joker, 1.0, 0.0)[joker] == 1.0


def test_a_drawn_scenes_partial_indices_become_crops_with_their_targets() -> None:
    img, cards = scene(np.random.default_rng(8), (640, 480), jokers=0.0)
    photo = _scene_photo("drawn", img, cards)
    assert len(photo.partial) == sum(len(c.partial) for c in cards)
    x, y = partial_crops([photo], np.random.default_rng(0))
    assert len(x) == len(y) == sum(partial_target(k, r, s) is not None for *_, k, r, s in photo.partial)
    assert np.allclose(y.sum(axis=1), 1.0)
    empty = Photo("none", img, [], [], [], True, False)
    ex, ey = partial_crops([empty], np.random.default_rng(0))
    assert ex.shape == (0, 48, 32, 3) and ey.shape == (0, len(INDEX_CLASSES) + 1)
