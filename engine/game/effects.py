"""What the game asks the app to do after an event: timers, camera reads, lights, sounds, scores.

Effects are answers, not inputs: they are never journaled, because replaying the events
produces them again. The app performs them and turns their outcomes into new events.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.game.codec import record_from_json, record_to_json


@dataclass(frozen=True, slots=True)
class Effect:
    TYPE: ClassVar[str] = "effect"

    def to_json(self) -> dict[str, Any]:
        return record_to_json(self)


@dataclass(frozen=True, slots=True)
class StartTimer(Effect):
    """Run ``seat``'s turn clock until ``deadline_ms`` (table clock)."""

    TYPE: ClassVar[str] = "start-timer"
    seat: int = 0
    deadline_ms: int = 0


@dataclass(frozen=True, slots=True)
class StopTimer(Effect):
    TYPE: ClassVar[str] = "stop-timer"


@dataclass(frozen=True, slots=True)
class ReadZone(Effect):
    """Ask the camera to read the groups in ``seat``'s zone (answered by a TableRead)."""

    TYPE: ClassVar[str] = "read-zone"
    seat: int = 0


@dataclass(frozen=True, slots=True)
class ReadTable(Effect):
    """Ask the camera to read the whole table (answered by a TableSeen, or by nothing when the
    camera cannot see it all): the game checks the turn just played against it."""

    TYPE: ClassVar[str] = "read-table"


@dataclass(frozen=True, slots=True)
class ReadCut(Effect):
    """The table is ready to deal: read (or draw) the cut card and send DealStarted."""

    TYPE: ClassVar[str] = "read-cut"


@dataclass(frozen=True, slots=True)
class SetLed(Effect):
    """Light a seat button: ``off``, ``on``, ``slow`` or ``fast`` (blink)."""

    TYPE: ClassVar[str] = "set-led"
    seat: int = 0
    mode: str = "off"


@dataclass(frozen=True, slots=True)
class Buzz(Effect):
    TYPE: ClassVar[str] = "buzz"
    ms: int = 100


@dataclass(frozen=True, slots=True)
class ShowVerdict(Effect):
    """A ruling on a show or a hand is ready for the screen."""

    TYPE: ClassVar[str] = "show-verdict"
    seat: int = 0
    valid: bool = False
    reason: str = ""


@dataclass(frozen=True, slots=True)
class WriteScores(Effect):
    """A deal's scores are final: write them to the score sheet."""

    TYPE: ClassVar[str] = "write-scores"
    deal: int = 0
    scores: tuple[int | float, ...] = ()
    totals: tuple[int | float, ...] = ()


@dataclass(frozen=True, slots=True)
class GameOver(Effect):
    TYPE: ClassVar[str] = "game-over"
    winners: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Notice(Effect):
    """Something the table should be told in words (a refused press, a drop, a pause)."""

    TYPE: ClassVar[str] = "notice"
    text: str = ""


EFFECT_TYPES: dict[str, type[Effect]] = {
    cls.TYPE: cls
    for cls in (StartTimer, StopTimer, ReadZone, ReadTable, ReadCut, SetLed, Buzz, ShowVerdict, WriteScores,
                GameOver, Notice)
}


def effect_from_json(data: Mapping[str, Any]) -> Effect:
    return record_from_json(EFFECT_TYPES, data)
