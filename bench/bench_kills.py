"""Fault sweep: every demo game killed after every one of its events, resumed and finished.

For each script in ``tablekit/demos/``: the uninterrupted game first, then for every event N
the game killed right after event N reached the journal (simulated in-process: the journal
raises once that event's transaction committed, so nothing after it happens), resumed as
``tablekit demo --resume`` does and finished. Each run must end with the same events, the same
status and winners, the same score row per deal, and no game left to resume. Then a sample of
double kills (killed, resumed, killed again). Prints the counts; exits 1 if any run differs.

The test suite tries a sample of these (``tests/test_journal_kill.py``).
Usage: .venv/bin/python bench/bench_kills.py [--pairs N] [--script NAME]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from _kill_fixtures import SCRIPTS, Outcome, killed_and_resumed, load_script, whole  # noqa: E402


def differences(got: Outcome, want: Outcome) -> list[str]:
    return [name for name in ("events", "status", "winners", "deals", "resumable")
            if getattr(got, name) != getattr(want, name)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=40, help="double kills tried per script")
    parser.add_argument("--script", help="only this demo script (name without .json)")
    args = parser.parse_args()
    scripts = [p for p in SCRIPTS if args.script in (None, p.stem)]
    rng = random.Random(2024)
    tried = identical = 0
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-kills-") as tmp:
        folder = Path(tmp)
        for path in scripts:
            script = load_script(path)
            t0 = time.perf_counter()
            want = whole(script, folder / f"{path.stem}-whole.sqlite")
            total = len(want.events)
            plans = [[n] for n in range(1, total + 1)]
            plans += [sorted(rng.sample(range(1, total + 1), 2)) for _ in range(args.pairs)]
            same = 0
            for k, kills in enumerate(plans):
                journal = folder / f"{path.stem}-{k}.sqlite"
                got = killed_and_resumed(script, journal, kills)
                journal.unlink()
                diff = differences(got, want)
                if diff:
                    failures.append(f"{path.stem}: killed after event(s) {kills}: {', '.join(diff)} differ")
                else:
                    same += 1
            tried += len(plans)
            identical += same
            print(f"{path.stem:<18} events {total:>4}  kills tried {len(plans):>4} "
                  f"({total} single, {args.pairs} double)  resumed identical {same:>4}  "
                  f"{time.perf_counter() - t0:6.1f} s", flush=True)
    print(f"all scripts: kills tried {tried}, resumed identical {identical}, differing {tried - identical}")
    for line in failures[:20]:
        print("  " + line)
    return 0 if identical == tried else 1


if __name__ == "__main__":
    raise SystemExit(main())
