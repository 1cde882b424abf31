"""Training batches drawn from seeds of their own, by worker processes when asked.

A trainer that draws each item of a batch from a generator seeded by (run seed, step, place
in the batch) draws the same batches however many processes share the work, and a run that
stops and resumes draws the same batches as one that did not. ``SeededBatches`` hands out
step ``k``'s items, drawn by ``workers`` forked processes (this one when 0), which draw the
next two batches while the network learns from this one.

The processes are forked when it is made: make it before the network moves to a GPU, and
leave in module globals whatever the drawing function needs (the forked processes share
it). They ignore Ctrl-C, which the terminal sends to the whole process group, so a sitting
ends in the trainer alone.
"""

from __future__ import annotations

import argparse
import multiprocessing
import signal
from collections.abc import Callable
from multiprocessing.pool import AsyncResult
from typing import Generic, TypeVar

Item = TypeVar("Item")
#: (run seed, step, place in the batch)
Seed = tuple[int, int, int]
#: Batches drawn ahead of the one the network learns from.
AHEAD = 2


def add_arguments(ap: argparse.ArgumentParser, flag: str, what: str) -> None:
    """A trainer's options for seeded batches: ``flag`` (``--step-seeds``, ``--scene-seeds``)
    draws each ``what`` (crops, scenes) from a seed of its own, ``--workers`` draws them in
    that many processes, ``--device`` says where the network runs."""
    ap.add_argument(flag, action="store_true",
                    help=f"draw each of the {what} from a seed of its own (run seed, step, place in "
                         "the batch), so that --workers can draw them in parallel")
    ap.add_argument("--workers", type=int, default=0,
                    help=f"processes drawing the {what} with {flag} (0: this one); the batches "
                         "are the same whatever the number")
    ap.add_argument("--device", default="cpu", help="where the network runs: cpu, or cuda")


class SeededBatches(Generic[Item]):
    """Step ``k``'s batch: ``draw((seed, k, i))`` for each place ``i`` of ``batch``."""

    def __init__(self, draw: Callable[[Seed], Item], seed: int, batch: int, steps: int,
                 workers: int = 0) -> None:
        self.draw, self.seed, self.batch, self.steps = draw, seed, batch, steps
        self.pool = multiprocessing.get_context("fork").Pool(
            workers, initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN)) if workers else None
        self.ahead: dict[int, AsyncResult[list[Item]]] = {}

    def seeds(self, step: int) -> list[Seed]:
        return [(self.seed, step, i) for i in range(self.batch)]

    def __call__(self, step: int) -> list[Item]:
        if self.pool is None:
            return [self.draw(s) for s in self.seeds(step)]
        for k in range(step, min(step + 1 + AHEAD, self.steps)):
            if k not in self.ahead:
                self.ahead[k] = self.pool.map_async(self.draw, self.seeds(k))
        got = self.ahead.pop(step) if step in self.ahead else self.pool.map_async(self.draw, self.seeds(step))
        return got.get()

    def close(self) -> None:
        """Stop the worker processes (the batches drawn ahead are dropped)."""
        if self.pool is not None:
            self.pool.terminate()
            self.pool = None
        self.ahead.clear()
