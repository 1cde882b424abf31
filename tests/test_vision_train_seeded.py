"""Training batches drawn from seeds of their own (``vision/train/seeded.py``): the same
batches whatever the number of worker processes, drawn ahead, and in any order of steps."""

from __future__ import annotations

import os

import numpy as np

from vision.train.seeded import AHEAD, Seed, SeededBatches


def _draw(seed: Seed) -> tuple[Seed, float, int]:
    """What a trainer's draw gives: a value of the item's own generator, and the process."""
    return seed, float(np.random.default_rng(list(seed)).random()), os.getpid()


def test_any_number_of_workers_draws_the_same_batches_in_order() -> None:
    alone = SeededBatches(_draw, seed=7, batch=5, steps=6)
    shared = SeededBatches(_draw, seed=7, batch=5, steps=6, workers=2)
    try:
        for step in range(6):
            mine, theirs = alone(step), shared(step)
            assert [s for s, _, _ in mine] == [(7, step, i) for i in range(5)]
            assert [(s, v) for s, v, _ in mine] == [(s, v) for s, v, _ in theirs]
            assert {p for _, _, p in mine} == {os.getpid()}
            assert os.getpid() not in {p for _, _, p in theirs}  # drawn by the workers
            # the next batches are under way while this one is used, never past the budget
            assert set(shared.ahead) == set(range(step + 1, min(step + 1 + AHEAD, 6)))
    finally:
        shared.close()
    assert shared.pool is None and not shared.ahead


def test_a_resumed_run_draws_from_where_it_stopped() -> None:
    """A sitting that resumes at step 3 draws step 3's batch, not the next one drawn ahead
    of a step it never reached."""
    first = SeededBatches(_draw, seed=1, batch=3, steps=10, workers=2)
    try:
        first(0)
        first(1)
    finally:
        first.close()
    again = SeededBatches(_draw, seed=1, batch=3, steps=10, workers=2)
    try:
        assert [(s, v) for s, v, _ in again(3)] == [(s, v) for s, v, _ in SeededBatches(_draw, 1, 3, 10)(3)]
    finally:
        again.close()
