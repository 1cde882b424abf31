"""The club's page server against a careless or hostile network (a review probed it as one):
one message with a time no calendar holds, or text that is no Unicode, is kept aside and every
page still answers; HEAD and methods it does not serve, requests with bodies or without a
Host, a NUL in a name; idle sockets and floods of connections; the database restarted under
its pooled connections."""

from __future__ import annotations

import http.client
import json
import socket
import time
from pathlib import Path

import psycopg
import pytest
from _club_fixtures import club_db, free_port, postgres  # noqa: F401
from _club_helpers import play

from tablekit.club import web
from tablekit.club.publish import Publisher
from tablekit.club.service import Hub
from tablekit.club.store import Store
from tablekit.club.wire import LATEST_START_MS, LONGEST_GAME_MS


def _header(tmp_path: Path, table: str, seed: int) -> dict:
    path = tmp_path / f"{table}.sqlite"
    play(path, seed)
    pub = Publisher(path, table, "mqtt://127.0.0.1:1")
    try:
        return json.loads(pub._messages(1, 0, 0)[0][1])
    finally:
        pub._close_db()


def test_a_time_no_calendar_holds_or_text_that_is_no_unicode_is_kept_aside(club_db, tmp_path):  # noqa: F811
    good = _header(tmp_path, "t", 41)
    far = {**good, "game": 2, "created_ms": LATEST_START_MS + 1}
    lone = {**good, "game": 3, "setup": {**good["setup"], "seats": [
        {**good["setup"]["seats"][0], "name": "X\ud800Y"}, *good["setup"]["seats"][1:]]}}
    late = {"v": 1, "table": "t", "game": 1, "seq": 1, "t_ms": LONGEST_GAME_MS + 1,
            "type": "tick", "body": json.dumps({"type": "tick", "t_ms": LONGEST_GAME_MS + 1})}
    inner = {"v": 1, "table": "t", "game": 1, "seq": 1, "t_ms": 5, "type": "tick",
             "body": '{"type":"tick","t_ms":5,"note":"\\ud800"}'}
    long_name = {**good, "game": 4, "setup": {**good["setup"], "seats": [
        {**good["setup"]["seats"][0], "name": "A" * 300}, *good["setup"]["seats"][1:]]}}
    store = Store(club_db)
    try:
        store.add_tables(["t"])
        out = store.ingest([json.dumps(m).encode() for m in (far, lone, late, inner, long_name, good)])
        assert out.quarantined == 5 and out.acks == {"t": {1: 0}}  # the good header stored after them
        reasons = [r for (r,) in psycopg.connect(club_db).execute(
            "SELECT reason FROM club_quarantine ORDER BY id")]
        assert "created_ms must be a whole number" in reasons[0]
        assert "lone surrogate" in reasons[1] and "t_ms must be" in reasons[2]
        assert "event body holds a lone surrogate" in reasons[3]
        assert "longer than" in reasons[4]  # a name no table would take
    finally:
        store.close()
    server, _ = web.serve("127.0.0.1", free_port(), club_db, Hub())
    try:
        for path in ("/api/room", "/api/evening", "/api/league", "/api/game/t/1"):
            status, _, body = _get(server, path)
            assert status == 200, (path, body)
    finally:
        server.shutdown()
        server.server_close()


def _get(server: web.Server, path: str, method: str = "GET", headers: dict | None = None
         ) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(*server.server_address, timeout=10)
    try:
        conn.request(method, path, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def _raw(server: web.Server, data: bytes) -> bytes:
    with socket.create_connection(server.server_address, timeout=10) as s:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
        return out


@pytest.fixture
def page(club_db) -> web.Server:  # noqa: F811
    Store(club_db).close()  # the club's tables, empty
    server, _ = web.serve("127.0.0.1", free_port(), club_db, Hub())
    yield server
    server.shutdown()
    server.server_close()


def test_methods_requests_and_names_the_page_never_makes_get_plain_answers(page: web.Server) -> None:
    status, headers, body = _get(page, "/", "HEAD")
    assert status == 200 and body == b"" and headers["content-type"].startswith("text/html")
    assert "python" not in headers.get("server", "").lower()
    assert headers["x-content-type-options"] == "nosniff" and "frame-ancestors" in headers[
        "content-security-policy"]
    status, headers, body = _get(page, "/api/room", "POST")
    assert status == 501 and headers["content-type"].startswith("application/json")
    assert "error" in json.loads(body)
    status, _, body = _get(page, "/api/player/%00")
    assert status == 404 and "error" in json.loads(body)
    # a body on a GET is read off, not taken for a second request
    out = _raw(page, b"GET /api/room HTTP/1.1\r\nHost: x\r\nContent-Length: 25\r\nConnection: close"
                     b"\r\n\r\nGET /nope HTTP/1.1\r\n\r\n\r\n")
    assert out.count(b"HTTP/1.1 ") == 1 and out.startswith(b"HTTP/1.1 200")
    out = _raw(page, b"GET /api/room HTTP/1.1\r\nConnection: close\r\n\r\n")
    assert out.startswith(b"HTTP/1.1 400")  # HTTP/1.1 with no Host


def test_idle_sockets_are_closed_and_a_flood_past_the_cap_is_turned_away(page: web.Server,
                                                                       monkeypatch: pytest.MonkeyPatch
                                                                       ) -> None:
    monkeypatch.setattr(web.Handler, "timeout", 0.5)
    idle = socket.create_connection(page.server_address, timeout=5)
    time.sleep(1.0)
    assert idle.recv(1) == b""  # closed by the server, its thread free again
    idle.close()
    deadline = time.monotonic() + 5  # its thread gives its place back before the cap is swapped
    while page._open._value < page.MOST_CONNECTIONS and time.monotonic() < deadline:
        time.sleep(0.01)
    cap = __import__("threading").BoundedSemaphore(3)
    monkeypatch.setattr(page, "_open", cap)
    held = [socket.create_connection(page.server_address, timeout=5) for _ in range(3)]
    try:
        time.sleep(0.2)
        extra = socket.create_connection(page.server_address, timeout=5)
        assert extra.recv(1) == b""  # closed at once: past the cap
        extra.close()
    finally:
        for s in held:
            s.close()
    time.sleep(0.8)  # the held ones time out and free their places
    assert _get(page, "/api/room")[0] == 200
    # every thread gives its place back to the small cap before the first one is put back
    # (a thread releases the cap the server holds when it ends)
    deadline = time.monotonic() + 5
    while cap._value < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert cap._value == 3


def test_the_page_reads_on_after_the_database_cut_its_pooled_connections(page: web.Server,
                                                                        club_db) -> None:  # noqa: F811
    assert _get(page, "/api/room")[0] == 200  # a connection now waits in the pool
    name = psycopg.conninfo.conninfo_to_dict(club_db)["dbname"]
    with psycopg.connect(club_db, autocommit=True) as admin:
        cut = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            "WHERE datname=%s AND pid <> pg_backend_pid()", (name,)).fetchall()
    assert cut
    assert _get(page, "/api/room")[0] == 200  # the dead one dropped, a fresh one taken


def test_a_player_named_dot_dot_is_found_by_the_query_a_browser_leaves_alone(club_db, tmp_path):  # noqa: F811
    good = _header(tmp_path, "d", 43)
    seats = [{**good["setup"]["seats"][0], "name": ".."}, *good["setup"]["seats"][1:]]
    store = Store(club_db)
    try:
        store.add_tables(["d"])
        assert store.ingest([json.dumps({**good, "setup": {**good["setup"], "seats": seats}}).encode()]
                            ).acks == {"d": {1: 0}}
    finally:
        store.close()
    server, _ = web.serve("127.0.0.1", free_port(), club_db, Hub())
    try:
        status, _, body = _get(server, "/api/player?name=..")
        assert status == 200 and json.loads(body)["player"] == ".."
        assert _get(server, "/api/player?name=nobody")[0] == 404
        page = _get(server, "/player?name=..")[2].decode()
        assert 'p === "." || p === ".." ? "/player?name="' in page  # the page's links say so
    finally:
        server.shutdown()
        server.server_close()


def test_demo_tables_run_again_number_their_games_after_the_clubs(club_db, tmp_path):  # noqa: F811
    """A club started again with --demo-tables against the same database: the demo journals
    began at game 1 again, and every game was kept aside as another game under its number."""
    from tablekit.club.demo import DemoTable
    from tablekit.club.store import highest_games
    from tablekit.journal import Journal

    good = _header(tmp_path, "demo-1", 44)
    store = Store(club_db)
    try:
        store.add_tables(["demo-1", "demo-2"])
        assert store.ingest([json.dumps({**good, "game": 5}).encode()]).acks == {"demo-1": {5: 0}}
    finally:
        store.close()
    held = highest_games(club_db, ["demo-1", "demo-2"])
    assert held == {"demo-1": 5, "demo-2": 0}
    folder = tmp_path / "demo"
    folder.mkdir()
    table = DemoTable("demo-1", folder, "mqtt://127.0.0.1:1", 0.001, 1, games=1, after=held["demo-1"])
    table._run()  # one whole game, in this thread (no broker needed to journal it)
    table.publisher.stop()
    with Journal(folder / "demo-1.sqlite", read_only=True) as journal:
        assert [g.id for g in journal.games()] == [6]


def test_a_table_clock_years_ahead_does_not_become_the_page_s_evening(club_db, tmp_path):  # noqa: F811
    from tablekit.club import views

    now = _header(tmp_path, "c", 45)
    ahead = {**_header(tmp_path, "c2", 46), "table": "c", "game": 2, "created_ms": 4_102_444_800_000}  # 2100
    store = Store(club_db)
    try:
        store.add_tables(["c"])
        assert store.ingest([json.dumps(m).encode() for m in (now, ahead)]).acks == {"c": {1: 0, 2: 0}}
    finally:
        store.close()
    with psycopg.connect(club_db) as db:
        shown = views.evening(db, None)
        assert shown["evening"] == views.evening_of(now["created_ms"])
        assert "2099-12-31" in shown["evenings"]  # listed, and opened by its date
        assert views.evening(db, "2099-12-31")["games"]
        assert views.league(db, None, None)["season"] == views.season_of(now["created_ms"])


def test_the_page_hears_when_the_broker_is_down(page: web.Server) -> None:
    """The page said "live" while no table could reach the club: the stream says whether the
    club hears its broker, in its hello and in a change when that changes."""
    hub = page.hub
    with socket.create_connection(page.server_address, timeout=10) as s:
        s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        got = b""
        while b"event: hello" not in got or not got.endswith(b"\n\n"):
            got += s.recv(4096)
        assert b'"broker": null' in got  # not known yet
        hub.set_broker(False)
        got = b""
        while b"event: change" not in got:
            got += s.recv(4096)
        assert b'"broker": false' in got
    assert hub.broker_up is False
    version = hub.version
    hub.set_broker(False)  # no news: no change
    assert hub.version == version
    assert "tables not reaching the club" in _get(page, "/")[2].decode()
