"""A table killed at any moment and resumed ends exactly like an uninterrupted one: the same
events, the same status and winners, the same score row for every deal.

In-process kills (``_kill_fixtures``): the journal dies right after event N is committed, so
nothing the table would do next happens. Here a sample: every event that ends a deal or the
game (where a summary row could be lost) plus a few seeded random points and double kills, for
each demo script; ``bench/bench_kills.py`` tries every event of every script.

Real kills: ``tablekit demo`` plays the scripted pool-101 game slowly in a subprocess, the test
SIGKILLs it once the journal holds a randomly chosen number of events, then
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
from _kill_fixtures import SCRIPTS, killed_and_resumed, load_script, whole

from engine.game import new_game, policy_for
from engine.game.flow import apply
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
        assert a.score_rows(a.latest()) == b.score_rows(b.latest())
        assert [(g.status, g.winners, g.deals) for g in a.games()] == \
            [(g.status, g.winners, g.deals) for g in b.games()] == [("over", ("Asha",), len(whole_report["deals"]))]
        assert a.resumable() is None


@pytest.fixture(scope="module", params=[p.stem for p in SCRIPTS])
def script_whole(request, tmp_path_factory):
    """A demo script, its uninterrupted outcome, and the events that end a deal or the game."""
    script = load_script(next(p for p in SCRIPTS if p.stem == request.param))
    path = tmp_path_factory.mktemp(request.param) / "whole.sqlite"
    outcome = whole(script, path)
    with Journal(path) as journal:
        gid = journal.latest()
        state = new_game(journal.game(gid))
        settling = []
        for n, event in enumerate(journal.events(gid), 1):
            before = state
            state, _ = apply(state, event)
            if len(state.history) > len(before.history):
                settling.append(n)
    return script, outcome, settling


def test_the_uninterrupted_demo_games_end_over_with_a_row_per_deal(script_whole):
    script, outcome, settling = script_whole
    assert outcome.status == "over" and outcome.winners and outcome.resumable is None
    # the last deal ends the game as well; a game of one deal (tile rummy) has just that one
    least = 1 if policy_for(script.game).deals_total(script.game) == 1 else 3
    assert len(outcome.deals) == len(settling) >= least
    assert settling[-1] == len(outcome.events)


def test_a_kill_right_after_a_deal_or_the_game_ends_loses_no_row_and_no_ending(script_whole, tmp_path):
    """Every event that ends a deal (the last one ends the game): killed right after it,
    resumed and finished, the game has its score rows, is over and is not offered again."""
    script, outcome, settling = script_whole
    for n in settling:
        assert killed_and_resumed(script, tmp_path / f"k{n}.sqlite", [n]) == outcome, f"killed after event {n}"


def test_kills_at_random_events_and_kills_of_resumed_games_end_the_same(script_whole, tmp_path):
    script, outcome, _ = script_whole
    rng = random.Random(f"kills-{script.title}")
    total = len(outcome.events)
    for n in rng.sample(range(1, total + 1), 3):
        assert killed_and_resumed(script, tmp_path / f"k{n}.sqlite", [n]) == outcome, f"killed after event {n}"
    for _ in range(2):  # killed, resumed, killed again, resumed again
        kills = sorted(rng.sample(range(1, total + 1), 2))
        path = tmp_path / f"k{kills[0]}-{kills[1]}.sqlite"
        assert killed_and_resumed(script, path, kills) == outcome, f"killed after events {kills}"


@pytest.mark.slow
def test_a_table_killed_right_after_its_last_event_is_over_and_not_resumed(tmp_path, uninterrupted):
    """A real SIGKILL once the journal holds the game's last event (or as soon after as the
    kill lands): the game is over, with every score row, and there is nothing to resume."""
    whole, whole_report = uninterrupted
    expected = _events(whole)
    path = tmp_path / "j.sqlite"
    proc = subprocess.Popen(DEMO + ["--journal", str(path), "--pace-ms", "6", "--box", "keys"],
                            env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while _count(path) < len(expected) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.001)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert _events(path) == expected
    with Journal(path) as a, Journal(whole) as b:
        assert [(g.status, g.winners) for g in a.games()] == [("over", ("Asha",))]
        assert a.score_rows(1) == b.score_rows(1) and len(a.score_rows(1)) == len(whole_report["deals"])
        assert a.resumable() is None
    resumed = subprocess.run(DEMO + ["--journal", str(path), "--resume", "--box", "keys"], env=_env(),
                             capture_output=True, text=True, timeout=120)
    assert "Traceback" not in resumed.stderr  # nothing to resume: said in one line
    with Journal(path) as a:
        assert _events(path) == expected and a.games()[0].status == "over"
