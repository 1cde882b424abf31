"""The mark a table's publisher keeps beside its journal (``<journal>.club.json``).

It says, per game, the highest sequence number the club has stored, and when the game was
created: a game number names a game only together with its creation time, since a journal
begun afresh (the old one damaged and set aside, or a new SD card) numbers its games again.
Reading it needs nothing of MQTT, so the table can ask it which game numbers the club has
already seen from this journal's place, and number new games after them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def mark_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".club.json")


def read_mark(journal: Path) -> dict[str, Any]:
    """The mark's JSON object (``{}`` when there is none); ``OSError`` or ``ValueError`` when it
    cannot be read."""
    try:
        data = json.loads(mark_path(journal).read_text())
    except FileNotFoundError:
        return {}
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    return data


#: Game numbers past this in a mark are not a journal's (SQLite's rowids stop at 2^63 - 1).
LARGEST_GAME = 2**53


def highest_marked_game(journal: Path) -> int:
    """The highest game number the club acknowledged from the journal at ``journal`` (0 when
    there is no mark, or it cannot be read; numbers no journal gives are passed over)."""
    try:
        acked = read_mark(journal).get("acked", {})
        numbers = [int(g) for g in acked if str(g).isascii() and str(g).isdigit()]
    except (OSError, ValueError, TypeError, AttributeError, RecursionError):
        return 0
    return max((n for n in numbers if 0 < n <= LARGEST_GAME), default=0)
