"""The variant registry: every game the kit referees, found by id.

Each game family is a package under ``engine/families/`` whose games module declares its
variants in a ``VARIANTS`` tuple; :func:`find` imports those modules on first use (one broken
family must not take the judge down for every other game) and registers what they declare.
A family module never imports this registry, so the rules sit below it and nothing circles.
"""

from __future__ import annotations

import importlib
import importlib.util
import threading

from engine.errors import UnknownVariantError
from engine.variants.base import JudgeRequest, Variant

__all__ = ["JudgeRequest", "Variant", "all_variants", "find", "register", "KNOWN_IDS"]

#: Each family's module declaring its games, as (family, module).
_FAMILY_MODULES = (
    ("indian", "engine.families.indian.variants"),
    ("contract", "engine.families.contract.games"),
    ("open_rummy", "engine.families.open_rummy.variants"),
    ("tile", "engine.families.tile.variants"),
)

# Every id the judge contract names; ids whose family has not landed answer "not implemented".
KNOWN_IDS = (
    "indian-points", "indian-pool-101", "indian-pool-201", "indian-deals",
    "open-rummy", "open-rummy-3deck", "open-rummy-3deck-slow", "open-rummy-6p",
    "open-rummy-6p-3deck", "open-rummy-2deck", "tile-rummy",
    "contract-rummy", "contract-twos-wild", "jo", "progressive-rummy", "king-rummy", "shanghai",
    "loba", "carioca", "sa-kaluki", "caribbean-kalooki", "super-kalooki", "baby-kalooki",
    "kalooki-40", "na-kalooki", "russian-rummy", "telefunken", "farmers-rummy", "push", "onze",
    "american-jokers", "american-jokers-single", "american-jokers-alt", "dummy-rummy",
)

_REGISTRY: dict[str, Variant] = {}
_BROKEN: dict[str, str] = {}
_loaded = False
#: Held while the families load: a second thread asking meanwhile (a club's simulated tables
#: starting together) waits for the whole registry instead of finding it half filled.
_LOADING = threading.RLock()


def register(*variants: Variant) -> None:
    for v in variants:
        _REGISTRY[v.id] = v


def _load() -> None:
    global _loaded
    if _loaded:
        return
    with _LOADING:
        if not _loaded:
            _load_families()
            _loaded = True


def _load_families() -> None:
    for family, name in _FAMILY_MODULES:
        if importlib.util.find_spec(name) is None:
            continue
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            # One broken family must not take the judge down for every other game.
            _BROKEN[family] = f"{type(exc).__name__}: {exc}"
            continue
        register(*module.VARIANTS)


def find(variant_id: str) -> Variant:
    """The variant registered under ``variant_id`` (case-insensitive)."""
    _load()
    key = variant_id.strip().lower()
    if key in _REGISTRY:
        return _REGISTRY[key]
    if key in KNOWN_IDS:
        broken = "; ".join(f"{fam} failed to load ({why})" for fam, why in _BROKEN.items())
        raise UnknownVariantError(f"variant not implemented yet: {variant_id}" + (f" [{broken}]" if broken else ""))
    raise UnknownVariantError(f"unknown variant {variant_id!r}")


def all_variants() -> list[Variant]:
    _load()
    order = {vid: i for i, vid in enumerate(KNOWN_IDS)}
    return sorted(_REGISTRY.values(), key=lambda v: (order.get(v.id, len(order)), v.id))
