"""Deck designs for drawn scenes (``vision/deck_styles.py``) and the slanted camera of
``vision.synth.tilted``: real pixels drawn with the installed fonts, checked for where the
ink and the index boxes fall."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision.deck_styles import (
    HELD_OUT_FAMILIES,
    KINDS,
    any_deck,
    deck_drawer,
    font_family,
    fonts_for,
    random_style,
    styled_face,
)
from vision.synth import CARD_H, CARD_W, scene, tilted, warped


def test_font_families_are_read_from_file_names() -> None:
    assert font_family(Path("DejaVuSans-Bold.ttf")) == "DejaVuSans"
    assert font_family(Path("DejaVuSerifCondensed-Italic.ttf")) == "DejaVuSerif"
    assert font_family(Path("P052-Roman.otf")) == "P052"
    assert font_family(Path("FreeSerifBold.ttf")) == "FreeSerif"
    # a name may end in several cuts, and a family's own name may end like a cut
    assert font_family(Path("FreeSerifBoldItalic.ttf")) == "FreeSerif"
    assert font_family(Path("FreeMonoBoldOblique.ttf")) == "FreeMono"
    assert font_family(Path("NimbusRoman-Regular.otf")) == "NimbusRoman"
    assert font_family(Path("LinLibertine_RB.otf")) == "LinLibertine"
    assert font_family(Path("Courier Prime Bold Italic.otf")) == "CourierPrime"
    assert font_family(Path("VeranaSansDemi-Oblique.otf")) == "VeranaSans"


def test_a_design_takes_its_typeface_from_the_fonts_it_is_given() -> None:
    given = fonts_for(False)[:1]
    assert given, "no lettering font installed (fonts-dejavu-core)"
    rng = np.random.default_rng(2)
    fonts = {random_style(rng, held_out=False, fonts=given).font for _ in range(60)}
    assert fonts == {given[0], None}  # the given font, or OpenCV's Hershey lettering
    draw = any_deck(False, share=1.0, fonts=given)
    assert draw("QH", rng).image.shape == (CARD_H, CARD_W, 3)


def test_held_out_typefaces_never_reach_the_training_designs() -> None:
    training = {font_family(p) for p in fonts_for(False)}
    assert training, "no lettering font installed (fonts-dejavu-core)"
    assert not training & HELD_OUT_FAMILIES
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert random_style(rng, held_out=False).family not in HELD_OUT_FAMILIES


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_design_draws_every_card_with_its_index_boxes_inside(kind: str) -> None:
    rng = np.random.default_rng(3)
    for card in ("10H", "QS", "7C", "AD", "PJ"):
        style = random_style(rng, None, kind)
        face = styled_face(card, style, rng)
        assert face.image.shape == (CARD_H, CARD_W, 3)
        assert len(face.indices) == style.corners
        for x0, y0, x1, y1 in face.indices:
            assert 0 <= x0 < x1 <= CARD_W and 0 <= y0 < y1 <= CARD_H
            patch = face.image[round(y0):round(y1), round(x0):round(x1)].astype(int)
            # ink differs from the paper inside every index box
            assert np.abs(patch - np.array(style.paper)).max() > 60


def test_a_light_on_dark_deck_prints_light_ink_on_dark_card() -> None:
    rng = np.random.default_rng(5)
    style = random_style(rng, None, "light-on-dark")
    face = styled_face("7S", style, rng)
    grey = face.image.mean(axis=2)
    x0, y0, x1, y1 = (round(v) for v in face.indices[0])
    assert np.median(grey) < 90  # the card is dark...
    assert grey[y0:y1, x0:x1].max() > 170  # ...its index light


def test_a_four_corner_deck_repeats_the_index_in_every_corner() -> None:
    rng = np.random.default_rng(8)
    style = replace(random_style(rng, None, "standard"), corners=4)
    face = styled_face("9D", style, rng)
    (a, b, c, d) = face.indices
    crop = [face.image[round(y0):round(y1), round(x0):round(x1)] for x0, y0, x1, y1 in (a, b, c, d)]
    assert np.array_equal(crop[0], crop[2])  # top right: as printed top left
    assert np.array_equal(crop[1], crop[0][::-1, ::-1])  # bottom right: turned half round
    assert b[0] > CARD_W / 2 and b[1] > CARD_H / 2  # bottom right
    assert c[0] > CARD_W / 2 > c[3]  # top right (its box ends above the middle)
    assert d[2] < CARD_W / 2 < d[1] + CARD_H / 2 and d[1] > CARD_H / 2  # bottom left


def test_a_table_drawer_mixes_a_few_designs_and_the_training_drawer_many() -> None:
    rng = np.random.default_rng(2)
    draw = deck_drawer(rng, decks=2, held_out=True)
    papers = {tuple(draw("5C", rng).image[CARD_H // 2, 3]) for _ in range(30)}
    assert 1 <= len(papers) <= 2
    mixed = any_deck(False)
    assert len({tuple(mixed("5C", rng).image[CARD_H // 2, 3]) for _ in range(30)}) > 5


def test_a_slanted_view_moves_the_index_boxes_with_the_cards() -> None:
    rng = np.random.default_rng(4)
    image, cards = scene(rng, (640, 480), [["5H", "6H", "7H"], ["KS"]], scale=0.5, per_row=1)
    assert len({round(float(c.quad[:, 1].mean()) / 100) for c in cards}) >= 2  # two rows
    seen, moved = tilted(image, cards, rng, 0.1)
    assert seen.shape == image.shape and not np.array_equal(seen, image)
    assert [c.card for c in moved] == [c.card for c in cards]
    assert len(moved[0].visible_indices) == len(cards[0].visible_indices)
    for before, after in zip(cards, moved, strict=True):
        shift = np.abs(after.quad - before.quad).max()
        assert 0 < shift <= 0.1 * 640 * 1.5


def test_a_view_that_pushes_cards_out_of_the_photo_no_longer_asks_for_their_cut_indices() -> None:
    rng = np.random.default_rng(4)
    image, cards = scene(rng, (640, 480), [["5H", "6H", "7H"], ["KS"]], scale=0.5, per_row=1)
    push = np.array([[1.0, 0.0, 300.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])  # 300 px to the right
    _, kept = warped(image, cards, push)
    _, cut = warped(image, cards, push, cut=True)
    for before, after in zip(cards, kept, strict=True):  # without ``cut``, every box moved along
        assert np.allclose(np.array(after.visible_indices).reshape(-1, 4),
                           np.array(before.visible_indices).reshape(-1, 4) + [300, 0, 300, 0], atol=1e-3)
    inside = [b for c in cut for b in c.visible_indices]
    outside = [b for c in kept for b in c.visible_indices if b not in inside]
    assert inside and outside  # some indices left the photo, and some stayed
    assert all(0 <= b[0] and b[2] <= 640 for b in inside)
    assert all(b[2] > 640 for b in outside)


def test_hands_and_objects_over_the_cards_hide_the_indices_they_cover() -> None:
    groups = [["5H", "6H", "7H", "8H"], ["KS", "KD", "KC"]]
    covered = 0
    for seed in range(6):
        _, clear = scene(np.random.default_rng(seed), (640, 480), groups, scale=0.6)
        _, cards = scene(np.random.default_rng(seed), (640, 480), groups, scale=0.6, occluders=4)
        assert [c.card for c in cards] == [c.card for c in clear]
        for before, after in zip(clear, cards, strict=True):
            assert set(after.visible_indices) <= set(before.visible_indices)
        covered += sum(len(b.visible_indices) - len(a.visible_indices) for a, b in zip(cards, clear, strict=True))
    assert covered > 0


def test_a_table_photo_fills_the_background() -> None:
    photo = np.zeros((300, 400, 3), np.uint8)
    photo[:, :, 1] = np.linspace(0, 255, 400, dtype=np.uint8)[None, :]
    image, cards = scene(np.random.default_rng(1), (320, 240), [["AS"]], background=photo, scale=0.3)
    assert image.shape == (240, 320, 3)
    assert image[0, :, 1].std() > 20 and image[:, :, 0].max() >= 200  # the photo, and the card


def test_fonts_for_other_scripts_never_draw_a_deck() -> None:
    # the kit installs Noto for the screen's names; most of its files hold another script and
    # draw the same missing-glyph box for every rank, which must never become a training face
    from vision.deck_styles import draws_ranks, font_files

    noto = Path("/usr/share/fonts/truetype/noto")
    assert draws_ranks(Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
    assert not draws_ranks(noto / "NotoSansDevanagari-Regular.ttf")
    assert not draws_ranks(Path("/nonexistent/font.ttf"))
    files = font_files()
    assert files and noto / "NotoSansDevanagari-Regular.ttf" not in files
