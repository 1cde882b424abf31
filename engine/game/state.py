"""What changes during a game: the deal in progress, the show being judged, the scores so far.

States are frozen; :func:`engine.game.flow.apply` returns a new one for every event.
Per-seat facts are tuples indexed by seat number (clockwise from seat 0).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from engine.cards import Groups
from engine.ruling import Ruling
from engine.table import TableState

if TYPE_CHECKING:
    from engine.game.claims import ClaimBook
    from engine.game.setup import Game

Phase = Literal["setup", "play", "turn-check", "show", "deal-over", "game-over"]
SeatStatus = Literal["playing", "dropped", "wrong-show", "out"]
ShowStage = Literal["reading", "verdict", "hand-reading", "hand-check"]
#: Scores are whole numbers except in Open Rummy, which counts half points.
Number = int | Fraction

PLAYING: SeatStatus = "playing"


@dataclass(frozen=True, slots=True)
class HandReading:
    """One zone as the camera (and any corrections) read it, with the engine's ruling.

    ``problem`` is set when the cards could not be judged at all (a misread, a miscount).
    ``points`` is what the hand costs, once known. ``entered``: the players entered it on the
    scorepad (no cards were read; see :mod:`engine.game.scorepad`).
    """

    seat: int
    groups: Groups
    ruling: Ruling | None = None
    problem: str = ""
    points: Number | None = None
    outcome: str = ""
    entered: bool = False
    #: The camera could not read a card of it (or any): judged by nobody until read again.
    unread: bool = False


@dataclass(frozen=True, slots=True)
class ShowState:
    """A show in progress: the declarer's reading, then the other hands one by one."""

    declarer: int
    valid: bool = True  # False once a wrong show is confirmed that still ends the deal
    stage: ShowStage = "reading"
    declaration: HandReading | None = None
    pending: tuple[int, ...] = ()  # seats whose hands are still to be read, current first
    hands: tuple[HandReading, ...] = ()  # hands read and confirmed, in reading order
    current: HandReading | None = None  # the hand being checked (stage hand-check)


@dataclass(frozen=True, slots=True)
class TurnCheck:
    """A turn the camera's reading of the table says broke the rules, waiting for the table.

    ``after`` is the table as read (None when it could not be read at all); ``reads`` counts
    the readings that found the turn illegal (MENU reads again after the player puts it right).
    """

    seat: int
    reason: str
    violations: tuple[str, ...]
    after: TableState | None = None
    reads: int = 1


@dataclass(frozen=True, slots=True)
class TableWatch:
    """The camera's watch over a deal's table, for turn checks (families that check turns).

    ``table`` is the last reading accepted: the table as the turn now on began (None until a
    reading comes). ``due`` is the seat whose ended turn the next reading checks (None: the
    next reading only becomes ``table``), ``first_turn`` whether that was the deal's first.
    """

    table: TableState | None = None
    due: int | None = None
    first_turn: bool = False
    check: TurnCheck | None = None
    #: The last table known when the watch started afresh (a turn went unchecked): the next
    #: reading takes what it knew of the melds (``TableState.with_history``).
    known: TableState | None = None


@dataclass(frozen=True, slots=True)
class FamilyDeal:
    """What a family keeps about a deal beyond the common facts (tile rummy: doubles declared,
    the ace shown, who has melded). Each family subclasses it beside its rules; the flow only
    carries it and hands it to the family's policy."""


@dataclass(frozen=True, slots=True)
class DealState:
    """One deal: whose turn, the turn clock, and how each seat stands in it."""

    number: int
    dealer: int
    wild: str
    turn: int
    status: tuple[SeatStatus, ...]
    turns_played: tuple[int, ...]  # turns ended with a press
    turns_begun: tuple[int, ...]  # turns the seat has had (played, missed or current)
    missed_in_row: tuple[int, ...]
    outcomes: tuple[str, ...]  # fixed during the deal ("first-drop", "wrong-show", …) or ""
    turn_count: int = 1
    deadline_ms: int | None = None  # turn clock runs until then
    paused_left_ms: int | None = None  # turn clock stopped with this much left
    window_until_ms: int | None = None  # an opening window (tile doubles) runs until then
    watch: TableWatch | None = None  # the table the camera saw, when turns are checked
    family: FamilyDeal | None = None  # the family's own record of the deal (its policy's)

    def playing(self) -> list[int]:
        return [s for s, st in enumerate(self.status) if st == PLAYING]


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A finished deal as the score sheet keeps it."""

    number: int
    dealer: int
    wild: str
    winner: int | None
    outcomes: tuple[str, ...]
    counts: tuple[Number, ...]
    scores: tuple[Number, ...]
    totals: tuple[Number, ...]


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything about the game that changes, folded from the events so far.

    ``game`` is the fixed description it belongs to (shared, never changed)."""

    game: Game
    phase: Phase
    dealer: int
    totals: tuple[Number, ...]
    eliminated: tuple[bool, ...]
    deal: DealState | None = None
    show: ShowState | None = None
    history: tuple[DealRecord, ...] = ()
    winners: tuple[int, ...] = ()
    link_ok: bool = True
    camera_ok: bool = True
    pressed_at: tuple[int | None, ...] = ()
    menu: tuple[str, ...] = ()  # open menu items, the selected one first
    notice: str = ""  # last thing the table was told
    claims: ClaimBook | None = None  # upcards taken out of turn (engine.game.claims); None: none yet
    #: The deal a void ended, to be dealt again by the same dealer (None: no deal is void).
    redeal: int | None = None
    #: The family's record of the last deal played or voided, which the next deal starts from
    #: (Dummy Rummy's goals); None before the first deal and in families that keep none.
    carried: FamilyDeal | None = None

    @property
    def paused(self) -> bool:
        return not (self.link_ok and self.camera_ok)

    def pause_reason(self) -> str:
        parts = []
        if not self.link_ok:
            parts.append("button box lost")
        if not self.camera_ok:
            parts.append("camera lost")
        return " and ".join(parts)

    def with_notice(self, text: str) -> GameState:
        return replace(self, notice=text)
