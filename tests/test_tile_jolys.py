"""The Joly designs tile scenes draw (``vision.tile_synth.JOLYS``): each prints a mark of ink
inside the box it gives; ``v1`` draws the shipped scenes; ``v2`` draws the same scenes with
other faces on their Jolys only; the held-out designs are never drawn in training; and the
benchmark counts a Joly read where it lies."""

from __future__ import annotations

import sys
from dataclasses import replace
from functools import partial
from pathlib import Path

import cv2
import numpy as np
import pygame
import pytest

from vision.reading import DetectedCard, TableReading
from vision.tile_synth import JOLY_DESIGNS, JOLY_V1, JOLYS, draw_face, random_set, tile_scene

#: pygame's bundled font, so that the scenes draw on a machine without font packages
BUNDLED = (Path(pygame.__file__).parent / pygame.font.get_default_font(),)


def test_the_held_out_designs_are_in_no_training_version() -> None:
    assert JOLYS["v1"] == JOLY_V1 and set(JOLY_V1) < set(JOLYS["v2"])
    assert not set(JOLYS["held-out"]) & (set(JOLYS["v1"]) | set(JOLYS["v2"]))
    assert set(JOLY_DESIGNS) == set(JOLYS["v2"]) | set(JOLYS["held-out"])


@pytest.mark.parametrize("design", [*JOLY_DESIGNS, "emblem-7", "emblem-123456"])
def test_every_design_prints_ink_inside_its_box_on_the_face(design: str) -> None:
    tset = replace(random_set(np.random.default_rng(3), None, None, BUNDLED), joly_design=design)
    blank = replace(tset, joly_design="smiley-red")
    w, h = 84, 120
    face, alpha, box = draw_face("JY", tset, w, h, np.random.default_rng(1))
    plain, _, _ = draw_face("JY", blank, w, h, np.random.default_rng(1))
    x0, y0, x1, y1 = box
    assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h and alpha.shape == (h, w)
    assert (x1 - x0) > 0.25 * w and (y1 - y0) > 0.2 * h
    # the plastic without a print: the face drawn with nothing where the ink falls
    ink = np.abs(face - draw_face("R1", replace(tset, height=0.0), w, h, np.random.default_rng(1))[0]).sum(axis=2) > 60
    ys, xs = np.nonzero(ink)
    assert len(xs) > 40
    # the ink lies in the box given (with a pixel of antialiasing round it)
    assert xs.min() >= x0 - 2 and xs.max() <= x1 + 2 and ys.min() >= y0 - 2 and ys.max() <= y1 + 2
    if design != "smiley-red":
        assert not np.array_equal(face, plain)


def _scene(jolys: str | None, seed: int):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    drawn = partial(tile_scene, rng, (200, 150), (30.0, 40.0), "scattered", None, None, 0.0, sets=1,
                    fonts=BUNDLED, surface="plain", joly_share=0.3)
    image, tiles = drawn() if jolys is None else drawn(jolys=jolys)  # None: the default
    return image, tiles, rng


def test_v1_draws_as_before_and_v2_changes_the_jolys_faces_alone() -> None:
    changed = 0
    for seed in range(6):
        a, ta, ra = _scene(None, seed)
        b, tb, rb = _scene("v1", seed)
        assert np.array_equal(a, b) and ra.bit_generator.state == rb.bit_generator.state
        c, tc, rc = _scene("v2", seed)
        # the same scene, drawn from the same draws: the same tiles where they were
        assert [t.tile for t in tc] == [t.tile for t in ta] and rc.bit_generator.state == ra.bit_generator.state
        assert all(np.allclose(p.quad, q.quad) for p, q in zip(ta, tc, strict=True))
        differs = np.abs(a.astype(np.int16) - c.astype(np.int16)).max(axis=2) > 40
        jolys = np.zeros(differs.shape, np.uint8)
        for t in ta:
            if t.tile == "JY":
                cv2.fillPoly(jolys, [np.round(t.quad).astype(np.int32)], 1)
        grown = cv2.dilate(jolys, np.ones((9, 9), np.uint8)).astype(bool)
        # what changed lies on the Jolys (JPEG's blocks reach a little way round them)
        assert not (differs & ~grown).any()
        changed += int(differs.any())
    assert changed >= 2


def test_a_scene_draws_the_jolys_asked_for_and_only_a_known_version() -> None:
    counts = {share: sum(t.tile == "JY" for seed in range(4)
                         for t in tile_scene(np.random.default_rng(seed), (200, 150), (30.0, 40.0), "scattered",
                                             sets=1, fonts=BUNDLED, surface="plain", joly_share=share)[1])
              for share in (0.0, 0.5)}
    assert counts[0.5] > counts[0.0] + 5
    with pytest.raises(ValueError, match="jolys must be one of v1, v2, v3, held-out, not 'v4'"):
        tile_scene(np.random.default_rng(0), (64, 48), fonts=BUNDLED, jolys="v4")


def test_the_sets_draw_each_versions_designs() -> None:
    for version, designs in JOLYS.items():
        drawn = [random_set(np.random.default_rng(seed), None, None, BUNDLED, version).joly_face
                 for seed in range(60)]
        emblems = [d for d in drawn if d.startswith("emblem-")]
        named = set(drawn) - set(emblems)
        assert named <= set(designs) and len(named) >= min(len(designs), 4), version
        # v3 gives about half the sets an emblem of their own, the other versions none
        assert (15 <= len(emblems) <= 45 and len(set(emblems)) == len(emblems)) if version == "v3" else not emblems


def test_an_emblem_is_the_same_picture_from_the_same_seed_and_another_from_another() -> None:
    tset = random_set(np.random.default_rng(3), None, None, BUNDLED)

    def face(design: str) -> np.ndarray:
        return draw_face("JY", replace(tset, joly_design=design), 84, 120, np.random.default_rng(1))[0]

    assert np.array_equal(face("emblem-41"), face("emblem-41"))
    assert not np.array_equal(face("emblem-41"), face("emblem-42"))
    with pytest.raises(ValueError, match="unknown Joly design 'sun'"):
        face("sun")


def test_the_benchmark_counts_a_joly_read_where_it_lies() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from bench_tiles_learnt import jolys_read

    tiles = next(tiles for seed in range(20) for _, tiles, _ in [_scene("held-out", seed)]
                 if sum(t.tile == "JY" for t in tiles) >= 2)
    jolys = [t for t in tiles if t.tile == "JY"]

    def at(t, name: str) -> DetectedCard:  # type: ignore[no-untyped-def]
        x0, y0, x1, y1 = t.box
        return DetectedCard(name, (x0, y0, x1, y1), 0.9)

    right = TableReading((at(jolys[0], "JY"), at(jolys[1], "R5")), ((0,), (1,)))
    assert jolys_read(tiles, right) == (1, len(jolys))
    # a Joly read somewhere else is no Joly read where it lies
    elsewhere = TableReading((DetectedCard("JY", (-50.0, -50.0, -40.0, -40.0), 0.9),), ((0,),))
    assert jolys_read(tiles, elsewhere) == (0, len(jolys))
