"""Benchmark: the best arrangement of Indian rummy hands, worst cases first.

The worst hands constructed for the search (many wild cards, doubled and overlapping runs in
two packs, aces at both ends), at the largest hand it takes (13 dealt plus a draw), each timed
and its peak memory measured; the work counters are set beside the ceilings proved in
``engine/arrange.py``. Then seeded random 13-card hands: median and 99th percentile. Usage:
    .venv/bin/python bench/bench_arrange.py [--hands 2000] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc

from engine.arrange import MAX_ITEMS, Credit, best_arrangement
from engine.cards import Card, full_deck
from engine.families.indian.variants import IndianRules, card_points, wild_test

#: (what makes it hard, cut card, hand): every one at the largest size the search takes.
WORST = [
    ("ten wild cards: both printed jokers, all eight of the cut rank",
     "5S", "PJ PJ 5S 5S 5H 5H 5D 5D 5C 5C 7H 8S 9D 10C"),
    ("two packs of one run, doubled card for card", "6S", "3H 3H 4H 4H 5H 5H 6H 6H 7H 7H 8H 8H 9H 9H"),
    ("a long run with wild cards of its own suit in it", "3H", "PJ 3D 3H 3H 3S 3S 4H 5H 6H 7H 8H 9H 10H JH"),
    ("overlapping runs in two suits and sets across them", "4S", "PJ 4C 4D 4H 4H 4S 6S 7S 7S 8S 9S JC JD JS"),
    ("wild cards that can stand in their own runs", "5S", "PJ PJ 5S 5H 5H 5D 5C 5C 4H 6H 7H 3H 6S 7S"),
    ("aces at both ends of runs, doubled, with jokers", "2S", "AH AH 2H 2H 3H QH KH KH PJ PJ AS AS AD AD"),
    ("printed joker cut: aces wild, doubled runs", "PJ", "AH AH AS AS PJ PJ 2C 2C 3C 3C 4C 4C 5C 5C"),
    ("sets in four suits over doubled ranks", "9D", "7S 7H 7D 7C 8S 8H 8D 8C 7S 7H 8S 8H PJ 9D"),
]


def _run(hand: list[Card], cut: Card | None, rules: object, stats: dict[str, int] | None = None) -> float:
    is_wild = wild_test(cut)
    t0 = time.perf_counter()
    best_arrangement(hand, rules, is_wild, lambda c: card_points(c, is_wild), Credit(2, 1), 80,  # type: ignore[arg-type]
                     stats=stats)
    return (time.perf_counter() - t0) * 1000


def worst_cases() -> None:
    rules = IndianRules().meld_rules()
    print(f"worst constructed hands, {MAX_ITEMS} cards each (ceilings for 14 cards: 16,384 states, "
          "3,914,748 children, 82,395,063 pairs)")
    print(f"{'ms':>8} {'peak MiB':>9} {'states':>7} {'children':>9} {'pairs':>8}  hand")
    for what, cut_text, text in WORST:
        hand = [Card.parse(t) for t in text.split()]
        assert len(hand) == MAX_ITEMS
        cut = Card.parse(cut_text)
        stats: dict[str, int] = {}
        tracemalloc.start()
        ms = _run(hand, cut, rules, stats)
        peak = tracemalloc.get_traced_memory()[1] / 2 ** 20
        tracemalloc.stop()
        ms = min(ms, _run(hand, cut, rules))  # timed again without the tracer's overhead
        print(f"{ms:8.1f} {peak:9.2f} {stats['states']:7d} {stats['children']:9d} {stats['pairs']:8d}  "
              f"{what} (cut {cut_text})")


def seeded_hands(n: int, seed: int) -> list[tuple[list[Card], Card]]:
    """Random hands from two packs with two printed jokers; at most 4 wild cards per hand."""
    rng = random.Random(seed)
    deck = full_deck(2, 2)
    out: list[tuple[list[Card], Card]] = []
    while len(out) < n:
        cut = rng.choice(deck)
        hand = rng.sample(deck, 13)
        is_wild = wild_test(cut)
        if sum(1 for c in hand if is_wild(c)) <= 4:
            out.append((hand, cut))
    return out


def random_hands(n: int, seed: int) -> None:
    rules = IndianRules().meld_rules()
    times = []
    jokers = []
    for hand, cut in seeded_hands(n, seed):
        is_wild = wild_test(cut)
        jokers.append(sum(1 for c in hand if is_wild(c)))
        times.append(_run(hand, cut, rules))
    times.sort()
    p99 = times[min(len(times) - 1, int(round(0.99 * len(times))) - 1)]
    print(f"best arrangement, {len(times)} seeded 13-card hands (seed {seed}), "
          f"wild cards per hand 0-{max(jokers)} (mean {statistics.mean(jokers):.2f})")
    print(f"median {statistics.median(times):.3f} ms   p99 {p99:.3f} ms   max {times[-1]:.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    worst_cases()
    random_hands(args.hands, args.seed)


if __name__ == "__main__":
    main()
