"""Open Rummy melds: sequences read in table order, complete sets, and groups of Threes or Aces.

Facts from the Marwari Open Rummy text, in our words:

- Twos are always sliding jokers and printed jokers (``PJ``) are jokers too; natural cards run
  3-4-…-K-A and an ace is never below the three.
- A sequence is three or more cards of one suit in consecutive order, with at least one
  natural card and at most three jokers. The order on the table fixes what each joker stands
  for: ``2H 8S PJ 10S JS`` reads 7S 8S 9S 10S JS.
- A sequence covering 3 up to A is a complete set (pure without jokers, mixed with them). It
  may only grow past twelve cards by a sliding joker slid beyond the three or the ace after
  being replaced; such a joker stands for no card.
- Groups are three or more Threes or three or more Aces, never with a joker. A group of one
  suit laid whole in one turn (``3D 3D 3D``) is a suited group and earns a bonus; any other
  group is a value group.

Rulings where the text is silent (see ``docs/open-rummy.md``): a meld laid high to low is read
that way when its natural cards show it; with one natural card it is read low to high when
that works. A complete set that holds a slid two beyond its end stays mixed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from engine.cards import SUIT_NAMES, Card, rank_name, rank_text

LOWEST: Final = 3
ACE: Final = 14
MAX_JOKERS: Final = 3
SET_LENGTH: Final = ACE - LOWEST + 1  # 12 cards, 3 up to A

OpenKind = Literal[
    "pure-sequence", "sequence", "pure-complete-set", "complete-set", "suited-group", "set", "invalid"
]


def is_joker(card: Card) -> bool:
    """Printed jokers and every two are jokers in Open Rummy."""
    return card.rank in (0, 2)


def is_sliding(card: Card) -> bool:
    return card.rank == 2


def is_printed(card: Card) -> bool:
    return card.rank == 0


def natural_rank(card: Card) -> int:
    """The rank a natural card stands at in a sequence: 3 … 13, ace 14."""
    return ACE if card.rank == 1 else card.rank


def position_text(position: int, suit: str) -> str:
    """A place in a sequence as a card, e.g. ``7S``; beyond the ends, in words."""
    if position < LOWEST:
        return "below the three"
    if position > ACE:
        return "beyond the ace"
    return rank_text(1 if position == ACE else position) + suit


@dataclass(frozen=True, slots=True)
class SequenceReading:
    """One reading of a sequence: the suit and, card by card in table order, the rank it stands at.

    Positions below 3 or above 14 only occur for sliding jokers slid beyond a complete set.
    """

    suit: str
    positions: tuple[int, ...]
    jokers: int

    @property
    def low(self) -> int:
        return min(self.positions)

    @property
    def high(self) -> int:
        return max(self.positions)

    @property
    def complete(self) -> bool:
        return self.low <= LOWEST and self.high >= ACE

    def words(self) -> str:
        lo = max(self.low, LOWEST)
        hi = min(self.high, ACE)
        return f"{rank_text(lo)} to {rank_text(1 if hi == ACE else hi)} of {SUIT_NAMES[self.suit]}"


@dataclass(frozen=True, slots=True)
class OpenMeld:
    """What one group on the table is, and why (in players' words)."""

    kind: OpenKind
    reason: str
    readings: tuple[SequenceReading, ...] = ()
    rank: int = 0  # for groups: 3 or 14

    @property
    def valid(self) -> bool:
        return self.kind != "invalid"

    @property
    def is_sequence(self) -> bool:
        return bool(self.readings)

    @property
    def is_group(self) -> bool:
        return self.kind in ("suited-group", "set")

    @property
    def is_complete(self) -> bool:
        return self.kind in ("complete-set", "pure-complete-set")


_WORDS: Final = {3: "Threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens", 8: "eights",
                  9: "nines", 10: "tens", 11: "jacks", 12: "queens", 13: "kings", 14: "Aces"}
_COUNTS: Final = {3: "three", 4: "four"}


def _plural(rank: int) -> str:
    return _WORDS.get(rank, rank_name(rank) + "s")


def sequence_readings(cards: Sequence[Card]) -> tuple[tuple[SequenceReading, ...], str]:
    """Every reading of ``cards`` as a sequence in table order, or () and the reason there is none."""
    n = len(cards)
    if n < 3:
        return (), "a sequence needs at least three cards"
    naturals = [(i, c) for i, c in enumerate(cards) if not is_joker(c)]
    jokers = n - len(naturals)
    if not naturals:
        return (), "a sequence needs at least one natural card, not only jokers"
    if jokers > MAX_JOKERS:
        return (), f"too many jokers: at most {MAX_JOKERS} in one sequence, here {jokers}"
    suits = {c.suit for _, c in naturals}
    if len(suits) > 1:
        return (), "a sequence must be all one suit"
    suit = naturals[0][1].suit
    ranks = [natural_rank(c) for _, c in naturals]
    if len(set(ranks)) < len(ranks):
        dup = next(r for r in ranks if ranks.count(r) > 1)
        return (), f"a sequence cannot hold two {_plural(dup)}"
    found: list[SequenceReading] = []
    problem = "in the order laid, these cards are not consecutive"
    i0, c0 = naturals[0]
    for step in (1, -1):
        base = natural_rank(c0) - step * i0
        positions = tuple(base + step * k for k in range(n))
        if any(positions[i] != natural_rank(c) for i, c in naturals):
            continue
        outside = [k for k, p in enumerate(positions) if p < LOWEST or p > ACE]
        if outside:
            inside = n - len(outside)
            if inside < SET_LENGTH:
                low = min(positions) < LOWEST
                problem = ("a sequence cannot run below the three (an ace is never low)" if low
                           else "a sequence cannot run past the ace")
                continue
            if any(not is_sliding(cards[k]) for k in outside):
                problem = "only a sliding joker slid out of a complete set may lie beyond its ends"
                continue
        found.append(SequenceReading(suit, positions, jokers))
    if not found:
        return (), problem
    return tuple(found), ""


def classify_open(cards: Sequence[Card]) -> OpenMeld:
    """Classify one group of cards as laid on the table (a suited group counts as laid whole)."""
    if not cards:
        return OpenMeld("invalid", "an empty group")
    naturals = [c for c in cards if not is_joker(c)]
    ranks = {natural_rank(c) for c in naturals}
    if len(ranks) == 1 and len(naturals) >= 2:
        rank = next(iter(ranks))
        if rank not in (LOWEST, ACE):
            return OpenMeld("invalid", f"only Threes and Aces may form groups, not {_plural(rank)}")
        if len(naturals) < len(cards):
            return OpenMeld("invalid", f"no jokers may be used in a group of {_plural(rank)}")
        if len(cards) < 3:
            return OpenMeld("invalid", f"a group needs at least three {_plural(rank)}")
        if len({c.suit for c in cards}) == 1 and len(cards) <= 4:
            return OpenMeld("suited-group", f"a suited group of {_COUNTS.get(len(cards), str(len(cards)))} {_plural(rank)} of "
                            f"{SUIT_NAMES[cards[0].suit]}", rank=rank)
        return OpenMeld("set", f"a value group of {len(cards)} {_plural(rank)}", rank=rank)
    readings, problem = sequence_readings(cards)
    if not readings:
        return OpenMeld("invalid", problem)
    first = readings[0]
    if first.complete:
        if first.jokers == 0:
            return OpenMeld("pure-complete-set", f"a pure complete set, {first.words()}", readings)
        return OpenMeld("complete-set", f"a complete set with jokers, {first.words()}", readings)
    if first.jokers == 0:
        return OpenMeld("pure-sequence", f"a sequence {first.words()}", readings)
    return OpenMeld("sequence", f"a sequence {first.words()} with {first.jokers} joker"
                    + ("s" if first.jokers > 1 else ""), readings)
