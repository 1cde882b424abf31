"""Playing cards and printed jokers, and the judge notation for them.

A card prints as ``<rank><suit>`` (``QH``, ``10C``); a printed joker prints as ``PJ``.
Parsing accepts ``T`` for ten, the suit symbols ``♠ ♥ ♦ ♣``, ``JK`` for a joker and any
letter case; printing always gives the canonical form, so ``parse(str(card)) == card``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.errors import NotationError

SUITS: Final = ("S", "H", "D", "C")
SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS: Final = frozenset({"H", "D"})
_SUIT_ALIASES: Final = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
RANK_TEXT: Final = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_NAMES: Final = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
_RANK_ALIASES: Final = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
JOKER_TOKENS: Final = frozenset({"PJ", "JK"})
#: The most packs any game of the kit shuffles together: Open Rummy's standard game, Russian
#: Rummy and Contract Rummy for seven or eight players use four (the tile game: one set).
MAX_DECKS: Final = 4
#: What a reader reports for a card it could not read (a camera, or a correction not yet made).
UNREADABLE: Final = "??"
#: Cards as text, grouped as they lie or as a player arranged them: one tuple per meld.
Groups = tuple[tuple[str, ...], ...]


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card. ``rank`` is 1 (ace) … 13 (king); a printed joker has rank 0, suit ''."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if self.rank == 0:
            if self.suit != "":
                raise NotationError("a printed joker has no suit")
        elif not (1 <= self.rank <= 13) or self.suit not in SUITS:
            raise NotationError(f"no such card: rank {self.rank}, suit {self.suit!r}")

    @property
    def is_joker(self) -> bool:
        """True for a printed joker (not for a card made wild by a cut)."""
        return self.rank == 0

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)

    def __str__(self) -> str:
        if self.rank == 0:
            return "PJ"
        return RANK_TEXT.get(self.rank, str(self.rank)) + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def name(self) -> str:
        """The card in words, for rulings: 'queen of hearts', 'joker'."""
        if self.rank == 0:
            return "joker"
        return f"{rank_name(self.rank)} of {SUIT_NAMES[self.suit]}"


JOKER: Final = Card(0, "")


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


def rank_text(rank: int) -> str:
    return RANK_TEXT.get(rank, str(rank))


def parse_rank(text: str) -> int:
    t = text.strip().upper()
    if t in _RANK_ALIASES:
        return _RANK_ALIASES[t]
    if t.isascii() and t.isdigit() and 2 <= int(t) <= 10 and not t.startswith("0"):
        return int(t)
    raise NotationError(f"unknown rank {text!r}")


def parse_card(text: str) -> Card:
    """Parse one card token; raise :class:`NotationError` naming the token otherwise."""
    if not isinstance(text, str):
        raise NotationError(f"unknown card {_quoted(repr(text))}: a card is text")
    token = text.strip()
    upper = token.upper()
    if upper in JOKER_TOKENS:
        return JOKER
    if len(upper) < 2:
        raise NotationError(f"unknown card {_quoted(token)}")
    suit = _SUIT_ALIASES.get(upper[-1], upper[-1])
    if suit not in SUITS:
        raise NotationError(f"unknown card {_quoted(token)}: bad suit")
    try:
        rank = parse_rank(upper[:-1])
    except NotationError:
        raise NotationError(f"unknown card {_quoted(token)}: bad rank") from None
    return Card(rank, suit)


def _quoted(token: str, limit: int = 24) -> str:
    """A token for an error message, cut short when it is long (a whole line pasted as one card)."""
    return repr(token if len(token) <= limit else token[:limit] + "...")


def full_deck(packs: int = 1, jokers: int = 0) -> list[Card]:
    """``packs`` standard 52-card packs plus ``jokers`` printed jokers, in a fixed order."""
    cards = [Card(r, s) for _ in range(packs) for s in SUITS for r in range(1, 14)]
    return cards + [JOKER] * jokers
