"""The club service: subscribes to every table's events, stores them (:mod:`.store`), answers
each table with what is stored, and serves the room's live page (:mod:`.web`).

One ingest worker takes the messages in batches (one database transaction each). When the
database fails the batch is kept and tried again after a pause; when one message breaks a batch
in a way nobody foresaw, the batch is stored message by message and that one is kept aside.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from tablekit.club.store import Outcome, Store, StoreError
from tablekit.club.wire import EVENTS_FILTER, Broker, ack_topic

log = logging.getLogger(__name__)

BATCH = 500
QUEUE_MAX = 200_000


class Hub:
    """Tells the page's open streams that results changed (a version number and what)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self.version = 0
        self.last: dict[str, Any] = {}
        self.closed = False
        #: Whether the club hears the broker the tables send through (None: not known yet):
        #: the page says so, since results stop coming while it is down
        self.broker_up: bool | None = None

    def publish(self, changed: dict[str, dict[int, int]]) -> None:
        with self._cond:
            self.version += 1
            self.last = {"v": self.version, "at": int(time.time() * 1000),
                         "changed": {t: {str(g): s for g, s in gs.items()}
                                     for t, gs in changed.items()},
                         "broker": self.broker_up}
            self._cond.notify_all()

    def set_broker(self, up: bool) -> None:
        """The broker came up or went down: a change with nothing changed, to say so."""
        with self._cond:
            if self.broker_up == up:
                return
            self.broker_up = up
        self.publish({})

    def wait(self, version: int, timeout: float) -> dict[str, Any] | None:
        """The latest change after ``version`` (None: none within ``timeout`` seconds)."""
        with self._cond:
            self._cond.wait_for(lambda: self.version > version or self.closed, timeout)
            return dict(self.last) if self.version > version else None

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()


@dataclass
class Counters:
    stored: int = 0
    duplicates: int = 0
    held: int = 0
    quarantined: int = 0
    batches: int = 0
    db_failures: int = 0
    extra: dict[str, int] = field(default_factory=dict)

    def add(self, out: Outcome) -> None:
        self.stored += out.stored
        self.duplicates += out.duplicates
        self.held += out.held
        self.quarantined += out.quarantined
        self.batches += 1


class Club:
    """Subscriber, ingest worker and acks; the web server is started beside it."""

    def __init__(self, broker: Broker, dsn: str, tables: Sequence[str] = (),
                 open_club: bool = False, client_id: str = "tablekit-club") -> None:
        self.broker, self.dsn, self.open_club = broker, dsn, open_club
        self.store = Store(dsn)  # StoreError (one error line) when it cannot be reached
        if tables:
            self.store.add_tables(tables)
        self.hub = Hub()
        self.counters = Counters()
        self._queue: queue.Queue[bytes] = queue.Queue(QUEUE_MAX)
        self._stop = threading.Event()
        self.connected = False
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                   clean_session=False)
        self._client.reconnect_delay_set(min_delay=1, max_delay=5)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._client.on_subscribe = self._on_subscribe
        self._worker = threading.Thread(target=self._run, name="club-ingest", daemon=True)

    def start(self) -> Club:
        try:
            self._client.connect_async(self.broker.host, self.broker.port, keepalive=10)
        except (OSError, ValueError) as exc:
            log.warning("club broker %s: %s (retrying)", self.broker, exc)
        self._client.loop_start()
        self._worker.start()
        return self

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        self.hub.close()
        if self._worker.ident is not None:  # a club stopped before it started has no worker
            self._worker.join(timeout)
        with contextlib.suppress(Exception):
            self._client.disconnect()
        with contextlib.suppress(Exception):
            self._client.loop_stop()
        with contextlib.suppress(Exception):
            self.store.close()

    # --- MQTT (paho's thread) --------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                    properties: object = None) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("club broker %s refused the club: %s", self.broker, reason)
            return
        client.subscribe(EVENTS_FILTER, qos=1)

    def _on_subscribe(self, client: mqtt.Client, userdata: object, mid: int, reasons: Any,
                      properties: object = None) -> None:
        """Listening from the broker's answer to the subscription on, not from the request:
        a message sent in between (by a table not waiting for its acknowledgement) would
        reach no one."""
        if any(getattr(r, "is_failure", False) for r in reasons):
            log.warning("club broker %s refused the club's subscription: %s", self.broker,
                        ", ".join(str(r) for r in reasons))
            return
        self.connected = True
        self.hub.set_broker(True)
        log.info("club: listening to %s", self.broker)

    def _on_disconnect(self, client: mqtt.Client, userdata: object, flags: object, reason: Any,
                       properties: object = None) -> None:
        self.connected = False
        self.hub.set_broker(False)
        if not self._stop.is_set():
            log.warning("club broker %s: disconnected (%s); reconnecting", self.broker, reason)

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        try:
            self._queue.put_nowait(bytes(msg.payload))
        except queue.Full:  # the table sends it again: nothing was acknowledged
            log.warning("club: too many messages waiting; one dropped (it will come again)")

    # --- ingest ----------------------------------------------------------------------------

    def _take(self) -> list[bytes]:
        try:
            batch = [self._queue.get(timeout=0.2)]
        except queue.Empty:
            return []
        while len(batch) < BATCH:
            try:
                batch.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return batch

    def _run(self) -> None:
        while not self._stop.is_set():
            batch = self._take()
            if batch:
                self._ingest(batch)

    def _ingest(self, batch: list[bytes]) -> None:
        pause = 0.5
        while not self._stop.is_set():
            try:
                out = self.store.ingest(batch, self.open_club)
                break
            except StoreError as exc:
                self.counters.db_failures += 1
                log.warning("%s (trying again in %.1f s)", exc, pause)
                self._stop.wait(pause)
                pause = min(pause * 2, 5.0)
                with contextlib.suppress(StoreError):
                    self.store._reset()
            except Exception as exc:  # a message nobody foresaw: one by one, that one aside
                log.warning("club: a batch failed (%s); storing it message by message", exc)
                out = self._one_by_one(batch)
                break
        else:
            return
        self.counters.add(out)
        for table in sorted(set(out.acks) | set(out.gaps) | set(out.taken)):
            answer: dict[str, Any] = {"games": {str(g): s for g, s in out.acks.get(table, {}).items()}}
            if table in out.created:  # whose games these are (two tables may share an id)
                answer["created"] = {str(g): ms for g, ms in out.created[table].items()}
            if table in out.gaps:  # held behind a gap: ask for what is missing
                answer["from"] = {str(g): s for g, s in out.gaps[table].items()}
            if table in out.taken:  # numbers the club holds for other games
                answer["taken"] = {str(g): ms for g, ms in out.taken[table].items()}
            self._client.publish(ack_topic(table), json.dumps(answer), qos=1)
        if out.changed:
            self.hub.publish(out.changed)

    def _one_by_one(self, batch: list[bytes]) -> Outcome:
        total = Outcome()
        for payload in batch:
            try:
                out = self.store.ingest([payload], self.open_club)
            except StoreError:
                continue  # not acknowledged: the table sends it again
            except Exception as exc:
                with contextlib.suppress(Exception):
                    self.store._reset()
                    self.store.keep_aside(payload, f"cannot be stored ({type(exc).__name__}: {exc})")
                    total.quarantined += 1
                continue
            total.merge(out)
        return total
