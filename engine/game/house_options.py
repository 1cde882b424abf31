"""The house rules a table may set (``--option KEY=VALUE``), checked before a game starts.

Each family's variant class names the rules it reads (``Variant.house_options``, the judge's
switches and the table's own such as ``count``); a key no part of the kit reads, or a value of
the wrong kind, is refused with the keys the game does take: a misspelt house rule that was
silently ignored would referee a different game from the one the players agreed.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.errors import GameSetupError
from engine.options import OptionKind, OptionValue
from engine.variants import Variant


class OptionError(GameSetupError):
    """A house rule the game does not have, or a value it cannot take."""


def options_for(variant: Variant, *, judge: bool = False) -> Mapping[str, OptionKind]:
    """Every house rule ``variant`` takes at a table, by key; with ``judge``, also the judge's
    switches about one hand (``bent_table``) that are no house rule."""
    table = variant.table_options()
    return {**variant.house_options, **table} if judge else table


def check_options(variant: Variant, options: Mapping[str, OptionValue], *,
                  judge: bool = False) -> dict[str, OptionValue]:
    """``options`` as ``variant`` takes them (a switch given as 1 or 0 made true or false) when
    it takes every one of them (at a table, or asked of the judge); else :class:`OptionError`
    naming the first bad key and what it should be."""
    known = options_for(variant, judge=judge)
    out: dict[str, OptionValue] = {}
    for key, value in options.items():
        kind = known.get(key)
        if kind is None:
            offer = ", ".join(sorted(known)) or "none"
            raise OptionError(f"{variant.name} has no house rule {key!r} (it takes: {offer})")
        out[key] = kind.coerce(value)  # a switch given as 1 or 0
        if not kind.accepts(out[key]):
            raise OptionError(f"house rule {key} must be {kind.describe()}, not {value!r}")
    return out
