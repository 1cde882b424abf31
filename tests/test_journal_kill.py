"""A table killed with SIGKILL at random moments and resumed ends exactly like an uninterrupted one.

Real subprocesses, a real SQLite file: ``tablekit demo`` plays the scripted pool-101 game
slowly, the test kills it once the journal holds a randomly chosen number of events, then
``tablekit demo --resume`` finishes the game from the journal.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from _game_fixtures import DEMO_SCRIPT

from tablekit.journal import Journal

DEMO = [sys.executable, "-m", "tablekit", "demo", "--script", str(DEMO_SCRIPT), "--no-screen"]


def _env() -> dict[str, str]:
    return {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def _events(path) -> list[dict]:
    with Journal(path) as j:
        gid = j.latest()
        return [e.to_json() for e in j.events(gid)]


def _count(path) -> int:
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.05)
        try:
            return int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return 0


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    path = tmp_path_factory.mktemp("whole") / "j.sqlite"
    report = path.with_suffix(".json")
    subprocess.run(DEMO + ["--journal", str(path), "--report", str(report)], check=True,
                   env=_env(), timeout=120)
    return path, json.loads(report.read_text())


def _run_until_killed(path, args, kill_at: int) -> None:
    proc = subprocess.Popen(DEMO + ["--journal", str(path), "--pace-ms", "6"] + args, env=_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while _count(path) < kill_at and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.slow
@pytest.mark.parametrize("seed", [7])
def test_a_table_killed_again_and_again_resumes_to_the_same_end(tmp_path, uninterrupted, seed):
    whole, whole_report = uninterrupted
    expected = _events(whole)
    assert whole_report["over"] and whole_report["winners"] == ["Asha"]
    rng = random.Random(seed)
    kills = sorted(rng.sample(range(3, len(expected) - 2), 3))
    path = tmp_path / "j.sqlite"
    for n, kill_at in enumerate(kills):
        _run_until_killed(path, ["--resume"] if n else [], kill_at)
        written = _count(path)
        assert 0 < written < len(expected)
        assert _events(path) == expected[:written]  # what was journaled is the true prefix
    report = tmp_path / "r.json"
    subprocess.run(DEMO + ["--journal", str(path), "--resume", "--report", str(report)], check=True,
                   env=_env(), timeout=120)
    assert _events(path) == expected
    resumed = json.loads(report.read_text())
    assert resumed["standings"] == whole_report["standings"]
    assert resumed["deals"] == whole_report["deals"]
    with Journal(path) as a, Journal(whole) as b:
        assert a.restore(a.latest()) == b.restore(b.latest())
