"""The detector's class lists: corner-index classes and whole-card rank classes, in output order."""

from __future__ import annotations

from typing import Final

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: Final = ("S", "H", "D", "C")

#: Corner-index classes: every rank+suit, then the printed joker.
INDEX_CLASSES: Final = tuple(r + s for s in SUITS for r in RANKS) + ("PJ",)
#: Whole-card classes: every rank, then the printed joker (suits are read from the indices).
CARD_CLASSES: Final = RANKS + ("PJ",)


def index_class(label: str) -> int:
    """The index-class number of a label such as ``10C``, ``QH``, ``BLACK JOKER``."""
    t = label.strip().upper()
    if "JOKER" in t or t in ("PJ", "JK"):
        return INDEX_CLASSES.index("PJ")
    if t.startswith("T"):
        t = "10" + t[1:]
    return INDEX_CLASSES.index(t)


def card_class(rank: str) -> int:
    """The card-class number of a rank such as ``9``, ``10``, ``K``."""
    t = rank.strip().upper()
    if "JOKER" in t or t in ("PJ", "JK"):
        return CARD_CLASSES.index("PJ")
    return CARD_CLASSES.index("10" if t == "T" else t)
