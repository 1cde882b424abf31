"""Legal random play of Open Rummy deals: a move generator for property tests and benchmarks.

:class:`PlayDeal` holds everything a real table would (hands, melds per seat in table order,
the discard pile, the stock); :func:`play_turn` plays one legal turn for the seat on turn with a
seeded :class:`random.Random` and returns the table states before and after it, exactly what the
camera would hand the referee. The moves are the ones the rules allow: drawing from the stock
or taking from the top of the discard pile when a taken natural card can be played at once
(and the first player keeping a turned-up joker), opening sequences and groups, adding to the
ends of the team's sequences and groups, replacing jokers (a printed joker back to the hand, a
sliding joker slid to an end, or left beside a partner's melds for the partner to place),
joining a seat's sequences, and one discard (a joker kills the pile). It plays legally, not well.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from engine.cards import Card, full_deck
from engine.families.open_rummy.melds import (
    ACE,
    LOWEST,
    MAX_JOKERS,
    SequenceReading,
    classify_open,
    is_joker,
    is_printed,
    natural_rank,
)
from engine.table import TableMeld, TableState


def card_at(position: int, suit: str) -> Card:
    return Card(1 if position == ACE else position, suit)


@dataclass(frozen=True, slots=True)
class Move:
    """Replace melds ``remove`` of ``seat`` by ``add``; ``uses`` leave the hand, ``returns`` join it."""

    seat: int
    remove: tuple[int, ...]
    add: tuple[tuple[Card, ...], ...]
    peaks: tuple[int, ...]
    uses: tuple[Card, ...]
    returns: tuple[Card, ...] = ()


@dataclass
class PlayDeal:
    """One deal in progress, with everything hidden from the camera too."""

    players: int
    hands: list[list[Card]]
    melds: dict[int, list[tuple[Card, ...]]]
    peaks: dict[int, list[int]]
    pile: list[Card]
    stock: list[Card]
    seat: int = 0
    turns: int = 0
    killed: list[Card] = field(default_factory=list)

    def state(self) -> TableState:
        melds = {s: tuple(TableMeld(m) for m in ms) for s, ms in self.melds.items() if ms}
        return TableState(melds, tuple(self.pile), len(self.stock))

    @property
    def over(self) -> bool:
        return not self.stock or any(not h for h in self.hands)


def new_deal(rng: random.Random, players: int = 4, decks: int = 4, dealt: int = 45) -> PlayDeal:
    cards = full_deck(decks, 3 * decks)
    rng.shuffle(cards)
    hands = [cards[i * dealt:(i + 1) * dealt] for i in range(players)]
    rest = cards[players * dealt:]
    up = rest.pop()
    return PlayDeal(players, hands, {s: [] for s in range(players)}, {s: [] for s in range(players)},
                    [up], rest)


def _reading(meld: Sequence[Card]) -> SequenceReading | None:
    m = classify_open(meld)
    return m.readings[0] if m.readings else None


def _valid_sequence(cards: Sequence[Card]) -> bool:
    m = classify_open(cards)
    return m.valid and m.is_sequence


def _opening_moves(hand: Sequence[Card], seat: int) -> list[Move]:
    moves: list[Move] = []
    by_suit: dict[str, set[int]] = {}
    jokers = [c for c in hand if is_joker(c)]
    for c in hand:
        if not is_joker(c):
            by_suit.setdefault(c.suit, set()).add(natural_rank(c))
    for suit, ranks in by_suit.items():
        for start in range(LOWEST, ACE - 1):
            window = [start, start + 1, start + 2]
            have = [p for p in window if p in ranks]
            if len(have) == 3:
                cards = tuple(card_at(p, suit) for p in window)
                moves.append(Move(seat, (), (cards,), (0,), cards))
            elif len(have) == 2 and jokers:
                j = jokers[0]
                cards = tuple(card_at(p, suit) if p in ranks else j for p in window)
                moves.append(Move(seat, (), (cards,), (1,), cards))
    for rank in (3, 1):
        same = [c for c in hand if c.rank == rank]
        if len(same) >= 3:
            suited = Counter(c.suit for c in same).most_common(1)[0]
            if suited[1] >= 3:
                cards = (Card(rank, suited[0]),) * min(suited[1], 4)
            else:
                cards = tuple(same[:3])
            moves.append(Move(seat, (), (cards,), (0,), cards))
    return moves


def _meld_moves(hand: Sequence[Card], seat: int, owner: int, index: int, meld: tuple[Card, ...],
                peak: int, settled: bool = False) -> list[Move]:
    """Adding to, and replacing jokers in, one meld of the team; ``settled``: untouched this turn.

    Only a settled meld's jokers are replaced: a joker laid this turn stood for no card before
    it, so replacing it and sliding it beyond the end of a complete set would be a joker added
    to that set (the referee's reading of the turn as a whole, ``turn_checks``)."""
    moves: list[Move] = []
    m = classify_open(meld)
    have = Counter(hand)
    if m.is_group:
        for c in have:
            if natural_rank(c) == m.rank and not is_joker(c):
                moves.append(Move(owner, (index,), (meld + (c,),), (0,), (c,)))
        return moves
    if not m.readings:
        return moves
    r = m.readings[0]
    step = r.positions[1] - r.positions[0]
    front, back = r.positions[0] - step, r.positions[-1] + step
    jokers = [c for c in have if is_joker(c)]
    for pos, at_front in ((front, True), (back, False)):
        if not LOWEST <= pos <= ACE:
            continue
        options = [card_at(pos, r.suit)] + jokers[:1]
        for c in options:
            if have[c] == 0:
                continue
            new = (c,) + meld if at_front else meld + (c,)
            if _valid_sequence(new):
                moves.append(Move(owner, (index,), (new,), (max(peak, _jokers(new)),), (c,)))
    for i, (pos, c) in enumerate(zip(r.positions, meld, strict=True)):
        if not settled or not is_joker(c) or not LOWEST <= pos <= ACE:
            continue
        real = card_at(pos, r.suit)
        if have[real] == 0:
            continue
        swapped = meld[:i] + (real,) + meld[i + 1:]
        if is_printed(c):
            moves.append(Move(owner, (index,), (swapped,), (peak,), (real,), (c,)))
            continue
        for new in ((c,) + swapped, swapped + (c,)):
            if _valid_sequence(new):
                moves.append(Move(owner, (index,), (new,), (peak,), (real,)))
        if owner != seat and settled:  # in a partner's sequence the slide may be left to the opener
            moves.append(Move(owner, (index,), (swapped, (c,)), (peak, 1), (real,)))
    return moves


def _placing_moves(seat: int, melds: Sequence[tuple[Card, ...]], peaks: Sequence[int],
                   settled: Collection[tuple[Card, ...]]) -> list[Move]:
    """The opener places a sliding joker a partner left beside their melds at an end of a sequence.

    Only sequences untouched so far this turn (``settled``) are candidates, so the joker goes
    back to a sequence that was on the table when it was left aside.
    """
    moves: list[Move] = []
    for j, lone in enumerate(melds):
        if len(lone) != 1 or not is_joker(lone[0]):
            continue
        for i, meld in enumerate(melds):
            if meld not in settled or _reading(meld) is None:
                continue
            for new in (lone + meld, meld + lone):
                if _valid_sequence(new):
                    moves.append(Move(seat, (i, j), (new,), (max(peaks[i], _jokers(new)),), ()))
    return moves


def _jokers(cards: Sequence[Card]) -> int:
    return sum(1 for c in cards if is_joker(c))


def _join_moves(hand: Sequence[Card], owner: int, melds: Sequence[tuple[Card, ...]],
                peaks: Sequence[int]) -> list[Move]:
    moves: list[Move] = []
    have = Counter(hand)
    reads = [_reading(m) for m in melds]
    for i, ri in enumerate(reads):
        for j, rj in enumerate(reads):
            if i == j or ri is None or rj is None or ri.suit != rj.suit:
                continue
            if ri.positions != tuple(sorted(ri.positions)) or rj.positions != tuple(sorted(rj.positions)):
                continue
            if peaks[i] + peaks[j] > MAX_JOKERS:
                continue
            gap = rj.low - ri.high - 1
            if gap == 0:
                between: tuple[Card, ...] = ()
            elif gap == 1 and have[card_at(ri.high + 1, ri.suit)]:
                between = (card_at(ri.high + 1, ri.suit),)
            else:
                continue
            new = melds[i] + between + melds[j]
            if _valid_sequence(new):
                moves.append(Move(owner, (i, j), (new,), (peaks[i] + peaks[j],), between))
    return moves


def legal_moves(deal: PlayDeal, seat: int, hand: Sequence[Card],
                settled: Collection[tuple[Card, ...]] = ()) -> list[Move]:
    """Every play the generator knows for ``seat`` with ``hand`` (keeping one card to discard).

    ``settled``: the team's melds as they were when the turn began.
    """
    moves = _opening_moves(hand, seat)
    for owner in range(seat % 2, deal.players, 2):
        for i, meld in enumerate(deal.melds[owner]):
            moves += _meld_moves(hand, seat, owner, i, meld, deal.peaks[owner][i], meld in settled)
        moves += _join_moves(hand, owner, deal.melds[owner], deal.peaks[owner])
    moves += _placing_moves(seat, deal.melds[seat], deal.peaks[seat], settled)
    return [m for m in moves if len(m.uses) < len(hand)]


def _apply(deal: PlayDeal, hand: list[Card], move: Move) -> None:
    melds, peaks = deal.melds[move.seat], deal.peaks[move.seat]
    for i in sorted(move.remove, reverse=True):
        del melds[i]
        del peaks[i]
    melds.extend(move.add)
    peaks.extend(move.peaks)
    for c in move.uses:
        hand.remove(c)
    hand.extend(move.returns)


def play_turn(deal: PlayDeal, rng: random.Random, max_plays: int = 3) -> tuple[TableState, TableState]:
    """Play one legal turn for the seat on turn; return the table before and after it."""
    before = deal.state()
    seat = deal.seat
    settled = frozenset(m for owner in range(seat % 2, deal.players, 2) for m in deal.melds[owner])
    hand = deal.hands[seat]
    first = deal.turns == 0 and len(deal.pile) == 1 and is_joker(deal.pile[0])
    took = False
    if first and rng.random() < 0.7:
        hand.append(deal.pile.pop())
        took = True
    elif deal.pile and rng.random() < 0.6:
        depths = list(range(1, len(deal.pile) + 1))
        rng.shuffle(depths)
        for k in depths[:4]:
            taken = deal.pile[-k:]
            trial = hand + taken
            wanted = {c for c in taken if not is_joker(c)}
            usable = [m for m in legal_moves(deal, seat, trial, settled) if wanted & set(m.uses)]
            if usable:
                del deal.pile[-k:]
                hand.extend(taken)
                _apply(deal, hand, rng.choice(usable))
                took = True
                break
    if not took:
        hand.append(deal.stock.pop())
    for _ in range(rng.randint(0, max_plays)):
        moves = legal_moves(deal, seat, hand, settled)
        if not moves:
            break
        _apply(deal, hand, rng.choice(moves))
    discard = hand.pop(rng.randrange(len(hand)))
    if is_joker(discard):
        deal.killed += deal.pile + [discard]
        deal.pile = []
    else:
        deal.pile.append(discard)
    deal.turns += 1
    deal.seat = (seat + 1) % deal.players
    return before, deal.state()
