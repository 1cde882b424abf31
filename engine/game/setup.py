"""The fixed parameters of one game at the table: the variant, who sits where, house rules.

A :class:`Game` never changes once play starts; everything that changes lives in
:class:`engine.game.state.GameState`. Both round-trip through plain JSON for the journal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.errors import GameSetupError
from engine.options import OptionValue
from engine.variants import Variant, find

if TYPE_CHECKING:
    from engine.game.claims import ClaimRules


class SetupError(GameSetupError):
    """A game that cannot start: too few or too many players, a bad option."""


class SeatingError(SetupError):
    """Players seated so the game cannot be played: partners side by side, teams in a game
    without partnerships, teams of unequal size."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A player in a chair; ``team`` names a partnership ("" when playing alone)."""

    name: str
    team: str = ""




@dataclass(frozen=True)
class Game:
    """One game's fixed parameters. ``options`` are house rules (the judge's options plus
    table ones: ``count`` = ``best``/``arranged``, ``deals`` for deals rummy)."""

    variant_id: str
    seats: tuple[Seat, ...]
    turn_seconds: int = 0  # 0: the variant's own (45 s unless it says otherwise)
    first_dealer: int = 0
    options: Mapping[str, OptionValue] = field(default_factory=dict)

    def __post_init__(self) -> None:
        variant = self.variant
        n = len(self.seats)
        if not variant.min_players <= n <= variant.max_players:
            raise SetupError(f"{variant.name} needs {variant.min_players} to "
                             f"{variant.max_players} players, not {n}")
        if not 0 <= self.first_dealer < n:
            raise SetupError(f"no seat {self.first_dealer} to deal first")
        if self.turn_seconds < 0:
            raise SetupError("a turn timer cannot be negative")
        check_seating(variant, self.seats)
        problem = variant.setup_problem(n, self.options)
        if problem:
            raise SetupError(problem)

    @property
    def variant(self) -> Variant:
        return find(self.variant_id)

    @property
    def players(self) -> int:
        return len(self.seats)

    def option(self, key: str, default: OptionValue) -> OptionValue:
        return self.options.get(key, default)

    @property
    def claim_rules(self) -> ClaimRules | None:
        """The claims out of turn this table plays by: the variant's, as its house rules say
        (a claim the text makes optional is played only when the table switches it on)."""
        return self.variant.table_claim_rules(self.options)

    def judge_options(self) -> dict[str, Any]:
        """The options the variant's judge understands (table-only keys removed)."""
        return {k: v for k, v in self.options.items() if k not in TABLE_OPTIONS}

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant_id,
            "seats": [{"name": s.name, "team": s.team} for s in self.seats],
            "turn_seconds": self.turn_seconds,
            "first_dealer": self.first_dealer,
            "options": dict(self.options),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        try:
            seats = tuple(Seat(str(s["name"]), str(s.get("team", ""))) for s in data["seats"])
            return cls(str(data["variant"]), seats, int(data.get("turn_seconds", 0)),
                       int(data.get("first_dealer", 0)), dict(data.get("options", {})))
        except (KeyError, TypeError, AttributeError) as exc:
            raise SetupError(f"not a game description: {exc}") from None


#: Options the table uses itself, not passed to the judge.
TABLE_OPTIONS = frozenset({"count", "deals", "turn_checks", "cut_ins"})


#: The longest name a seat takes: what fits a seat's panel at 800×480 and a score sheet's column.
MAX_NAME = 24


#: The zero-width joiner and non-joiner: no control characters, though Python does not count
#: them printable; Indic names and emoji sequences are written with them.
NAME_JOINERS = "\u200c\u200d"


def check_names(seats: tuple[Seat, ...]) -> None:
    """Raise :class:`SetupError` unless every seat has a name of its own: not empty (nor only
    spaces or control characters), at most :data:`MAX_NAME` characters, and no two the same
    (ignoring case and surrounding spaces: "Ravi" and "ravi " would be one player twice)."""
    seen: dict[str, int] = {}
    for i, seat in enumerate(seats):
        name = seat.name.strip()
        if not name or not all(ch.isprintable() or ch in NAME_JOINERS for ch in name):
            raise SetupError(f"seat {i + 1} needs a name" + (" without control characters" if name else ""))
        if len(name) > MAX_NAME:
            raise SetupError(f"seat {i + 1}'s name {name[:MAX_NAME]!r}… is longer than {MAX_NAME} characters")
        key = name.casefold()
        if key in seen:
            raise SetupError(f"{name!r} sits at seats {seen[key] + 1} and {i + 1}: each player needs a name of their own")
        seen[key] = i


def has_partnerships(variant: Variant) -> bool:
    """Is the game played by two teams of partners? (Open Rummy, Push.)"""
    return variant.partnerships


def _who(seats: tuple[Seat, ...], seat: int) -> str:
    return f"seat {seat + 1} ({seats[seat].name})"


def check_seating(variant: Variant, seats: tuple[Seat, ...]) -> None:
    """Raise :class:`SeatingError` unless the seats can play ``variant`` as seated.

    In a partnership game partners sit alternately, each player between two opponents (the
    rules' "sitting alternately"; Push's "directly across" at four), so teams follow the
    seats: 1, 3, 5… against 2, 4, 6…. Seats that name no team get exactly that; seats that
    name teams must name two, one per seat, never the same for two neighbours around the
    table. A game without partnerships takes no teams.
    """
    named = [s for s, seat in enumerate(seats) if seat.team]
    if not has_partnerships(variant):
        if named:
            raise SeatingError(f"{variant.name} is not a partnership game, but "
                               f"{', '.join(_who(seats, s) for s in named)} name a team")
        return
    if not named:
        return
    n = len(seats)
    if len(named) < n:
        missing = [s for s in range(n) if not seats[s].team]
        raise SeatingError(f"name a team for every seat or for none: "
                           f"{', '.join(_who(seats, s) for s in missing)} have no team")
    teams = sorted({seat.team for seat in seats})
    if len(teams) != 2:
        raise SeatingError(f"{variant.name} is played by two teams, not {len(teams)} "
                           f"({', '.join(teams)})")
    side_by_side = [(s, (s + 1) % n) for s in range(n) if seats[s].team == seats[(s + 1) % n].team]
    if side_by_side:
        pairs = "; ".join(f"{_who(seats, a)} and {_who(seats, b)} are both on team {seats[a].team}"
                          for a, b in side_by_side)
        raise SeatingError("partners must sit alternately, each player between two opponents "
                           f"(teams go seat 1, 3, … against seat 2, 4, …): {pairs}")
