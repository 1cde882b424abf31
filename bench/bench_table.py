"""Benchmark: the table's own costs on whole demo games (Indian pool 101, Shanghai, Open Rummy).

Plays each demo script without a screen into a journal on disk, then prints: replay time per
event (judge calls included), journal append latency (WAL, full sync), restore time of the whole
game, and ``present()`` time per frame. The presses are scripted keys (``--box keys``): the
simulated box would only add the real time of every hold, and the journal is the same either
way. Usage: .venv/bin/python bench/bench_table.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scoring import percentile

from engine.game import replay
from tablekit.journal import Journal
from tablekit.present import present

ROOT = Path(__file__).resolve().parents[1]


def measure(script: Path, tmp: Path) -> None:
    journal_path = tmp / f"{script.stem}.sqlite"
    subprocess.run([sys.executable, "-m", "tablekit", "demo", "--script", str(script), "--no-screen",
                    "--box", "keys", "--journal", str(journal_path)], check=True, capture_output=True, timeout=600)
    source = Journal(journal_path)
    game_id = source.latest()
    assert game_id is not None
    game, events = source.game(game_id), source.events(game_id)

    t0 = time.perf_counter()
    state = replay(game, events)
    per_event_us = (time.perf_counter() - t0) / len(events) * 1e6

    copy = Journal(tmp / f"{script.stem}-copy.sqlite")
    copy_id = copy.new_game(game, 0)
    appends = []
    for event in events:
        t = time.perf_counter()
        copy.append(copy_id, event)
        appends.append((time.perf_counter() - t) * 1000)

    t = time.perf_counter()
    restored = copy.restore(copy_id)
    restore_ms = (time.perf_counter() - t) * 1000
    assert restored == state, "restoring from the journal must give the same game"

    frames = []
    last = max(int(getattr(e, "t_ms", 0)) for e in events)
    for i in range(300):
        t = time.perf_counter()
        present(state, last + i * 33)
        frames.append((time.perf_counter() - t) * 1e6)

    print(f"{script.name}: {len(events)} events")
    print(f"  replay              {per_event_us:8.1f} us per event (judge calls included)")
    print(f"  journal append      median {statistics.median(appends):.2f} ms   p95 {percentile(appends, 0.95):.2f} ms")
    print(f"  restore whole game  {restore_ms:8.1f} ms")
    print(f"  present()           median {statistics.median(frames):.0f} us per frame")
    source.close()
    copy.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("indian-pool-101.json", "shanghai.json", "open-rummy.json"):
            measure(ROOT / "tablekit" / "demos" / name, Path(tmp))


if __name__ == "__main__":
    main()
