"""Hands and tables in the judge notation: groups separated by ``|``, items by spaces or commas."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from engine.cards import Card, parse_card
from engine.errors import DeckError, NotationError
from engine.tiles import Tile, parse_tile

T = TypeVar("T", Card, Tile)
_SEP = re.compile(r"[\s,]+")


def split_groups(text: str) -> list[list[str]]:
    """Split hand text into groups of tokens; empty groups are dropped."""
    groups = []
    for part in text.split("|"):
        tokens = [t for t in _SEP.split(part.strip()) if t]
        if tokens:
            groups.append(tokens)
    return groups


def _parse_token(token: str, parse: Callable[[str], T]) -> T:
    try:
        return parse(token)
    except NotationError:
        raise
    except ValueError:  # e.g. digits Python will not read as a number ('R²', thousands of them)
        shown = token if len(token) <= 24 else token[:24] + "..."
        raise NotationError(f"unknown card or tile {shown!r}") from None


def _parse_groups(text: str, parse: Callable[[str], T]) -> list[list[T]]:
    if not isinstance(text, str):
        raise NotationError("a hand must be text in the judge notation")
    groups = [[_parse_token(tok, parse) for tok in group] for group in split_groups(text)]
    if not groups:
        raise NotationError("empty hand: no cards given")
    return groups


def parse_hand(text: str) -> list[list[Card]]:
    """Parse card groups, e.g. ``"4H 5H 6H | QD QS QC"``."""
    return _parse_groups(text, parse_card)


def parse_tiles(text: str) -> list[list[Tile]]:
    """Parse tile groups, e.g. ``"R10 R11 R12 | B7 Y7 K7"``."""
    return _parse_groups(text, parse_tile)


def parse_cards(text: str) -> list[Card]:
    """Parse a flat list of cards (group bars are ignored)."""
    return [c for g in parse_hand(text) for c in g] if text.strip() else []


def format_group(items: Iterable[Card | Tile]) -> str:
    return " ".join(str(i) for i in items)


def format_hand(groups: Iterable[Iterable[Card | Tile]]) -> str:
    return " | ".join(format_group(g) for g in groups)


def check_copies(items: Sequence[Card | Tile], allowed: Counter[Card | Tile] | Callable[[Card | Tile], int]) -> None:
    """Raise :class:`DeckError` naming the first item seen more often than the decks hold."""
    seen: Counter[Card | Tile] = Counter(items)
    for item, n in seen.items():
        limit = allowed(item) if callable(allowed) else allowed[item]
        if n > limit:
            raise DeckError(f"too many copies of {item}: {n} given, the decks hold {limit}")
