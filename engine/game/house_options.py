"""The house rules a table may set (``--option KEY=VALUE``), checked before a game starts.

Each family's judge reads a few switches (see its ``variants`` module) and the table reads a
few of its own (``count``, ``deals``, ``turn_checks``). A key no part of the kit reads, or a
value of the wrong kind, is refused with the keys the game does take: a misspelt house rule
that was silently ignored would referee a different game from the one the players agreed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.errors import GameSetupError
from engine.game.setup import OptionValue
from engine.variants import Variant


class OptionError(GameSetupError):
    """A house rule the game does not have, or a value it cannot take."""


@dataclass(frozen=True, slots=True)
class Kind:
    """What one option takes: a switch, a whole number in ``low..high`` or one of ``choices``."""

    what: str  # "switch", "number", "choice"
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()

    def describe(self) -> str:
        if self.what == "number":
            return f"a whole number from {self.low} to {self.high}"
        if self.what == "choice":
            return " or ".join(self.choices)
        return "true or false"

    def accepts(self, value: OptionValue) -> bool:
        if self.what == "switch":
            return isinstance(value, bool)
        if self.what == "number":
            return isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high
        return value in self.choices


SWITCH = Kind("switch")
COUNT = Kind("choice", choices=("best", "arranged"))

#: Keys each family's judge reads, with what each takes.
FAMILY_OPTIONS: Mapping[str, Mapping[str, Kind]] = {
    "indian": {"wrap": SWITCH, "wild_in_place_pure": SWITCH, "joker_only_melds": SWITCH,
               "min_show_groups": Kind("number", 1, 5), "count": COUNT},
    "contract": {"same_suit_runs": SWITCH, "bent_table": SWITCH, "count": COUNT},
    "open-rummy": {"turn_checks": SWITCH},
    # (the tile turned up at each deal, the judge's ``ace``, is the table's to set, not the house's)
    "tile": {"ace_dealt": SWITCH, "first_meld": Kind("number", 0, 500), "closing_tile": SWITCH},
}

#: Deals rummy plays a fixed number of deals; the house may choose how many.
DEALS = Kind("number", 1, 12)


def options_for(variant: Variant) -> dict[str, Kind]:
    """Every house rule ``variant`` takes, by key."""
    known = dict(FAMILY_OPTIONS.get(variant.family, {}))
    if getattr(variant, "deal_count", None) is not None:
        known["deals"] = DEALS
    return known


def check_options(variant: Variant, options: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
    """``options`` unchanged when ``variant`` takes every one of them; else :class:`OptionError`
    naming the first bad key and what it should be."""
    known = options_for(variant)
    for key, value in options.items():
        kind = known.get(key)
        if kind is None:
            offer = ", ".join(sorted(known)) or "none"
            raise OptionError(f"{variant.name} has no house rule {key!r} (it takes: {offer})")
        if not kind.accepts(value):
            raise OptionError(f"house rule {key} must be {kind.describe()}, not {value!r}")
    return dict(options)
