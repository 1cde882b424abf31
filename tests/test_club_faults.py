"""Faults on the way from the tables to the club: the broker restarted in the middle of a game,
the club service killed and started again, a table offline for a whole game; and bad input
(an unknown table, malformed or replayed-but-different events, a sequence that jumps). Every
event is stored exactly once and every result is the journals' own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from _club_fixtures import broker, club_db, free_port, postgres, wait_until  # noqa: F401
from _club_helpers import count, journal_facts, play, same
from paho.mqtt.enums import CallbackAPIVersion

from tablekit.club.publish import Publisher
from tablekit.club.service import Club
from tablekit.club.wire import EVENTS_FILTER, event_message, parse_broker
from tablekit.journal import Journal


def start_club(broker_url: str, dsn: str, log: Path, *tables: str) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "tablekit", "-v", "club", "--broker", broker_url, "--db", dsn,
           "--listen", f"127.0.0.1:{free_port()}"]
    for t in tables:
        cmd += ["--table", t]
    with log.open("ab") as out:
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)


def kill(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)


def test_broker_restart_club_killed_and_a_table_offline_a_whole_game(broker, club_db, tmp_path):  # noqa: F811
    log = tmp_path / "club.log"
    club = start_club(broker.url, club_db, log, "a", "b")
    paths = {t: tmp_path / f"{t}.sqlite" for t in ("a", "b")}
    for p in paths.values():
        Journal(p).close()
    pub_a = Publisher(paths["a"], "a", broker.url, poll_s=0.05, resend_s=1.0).start()
    try:
        wait_until(lambda: b"tables known" in log.read_bytes(), 20, "the club started")
        # table a: half a game, then the broker goes down and comes back mid-game
        gid = play(paths["a"], 21, upto=20)
        wait_until(lambda: count(club_db, "SELECT COUNT(*) FROM club_events") == 20, 20,
                   "the first half stored")
        broker.stop()
        play(paths["a"], 21, upto=35, game_id=gid)
        broker.start()
        # ... then the club is killed in the middle of the rest of the game and started again
        play(paths["a"], 21, upto=45, game_id=gid)
        kill(club)
        play(paths["a"], 21, game_id=gid)
        club = start_club(broker.url, club_db, log, "a", "b")
        # table b plays a whole game while its publisher is off, then joins
        play(paths["b"], 22)
        pub_b = Publisher(paths["b"], "b", broker.url, poll_s=0.05, resend_s=1.0).start()
        try:
            for t, p in paths.items():
                wait_until(lambda t=t, p=p: same(club_db, t, p), 40, f"table {t} stored")
            wait_until(lambda: pub_a.backlog() == 0 and pub_b.backlog() == 0, 20, "all acknowledged")
        finally:
            pub_b.stop()
        total = sum(len(g["events"]) for p in paths.values() for g in journal_facts(p).values())
        assert count(club_db, "SELECT COUNT(*) FROM club_events") == total
        assert count(club_db, "SELECT COUNT(*) FROM club_quarantine") == 0
        assert count(club_db, "SELECT COUNT(*) FROM club_held") == 0
        assert count(club_db, "SELECT COUNT(*) FROM club_games WHERE status='over'") == 2
    finally:
        pub_a.stop()
        kill(club)
    assert b"Traceback" not in log.read_bytes()


def test_bad_input_is_kept_aside_and_never_touches_the_results(broker, club_db, tmp_path):  # noqa: F811
    path = tmp_path / "k.sqlite"
    play(path, 31)
    facts = journal_facts(path)[1]
    events = facts["events"]
    club = Club(parse_broker(broker.url), club_db, ["k"]).start()
    raw = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="raw-bad")
    raw.connect("127.0.0.1", broker.port)
    raw.loop_start()

    def send(payload: bytes, topic: str = "tablekit/table/k/game/1") -> None:
        raw.publish(topic, payload, qos=1).wait_for_publish(5)

    pub = Publisher(path, "k", broker.url)
    header = pub._messages(1, 0, 0)[0][1]
    pub._close_db()
    try:
        wait_until(lambda: club.connected, 10, "the club subscribed")
        seq, t_ms, type_, body = events[0]
        send(b"{not json")
        send(json.dumps({"v": 1, "table": "k", "game": 1}).encode())  # no seq
        send(json.dumps({"v": 1, "table": "k", "game": 1, "seq": -4, "type": "x",
                         "body": "{}"}).encode())
        send(header.replace(b'"table":"k"', b'"table":"stranger"'))  # an unknown table
        send(header)
        # the sequence jumps: events 3.. arrive before 1 and 2 (held aside, then taken in order)
        for s, t, ty, b in events[2:10]:
            send(event_message("k", 1, s, t, ty, b))
        wait_until(lambda: count(club_db, "SELECT COUNT(*) FROM club_held") == 8, 10, "held")
        assert count(club_db, "SELECT COUNT(*) FROM club_events") == 0
        # an event no table could journal (a seat that does not exist), in the gap's place
        send(event_message("k", 1, 1, t_ms, "button-pressed", '{"type":"button-pressed","seat":9,"t_ms":5}'))
        for s, t, ty, b in events:
            send(event_message("k", 1, s, t, ty, b))
        wait_until(lambda: same(club_db, "k", path), 20, "the game stored as journaled")
        # replayed but different: a stored sequence number with another event
        send(event_message("k", 1, 2, 99, "confirm", '{"type":"confirm","t_ms":99}'))
        other = json.loads(header)
        other["setup"]["note"] = "another setup"
        send(json.dumps(other).encode())  # the same game's header, with another setup
        send(header.replace(b'"created_ms":', b'"created_ms":1'))  # another game, same number
        wait_until(lambda: count(club_db, "SELECT COUNT(*) FROM club_quarantine") == 8, 10,
                   "eight messages kept aside")
        assert same(club_db, "k", path)
        reasons = [r for (r,) in __import__("psycopg").connect(club_db).execute(
            "SELECT reason FROM club_quarantine ORDER BY id")]
        assert any(r.startswith("malformed message: not JSON") for r in reasons)
        assert any("seq must be" in r for r in reasons)
        assert "unknown table" in reasons
        assert any("seat 9 does not exist" in r for r in reasons)
        assert sum(r.startswith("replayed but different") for r in reasons) == 2
        assert sum(r.startswith("another game numbered 1") for r in reasons) == 1
        assert count(club_db, "SELECT COUNT(*) FROM club_events") == len(events)
    finally:
        raw.loop_stop()
        raw.disconnect()
        club.stop()


def test_the_club_command_says_what_is_wrong_in_one_line(postgres, tmp_path):  # noqa: F811
    env = {**os.environ, "TABLEKIT_CLUB_DB": ""}
    cases = [
        (["--broker", "http://x"], "only mqtt://host:port"),
        (["--table", "no spaces please"], "table id"),
        (["--db", f"host=127.0.0.1 port={free_port()} user=club dbname=x connect_timeout=2"],
         "cannot reach the club database"),
        (["--db", f"host=127.0.0.1 port={free_port()} user=club password=s3cret dbname=x connect_timeout=2"],
         "password=***"),  # the password never shown
    ]
    for extra, words in cases:
        done = subprocess.run([sys.executable, "-m", "tablekit", "club", *extra], env=env,
                              capture_output=True, text=True, timeout=30)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("error:") and words in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
        assert "s3cret" not in done.stderr


def played_header(path: Path, table: str, seed: int) -> bytes:
    """The header message (sequence 0) of game 1 of a game played into ``path`` by ``table``."""
    play(path, seed)
    pub = Publisher(path, table, "mqtt://127.0.0.1:1")
    try:
        return pub._messages(1, 0, 0)[0][1]
    finally:
        pub._close_db()


def test_a_nul_or_a_huge_number_is_kept_aside_and_storing_goes_on(club_db, tmp_path):  # noqa: F811
    from tablekit.club.store import Store

    header = played_header(tmp_path / "n.sqlite", "n", 32)
    store = Store(club_db)
    try:
        store.add_tables(["n"])
        out = store.ingest([b"\x00", json.dumps({"v": 1, "table": "n", "game": 1, "seq": 1, "t_ms": 5,
                                                 "type": "confirm", "body": "nul \u0000 here"}).encode(),
                            json.dumps({"v": 1, "table": "n", "game": 2**70, "seq": 0}).encode(),
                            header])
        assert out.quarantined == 3  # each kept aside; the database never saw a NUL or a 2^70
        assert out.acks == {"n": {1: 0}}  # and the header after them was stored
        reasons = [r for (r,) in __import__("psycopg").connect(club_db).execute(
            "SELECT reason FROM club_quarantine ORDER BY id")]
        assert reasons[0].startswith("malformed message: not JSON")  # the lone NUL byte
        assert "NUL character" in reasons[1] and "too large" in reasons[2]
    finally:
        store.close()


def test_a_batch_that_failed_stores_a_new_table_s_game_when_sent_again(club_db, tmp_path, monkeypatch):  # noqa: F811
    """With any table welcome, a table first met in a batch the database failed is not taken
    for known when the batch comes again (its row was never stored)."""
    import psycopg

    from tablekit.club.store import Store, StoreError

    header = played_header(tmp_path / "f.sqlite", "fresh", 33)
    store = Store(club_db)
    real = Store._header
    failed = []

    def header_once(self, *args):  # type: ignore[no-untyped-def]
        if not failed:
            failed.append(1)
            raise psycopg.OperationalError("the database went away")
        return real(self, *args)

    monkeypatch.setattr(Store, "_header", header_once)
    try:
        with pytest.raises(StoreError, match="went away"):
            store.ingest([header], open_club=True)
        out = store.ingest([header], open_club=True)  # the table sends it again
        assert out.acks == {"fresh": {1: 0}}
        assert count(club_db, "SELECT COUNT(*) FROM club_games WHERE table_id='fresh'") == 1
    finally:
        store.close()


def test_the_club_listens_from_the_broker_s_answer_to_its_subscription(club_db):  # noqa: F811
    """Not from the request: a message sent in between would reach no one (the bad-input test
    above sent its first message into that gap once). A refused subscription is not listening."""
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.reasoncodes import ReasonCode

    class Requests:
        def __init__(self) -> None:
            self.asked: list[str] = []

        def subscribe(self, topic: str, qos: int) -> None:
            self.asked.append(topic)

    club = Club(parse_broker("mqtt://127.0.0.1:1"), club_db, ["k"])  # never started
    try:
        client = Requests()
        club._on_connect(client, None, None, ReasonCode(PacketTypes.CONNACK, identifier=0))
        assert client.asked == [EVENTS_FILTER] and not club.connected
        club._on_subscribe(client, None, 1, [ReasonCode(PacketTypes.SUBACK, identifier=0x80)])
        assert not club.connected  # refused
        club._on_subscribe(client, None, 2, [ReasonCode(PacketTypes.SUBACK, identifier=1)])
        assert club.connected
    finally:
        club.stop()
