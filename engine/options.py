"""What a house rule takes: the kinds of value a table's ``--option KEY=VALUE`` may give.

Each family's variant class names the house rules it reads (:attr:`Variant.house_options`);
:func:`engine.game.house_options.check_options` checks a table's options against them.
"""

from __future__ import annotations

from dataclasses import dataclass

OptionValue = bool | int | str


@dataclass(frozen=True, slots=True)
class OptionKind:
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

    def coerce(self, value: OptionValue) -> OptionValue:
        """``value`` as this kind takes it: a switch given as 1 or 0 is true or false."""
        if self.what == "switch" and type(value) is int and value in (0, 1):
            return bool(value)
        return value

    def accepts(self, value: OptionValue) -> bool:
        if self.what == "switch":
            return isinstance(value, bool)
        if self.what == "number":
            return isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high
        return value in self.choices


SWITCH = OptionKind("switch")
#: How a losing hand is counted at the table: by its best arrangement, or as the player laid it out.
COUNT = OptionKind("choice", choices=("best", "arranged"))
