"""The club's page on the LAN: a small threaded HTTP server (the standard library's), one
page of HTML, CSS and JavaScript (``page.html``), JSON under ``/api/`` and a stream of
server-sent events (``/events``) that tells open pages what changed.

Every failure answers with a plain message (and a log line), never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import psycopg

from tablekit.club import page, views
from tablekit.club.service import Hub
from tablekit.club.store import connect

log = logging.getLogger(__name__)

PAGE = page.PAGE.encode()
KEEPALIVE_S = 10.0
PLAIN_500 = "Something went wrong on the club's server; the results are safe. Try again in a moment."


class Readers:
    """A few database connections for the page's requests, reused."""

    def __init__(self, dsn: str, size: int = 4) -> None:
        self.dsn = dsn
        self._idle: queue.LifoQueue[psycopg.Connection[Any]] = queue.LifoQueue(size)

    @contextlib.contextmanager
    def get(self) -> Any:
        try:
            db = self._idle.get_nowait()
        except queue.Empty:
            db = connect(self.dsn)
        try:
            yield db
        except psycopg.Error:
            db.close()
            raise
        if db.closed:
            return
        try:
            self._idle.put_nowait(db)
        except queue.Full:
            db.close()

    def close(self) -> None:
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], readers: Readers, hub: Hub) -> None:
        super().__init__(address, Handler)
        self.readers, self.hub = readers, hub


class Handler(BaseHTTPRequestHandler):
    server: Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("web: " + format, *args)

    def _send(self, code: int, body: bytes, kind: str) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, data: Any, code: int = 200) -> None:
        self._send(code, views.dumps(data), "application/json; charset=utf-8")

    def _plain(self, code: int, text: str) -> None:
        if self.path.startswith("/api/"):
            self._json({"error": text}, code)
        else:
            self._send(code, text.encode(), "text/plain; charset=utf-8")

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        try:
            self._get()
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as exc:
            log.warning("web: %s failed: %s: %s", self.path[:200], type(exc).__name__, exc)
            with contextlib.suppress(Exception):
                self._plain(500, PLAIN_500)

    def _get(self) -> None:
        url = urlsplit(self.path)
        parts = [unquote(p) for p in url.path.split("/") if p]
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if not parts or parts[0] in ("table", "game", "evening", "league", "player", "room"):
            self._send(200, PAGE, "text/html; charset=utf-8")
            return
        if parts == ["events"]:
            self._events()
            return
        if parts[0] != "api" or len(parts) < 2:
            self._plain(404, "There is no such page here. The club's page is at /.")
            return
        with self.server.readers.get() as db:
            data = self._api(db, parts[1:], query)
        if data is None:
            self._plain(404, "Nothing of that name is known to the club.")
        else:
            self._json(data)

    def _api(self, db: psycopg.Connection[Any], parts: list[str], query: dict[str, str]) -> Any:
        what = parts[0]
        if what == "room" and len(parts) == 1:
            return views.room(db)
        if what == "game" and len(parts) == 3:
            if not (parts[2].isascii() and parts[2].isdigit()):
                return None
            return views.game(db, parts[1], int(parts[2]))
        if what == "evening" and len(parts) <= 2:
            return views.evening(db, parts[1] if len(parts) == 2 else query.get("day"))
        if what == "league" and len(parts) == 1:
            return views.league(db, query.get("variant"), query.get("season"))
        if what == "player" and len(parts) == 2:
            return views.player(db, parts[1])
        if what == "quarantine" and len(parts) == 1:
            return views.quarantine(db)
        return None

    def _events(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        hub = self.server.hub
        version = hub.version
        self.wfile.write(f"retry: 2000\nevent: hello\ndata: {json.dumps({'v': version})}\n\n".encode())
        self.wfile.flush()
        while not hub.closed:
            change = hub.wait(version, KEEPALIVE_S)
            if change is None:
                self.wfile.write(b": keepalive\n\n")
            else:
                version = int(change["v"])
                self.wfile.write(f"event: change\ndata: {json.dumps(change)}\n\n".encode())
            self.wfile.flush()


def serve(host: str, port: int, dsn: str, hub: Hub) -> tuple[Server, threading.Thread]:
    """Start the page's server in a thread; ``server.shutdown()`` stops it."""
    server = Server((host, port), Readers(dsn), hub)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2},
                              name="club-web", daemon=True)
    thread.start()
    return server, thread
