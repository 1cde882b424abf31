"""The roster: the table's regular players, kept in the journal so a name is typed only once.

The setup screen lists the roster; players pick their names from it (the order they pick is
the seat order) and add a new one there. A name follows the rules of a seat's name
(:func:`engine.game.setup.check_names`: not empty, no control characters, at most
:data:`~engine.game.setup.MAX_NAME` characters) and is refused when the roster has it already,
ignoring case and surrounding spaces ("ravi " is Ravi). Names in any script are welcome.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.errors import TablekitError
from engine.game import Seat
from engine.game.setup import MAX_NAME, SetupError, check_names
from tablekit.clock import wall_ms
from tablekit.journal import Journal, player_key


class RosterError(TablekitError):
    """A name the roster refuses, with the reason in players' words."""


def name_problem(name: str) -> str:
    """Why ``name`` cannot be a player's name ("" when it can), by the rules of a seat's name."""
    try:
        check_names((Seat(name),))
    except SetupError:
        shown = name.strip()
        if not shown:
            return "a name cannot be empty"
        if len(shown) > MAX_NAME:
            return f"a name has at most {MAX_NAME} characters, this one {len(shown)}"
        return "a name cannot hold control characters"
    return ""


class Roster:
    """The roster of the journal ``journal``; ``now`` gives the wall time in ms."""

    def __init__(self, journal: Journal, now: Callable[[], int] = wall_ms) -> None:
        self.journal = journal
        self.now = now

    def names(self) -> list[str]:
        """Every name, the most recent players first."""
        return [row.name for row in self.journal.roster()]

    def find(self, name: str) -> str | None:
        """The roster's spelling of ``name`` (ignoring case and surrounding spaces), or None."""
        key = player_key(name)
        return next((n for n in self.names() if player_key(n) == key), None)

    def check(self, name: str) -> str:
        """``name`` as it would be added (surrounding spaces dropped), or :class:`RosterError`
        saying why it cannot be."""
        problem = name_problem(name)
        if problem:
            raise RosterError(problem)
        known = self.find(name)
        if known is not None:
            raise RosterError(f"{known} is on the list already")
        return name.strip()

    def add(self, name: str) -> str:
        """Add ``name``; its spelling as added. :class:`RosterError` when it is refused."""
        name = self.check(name)
        if not self.journal.add_player(name, self.now()):  # another table added it just now
            raise RosterError(f"{name} is on the list already")
        return name

    def remove(self, name: str) -> str:
        """Take ``name`` off the roster (its games stay in the journal as they were); its
        spelling as it was listed. :class:`RosterError` when it is not on the roster."""
        known = self.find(name)
        if known is None or not self.journal.remove_player(known):
            raise RosterError(f"{name.strip() or 'that name'} is not on the list")
        return known

    def played(self, names: Sequence[str], *, add: bool = True) -> None:
        """``names`` sat down to a game now (with ``add``, names not on the roster join it;
        names that break the rules never do)."""
        good = [n for n in names if not name_problem(n)]
        if good:
            self.journal.player_played(good, self.now(), add=add)
