"""Benchmark: best arrangement of seeded random 13-card Indian rummy hands (up to 4 jokers).

Prints the median and 99th percentile time per hand. Usage:
    .venv/bin/python bench/bench_arrange.py [--hands 2000] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.arrange import Credit, best_arrangement
from engine.cards import Card, full_deck
from engine.families.indian.variants import IndianRules, card_points, wild_test


def seeded_hands(n: int, seed: int) -> list[tuple[list[Card], Card]]:
    """Random hands from two packs with two printed jokers; at most 4 wild cards per hand."""
    rng = random.Random(seed)
    deck = full_deck(2, 2)
    out = []
    while len(out) < n:
        cut = rng.choice(deck)
        hand = rng.sample(deck, 13)
        is_wild = wild_test(cut)
        if sum(1 for c in hand if is_wild(c)) <= 4:
            out.append((hand, cut))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rules = IndianRules().meld_rules()
    times = []
    jokers = []
    for hand, cut in seeded_hands(args.hands, args.seed):
        is_wild = wild_test(cut)
        jokers.append(sum(1 for c in hand if is_wild(c)))
        t0 = time.perf_counter()
        best_arrangement(hand, rules, is_wild, lambda c, w=is_wild: card_points(c, w), Credit(2, 1), 80)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    p99 = times[min(len(times) - 1, int(round(0.99 * len(times))) - 1)]
    print(f"best arrangement, {len(times)} seeded 13-card hands (seed {args.seed}), "
          f"wild cards per hand 0-{max(jokers)} (mean {statistics.mean(jokers):.2f})")
    print(f"median {statistics.median(times):.3f} ms   p99 {p99:.3f} ms   max {times[-1]:.3f} ms")


if __name__ == "__main__":
    main()
