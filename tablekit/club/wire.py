"""What travels between a table and the club: MQTT topics, broker addresses, and the JSON of
one journaled event (or of a game's header, sequence number 0).

A message is ``{"v": 1, "table": ID, "game": N, "seq": S, ...}``: ``seq`` 0 carries the game's
setup (``setup``, ``created_ms``), every other ``seq`` one journaled event exactly as the journal
holds it (``t_ms``, ``type``, ``body``: the event's JSON text, byte for byte; and ``created_ms``, the
game's own, so that an event is never filed under another game of the same number: tables
before it left it out, and the club takes their events as before). The club answers on
the table's ack topic with ``{"games": {"N": S}}``: every sequence number up to S of game N is
stored in the club's database; and, when events of game N wait behind a gap the club cannot
fill itself (its database was wiped or restored), ``"from": {"N": S}``: it has game N only up
to S (-1: not its header), and the table sends the rest again.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from engine.errors import TablekitError

VERSION = 1
PREFIX = "tablekit"
#: A table's id: letters, digits, ``-`` and ``_``, at most 40 (it is a topic level and a URL part).
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
DEFAULT_PORT = 1883


class ClubError(TablekitError):
    """A club address, table id or setting that cannot be used (one ``error:`` line)."""


class MessageError(ValueError):
    """A message that is not one a table sends (the club keeps it aside)."""


def check_table_id(table: str) -> str:
    if not TABLE_ID.match(table):
        raise ClubError(f"table id {table!r} is not usable: use 1-40 letters, digits, '-' or '_'")
    return table


@dataclass(frozen=True, slots=True)
class Broker:
    host: str
    port: int

    def __str__(self) -> str:
        return f"mqtt://{self.host}:{self.port}"


def parse_broker(url: str) -> Broker:
    """``mqtt://host:port`` (or ``host:port``, or ``host``) as a :class:`Broker`."""
    text = url.strip()
    if "://" not in text:
        text = "mqtt://" + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise ClubError(f"broker address {url!r} is not usable ({exc})") from None
    if parts.scheme != "mqtt":
        raise ClubError(f"broker address {url!r}: only mqtt://host:port is understood")
    if not parts.hostname:
        raise ClubError(f"broker address {url!r} names no host (e.g. mqtt://club.local:1883)")
    return Broker(parts.hostname, port or DEFAULT_PORT)


def event_topic(table: str, game: int) -> str:
    return f"{PREFIX}/table/{table}/game/{game}"


def ack_topic(table: str) -> str:
    return f"{PREFIX}/ack/{table}"


EVENTS_FILTER = f"{PREFIX}/table/#"


def header_message(table: str, game: int, created_ms: int, setup: dict[str, Any]) -> bytes:
    return json.dumps({"v": VERSION, "table": table, "game": game, "seq": 0,
                       "created_ms": created_ms, "setup": setup},
                      separators=(",", ":")).encode()


def event_message(table: str, game: int, seq: int, t_ms: int, type_: str, body: str,
                  sent_ms: int = 0, *, created_ms: int = 0) -> bytes:
    data: dict[str, Any] = {"v": VERSION, "table": table, "game": game, "seq": seq,
                            "t_ms": t_ms, "type": type_, "body": body}
    if created_ms:
        data["created_ms"] = created_ms  # which game numbered ``game`` (its header's)
    if sent_ms:
        data["sent_ms"] = sent_ms  # when the table first saw it journaled (for latency)
    return json.dumps(data, separators=(",", ":")).encode()


@dataclass(frozen=True, slots=True)
class Message:
    """One message as the club reads it (fields checked, the event body not yet)."""

    table: str
    game: int
    seq: int
    t_ms: int = 0
    type: str = ""
    body: str = ""
    setup: dict[str, Any] | None = None
    created_ms: int = 0
    sent_ms: int = 0


#: The largest whole number the club's database keeps (a signed 64-bit integer).
LARGEST: Final = 2**63 - 1


def _int(data: dict[str, Any], key: str, low: int, high: int = LARGEST) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        shown = repr(value) if not isinstance(value, int) or value <= LARGEST else "a number too large"
        raise MessageError(f"{key} must be a whole number from {low} to {high}, not {shown}")
    return value


#: The latest a game may have begun (9000-01-01, UTC), and the longest one may last (100
#: years), in ms: a game's day and its events' times, added up, stay dates the club can file
#: (past year 9999 Python has none, and a sum past a 64-bit integer the database has none).
LATEST_START_MS: Final = 221_845_392_000_000
LONGEST_GAME_MS: Final = 3_155_760_000_000


def _unkeepable(value: object) -> str | None:
    """What in a JSON value (any string, keys included) the club's database cannot keep: the
    NUL character, or half of a surrogate pair (text that is no Unicode); None when nothing."""
    if isinstance(value, str):
        if "\x00" in value:
            return "a NUL character, which no table sends (nor the database keeps)"
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return "a lone surrogate (\\ud800-\\udfff), which is no Unicode text"
        return None
    if isinstance(value, dict):
        return next((why for k, v in value.items() for why in (_unkeepable(k), _unkeepable(v)) if why), None)
    if isinstance(value, list):
        return next((why for v in value if (why := _unkeepable(v))), None)
    return None


def read_message(payload: bytes) -> Message:
    """The message in ``payload``, or :class:`MessageError` saying what is wrong with it."""
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise MessageError(f"not JSON ({exc})") from None
    why = _unkeepable(data)
    if why:
        raise MessageError(why)
    if not isinstance(data, dict):
        raise MessageError("not a JSON object")
    if data.get("v") != VERSION:
        raise MessageError(f"version {data.get('v')!r} is not {VERSION}")
    table = data.get("table")
    if not isinstance(table, str) or not TABLE_ID.match(table):
        raise MessageError(f"table {table!r} is not a table id")
    game, seq = _int(data, "game", 1), _int(data, "seq", 0)
    sent = data.get("sent_ms", 0)
    sent_ms = sent if isinstance(sent, int) and not isinstance(sent, bool) else 0
    if seq == 0:
        setup = data.get("setup")
        if not isinstance(setup, dict):
            raise MessageError("a game header needs its setup (a JSON object)")
        return Message(table, game, 0, setup=setup,
                       created_ms=_int(data, "created_ms", 0, LATEST_START_MS))
    type_, body = data.get("type"), data.get("body")
    if not isinstance(type_, str) or not isinstance(body, str):
        raise MessageError("an event needs its type and body (strings)")
    try:  # the body is JSON text: what it holds must be keepable too
        inner = _unkeepable(json.loads(body))
    except ValueError:
        inner = None  # not JSON: the engine says so when it reads the event
    if inner:
        raise MessageError(f"its event body holds {inner}")
    created_ms = _int(data, "created_ms", 0, LATEST_START_MS) if "created_ms" in data else 0
    return Message(table, game, seq, _int(data, "t_ms", 0, LONGEST_GAME_MS), type_, body,
                   created_ms=created_ms, sent_ms=sent_ms)
