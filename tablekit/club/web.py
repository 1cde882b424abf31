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


class Busy(Exception):
    """Every database connection the page may hold is in use (for ``WAIT_S``)."""


class Readers:
    """A few database connections for the page's requests, reused, and at most ``most`` at
    once (a burst of phones must not use up the database's own connections, which the
    tables' results need). ``read`` gives a reused connection that fails (the database
    restarted since) one more try on a fresh one."""

    #: How long a request waits for a connection before it is told the club is busy.
    WAIT_S = 5.0

    def __init__(self, dsn: str, size: int = 4, most: int = 8) -> None:
        self.dsn = dsn
        self._idle: queue.LifoQueue[psycopg.Connection[Any]] = queue.LifoQueue(size)
        self._slots = threading.BoundedSemaphore(most)

    @contextlib.contextmanager
    def get(self) -> Any:
        if not self._slots.acquire(timeout=self.WAIT_S):
            raise Busy
        try:
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
        finally:
            self._slots.release()

    def read(self, query: Any) -> Any:
        """``query(db)`` on a connection; once more on a fresh one when a reused connection
        was cut (the database restarted: its pooled connections are all dead)."""
        fresh = self._idle.empty()
        try:
            with self.get() as db:
                return query(db)
        except psycopg.OperationalError:
            if fresh:
                raise
            self.close()  # the others were cut too
        with self.get() as db:
            return query(db)

    def close(self) -> None:
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return


class Server(ThreadingHTTPServer):
    """One thread a connection, at most ``MOST_CONNECTIONS`` at once: a connection past them
    is closed at once (a flood of idle sockets would otherwise use up the process's files,
    and the tables' own links with them)."""

    daemon_threads = True
    allow_reuse_address = True
    MOST_CONNECTIONS = 256

    def __init__(self, address: tuple[str, int], readers: Readers, hub: Hub) -> None:
        super().__init__(address, Handler)
        self.readers, self.hub = readers, hub
        self._open = threading.BoundedSemaphore(self.MOST_CONNECTIONS)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._open.acquire(blocking=False):
            log.warning("web: more than %d connections at once; one from %s closed",
                        self.MOST_CONNECTIONS, client_address[0] if client_address else "?")
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._open.release()


class Handler(BaseHTTPRequestHandler):
    server: Server
    protocol_version = "HTTP/1.1"
    #: A connection silent this long (s) is closed: an idle client holds no thread for ever.
    timeout = 30.0
    #: The most a request may send in its body (a page's requests send none).
    MOST_BODY = 64 * 1024

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("web: " + format, *args)

    def version_string(self) -> str:
        return "tablekit-club"  # not the Python version it runs on

    def _send(self, code: int, body: bytes, kind: str) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Referrer-Policy", "no-referrer")
        if kind.startswith("text/html"):
            self.send_header("Content-Security-Policy", "default-src 'self'; script-src 'self' "
                             "'unsafe-inline'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The server's own refusals (a bad request line, headers too long, a method it does
        not serve) as the page's other answers: JSON under ``/api/``, else plain text."""
        self.close_connection = True
        text = message or self.responses.get(code, ("Error",))[0]
        try:
            if getattr(self, "path", "").startswith("/api/"):
                self._json({"error": text}, code)
            else:
                self._send(code, text.encode("utf-8", "replace"), "text/plain; charset=utf-8")
        except OSError:
            pass

    def _json(self, data: Any, code: int = 200) -> None:
        self._send(code, views.dumps(data), "application/json; charset=utf-8")

    def _plain(self, code: int, text: str) -> None:
        if self.path.startswith("/api/"):
            self._json({"error": text}, code)
        else:
            self._send(code, text.encode(), "text/plain; charset=utf-8")

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        try:
            if self._refused():
                return
            self._get()
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Busy:
            log.warning("web: %s: every database connection busy", self.path[:200])
            with contextlib.suppress(Exception):
                self._plain(503, "The club's server is busy; try again in a moment.")
        except Exception as exc:
            log.warning("web: %s failed: %s: %s", self.path[:200], type(exc).__name__, exc)
            with contextlib.suppress(Exception):
                self._plain(500, PLAIN_500)

    def do_HEAD(self) -> None:  # noqa: N802
        self.do_GET()

    def _refused(self) -> bool:
        """Answer (and say True for) a request the page never makes: HTTP/1.1 with no Host, or
        one with a body, which is read off first (unread, it would be taken for the next
        request); one whose body is too long to read is refused and its connection closed."""
        if self.request_version == "HTTP/1.1" and not self.headers.get("Host"):
            self.close_connection = True
            self._plain(400, "A request needs its Host header.")
            return True
        length = self.headers.get("Content-Length")
        if length is None and self.headers.get("Transfer-Encoding"):
            self.close_connection = True
            self._plain(400, "The club's page takes no request body.")
            return True
        if length is not None:
            size = int(length) if length.strip().isascii() and length.strip().isdigit() else -1
            if not 0 <= size <= self.MOST_BODY:
                self.close_connection = True
                self._plain(413 if size > 0 else 400, "The club's page takes no request body.")
                return True
            self.rfile.read(size)
        return False

    def _get(self) -> None:
        url = urlsplit(self.path)
        parts = [unquote(p) for p in url.path.split("/") if p]
        if any("\x00" in p for p in parts):  # no name holds it (the tables' names never do)
            self._plain(404, "Nothing of that name is known to the club.")
            return
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
        data = self.server.readers.read(lambda db: self._api(db, parts[1:], query))
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
        if what == "player" and len(parts) == 1 and "name" in query:  # "." and ".." come so
            return views.player(db, query["name"])
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
        if self.command == "HEAD":
            return
        hub = self.server.hub
        version = hub.version
        hello = json.dumps({"v": version, "broker": hub.broker_up})
        self.wfile.write(f"retry: 2000\nevent: hello\ndata: {hello}\n\n".encode())
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
