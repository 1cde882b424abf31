"""Benchmark: checking one Open Rummy turn on a late-game 4-deck table (about 150 cards laid down).

Plays seeded random legal deals (4 players, 4 decks, 45 cards each), keeps every turn whose
table holds between ``--low`` and ``--high`` laid-down cards, and times the referee on each
before/after pair two ways: the whole judge question (reading both JSON states, deck-count
checks, the turn check) and the turn check alone on parsed states. Each pair is timed
``--repeat`` times and its median kept, so a busy machine's hiccups do not pose as the
checker's cost; the script prints the median and 95th percentile over the pairs. Usage:
    .venv/bin/python bench/bench_turn.py [--games 40] [--seed 11] [--low 130] [--high 170] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.families.open_rummy.play import new_deal, play_turn
from engine.families.open_rummy.turn_checks import TurnRules, check_turn
from engine.table import TableState
from engine.variants import JudgeRequest, find


def late_turns(games: int, seed: int, low: int, high: int) -> list[tuple[TableState, TableState, int]]:
    out = []
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        deal = new_deal(rng)
        while not deal.over:
            seat = deal.seat
            before, after = play_turn(deal, rng)
            laid = sum(1 for _ in before.laid_cards())
            if low <= laid <= high:
                out.append((before, after, seat))
    return out


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return f"median {statistics.median(xs) * 1000:.3f} ms, p95 {p95 * 1000:.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--low", type=int, default=130)
    parser.add_argument("--high", type=int, default=170)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    pairs = late_turns(args.games, args.seed, args.low, args.high)
    if not pairs:
        raise SystemExit("no turn reached that many laid-down cards; play more games")
    variant = find("open-rummy")
    rules = TurnRules(players=4)
    whole, check = [], []
    illegal = 0
    laid = []
    for before, after, seat in pairs:
        b_json, a_json = before.to_json(), after.to_json()
        request = JudgeRequest(mode="turn", seat=seat, before=b_json, after=a_json)
        runs_whole, runs_check = [], []
        for _ in range(max(1, args.repeat)):
            t0 = time.perf_counter()
            ruling = variant.judge(request)
            t1 = time.perf_counter()
            verdict = check_turn(before, after, seat, rules)
            t2 = time.perf_counter()
            runs_whole.append(t1 - t0)
            runs_check.append(t2 - t1)
        whole.append(statistics.median(runs_whole))
        check.append(statistics.median(runs_check))
        illegal += (not ruling.valid) + (not verdict.valid)
        laid.append(sum(1 for _ in before.laid_cards()))
    print(f"{len(pairs)} turns from {args.games} seeded games, {statistics.median(laid):.0f} cards laid down (median)")
    print(f"judge question (JSON in, ruling out): {_ms(whole)}")
    print(f"turn check on parsed states:          {_ms(check)}")
    print(f"turns ruled illegal (should be 0): {illegal}")


if __name__ == "__main__":
    main()
