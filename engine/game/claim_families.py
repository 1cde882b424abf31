"""Which claims a game allows at the table: asked of the game's variant and its family.

A variant that knows its own claims answers ``claim_rules`` (a :class:`ClaimRules` or None).
Otherwise each family that has claims declares them in a module of its own, beside its games'
data, with ``rules_for(variant) -> ClaimRules | None``; this module asks those modules in turn
(imported on first use, like the variant registry imports the families' games), and the first
answer that is not None is the game's. A family module never imports this one, so nothing
circles; nothing here knows a family's or a game's name.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from engine.game.claims import ClaimRules

if TYPE_CHECKING:
    from engine.game.setup import Game

#: The families' claim modules (each with ``rules_for(variant)``).
CLAIM_MODULES = (
    "engine.families.contract.claims",
)


@cache
def _askers() -> tuple[Callable[[Any], ClaimRules | None], ...]:
    found = []
    for name in CLAIM_MODULES:
        if importlib.util.find_spec(name) is None:
            continue
        found.append(importlib.import_module(name).rules_for)
    return tuple(found)


def claim_rules_for(game: Game) -> ClaimRules | None:
    """The claims ``game`` allows at the table (None: an out-of-turn press is no claim)."""
    variant = game.variant
    own = getattr(variant, "claim_rules", None)
    if isinstance(own, ClaimRules):
        return own
    for ask in _askers():
        rules = ask(variant)
        if rules is not None:
            return rules
    return None
