"""The club at scale: 50 simulated tables at accelerated time, each writing a real journal and
publishing it through a real Mosquitto to a real ``tablekit club`` (PostgreSQL with fsync on).

Prints the events per second sustained, the latency from a table's journal to the page (the
moment the page's event stream says the event is stored: median and p99), and the events lost
or doubled (both must be 0). Not part of the tests: ``.venv/bin/python bench/bench_club.py``
(``--tables``, ``--pace`` seconds between a table's events, ``--seconds`` of play).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from _club_fixtures import Mosquitto, free_port, start_postgres, stop_postgres  # noqa: E402

from tablekit.club.publish import Publisher  # noqa: E402
from tablekit.club.sim import sim_events, sim_game  # noqa: E402
from tablekit.journal import Journal  # noqa: E402


class Table(threading.Thread):
    def __init__(self, name: str, folder: Path, broker: str, pace: float, until: float,
                 seed: int) -> None:
        super().__init__(daemon=True)
        self.name_, self.pace, self.until, self.seed = name, pace, until, seed
        self.path = folder / f"{name}.sqlite"
        Journal(self.path).close()
        self.publisher = Publisher(self.path, name, broker, poll_s=0.05)
        self.written: dict[tuple[int, int], float] = {}  # (game, seq) -> when journaled

    def run(self) -> None:
        n = 0
        with Journal(self.path) as journal:
            while time.time() < self.until:
                game = sim_game(self.seed * 100 + n)
                gid = journal.new_game(game, int(time.time() * 1000))
                for event in sim_events(game, self.seed * 100 + n):
                    if time.time() >= self.until:
                        return
                    seq = journal.append(gid, event)
                    self.written[(gid, seq)] = time.time()
                    self.publisher.notify()
                    time.sleep(self.pace)
                n += 1


def listen(url: str, seen: dict[tuple[str, int], list[tuple[int, float]]], stop: threading.Event) -> None:
    with urllib.request.urlopen(url, timeout=30) as stream:
        event = ""
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:") and event == "change":
                now = time.time()
                for table, games in json.loads(line[5:])["changed"].items():
                    for g, s in games.items():
                        seen.setdefault((table, int(g)), []).append((int(s), now))
            if stop.is_set():
                return


def count(db: Any, query: str) -> int:
    """The one number a ``SELECT COUNT(*)`` query gives (0 when it gives no row)."""
    row = db.execute(query).fetchone()
    return int(row[0]) if row else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--pace", type=float, default=0.05, help="seconds between a table's events")
    ap.add_argument("--seconds", type=float, default=30.0, help="seconds of play")
    args = ap.parse_args()
    import psycopg

    folder = Path(tempfile.mkdtemp(prefix="bench-club-"))
    broker = Mosquitto(folder)
    broker.start()
    pg, data = start_postgres(durable=True)
    with psycopg.connect(pg.dsn(), autocommit=True) as db:
        db.execute("CREATE DATABASE bench")
    dsn = pg.dsn("bench")
    names = [f"bench-{i + 1}" for i in range(args.tables)]
    web = free_port()
    cmd = [sys.executable, "-m", "tablekit", "club", "--broker", broker.url, "--db", dsn,
           "--listen", f"127.0.0.1:{web}"] + [a for n in names for a in ("--table", n)]
    club = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    tables: list[Table] = []
    try:
        assert club.stdout is not None
        print(club.stdout.readline().decode().strip())
        seen: dict[tuple[str, int], list[tuple[int, float]]] = {}
        stop = threading.Event()
        threading.Thread(target=listen, args=(f"http://127.0.0.1:{web}/events", seen, stop),
                         daemon=True).start()
        time.sleep(0.5)
        start = time.time()
        until = start + args.seconds
        tables = [Table(n, folder, broker.url, args.pace, until, i + 1) for i, n in enumerate(names)]
        for t in tables:
            t.publisher.start()
            t.start()
        for t in tables:
            t.join(args.seconds + 30)
        total = sum(len(t.written) for t in tables)
        deadline = time.time() + 120
        while time.time() < deadline:
            with psycopg.connect(dsn) as db:
                stored = count(db, "SELECT COUNT(*) FROM club_events")
            if stored >= total:
                break
            time.sleep(0.2)
        last = time.time()
        with psycopg.connect(dsn) as db:
            rows = db.execute("SELECT table_id, game_id, seq, body FROM club_events").fetchall()
            doubled = count(db, "SELECT COUNT(*) FROM (SELECT 1 FROM club_events GROUP BY table_id, "
                                "game_id, seq HAVING COUNT(*) > 1) d")
            quarantined = count(db, "SELECT COUNT(*) FROM club_quarantine")
        stop.set()
        stored_keys = {(t, int(g), int(s)) for t, g, s, _ in rows}
        lost = sum((t.name_, g, s) not in stored_keys for t in tables for (g, s) in t.written)
        extra = len(stored_keys) - (total - lost)
        # latency: journaled -> the page's stream says stored
        lat = []
        for t in tables:
            for (g, s), when in t.written.items():
                arrivals = seen.get((t.name_, g), [])
                first = min((at for top, at in arrivals if top >= s), default=None)
                if first is not None:
                    lat.append((first - when) * 1000)
        lat.sort()
        sends = sum(t.publisher.sent_count for t in tables)
        print(f"tables: {args.tables}, one event every {args.pace * 1000:.0f} ms each, "
              f"{args.seconds:.0f} s of play")
        print(f"events journaled: {total}; stored: {len(stored_keys)}; lost: {lost}; "
              f"doubled: {doubled + max(0, extra)}; kept aside: {quarantined}; "
              f"messages published (re-sends included): {sends}")
        print(f"sustained: {len(stored_keys) / (last - start):.0f} events/s "
              f"(journaled at {total / args.seconds:.0f} events/s)")
        if lat:
            p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
            print(f"journal -> page latency: median {statistics.median(lat):.0f} ms, "
                  f"p99 {p99:.0f} ms ({len(lat)} events seen on the page's stream)")
        return 0 if lost == 0 and doubled == 0 else 1
    finally:
        for t in tables:
            t.publisher.stop(1.0)
        club.terminate()
        try:
            club.wait(10)
        except subprocess.TimeoutExpired:
            club.kill()
        broker.stop()
        stop_postgres(pg, data)


if __name__ == "__main__":
    raise SystemExit(main())
