"""Everything that can happen at the table, as small frozen records the game folds in.

Each event carries ``t_ms``, the table clock (milliseconds, injected by the app) when it
happened; the engine never reads a clock. Card readings travel as notation strings so an
event is plain JSON in the journal. ``event_from_json`` reads any of them back (refusing fields
of the wrong type), and ``check_event`` refuses one that cannot belong to a game of so many
players (a seat or zone that does not exist, a time before the table's clock started).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.cards import Groups
from engine.game.codec import RecordError, record_from_json, record_to_json


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event."""

    TYPE: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        return record_to_json(self)


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    """The cards are dealt; ``wild`` is the cut wild card (the chance input), "" when none."""

    TYPE: ClassVar[str] = "deal-started"
    wild: str = ""
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class ButtonPressed(Event):
    """A seat button went down."""

    TYPE: ClassVar[str] = "button-pressed"
    seat: int = 0
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class ButtonReleased(Event):
    """A seat button came up: short after a press ends the turn, long declares a show."""

    TYPE: ClassVar[str] = "button-released"
    seat: int = 0
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class MenuPressed(Event):
    """The MENU button: opens the table menu or moves to its next item."""

    TYPE: ClassVar[str] = "menu"
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class Confirm(Event):
    """The OK button: confirms what the screen shows."""

    TYPE: ClassVar[str] = "confirm"
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class Tick(Event):
    """Time passed; a running turn timer that has run out counts as a missed turn."""

    TYPE: ClassVar[str] = "tick"
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class TimerExpired(Event):
    """The app's timer for ``seat`` ran out (same effect as a late enough Tick)."""

    TYPE: ClassVar[str] = "timer-expired"
    seat: int = 0
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class TableRead(Event):
    """The camera read the groups lying in a seat's zone, each in table order."""

    TYPE: ClassVar[str] = "table-read"
    zone: int = 0
    groups: Groups = ()
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class TableSeen(Event):
    """The camera read the whole table: each seat's melds (``melds[seat]``, groups in table
    order), the discard pile bottom to top, and the stock when it can be counted (None).

    The answer to a ReadTable: the game checks the turn just ended against the reading before.
    """

    TYPE: ClassVar[str] = "table-seen"
    melds: tuple[Groups, ...] = ()
    discard: tuple[str, ...] = ()
    stock: int | None = None
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class Correction(Event):
    """The table fixes one misread card: ``card`` replaces the one at (group, position).

    An empty ``card`` removes the card; ``position`` equal to the group's length appends one.
    """

    TYPE: ClassVar[str] = "correction"
    zone: int = 0
    group: int = 0
    position: int = 0
    card: str = ""
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class Declare(Event):
    """A seat declares a show without the long press (keyboard shortcut, scripts)."""

    TYPE: ClassVar[str] = "declare"
    seat: int = 0
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class ClaimMade(Event):
    """A seat claims the upcard out of turn ("May I", a buy, a call): its short press while
    another seat is in turn. The game's claim rules answer it (:mod:`engine.game.claims`)."""

    TYPE: ClassVar[str] = "claim"
    seat: int = 0
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class Called(Event):
    """A seat calls something its family's rules answer (``FamilyPolicy.answer_call``): in
    tile rummy a double declared in the opening window (``cards`` the pair), the ace's twin
    shown, or tiles laid on the table (``cards`` the groups). A call the rules do not allow
    now is refused with the reason, and journaled like any refused press."""

    TYPE: ClassVar[str] = "call"
    seat: int = 0
    call: str = ""
    cards: Groups = ()
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class Drop(Event):
    """The seat whose turn it is drops out of the deal."""

    TYPE: ClassVar[str] = "drop"
    seat: int = 0
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class LinkLost(Event):
    """The button box stopped answering; timers pause."""

    TYPE: ClassVar[str] = "link-lost"
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class LinkRestored(Event):
    TYPE: ClassVar[str] = "link-restored"
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class CameraLost(Event):
    """The camera gives no frames; timers pause."""

    TYPE: ClassVar[str] = "camera-lost"
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class CameraRestored(Event):
    TYPE: ClassVar[str] = "camera-restored"
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class HandEntered(Event):
    """The players entered a hand the camera did not read (the scorepad), once confirmed.

    For the declarer's show ``valid`` is the verdict (True: a valid show, False: a wrong
    show); for a losing hand ``points`` is what it counts. ``by_seat`` is the seat whose
    button made the entry (None: typed at the keyboard or left as first shown) and
    ``confirmed_by`` the different seat whose button confirmed it.
    """

    TYPE: ClassVar[str] = "hand-entered"
    seat: int = 0
    points: int | None = None
    valid: bool | None = None
    by_seat: int | None = None
    confirmed_by: int = 0
    t_ms: int = 0


EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (DealStarted, ButtonPressed, ButtonReleased, MenuPressed, Confirm, Tick,
                TimerExpired, TableRead, TableSeen, Correction, Declare, Drop, LinkLost, LinkRestored,
                CameraLost, CameraRestored, HandEntered, ClaimMade, Called)
}


def event_from_json(data: Mapping[str, Any]) -> Event:
    """The event a journal or script line describes."""
    return record_from_json(EVENT_TYPES, data)


#: Fields that name a seat (its zone, for readings), checked against the number of players.
SEAT_FIELDS = ("seat", "zone", "by_seat", "confirmed_by")


def check_event(event: Event, players: int) -> Event:
    """``event`` if it can happen at a table of ``players``; else :class:`RecordError`."""
    for name in SEAT_FIELDS:
        seat = getattr(event, name, None)
        if isinstance(seat, int) and not 0 <= seat < players:
            raise RecordError(f"{event.TYPE}: {name} {seat} does not exist at a table of {players} "
                              f"(seats 0-{players - 1})")
    t_ms = getattr(event, "t_ms", 0)
    if isinstance(t_ms, int) and t_ms < 0:
        raise RecordError(f"{event.TYPE}: t_ms {t_ms} is before the table's clock started")
    for name in ("group", "position"):
        value = getattr(event, name, None)
        if isinstance(value, int) and value < 0:
            raise RecordError(f"{event.TYPE}: {name} {value} cannot be negative")
    melds = getattr(event, "melds", ())
    if isinstance(event, TableSeen) and len(melds) > players:
        raise RecordError(f"{event.TYPE}: melds for {len(melds)} seats at a table of {players}")
    return event
