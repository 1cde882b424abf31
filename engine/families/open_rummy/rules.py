"""Open Rummy turn rules as small checks on plain data, for the game flow and the turn checker.

Each check answers ``None`` when the action is allowed, or the broken rule in players' words;
each action returns new values and never changes its arguments.

- Partners sit alternately (seats 0, 2, … against 1, 3, …); a player touches only the melds
  of their own team, and opens new melds only in front of themselves.
- Drawing: one card from the stock, or any number from the top of the discard pile when at
  least one natural card taken is played at once; the first player may keep a joker the
  dealer turned up without playing it.
- A player keeps a card to discard: laying down every card in hand is not allowed.
- Discarding a joker kills the pile: the joker and the pile under it leave the game.
- A joker in the team's sequence is replaced only by the natural card it stands for; a
  printed joker then goes to the hand, a sliding joker slides to an end of the sequence.
- Two sequences of one seat join only if together they never held more than three jokers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Literal

from engine.cards import Card
from engine.errors import MeldError
from engine.families.open_rummy.melds import (
    MAX_JOKERS,
    classify_open,
    is_joker,
    is_printed,
    natural_rank,
)

End = Literal["low", "high"]


def partners(a: int, b: int) -> bool:
    """Same team: seats 0, 2, … play against seats 1, 3, …."""
    return a % 2 == b % 2


def touch_problem(mover: int, owner: int, opening: bool = False) -> str | None:
    """May ``mover`` change (or, with ``opening``, lay a new meld in) the area of seat ``owner``?"""
    if not partners(mover, owner):
        return "nobody may add to, replace jokers in or touch an opponent's melds"
    if opening and mover != owner:
        return "new melds go only in front of the player who lays them"
    return None


def pile_take_problem(pile: Sequence[Card], taken: int, played: Iterable[Card], first_turn: bool = False
                      ) -> str | None:
    """May the top ``taken`` cards of ``pile`` be taken, given the cards ``played`` this turn?"""
    if not 1 <= taken <= len(pile):
        return f"the discard pile holds {len(pile)} cards; {taken} cannot be taken from it"
    cards = pile[len(pile) - taken:]
    if first_turn and taken == 1 and len(pile) == 1 and is_joker(cards[0]):
        return None
    on_table = Counter(played)
    naturals = [c for c in cards if not is_joker(c)]
    if any(on_table[c] for c in naturals):
        return None
    if len(naturals) < len(cards):
        return "took the dealer's joker with the pile but played none of the natural cards taken: one must be played at once"
    return f"took {' '.join(map(str, cards))} from the discard pile without playing any of them at once"


def lay_down_problem(hand_size: int, laying: int) -> str | None:
    """A player must keep one card to discard."""
    if laying >= hand_size:
        return "laying down every card leaves nothing to discard: a turn always ends with one discard"
    return None


def discard(pile: Sequence[Card], card: Card) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The pile after discarding ``card``, and the cards that leave the game (a joker kills the pile)."""
    if is_joker(card):
        return (), tuple(pile) + (card,)
    return tuple(pile) + (card,), ()


def replace_joker(meld: Sequence[Card], index: int, card: Card, slide_to: End | None = None
                  ) -> tuple[tuple[Card, ...], Card | None]:
    """Replace the joker at ``index`` by ``card``; return the new meld and a printed joker for the hand.

    A sliding joker stays: ``slide_to`` says which end it moves to (``None`` leaves it to
    the opener, and the two is returned beside the meld instead). Raise :class:`MeldError`
    when the replacement is not allowed.
    """
    m = classify_open(meld)
    if not m.readings:
        raise MeldError("jokers are replaced only in sequences")
    joker = meld[index]
    if not is_joker(joker):
        raise MeldError(f"{joker} is not a joker")
    if is_joker(card):
        raise MeldError("a joker can only be replaced by a natural card, never by another joker")
    stands = [r.positions[index] for r in m.readings]
    suit = m.readings[0].suit
    if card.suit != suit or natural_rank(card) not in stands:
        raise MeldError(f"{card} is not the card the joker stands for")
    reading = m.readings[stands.index(natural_rank(card))]
    swapped = tuple(meld[:index]) + (card,) + tuple(meld[index + 1:])
    if is_printed(joker):
        return swapped, joker
    if slide_to is None:
        return swapped, joker
    ascending = reading.positions[0] < reading.positions[-1]
    front = (slide_to == "low") == ascending
    new = (joker,) + swapped if front else swapped + (joker,)
    if not classify_open(new).valid:
        raise MeldError(f"{joker} cannot slide to the {slide_to} end of this sequence")
    return new, None


def join_problem(first: Sequence[Card], second: Sequence[Card], peak_first: int = 0, peak_second: int = 0
                 ) -> str | None:
    """May two sequences of one seat, laid end to end, be joined?"""
    jokers = sum(1 for c in (*first, *second) if is_joker(c))
    held = max(peak_first, sum(1 for c in first if is_joker(c))) + max(
        peak_second, sum(1 for c in second if is_joker(c)))
    if max(jokers, held) > MAX_JOKERS:
        return f"these sequences have held more than {MAX_JOKERS} jokers between them, so they can never be joined"
    joined = classify_open(tuple(first) + tuple(second))
    if not joined.valid or not joined.is_sequence:
        return f"they do not make one sequence: {joined.reason}"
    return None
