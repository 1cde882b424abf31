"""Tables publish their journals to a real Mosquitto; the club stores every event once in a
real PostgreSQL; the results it derives are the journals' own, to the last score row."""

from __future__ import annotations

import threading
from pathlib import Path

import paho.mqtt.client as mqtt
from _club_fixtures import broker, club_db, postgres, wait_until  # noqa: F401
from _club_helpers import club_facts, count, journal_facts, play, same
from paho.mqtt.enums import CallbackAPIVersion

from tablekit.club.publish import Publisher, mark_path
from tablekit.club.service import Club
from tablekit.club.wire import parse_broker
from tablekit.journal import Journal


def test_two_tables_publish_live_and_the_club_holds_exactly_their_journals(broker, club_db, tmp_path):  # noqa: F811
    club = Club(parse_broker(broker.url), club_db, ["t1", "t2"]).start()
    paths = {t: tmp_path / f"{t}.sqlite" for t in ("t1", "t2")}
    for p in paths.values():
        Journal(p).close()
    pubs = [Publisher(p, t, broker.url, poll_s=0.05).start() for t, p in paths.items()]
    try:
        # both tables play at once while publishing; t1 plays two games
        threads = [threading.Thread(target=play, args=(paths["t1"], 1)),
                   threading.Thread(target=play, args=(paths["t2"], 2))]
        for th in threads:
            th.start()
        for th in threads:
            th.join(30)
        play(paths["t1"], 3)
        for t, p in paths.items():
            wait_until(lambda t=t, p=p: same(club_db, t, p), 20, f"table {t} stored")
            assert all(g["status"] == "over" and g["deals"] for g in journal_facts(p).values())
        assert len(club_facts(club_db, "t1")) == 2 and len(club_facts(club_db, "t2")) == 1
        for pub in pubs:
            wait_until(lambda pub=pub: pub.backlog() == 0, 10, "every event acknowledged")
        total = count(club_db, "SELECT COUNT(*) FROM club_events")
        assert total == sum(len(g["events"]) for p in paths.values()
                            for g in journal_facts(p).values())
    finally:
        for pub in pubs:
            pub.stop()
        club.stop()
    # the marks beside the journals say everything is stored: a new publisher sends nothing
    assert mark_path(paths["t1"]).exists()
    again = Publisher(paths["t1"], "t1", broker.url)
    assert again.backlog() == 0


def test_duplicates_and_out_of_order_delivery_are_stored_once(broker, club_db, tmp_path):  # noqa: F811
    path = tmp_path / "t9.sqlite"
    play(path, 7)
    club = Club(parse_broker(broker.url), club_db, ["t9"]).start()
    # every message of the game, delivered in reverse order and each three times
    from tablekit.club.publish import Publisher as P

    pub = P(path, "t9", broker.url)
    messages = pub._messages(1, 0, pub._tops()[1])
    pub._close_db()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="raw")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        wait_until(lambda: club.connected, 10, "the club subscribed")
        for _ in range(3):
            for _seq, payload in reversed(messages):
                client.publish("tablekit/table/t9/game/1", payload, qos=1).wait_for_publish(5)
        wait_until(lambda: same(club_db, "t9", path), 20, "the reversed game stored")
        wait_until(lambda: club.counters.duplicates >= 2 * len(messages), 10, "duplicates seen")
        assert count(club_db, "SELECT COUNT(*) FROM club_events") == len(messages) - 1
        assert count(club_db, "SELECT COUNT(*) FROM club_held") == 0
        assert count(club_db, "SELECT COUNT(*) FROM club_quarantine") == 0
    finally:
        client.loop_stop()
        client.disconnect()
        club.stop()


def test_a_table_without_the_broker_keeps_playing_and_sends_its_backlog_later(
        broker, club_db, tmp_path: Path):  # noqa: F811
    broker.stop()
    path = tmp_path / "t3.sqlite"
    Journal(path).close()
    pub = Publisher(path, "t3", broker.url, poll_s=0.05).start()
    try:
        play(path, 11)  # a whole game with no broker: the table is never held up
        facts = journal_facts(path)
        assert facts[1]["status"] == "over"
        assert pub.backlog() == len(facts[1]["events"])  # nothing stored yet
        broker.start()
        club = Club(parse_broker(broker.url), club_db, ["t3"]).start()
        try:
            wait_until(lambda: same(club_db, "t3", path), 30, "the backlog stored")
            wait_until(lambda: pub.backlog() == 0, 10, "the backlog acknowledged")
        finally:
            club.stop()
    finally:
        pub.stop()


def test_tablekit_run_with_club_publishes_the_game_it_starts(broker, club_db, tmp_path):  # noqa: F811
    import os
    import subprocess
    import sys

    club = Club(parse_broker(broker.url), club_db, ["pi-7"]).start()
    journal = tmp_path / "table.sqlite"
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tablekit", "run", "--headless", "--seconds", "4", "--no-box",
             "--variant", "indian-pool-101", "--players", "Asha,Ravi,Meera", "--mute",
             "--journal", str(journal), "--club", broker.url, "--table-id", "pi-7"],
            env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
            capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        wait_until(lambda: count(club_db, "SELECT COUNT(*) FROM club_games WHERE table_id='pi-7'") == 1,
                   10, "the table's game reached the club")
        assert same(club_db, "pi-7", journal)
    finally:
        club.stop()
