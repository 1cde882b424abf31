"""A game number names one game of a table only with its creation time: two tables sending under
one table id, or a journal begun afresh, never have their events filed under another game.

The club side runs against a real PostgreSQL; the table side on real journal files."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import psycopg
from _club_fixtures import broker, club_db, postgres, wait_until  # noqa: F401
from _club_helpers import count, journal_facts, play, same

from tablekit.club.marks import mark_path
from tablekit.club.publish import Publisher
from tablekit.club.service import Club
from tablekit.club.sim import sim_game
from tablekit.club.store import Store
from tablekit.club.wire import parse_broker
from tablekit.journal import Journal
from tablekit.journal_open import open_table_journal


def messages(path: Path, table: str, game: int = 1) -> list[bytes]:
    """Every message (header first) the table's publisher would send for ``game``."""
    pub = Publisher(path, table, "mqtt://127.0.0.1:1")
    try:
        top = pub._tops()[game]
        return [payload for _, payload in pub._messages(game, 0, top)]
    finally:
        pub._close_db()


def test_two_tables_under_one_id_never_mix_their_games(club_db, tmp_path):  # noqa: F811
    first, second = tmp_path / "first.sqlite", tmp_path / "second.sqlite"
    play(first, 41, upto=10)
    play(second, 42, upto=20)  # the same game number, longer: its 11th.. would fit after 10
    store = Store(club_db)
    try:
        store.add_tables(["raspberrypi"])
        out = store.ingest(messages(first, "raspberrypi"))
        assert out.stored == 11 and out.quarantined == 0
        out = store.ingest(messages(second, "raspberrypi"))
        assert out.stored == 0 and out.quarantined == 21  # its header and all 20 events
        created_first = json.loads(messages(first, "raspberrypi")[0])["created_ms"]
        assert out.acks == {}  # nothing of it is stored, and it is told whose the number is
        assert out.taken == {"raspberrypi": {1: created_first}}
        assert same(club_db, "raspberrypi", first)  # the first table's game, untouched
        with psycopg.connect(club_db) as db:
            reasons = {r for (r,) in db.execute("SELECT reason FROM club_quarantine")}
        assert all("another game numbered 1" in r and "--table-id" in r for r in reasons), reasons
    finally:
        store.close()


def test_an_event_held_for_another_game_of_the_same_number_is_kept_aside(club_db, tmp_path):  # noqa: F811
    first, second = tmp_path / "first.sqlite", tmp_path / "second.sqlite"
    play(first, 43, upto=5)
    play(second, 44, upto=9)
    header_a, *events_a = messages(first, "t")
    _, *events_b = messages(second, "t")
    store = Store(club_db)
    try:
        store.add_tables(["t"])
        out = store.ingest([events_b[5]])  # before any header: held until 1..5 are stored
        assert out.held == 1 and out.quarantined == 0
        out = store.ingest([header_a, *events_a])  # a's game arrives: b's 6th is not a's 6th
        assert out.acks == {"t": {1: 5}} and out.quarantined == 1 and out.stored == 6
        assert count(club_db, "SELECT COUNT(*) FROM club_held") == 0
        assert same(club_db, "t", first)
    finally:
        store.close()


def test_events_from_older_tables_without_the_game_s_time_are_stored_as_before(club_db, tmp_path):  # noqa: F811
    path = tmp_path / "old.sqlite"
    play(path, 45, upto=12)
    header, *events = messages(path, "old")
    plain = []
    for payload in events:
        data = json.loads(payload)
        assert data.pop("created_ms") == json.loads(header)["created_ms"]
        plain.append(json.dumps(data).encode())
    store = Store(club_db)
    try:
        store.add_tables(["old"])
        out = store.ingest([header, *plain])
        assert out.stored == 13 and out.quarantined == 0
        assert same(club_db, "old", path)
    finally:
        store.close()


def test_a_journal_begun_afresh_numbers_its_games_after_the_club_s(tmp_path):
    path = tmp_path / "table.sqlite"
    play(path, 46, upto=4)
    play(path, 47, upto=4)
    mark_path(path).write_text(json.dumps({"table": "t", "broker": "mqtt://club:1883",
                                           "acked": {"1": 4, "2": 4}}))
    path.write_bytes(b"this is no journal any more" * 100)  # damaged: set aside on opening
    journal, message = open_table_journal(path)
    with journal:
        assert message is not None and "starting fresh" in message
        assert journal.new_game(sim_game(48), 1_800_000_000_000) == 3
        assert journal.new_game(sim_game(49), 1_800_000_000_001) == 4


def test_a_journal_set_aside_without_a_club_still_gives_its_numbers_up(tmp_path):
    path = tmp_path / "table.sqlite"
    for seed in (50, 51, 52):
        play(path, seed, upto=2)
    path.rename(path.with_name(path.name + ".corrupt-20260101-000000"))
    (tmp_path / "table.sqlite.corrupt-20260102-000000").write_bytes(b"\x00" * 4096)  # unreadable
    journal, message = open_table_journal(path)
    with journal:
        assert message is None  # a new file: nothing was damaged this time
        assert journal.new_game(sim_game(53), 1_800_000_000_000) == 4
    journal, _ = open_table_journal(path)  # and opened again: the numbers go on
    with journal:
        assert journal.new_game(sim_game(54), 1_800_000_000_001) == 5


def test_the_publisher_sends_a_game_whole_when_its_number_now_names_another(tmp_path):
    path = tmp_path / "table.sqlite"
    play(path, 55, upto=6)
    with sqlite3.connect(path) as db:
        created = db.execute("SELECT created_ms FROM games WHERE id=1").fetchone()[0]
    mark_path(path).write_text(json.dumps({
        "table": "t", "broker": "mqtt://127.0.0.1:1", "acked": {"1": 30, "2": 3},
        "created": {"1": created + 1, "2": 5}}))
    pub = Publisher(path, "t", "mqtt://127.0.0.1:1")
    try:
        assert pub.acked == {1: 30, 2: 3}
        assert pub._tops() == {1: 6}
        assert pub.acked == {2: 3}  # game 1 is another game now: all of it goes
        assert pub.backlog() == 6  # all six events (and its header)
        pub._save_marks(force=True)
        saved = json.loads(mark_path(path).read_text())
        assert saved["acked"] == {"2": 3} and saved["created"] == {"2": 5}
    finally:
        pub._close_db()
    # a mark from before the creation times were kept is trusted as it was
    mark_path(path).write_text(json.dumps({"table": "t", "broker": "mqtt://127.0.0.1:1",
                                           "acked": {"1": 6}}))
    pub = Publisher(path, "t", "mqtt://127.0.0.1:1")
    try:
        pub._tops()
        assert pub.acked == {1: 6} and pub.backlog() == 0
    finally:
        pub._close_db()
    assert journal_facts(path)[1]["events"]  # the journal itself was only read


def test_a_club_database_wiped_mid_game_gets_the_whole_game_again(broker, club_db, tmp_path):  # noqa: F811
    """The club's database is emptied while a game is half played (a new database, a restore
    from an older copy): the events that come next cannot be stored without what came before,
    so the club asks the table for it, and the table sends the game again from its header."""
    path = tmp_path / "w.sqlite"
    Journal(path).close()
    club = Club(parse_broker(broker.url), club_db, ["w"]).start()
    pub = Publisher(path, "w", broker.url, poll_s=0.05, resend_s=0.5).start()
    try:
        gid = play(path, 56, upto=15)
        wait_until(lambda: count(club_db, "SELECT COUNT(*) FROM club_events") == 15, 20,
                   "the first half stored")
        wait_until(lambda: pub.acked.get(gid) == 15, 10, "the table told")
        club.stop()
        with psycopg.connect(club_db) as db:
            db.execute("TRUNCATE club_events, club_deals, club_held, club_games")
        club = Club(parse_broker(broker.url), club_db, ["w"]).start()
        play(path, 56, upto=30, game_id=gid)
        wait_until(lambda: same(club_db, "w", path), 30, "the whole game stored again")
        assert count(club_db, "SELECT COUNT(*) FROM club_events") == 30
        assert count(club_db, "SELECT COUNT(*) FROM club_held") == 0
        assert count(club_db, "SELECT COUNT(*) FROM club_quarantine") == 0
    finally:
        pub.stop()
        club.stop()


def test_ratings_follow_the_order_games_ended_at_their_tables_not_when_stored() -> None:
    from tablekit.club.views import GameRow, ratings

    def game(n: int, winner: int, ended_ms: int, stored_ms: int) -> GameRow:
        return GameRow("t", n, ended_ms - 60_000, "indian-13", ["Asha", "Ravi", "Meera"], "over",
                       "game-over", "", [0, 0, 0], [winner], "", "", 10, 3, stored_ms, ended_ms)

    # Asha won first and Ravi won the two after; the table holding Asha's win was offline and
    # its game reached the club last
    played = [game(1, 0, 1_000, 9_000), game(2, 1, 2_000, 2_500), game(3, 1, 3_000, 3_500)]
    as_played = ratings(played)
    assert as_played == ratings(list(reversed(played)))
    by_storing = ratings([replace(g, ended_ms=g.updated_ms) for g in played])
    assert by_storing != as_played  # the order matters, and it is the tables' order that counts


def test_a_table_clock_that_is_not_set_is_said_in_the_club_s_log() -> None:
    from tablekit.club.store import clock_check
    from tablekit.club.wire import Message

    now = 1_780_000_000_000
    assert clock_check(Message("t", 1, 0, setup={}, created_ms=now - 86_400_000), now) == ""
    assert "before 2024" in clock_check(Message("t", 1, 0, setup={}, created_ms=3_600_000), now)
    ahead = clock_check(Message("pi", 4, 0, setup={}, created_ms=now + 3 * 3_600_000), now)
    assert "table pi game 4" in ahead and "3.0 h ahead" in ahead and "Clocks" in ahead


def test_an_event_sent_again_behind_a_gap_is_answered_again(club_db, tmp_path):  # noqa: F811
    """The table may miss the club's answer (it was off): the event it sends again after a
    wipe is answered again with how far the club has the game."""
    path = tmp_path / "g.sqlite"
    play(path, 57, upto=12)
    header, *events = messages(path, "g")
    store = Store(club_db)
    try:
        store.add_tables(["g"])
        for _ in range(2):
            out = store.ingest([events[10]])
            assert out.gaps == {"g": {1: -1}} and out.acks == {}
        out = store.ingest([header, *events[:5]])  # the rest begins to come: the gap shrinks
        assert out.gaps == {"g": {1: 5}} and out.acks == {"g": {1: 5}}
        out = store.ingest(events[5:10])
        assert out.gaps == {} and out.acks == {"g": {1: 11}}
        assert store.ingest(events[11:]).acks == {"g": {1: 12}}
        assert same(club_db, "g", path)
    finally:
        store.close()


class _Answer:
    def __init__(self, data: dict[str, object]) -> None:
        self.payload, self.topic = json.dumps(data).encode(), "tablekit/ack/t"


def test_a_table_takes_only_the_answers_about_its_own_games(tmp_path):
    path = tmp_path / "table.sqlite"
    play(path, 58, upto=6)
    play(path, 59, upto=4)
    pub = Publisher(path, "t", "mqtt://127.0.0.1:1")
    try:
        pub._tops()
        mine = dict(pub._created)
        # the other table's game 1 is stored up to 30; this table's game 2 up to 4
        pub._on_message(None, None, _Answer({"games": {"1": 30, "2": 4},  # type: ignore[arg-type]
                                             "created": {"1": mine[1] + 7, "2": mine[2]}}))
        assert pub.acked == {2: 4}
        # the club holds another game under number 1: this one is not sent any more
        pub._on_message(None, None, _Answer({"games": {}, "taken": {"1": mine[1] + 7}}))  # type: ignore[arg-type]
        assert pub._refused == {1}
        # an answer naming this table's own game as the one held changes nothing
        pub._on_message(None, None, _Answer({"games": {}, "taken": {"2": mine[2]}}))  # type: ignore[arg-type]
        assert pub._refused == {1}
        # a club from before creation times were sent: its acks are taken as they come
        pub._on_message(None, None, _Answer({"games": {"1": 2}}))  # type: ignore[arg-type]
        assert pub.acked == {1: 2, 2: 4}
    finally:
        pub._close_db()


def test_a_set_aside_journal_s_games_in_its_wal_count_and_nothing_is_left_beside_it(tmp_path):
    import shutil

    live = tmp_path / "live" / "table.sqlite"
    live.parent.mkdir()
    journal = Journal(live)
    for seed in (60, 61, 62):
        journal.new_game(sim_game(seed), 1_800_000_000_000 + seed)
    wal = Path(f"{live}-wal")
    assert wal.stat().st_size > 0  # the games are in the WAL yet (a power cut now)
    path = tmp_path / "table.sqlite"
    aside = tmp_path / "table.sqlite.corrupt-20260101-000000"
    shutil.copy(live, aside)
    shutil.copy(wal, f"{aside}-wal")
    journal.close()
    before = sorted(p.name for p in tmp_path.iterdir())
    fresh, _ = open_table_journal(path)
    with fresh:
        assert fresh.new_game(sim_game(63), 1_800_000_000_100) == 4
    after = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("table.sqlite")
                   or ".corrupt-" in p.name)
    assert after == [n for n in before if n != "table.sqlite"]  # nothing made beside it


def test_a_mark_with_numbers_no_journal_gives_is_passed_over(tmp_path):
    path = tmp_path / "table.sqlite"
    for text in ('{"acked": {"99999999999999999999": 1, "x": 2, "-4": 3, "7": 1}}',
                 '{"acked": ' + "[" * 5000 + "]" * 5000 + "}", "not json", '["a list"]'):
        mark_path(path).write_text(text)
        journal, _ = open_table_journal(path)
        with journal:
            assert journal.first_game_id == (8 if text.endswith('"7": 1}}') else 1)
        path.unlink()


def test_ratings_use_when_each_game_ended_at_its_table(club_db, tmp_path):  # noqa: F811
    from tablekit.club.views import _rows

    path = tmp_path / "r.sqlite"
    play(path, 64)
    header, *events = messages(path, "r")
    store = Store(club_db)
    try:
        store.add_tables(["r"])
        store.ingest([header, *events])
    finally:
        store.close()
    with psycopg.connect(club_db) as db:
        [row] = _rows(db)
    last_t = json.loads(events[-1])["t_ms"]
    assert row.ended_ms == row.created_ms + last_t and last_t > 0
