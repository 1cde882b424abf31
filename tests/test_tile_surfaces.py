"""The table surfaces tile scenes are drawn on (``vision.tile_synth.table_texture``): each
version draws its own kinds, the held-out ones never at random, and each kind has the
detail it is meant to have; the shipped tile reader, which learnt the busy ones, reads
tables on the held-out ones."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pygame
import pytest

from vision.tile_synth import HELD_OUT_SURFACES, SURFACES, table_texture, tile_scene

BUSY = ("speckle", "granite", "carpet", "print", "grain", "terrazzo")
#: pygame's bundled font, so that the scenes draw on a machine without font packages
BUNDLED = (Path(pygame.__file__).parent / pygame.font.get_default_font(),)


def _kinds_drawn(version: str, n: int = 400) -> Counter[str]:
    names = [name for name, _ in SURFACES[version]]
    rng = np.random.default_rng(5)
    return Counter(str(rng.choice(names, p=[c for _, c in SURFACES[version]])) for _ in range(n))


def test_each_version_draws_known_kinds_and_never_a_held_out_one() -> None:
    for version, kinds in SURFACES.items():
        assert abs(sum(c for _, c in kinds) - 1.0) < 1e-9, version
        assert not {name for name, _ in kinds} & set(HELD_OUT_SURFACES)
    assert {"speckle", "granite", "carpet"} <= set(_kinds_drawn("v2"))
    assert not {"speckle", "granite", "carpet"} & set(_kinds_drawn("v1"))
    assert "print" in _kinds_drawn("v3") and "print" not in _kinds_drawn("v2")


def test_a_printed_cloth_is_a_pale_ground_under_a_print_that_repeats() -> None:
    cloth = table_texture(240, 320, np.random.default_rng(4), "print")
    grey = cloth.mean(axis=2)
    # the ground (the commonest lightness) is pale, and coloured motifs lie on it
    ground = float(np.median(grey))
    assert ground >= 150.0
    assert 0.01 <= float((np.abs(grey - ground) > 30).mean()) <= 0.8
    # the print repeats: some shift of a block's width across (16-90 pixels) maps the cloth
    # onto itself far better than a shift of a few pixels does
    def mismatch(dx: int) -> float:
        return float(np.abs(cloth[:, dx:] - cloth[:, :-dx]).mean())

    assert min(mismatch(dx) for dx in range(16, 91)) < 0.2 * mismatch(3)


@pytest.mark.parametrize("kind", ["wood", "cloth", "felt", "floor", "plain", *BUSY])
def test_every_kind_is_a_float_image_of_the_size_asked(kind: str) -> None:
    img = table_texture(90, 130, np.random.default_rng(1), kind)
    assert img.shape == (90, 130, 3) and img.dtype == np.float32
    assert 0.0 <= float(img.min()) and float(img.max()) <= 255.0


@pytest.mark.parametrize("kind", BUSY)
def test_busy_surfaces_vary_from_pixel_to_pixel_where_plain_ones_do_not(kind: str) -> None:
    def fine_detail(img: np.ndarray) -> float:
        grey = img.mean(axis=2)
        return float(np.abs(np.diff(grey, axis=1)).mean())

    rng = np.random.default_rng(2)
    assert fine_detail(table_texture(120, 160, rng, kind)) > 2 * fine_detail(table_texture(120, 160, rng, "plain")) + 1.0


def test_an_unknown_version_or_surface_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown surfaces 'v9'"):
        table_texture(10, 10, np.random.default_rng(0), surfaces="v9")
    with pytest.raises(ValueError, match="unknown table surface 'terazzo'"):
        table_texture(10, 10, np.random.default_rng(0), "terazzo")


def test_a_scene_lies_on_the_surface_asked_for() -> None:
    plain_rng, grain_rng = np.random.default_rng(3), np.random.default_rng(3)
    plain, tiles = tile_scene(plain_rng, (320, 240), (40.0, 60.0), "rows", None, None, 0.0, sets=1,
                              fonts=BUNDLED, surface="plain")
    grainy, same_tiles = tile_scene(grain_rng, (320, 240), (40.0, 60.0), "rows", None, None, 0.0, sets=1,
                                     fonts=BUNDLED, surface="grain")
    assert [t.tile for t in tiles] == [t.tile for t in same_tiles]
    assert not np.array_equal(plain, grainy)


@pytest.mark.parametrize("surface", HELD_OUT_SURFACES)
@pytest.mark.parametrize("seed", [0, 1])
def test_the_shipped_reader_does_not_take_a_held_out_busy_surface_for_tiles(surface: str, seed: int) -> None:
    # the reader trained without busy surfaces read these tables at a precision of 0.13-0.66
    from vision.tile_reader import DEFAULT_TILE_WEIGHTS, read_tile_table

    image, tiles = tile_scene(np.random.default_rng([seed, 11]), (960, 720), (45.0, 120.0), "rows",
                              None, None, None, fonts=BUNDLED, surface=surface)
    got = Counter(c.card for c in read_tile_table(image, DEFAULT_TILE_WEIGHTS).cards)
    want = Counter(t.tile for t in tiles)
    right = sum((got & want).values())
    assert right >= 0.9 * sum(got.values()), (surface, seed, got - want)
    assert right >= 0.9 * len(tiles), (surface, seed, want - got)


def test_the_tile_stage_draws_the_busy_surfaces_the_shipped_reader_learnt_on() -> None:
    from vision.train.__main__ import parser, stages  # imports without the training extra

    tiles = dict(stages(parser().parse_args([])))["tiles"]
    assert tiles[tiles.index("--surfaces") + 1] == "v2"


def test_the_card_scenes_can_force_light_on_dark_decks_and_draw_nothing_for_it_at_zero() -> None:
    """``dark_decks`` (``train_tiles --dark-decks``): a deck of light ink on dark card among the
    tiles, whose pips the reader must learn are not tiles; at 0 the scenes are as shipped."""
    def draw(dark: float | None, seed: int) -> tuple[np.ndarray, np.random.Generator]:
        rng = np.random.default_rng(seed)
        kw = {} if dark is None else {"dark_decks": dark}
        image = tile_scene(rng, (320, 240), (40.0, 60.0), "scattered", None, None, 0.0, fonts=BUNDLED,
                           card_fonts=BUNDLED, cards=1.0, **kw)[0]
        return image, rng

    for seed in range(3):
        (a, ra), (b, rb) = draw(None, seed), draw(0.0, seed)
        assert np.array_equal(a, b) and ra.bit_generator.state == rb.bit_generator.state
    plain = [draw(0.0, seed)[0] for seed in range(6)]
    dark = [draw(1.0, seed)[0] for seed in range(6)]
    # cards forced to dark card stock pull the scene's darkest tenth down
    assert np.mean([np.percentile(d, 10) for d in dark]) < np.mean([np.percentile(p, 10) for p in plain]) - 5


def test_strong_casts_are_drawn_only_when_asked_and_scenes_are_as_shipped_without() -> None:
    """``casts`` (``train_tiles --casts``): ``v2`` puts a strong coloured light on half the
    scenes; ``v1`` (the default) draws nothing for it, so the shipped stage's scenes stay."""
    def draw(casts: str | None, seed: int) -> tuple[np.ndarray, np.random.Generator]:
        rng = np.random.default_rng(seed)
        kw = {} if casts is None else {"casts": casts}
        image = tile_scene(rng, (160, 120), (30.0, 40.0), "rows", None, None, 0.0, sets=1, fonts=BUNDLED,
                           surface="plain", **kw)[0]
        return image, rng

    def warmth(image: np.ndarray) -> float:  # red over blue, on a log scale
        b, _, r = (float(image[..., c].mean()) + 1.0 for c in range(3))
        return abs(float(np.log(r / b)))

    for seed in range(3):
        (a, ra), (b, rb) = draw(None, seed), draw("v1", seed)
        assert np.array_equal(a, b) and ra.bit_generator.state == rb.bit_generator.state
    plain = [warmth(draw("v1", seed)[0]) for seed in range(12)]
    cast = [warmth(draw("v2", seed)[0]) for seed in range(12)]
    assert max(cast) > max(plain) + 0.2
    with pytest.raises(ValueError, match="casts must be one of v1, v2, not 'v3'"):
        tile_scene(np.random.default_rng(0), (64, 48), fonts=BUNDLED, casts="v3")


def test_the_recipe_trains_the_tile_reader_on_under_strong_casts_in_place() -> None:
    from vision.train.__main__ import STAGES, parser, stages  # imports without the training extra

    planned = dict(stages(parser().parse_args(["--seed", "4", "--out", "w"])))
    assert list(STAGES).index("tiles-light") == list(STAGES).index("tiles") + 1
    light, base = planned["tiles-light"], planned["tiles"]
    out = base[base.index("--out") + 1]
    # trained on from the tile stage's own output, and written where the reader looks for it
    assert light[light.index("--init-onnx") + 1] == light[light.index("--out") + 1] == out
    assert light[light.index("--casts") + 1] == "v2" and "--casts" not in base
    # its scenes from a seed of their own, not the tile stage's first ones again
    assert light[light.index("--seed") + 1] == "5" and base[base.index("--seed") + 1] == "4"


def test_a_camera_looking_straight_down_sees_the_table_as_drawn_and_a_tilted_one_in_perspective() -> None:
    from vision.synth import camera_view

    def seen(m: np.ndarray, x: float, y: float) -> np.ndarray:
        p = m @ np.array([x, y, 1.0])
        return p[:2] / p[2]

    assert np.allclose(camera_view(640, 480, 0.0, 0.0), np.eye(3), atol=1e-9)
    tilted = camera_view(640, 480, np.radians(40), 0.0)
    assert np.allclose(seen(tilted, 320, 240), (320, 240))  # the table's middle stays the photo's
    # a tile's width near the camera against the same width across the table's far side
    near = np.linalg.norm(seen(tilted, 340, 20) - seen(tilted, 300, 20))
    far = np.linalg.norm(seen(tilted, 340, 460) - seen(tilted, 300, 460))
    assert near > 1.5 * far
    # turned toward another side, the same tilt shrinks another edge
    sideways = camera_view(640, 480, np.radians(40), np.pi / 2)
    assert np.linalg.norm(seen(sideways, 20, 260) - seen(sideways, 20, 220)) > 1.5 * np.linalg.norm(
        seen(sideways, 620, 260) - seen(sideways, 620, 220))


def test_a_camera_slant_keeps_the_tiles_it_lists_where_they_are_seen() -> None:
    rng = np.random.default_rng(4)
    image, tiles = tile_scene(rng, (320, 240), (30.0, 40.0), "rows", None, None, 0.5, sets=1, fonts=BUNDLED,
                              surface="plain", perspective="camera")
    assert image.shape == (240, 320, 3) and tiles
    faces = np.zeros((240, 320), np.uint8)
    for t in tiles:
        assert 0 <= t.centre[0] < 320 and 0 <= t.centre[1] < 240
        cv2.fillPoly(faces, [t.quad.astype(np.int32)], 1)
    # the listed faces lie where the photo shows light plastic, not the table around them
    grey = image.mean(axis=2)
    assert grey[faces > 0].mean() > grey[faces == 0].mean() + 40
    with pytest.raises(ValueError, match="perspective must be one of corners, camera, not 'fisheye'"):
        tile_scene(np.random.default_rng(0), (64, 48), fonts=BUNDLED, perspective="fisheye")


def test_camera_slants_are_drawn_only_when_asked_and_scenes_are_as_shipped_without() -> None:
    """``slants`` (``train_tiles --slants``): ``v2`` sees half the slanted scenes by a tilted
    camera; ``v1`` (the default) draws nothing for it, and a slant given is drawn as given."""
    def draw(slants: str | None, seed: int, slant: float | None = None) -> tuple[np.ndarray, np.random.Generator]:
        rng = np.random.default_rng(seed)
        kw = {} if slants is None else {"slants": slants}
        image = tile_scene(rng, (160, 120), (30.0, 40.0), "rows", None, None, slant, sets=1, fonts=BUNDLED,
                           surface="plain", **kw)[0]
        return image, rng

    for seed in range(3):
        (a, ra), (b, rb) = draw(None, seed), draw("v1", seed)
        assert np.array_equal(a, b) and ra.bit_generator.state == rb.bit_generator.state
        (c, rc), (d, rd) = draw("v1", seed, 0.2), draw("v2", seed, 0.2)
        assert np.array_equal(c, d) and rc.bit_generator.state == rd.bit_generator.state
    assert any(not np.array_equal(draw("v1", seed)[0], draw("v2", seed)[0]) for seed in range(12))
    with pytest.raises(ValueError, match="slants must be one of v1, v2, not 'v0'"):
        tile_scene(np.random.default_rng(0), (64, 48), fonts=BUNDLED, slants="v0")
