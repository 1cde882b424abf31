"""What every family's play needs to know of the seating, below the game's setup: the turn
timer's default, which team a seat plays for and which seat comes next. (``engine.game.setup``
finds a game's variant in the registry, which sits above the families; a family's policy
imports this module instead, so the layers never circle.)

Seats are numbered clockwise: seat ``s + 1`` sits at seat ``s``'s left, ``s - 1`` at its right.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

#: A turn lasts this long unless the variant or the table says otherwise.
TURN_SECONDS = 45

#: Which way turns (or the deal) go round the table.
Direction = Literal["clockwise", "counter-clockwise"]
CLOCKWISE: Direction = "clockwise"
COUNTER_CLOCKWISE: Direction = "counter-clockwise"


def team_of(seat: int) -> int:
    """Partners sit alternately (``check_seating`` sees to it): seats 0, 2, … are one team and
    seats 1, 3, … the other, whatever names the players gave the teams."""
    return seat % 2


def step_of(direction: Direction) -> int:
    """The seat-number step going ``direction``: +1 clockwise (to the left), -1 the other way."""
    return 1 if direction == CLOCKWISE else -1


def turn_distance(seat: int, turn: int, n: int, step: int = 1) -> int:
    """How many places after ``turn`` ``seat`` comes, going ``step`` (0: ``seat`` is ``turn``):
    the smaller, the nearer to playing next, which is who has priority where a text says so."""
    return ((seat - turn) * step) % n


def next_seat(after: int, allowed: Callable[[int], bool], n: int, step: int = 1) -> int | None:
    """The first seat from ``after`` going ``step`` (+1 clockwise, -1 counter-clockwise) that
    ``allowed`` takes; ``after`` itself comes last (None when no seat is allowed)."""
    for k in range(1, n + 1):
        seat = (after + k * step) % n
        if allowed(seat):
            return seat
    return None
