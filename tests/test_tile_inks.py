"""A table's tile inks told apart by each other (``vision/tile_inks.py`` and the reader's
``settle_inks``): inks measured against their own face, the table's inks fitted as one
mixture, and only the colours the network read unsurely settled by it. Numerals are drawn
with the font bundled in pygame's package, so nothing outside the repository is read."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pygame
import pytest

from engine.tiles import COLOURS
from vision.tile_inks import PATCH, PATCH_TILE, ink_feature, inks_of, table_inks
from vision.tile_reader import (
    N_COLOURS,
    TILE_CLASSES,
    TilePeak,
    class_probs,
    read_tile_table,
    settle_inks,
    split_probs,
)
from vision.tile_synth import SceneTile, tile_scene

BUNDLED = (Path(pygame.__file__).parent / pygame.font.get_default_font(),)

#: Inks as sets print them (BGR): red, orange, navy, black.
RED, ORANGE, NAVY, BLACK = (40, 30, 190), (10, 140, 235), (120, 50, 20), (30, 30, 30)


def _patch(ink: tuple[int, int, int], face: tuple[int, int, int] = (205, 225, 238),
           numeral: str = "8") -> np.ndarray:
    """An upright tile as ``ink_of`` is given it: a face ``PATCH_TILE`` high in a ``PATCH``
    square of dark table, its numeral in ``ink`` above the face's middle."""
    patch = np.full((PATCH, PATCH, 3), 40, np.uint8)
    half = int(PATCH_TILE / 2)
    c = PATCH // 2
    cv2.rectangle(patch, (c - 15, c - half), (c + 15, c + half), face, -1)
    cv2.putText(patch, numeral, (c - 7, c + 2), cv2.FONT_HERSHEY_SIMPLEX, 0.6, ink, 3, cv2.LINE_AA)
    return patch


def ink_of(patch: np.ndarray) -> np.ndarray | None:
    """One tile's ink from its upright patch (``inks_of``), None where it cannot be told."""
    out: np.ndarray = inks_of(patch[None])[0]
    return out if bool(np.isfinite(out).all()) else None


def test_an_ink_is_measured_against_its_face_and_the_light_s_cast_falls_out() -> None:
    red, orange, navy, black = (ink_of(_patch(i)) for i in (RED, ORANGE, NAVY, BLACK))
    assert red is not None and orange is not None and navy is not None and black is not None
    assert red[2] > 2 * red[0] and red[2] > 2 * red[1]  # red gives back red light
    assert orange[2] > orange[1] > orange[0]
    assert navy[0] > 2 * navy[2]  # navy gives back blue, little red
    assert black.max() < 0.25 and black.max() - black.min() < 0.1
    # a warm light: the same tile, its blue much weaker and its red stronger (the face not
    # burnt out), measures the same ink
    for ink, measured in ((NAVY, navy), (BLACK, black), (RED, red)):
        warm = np.clip(_patch(ink).astype(np.float32) * np.array([0.6, 0.95, 1.05]), 0, 255).astype(np.uint8)
        under = ink_of(warm)
        assert under is not None and np.abs(under - measured).max() < 0.08
    # the feature tells navy from black, which the darkness alone hardly does
    assert np.abs(ink_feature(navy)[:3] - ink_feature(black)[:3]).max() > 0.2


def test_a_tile_with_too_little_ink_is_not_measured() -> None:
    assert ink_of(np.full((PATCH, PATCH, 3), 200, np.uint8)) is None
    assert ink_of(_patch(BLACK, numeral=".")) is None


def _odds(colour: int, sure: float) -> np.ndarray:
    out = np.full(N_COLOURS, (1 - sure) / (N_COLOURS - 1))
    out[colour] = sure
    return out


def test_the_table_s_inks_settle_the_unsure_and_leave_the_sure() -> None:
    rng = np.random.default_rng(3)
    centres = [ink_feature(ink_of(_patch(i))) for i in (RED, ORANGE, NAVY, BLACK)]  # type: ignore[arg-type]
    truth = [k % 4 for k in range(40)]
    features = np.stack([centres[k] + rng.normal(0, 0.02, 4) for k in truth])
    odds = np.stack([_odds(k, 0.97) for k in truth])
    # five navy tiles read as black, unsurely
    wrong = [k for k in range(40) if truth[k] == 2][:5]
    for k in wrong:
        odds[k] = _odds(3, 0.6)
    settled = table_inks(features, odds)
    assert [int(np.argmax(settled[k])) for k in wrong] == [2] * 5
    assert all(int(np.argmax(settled[k])) == truth[k] for k in range(40))
    # the table's word is weighed: at no trust nothing moves
    assert np.allclose(table_inks(features, odds, trust=0.0), odds)


def test_a_colour_too_few_tiles_hold_is_no_evidence() -> None:
    centres = [ink_feature(ink_of(_patch(i))) for i in (RED, NAVY)]  # type: ignore[arg-type]
    features = np.stack([centres[0]] * 6 + [centres[1]])
    odds = np.stack([_odds(0, 0.97)] * 6 + [_odds(2, 0.7)])
    # one navy tile alone: no blue ink is fitted, and the red one fitted says it is no red
    settled = table_inks(features, odds)
    assert int(np.argmax(settled[6])) == 2


def _peaks(tiles: list[SceneTile], wrong: dict[int, str]) -> list[TilePeak]:
    """Peaks on the drawn tiles as the network would give them: each read surely right, but
    the tiles of ``wrong`` read unsurely as the colour it names."""
    out = []
    for k, t in enumerate(tiles):
        number = np.zeros(14)
        number[13 if t.tile == "JY" else int(t.tile[1:]) - 1] = 1.0
        colour = _odds(COLOURS.index(t.tile[0]), 0.98) if t.tile != "JY" else _odds(0, 0.25)
        if k in wrong:
            colour = _odds(COLOURS.index(wrong[k]), 0.65)
        up = (t.quad[0] + t.quad[1]) / 2 - (t.quad[2] + t.quad[3]) / 2
        up = up / np.linalg.norm(up)
        cx, cy = t.quad.mean(axis=0)
        out.append(TilePeak(float(cx), float(cy), t.box, 0.9, class_probs(number, colour).astype(np.float32),
                            (float(up[0]), float(up[1]))))
    return out


def test_drawn_tiles_read_unsurely_as_another_colour_are_settled_by_the_table() -> None:
    rng = np.random.default_rng(8)
    image, tiles = tile_scene(rng, (960, 720), (70.0, 90.0), "rows", None, True, 0.0, fonts=BUNDLED)
    numbered = [k for k, t in enumerate(tiles) if t.tile != "JY"]
    assert len(numbered) >= 20
    # a blue read as black, a black as blue, a red as orange, an orange as red
    swaps = {"B": "K", "K": "B", "R": "Y", "Y": "R"}
    wrong: dict[int, str] = {}
    for colour, other in swaps.items():
        first = next((k for k in numbered if tiles[k].tile[0] == colour), None)
        if first is not None:
            wrong[first] = other
    assert len(wrong) >= 3
    peaks = _peaks(tiles, wrong)
    assert sum(TILE_CLASSES[int(np.argmax(p.probs))] != t.tile for p, t in zip(peaks, tiles, strict=True)) == len(wrong)
    settled = settle_inks(image, peaks)
    right = [TILE_CLASSES[int(np.argmax(p.probs))] == t.tile for p, t in zip(settled, tiles, strict=True)]
    assert sum(right[k] for k in wrong) >= len(wrong) - 1
    assert all(right[k] for k in range(len(tiles)) if k not in wrong)  # the sure ones keep their reads
    for before, after in zip(peaks, settled, strict=True):  # numbers are the network's
        assert before.probs[:52].reshape(4, 13).sum(0) == pytest.approx(after.probs[:52].reshape(4, 13).sum(0),
                                                                         abs=1e-5)
        assert float(after.probs.sum()) == pytest.approx(1.0, abs=1e-5)
    # nothing read unsurely: nothing measured, the same peaks back
    sure = _peaks(tiles, {})
    assert settle_inks(image, sure) is sure
    assert float(split_probs(sure[numbered[0]].probs)[1].max()) == pytest.approx(0.98)


def test_the_reader_settles_inks_unless_told_not_to() -> None:
    rng = np.random.default_rng(2)
    image, tiles = tile_scene(rng, (960, 720), (70.0, 100.0), "rows", None, True, 0.0, fonts=BUNDLED)
    on = read_tile_table(image)
    off = read_tile_table(image, ink_unsure=0.0)
    assert len(on.cards) == len(off.cards) >= 0.8 * len(tiles)
    # only colours move: every read keeps its place and its number (or ??)
    for a, b in zip(on.cards, off.cards, strict=True):
        assert a.box == b.box
        assert a.card == b.card or "??" in (a.card, b.card) or a.card[1:] == b.card[1:]
