"""Index crops in the other lightness (``vision.lightness.lightness_negative``): light ink
on a dark card with red ink kept red, and no change to the shipped runs' data."""

from __future__ import annotations

import numpy as np

from vision.lightness import lightness_negative
from vision.train.crops import index_crops
from vision.train.dataset import Photo, _photometric, sample


def test_dark_ink_on_white_turns_light_on_black_and_red_stays_red() -> None:
    card = np.full((40, 40, 3), 245, np.uint8)
    card[5:15, 5:15] = (20, 20, 20)  # black ink
    card[20:30, 20:30] = (30, 30, 200)  # red ink (BGR)
    out = lightness_negative(card).astype(int)
    assert out[0, 0].max() < 40  # the paper is now dark
    assert out[10, 10].min() > 200  # the black ink is now light
    b, g, r = out[25, 25]
    assert r > g + 60 and r > b + 60  # the red ink is still red, not cyan


def test_a_share_of_zero_draws_nothing_and_changes_nothing() -> None:
    crop = np.random.default_rng(1).integers(0, 256, (48, 32, 3)).astype(np.uint8)
    plain, zero = np.random.default_rng(7), np.random.default_rng(7)
    assert np.array_equal(_photometric(crop, plain), _photometric(crop, zero, 0.0))
    assert plain.bit_generator.state == zero.bit_generator.state


def test_index_crops_turn_a_share_over() -> None:
    image = np.full((200, 200, 3), 240, np.uint8)
    image[82:118, 98:102] = 15  # a thin stroke: the crop is mostly paper
    photo = Photo(name="one.png", image=image, indices=[(100.0, 100.0, 24.0, 44.0, 3)], cards=[],
                  backs=[], has_indices=True, has_cards=False)
    turned, kept = (np.mean([index_crops([photo], np.random.default_rng(s), per_index=4, background_per_photo=0,
                                         lightness_negatives=share)[0].mean() for s in range(8)])
                    for share in (1.0, 0.0))
    # pale paper with a dark stroke comes out dark with a light one, through the same light and camera
    assert turned < kept - 80


def _one_index_photo() -> Photo:
    image = np.full((300, 300, 3), 235, np.uint8)
    image[130:170, 148:152] = 15
    return Photo(name="one.png", image=image, indices=[(150.0, 150.0, 24.0, 44.0, 3)], cards=[],
                 backs=[], has_indices=True, has_cards=False)


def test_detector_crops_at_share_zero_are_as_before() -> None:
    photo = _one_index_photo()
    plain, zero = np.random.default_rng(5), np.random.default_rng(5)
    a, ta = sample(photo, plain, 96)
    b, tb = sample(photo, zero, 96, 0.0)
    assert np.array_equal(a, b)
    assert all(np.array_equal(ta[k], tb[k]) for k in ta)
    assert plain.bit_generator.state == zero.bit_generator.state


def test_detector_crops_turn_a_share_over_and_keep_their_targets() -> None:
    photo = _one_index_photo()
    turned, kept = ([sample(photo, np.random.default_rng(s), 96, share) for s in range(8)]
                    for share in (1.0, 0.0))
    assert np.mean([c.mean() for c, _ in turned]) < np.mean([c.mean() for c, _ in kept]) - 60
    for (_, t1), (_, t0) in zip(turned, kept, strict=True):
        assert np.array_equal(t1["ih"], t0["ih"])  # where the index is does not change


def test_the_index_stage_can_draw_more_printed_jokers() -> None:
    from vision.labels import INDEX_CLASSES
    from vision.synth import JOKERS, draw_face
    from vision.train.dataset import synthetic_photos

    joker = INDEX_CLASSES.index("PJ")

    def share(jokers: float) -> float:
        photos = synthetic_photos(6, 3, draw_face, jokers=jokers)
        labels = [k for p in photos for *_, k in p.indices]
        return sum(k == joker for k in labels) / len(labels)

    few, many = share(JOKERS), share(0.5)
    assert many > 0.3 and many > few + 0.2
