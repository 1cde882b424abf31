"""A table publishes its journal to the club's broker: store-and-forward from the journal.

The journal stays the source of truth. A :class:`Publisher` runs in its own thread with its own
read-only connection to the journal's SQLite file: it sends each game's header (sequence 0)
and then every journaled event, in order, QoS 1, and moves its high-water mark only when the
club says the events are stored (its acks, see :mod:`tablekit.club.wire`). The mark is kept in
a small file beside the journal (``<journal>.club.json``), so a table that was offline for a
whole game — or restarted — sends its backlog when the broker (or the club) is back. What the
club never acknowledged is sent again, with a growing pause: the club stores each event once.

Nothing here can block or crash the table: the table never calls into it (the publisher polls
the journal), every wait is bounded, and every failure is logged and retried.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from tablekit.club.marks import mark_path, read_mark
from tablekit.club.wire import (
    Broker,
    ack_topic,
    check_table_id,
    event_message,
    event_topic,
    header_message,
    parse_broker,
)

log = logging.getLogger(__name__)

#: Events sent and not yet acknowledged by the club, at most.
WINDOW = 400
#: Seconds without an ack before what was sent is sent again (doubling up to ``RESEND_MAX``).
RESEND_S = 3.0
RESEND_MAX = 30.0


class Publisher:
    """Publishes the journal at ``journal`` as table ``table`` to ``broker`` (``mqtt://…``)."""

    def __init__(self, journal: str | Path, table: str, broker: str | Broker, *,
                 poll_s: float = 0.2, resend_s: float = RESEND_S, window: int = WINDOW,
                 stamp: bool = False) -> None:
        self.journal = Path(journal)
        self.table = check_table_id(table)
        self.broker = broker if isinstance(broker, Broker) else parse_broker(broker)
        self.poll_s, self.resend_s, self.window = poll_s, resend_s, window
        self.stamp = stamp  # add the time an event was first seen journaled (benchmark)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._connected = False
        self._created: dict[int, int] = {}  # game -> its created_ms, as the mark knows it
        self._refused: set[int] = set()  # games whose number the club holds for another game
        self.acked: dict[int, int] = self._load_marks()  # game -> highest seq the club stored
        self._sent: dict[int, int] = dict(self.acked)  # game -> highest seq published
        self._seen_ms: dict[tuple[int, int], int] = {}
        self._last_progress = time.monotonic()
        self._pause = resend_s
        self._marks_dirty = False
        self._db: sqlite3.Connection | None = None
        self._setups: dict[int, tuple[int, dict[str, Any]]] = {}
        self._complete: set[int] = set()
        self._thread: threading.Thread | None = None
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                   # a client id of its own: two tables that share a table id
                                   # must not push each other off the broker
                                   client_id=f"tablekit-table-{self.table}-{os.urandom(4).hex()}",
                                   clean_session=True)
        self._client.reconnect_delay_set(min_delay=1, max_delay=5)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self.sent_count = 0  # messages published (re-sends included)

    # --- life ------------------------------------------------------------------------------

    def start(self) -> Publisher:
        try:
            self._client.connect_async(self.broker.host, self.broker.port, keepalive=10)
            self._client.loop_start()
        except (OSError, ValueError) as exc:  # a name that cannot be looked up yet: retried
            log.warning("club broker %s: %s (the table plays on; retrying)", self.broker, exc)
        self._thread = threading.Thread(target=self._run, name=f"club-publish-{self.table}",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Stop within about ``timeout`` seconds; the mark is saved."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
        with contextlib.suppress(Exception):
            self._client.disconnect()
        with contextlib.suppress(Exception):
            self._client.loop_stop()
        self._save_marks(force=True)
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()

    def notify(self) -> None:
        """Something was journaled: look now rather than at the next poll (never blocks)."""
        self._wake.set()

    @property
    def connected(self) -> bool:
        return self._connected

    def backlog(self) -> int:
        """Events journaled and not yet stored by the club (-1: the journal cannot be read)."""
        try:
            tops = self._tops()
        except sqlite3.Error:
            return -1
        with self._lock:
            return sum(max(0, top - max(0, self.acked.get(g, -1))) for g, top in tops.items())

    # --- MQTT callbacks (paho's thread) -----------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: object,
                    reason: Any, properties: object = None) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("club broker %s refused the table: %s", self.broker, reason)
            return
        client.subscribe(ack_topic(self.table), qos=1)
        with self._lock:
            self._sent = dict(self.acked)  # whatever was in flight is sent again
            self._connected = True
            self._last_progress = time.monotonic()
        log.info("club broker %s: connected as table %s", self.broker, self.table)
        self._wake.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: object,
                       reason: Any, properties: object = None) -> None:
        with self._lock:
            self._connected = False
        if not self._stop.is_set():
            log.info("club broker %s: disconnected (%s); the journal keeps every event",
                     self.broker, reason)

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        try:
            answer = json.loads(msg.payload.decode())
            acks = {int(g): int(s) for g, s in answer["games"].items()}
            created = {int(g): int(ms) for g, ms in answer.get("created", {}).items()}
            gaps = {int(g): int(s) for g, s in answer.get("from", {}).items()}
            taken = {int(g): int(ms) for g, ms in answer.get("taken", {}).items()}
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            log.warning("club ack on %s cannot be read (%s)", msg.topic, exc)
            return
        with self._lock:
            # another table sending under this id gets the same answers: only this journal's
            # games count (a club before creation times were sent names none)
            other = {g for g, ms in created.items() | taken.items()
                     if self._created.get(g, ms) != ms}
            for game in sorted(set(taken) & other):
                if game not in self._refused:
                    self._refused.add(game)
                    log.warning("table %s: the club holds another game numbered %d from this "
                                "table id (two tables send as %s?): this game stays in the "
                                "journal and is not sent; give each table its own --table-id",
                                self.table, game, self.table)
            acks = {g: s for g, s in acks.items() if g not in other}
            gaps = {g: s for g, s in gaps.items() if g not in other}
            for game, seq in acks.items():
                if seq > self.acked.get(game, -1):
                    self.acked[game] = seq
                    self._sent[game] = max(self._sent.get(game, -1), seq)
                    self._last_progress = time.monotonic()
                    self._pause = self.resend_s
                    self._marks_dirty = True
            for game, seq in gaps.items():
                # the club holds events of this game behind a gap: it has it only up to seq
                # (-1: not even its header; its database was wiped or restored). What it
                # lacks is sent again at the next resend, paced as any resend.
                if seq < self.acked.get(game, -1) and acks.get(game, -1) <= seq:
                    log.warning("table %s: the club has game %d only up to %d; sending the "
                                "rest again", self.table, game, seq)
                    if seq < 0:
                        self.acked.pop(game, None)
                    else:
                        self.acked[game] = seq
                    self._complete.discard(game)
                    self._marks_dirty = True
        self._wake.set()

    # --- the loop ---------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._round()
            except Exception as exc:  # never let the thread die: log, wait, try again
                log.warning("club publisher (table %s): %s", self.table, exc)
                self._close_db()
                self._stop.wait(1.0)
            self._save_marks()
            self._wake.wait(self.poll_s)
            self._wake.clear()

    def _round(self) -> None:
        if not self._connected:
            return
        tops = self._tops()
        now = time.monotonic()
        with self._lock:
            in_flight = sum(max(0, self._sent.get(g, -1) - self.acked.get(g, -1))
                            for g in tops if g not in self._refused)
            if in_flight and now - self._last_progress > self._pause:
                log.info("table %s: no ack from the club for %.0f s; sending again",
                         self.table, now - self._last_progress)
                self._sent = dict(self.acked)
                self._last_progress = now
                self._pause = min(self._pause * 2, RESEND_MAX)
                in_flight = 0
            plan = []
            for game in sorted(set(tops) - self._refused):
                start = self._sent.get(game, -1) + 1
                if start <= tops[game]:
                    plan.append((game, start, tops[game]))
        budget = self.window - in_flight
        for game, start, top in plan:
            if budget <= 0 or self._stop.is_set() or not self._connected:
                break
            count = 0
            for seq, payload in self._messages(game, start, min(top, start + budget - 1)):
                info = self._client.publish(event_topic(self.table, game), payload, qos=1)
                if info.rc != mqtt.MQTT_ERR_SUCCESS:
                    return  # not connected any more: sent again after reconnecting
                self.sent_count += 1
                count += 1
                with self._lock:
                    if self._sent.get(game, -1) < seq:
                        self._sent[game] = seq
                    if in_flight == 0 and count == 1:
                        self._last_progress = time.monotonic()
            budget -= count

    # --- the journal (read only) -----------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            uri = "file:" + quote(os.fsencode(self.journal.resolve())) + "?mode=ro"
            self._db = sqlite3.connect(uri, uri=True, timeout=1.0, check_same_thread=False)
        return self._db

    def _close_db(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None

    def _tops(self) -> dict[int, int]:
        """Each game's highest sequence number in the journal (a game without events: 0)."""
        if not self.journal.exists():
            return {}
        db = self._connect()
        tops: dict[int, int] = {}
        for game_id, status, created_ms in db.execute(
                "SELECT id, status, created_ms FROM games").fetchall():
            game = int(game_id)
            if game in self._complete:
                continue
            self._same_game(game, int(created_ms))
            row = db.execute("SELECT MAX(seq) FROM events WHERE game_id=?", (game,)).fetchone()
            tops[game] = int(row[0] or 0)
            with self._lock:
                if status != "playing" and self.acked.get(game, -1) >= tops[game]:
                    self._complete.add(game)  # over and all stored: never looked at again
        if self.stamp:
            now = int(time.time() * 1000)
            for g, s in tops.items():
                self._seen_ms.setdefault((g, s), now)
        return tops

    def _same_game(self, game: int, created_ms: int) -> None:
        """Forget what the mark says of game ``game`` when the journal's game of that number
        is another one (created at another time: the journal was begun afresh)."""
        with self._lock:
            known = self._created.get(game)
            if known == created_ms:
                return
            if known is not None:
                log.warning("table %s: game %d in the journal is not the game %d the club was "
                            "sent (the journal was begun afresh); sending it whole", self.table,
                            game, game)
                self.acked.pop(game, None)
                self._sent.pop(game, None)
            self._created[game] = created_ms
            self._marks_dirty = True

    def _messages(self, game: int, first: int, last: int) -> list[tuple[int, bytes]]:
        db = self._connect()
        out: list[tuple[int, bytes]] = []
        setup = self._setups.get(game)
        if setup is None:
            row = db.execute("SELECT created_ms, setup FROM games WHERE id=?", (game,)).fetchone()
            setup = (int(row[0]), json.loads(row[1]))
            self._setups[game] = setup
        if first == 0:
            out.append((0, header_message(self.table, game, setup[0], setup[1])))
            first = 1
        if last >= first:
            now = int(time.time() * 1000)
            for seq, t_ms, type_, body in db.execute(
                    "SELECT seq, t_ms, type, body FROM events WHERE game_id=? AND seq BETWEEN ? "
                    "AND ? ORDER BY seq", (game, first, last)):
                sent = self._seen_ms.pop((game, int(seq)), now) if self.stamp else 0
                out.append((int(seq), event_message(self.table, game, int(seq), int(t_ms),
                                                    str(type_), str(body), sent,
                                                    created_ms=setup[0])))
        return out

    # --- the mark beside the journal -------------------------------------------------------

    def _load_marks(self) -> dict[int, int]:
        path = mark_path(self.journal)
        try:
            data = read_mark(self.journal)
            if not data:
                return {}
            if data.get("table") != self.table or data.get("broker") != str(self.broker):
                return {}  # another club (or name): everything is sent to this one
            acked = {int(g): int(s) for g, s in data["acked"].items()}
            created = {int(g): int(ms) for g, ms in data.get("created", {}).items()}
            self._created = {g: ms for g, ms in created.items() if g in acked}
            return acked
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            log.warning("club mark %s cannot be read (%s): the journal is sent again "
                        "(the club stores each event once)", path, exc)
            return {}

    def _save_marks(self, force: bool = False) -> None:
        with self._lock:
            if not (self._marks_dirty or force):
                return
            data = {"table": self.table, "broker": str(self.broker),
                    "acked": {str(g): s for g, s in sorted(self.acked.items())},
                    "created": {str(g): self._created[g] for g in sorted(self.acked)
                                if g in self._created}}
            self._marks_dirty = False
        path = mark_path(self.journal)
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(json.dumps(data))
            os.replace(tmp, path)
        except OSError as exc:
            log.warning("club mark %s cannot be written (%s)", path, exc)
