"""Rulings: the engine's answer about a hand or a table, in numbers and in players' words.

The same object feeds ``tablekit judge`` JSON, the verdict screen and the journal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.cards import Card
from engine.tiles import Tile

Number = int | float | Fraction


def plain_number(x: Number) -> int | float:
    """An int when the value is whole, else a float (JSON-friendly)."""
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else float(x)
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


@dataclass(frozen=True, slots=True)
class GroupRuling:
    """One group of a hand or table as the engine reads it."""

    cards: tuple[Card | Tile, ...]
    kind: str
    points: Number = 0
    bonus: Number = 0
    reason: str = ""

    @property
    def valid(self) -> bool:
        return self.kind != "invalid"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "cards": [str(c) for c in self.cards],
            "kind": self.kind,
            "points": plain_number(self.points),
            "bonus": plain_number(self.bonus),
        }
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True, slots=True)
class Ruling:
    """The answer to one judge question."""

    valid: bool
    points: Number
    groups: tuple[GroupRuling, ...] = ()
    reason: str = ""
    violations: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self, variant: str, mode: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "variant": variant,
            "mode": mode,
            "valid": self.valid,
            "points": plain_number(self.points),
            "groups": [g.to_json() for g in self.groups],
            "reason": self.reason,
        }
        if self.violations or mode == "turn":
            out["violations"] = list(self.violations)
        out.update(self.extra)
        return out


def join_reasons(parts: Sequence[str]) -> str:
    return "; ".join(p for p in parts if p)
