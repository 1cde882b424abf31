"""The fixed parameters of one game at the table: the variant, who sits where, house rules.

A :class:`Game` never changes once play starts; everything that changes lives in
:class:`engine.game.state.GameState`. Both round-trip through plain JSON for the journal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import TablekitError
from engine.variants import Variant, find

#: A turn lasts this long unless the variant or the table says otherwise.
TURN_SECONDS = 45


class SetupError(TablekitError, ValueError):
    """A game that cannot start: too few or too many players, a bad option."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A player in a chair; ``team`` names a partnership ("" when playing alone)."""

    name: str
    team: str = ""


OptionValue = bool | int | str


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

    @property
    def variant(self) -> Variant:
        return find(self.variant_id)

    @property
    def players(self) -> int:
        return len(self.seats)

    def option(self, key: str, default: OptionValue) -> OptionValue:
        return self.options.get(key, default)

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
TABLE_OPTIONS = frozenset({"count", "deals"})
