"""What every family's play needs to know of the seating, below the game's setup: the turn
timer's default and which team a seat plays for. (``engine.game.setup`` finds a game's
variant in the registry, which sits above the families; a family's policy imports this
module instead, so the layers never circle.)"""

from __future__ import annotations

#: A turn lasts this long unless the variant or the table says otherwise.
TURN_SECONDS = 45


def team_of(seat: int) -> int:
    """Partners sit alternately (``check_seating`` sees to it): seats 0, 2, … are one team and
    seats 1, 3, … the other, whatever names the players gave the teams."""
    return seat % 2
