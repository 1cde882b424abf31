"""Deal and game scoring for 13-card Indian rummy, as functions on plain data.

A deal ends with one outcome per seat (:class:`SeatResult`); :func:`deal_scores` turns them
into penalty points; :func:`pool_standings` and :func:`deals_standings` fold deals into a game.

Rules encoded (from the Indian rummy texts and the project's rulings):
- the valid declarer scores 0; a wrong show scores 80;
- a first drop (before drawing a card) scores 20, a middle drop 40 (pool 201: 25 and 50);
  three missed turns in a row drop the seat for the texts' "Consecutive Misses" 40 in every
  variant (pool 201 too, whose middle drop costs 50; deals rummy too, which allows no drop by
  choice: three missed turns drop a seat "in all variants");
- a losing hand scores its count (best or as arranged, decided by the caller), at most 80;
- a player who declares after the winner with a valid hand scores 2;
- deal show: a loser who had no turn yet before the valid show scores half their count,
  at least 2 and at most 40 (a count of 0 stays 0);
- pool rummy: scores add up; a player whose total reaches the pool limit is out;
- deals rummy: a fixed number of deals; each deal the winner takes the losers' points as chips
  (a loser whose hand counts 0 pays nothing, so a deal's winner is named, not guessed from 0s).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.errors import DeckError, TablekitError
from engine.outcomes import Outcome

if TYPE_CHECKING:
    from engine.families.indian.variants import IndianVariant

#: Cards dealt to each player.
HAND_SIZE = 13
#: The most cards a player can hold: the 13 dealt plus the card drawn in a turn. More is not a
#: hand (a zone misread, two hands run together): the best arrangement and the table refuse it.
MAX_HAND = HAND_SIZE + 1
#: A losing hand scores at most this; deals rummy also starts each seat with this many chips
#: per player.
FULL_COUNT_CAP = 80
#: What a wrong show costs.
WRONG_SHOW = 80


def check_hand_size(items: Sequence[object]) -> None:
    """Raise :class:`DeckError` for more cards than a player can hold (:data:`MAX_HAND`)."""
    if len(items) > MAX_HAND:
        raise DeckError(f"too many cards: {len(items)} given, a hand holds at most {MAX_HAND} "
                        f"({HAND_SIZE} dealt plus a draw)")


class ScoringError(TablekitError, ValueError):
    """Deal results that cannot happen under the rules (two winners, a drop where none is allowed)."""


DROPS = frozenset({Outcome.FIRST_DROP, Outcome.MIDDLE_DROP})
#: Three missed turns in a row: the texts' "Consecutive Misses" 40, in every variant (the
#: variant's ``missed_turns``; pool 201's dearer middle drop is not charged for them).
MISSED_TURNS_POINTS = 40
SECOND_VALID_POINTS = 2
DEAL_SHOW_MIN = 2
DEAL_SHOW_MAX = 40


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat finished a deal; ``count`` is the hand's count for a loser."""

    seat: int
    outcome: Outcome
    count: int = 0


def deal_show_points(count: int) -> int:
    """Half the hand's count, at least 2 and at most 40 (0 for a hand with nothing to count)."""
    if count <= 0:
        return 0
    return max(DEAL_SHOW_MIN, min(DEAL_SHOW_MAX, count // 2))


def seat_points(variant: IndianVariant, result: SeatResult) -> int:
    """Penalty points of one seat for one deal."""
    o = result.outcome
    if o in DROPS and not variant.drops_allowed:
        raise ScoringError(f"seat {result.seat}: {variant.name} allows no drop")
    if o is Outcome.WINNER:
        return 0
    if o is Outcome.WRONG_SHOW:
        return WRONG_SHOW
    if o is Outcome.FIRST_DROP:
        assert variant.first_drop is not None
        return variant.first_drop
    if o is Outcome.MISSED_TURNS:
        return variant.missed_turns
    if o is Outcome.MIDDLE_DROP:
        assert variant.middle_drop is not None
        return variant.middle_drop
    if o is Outcome.SECOND_VALID:
        return SECOND_VALID_POINTS
    if o is Outcome.DEAL_SHOW:
        return deal_show_points(result.count)
    if result.count < 0:
        raise ScoringError(f"seat {result.seat}: a count cannot be negative")
    return min(result.count, FULL_COUNT_CAP)


def deal_scores(variant: IndianVariant, results: Sequence[SeatResult]) -> dict[int, int]:
    """Penalty points per seat for one deal. At most one winner; seats must be distinct."""
    seats = [r.seat for r in results]
    if len(set(seats)) != len(seats):
        raise ScoringError("a seat appears twice in the deal results")
    winners = [r for r in results if r.outcome is Outcome.WINNER]
    if len(winners) > 1:
        raise ScoringError("a deal has at most one winner")
    return {r.seat: seat_points(variant, r) for r in results}


def winnings(scores: Mapping[int, int]) -> int:
    """What the winner collects in points rummy: the sum of every other seat's points."""
    return sum(scores.values())


@dataclass(frozen=True, slots=True)
class PoolStanding:
    totals: dict[int, int]
    eliminated: frozenset[int]
    winner: int | None
    over: bool


def pool_standings(variant: IndianVariant, deals: Sequence[Mapping[int, int]],
                   seats: Sequence[int] | None = None) -> PoolStanding:
    """Fold deal scores into pool totals; a seat reaching the limit is out; last seat left wins."""
    if variant.pool_limit is None:
        raise ScoringError(f"{variant.name} is not a pool game")
    all_seats = list(seats) if seats is not None else sorted({s for d in deals for s in d})
    totals = {s: 0 for s in all_seats}
    out: set[int] = set()
    for deal in deals:
        for seat, pts in deal.items():
            if seat in out:
                raise ScoringError(f"seat {seat} was already eliminated and cannot score")
            if seat not in totals:
                raise ScoringError(f"seat {seat} is not at this table")
            totals[seat] += pts
        out |= {s for s, t in totals.items() if t >= variant.pool_limit}
    alive = [s for s in all_seats if s not in out]
    winner = alive[0] if len(alive) == 1 else None
    return PoolStanding(totals, frozenset(out), winner, over=len(alive) <= 1)


@dataclass(frozen=True, slots=True)
class DealsStanding:
    chips: dict[int, int]
    deals_played: int
    over: bool
    leaders: tuple[int, ...] = field(default_factory=tuple)


def deals_standings(variant: IndianVariant, deals: Sequence[Mapping[int, int]],
                    seats: Sequence[int] | None = None, start_chips: int | None = None,
                    deal_count: int | None = None,
                    winners: Sequence[int | None] | None = None) -> DealsStanding:
    """Deals rummy: every seat starts with chips; each deal the winner (0 points) takes the
    losers' points from them. After the last deal the most chips win (ties share the lead).

    ``winners``: each deal's winner where known (None: the one seat with 0 points). A loser
    may count 0 too, so a deal with several seats at 0 needs its winner named."""
    n_deals = deal_count or variant.deal_count or 2
    if n_deals not in (2, 3):
        raise ScoringError(f"deals rummy is played over 2 or 3 deals, not {n_deals}")
    all_seats = list(seats) if seats is not None else sorted({s for d in deals for s in d})
    chips = {s: (start_chips if start_chips is not None else FULL_COUNT_CAP * len(all_seats)) for s in all_seats}
    if len(deals) > n_deals:
        raise ScoringError(f"only {n_deals} deals are played, got {len(deals)}")
    named = list(winners) if winners is not None else []
    for number, deal in enumerate(deals):
        winner = named[number] if number < len(named) else None
        if winner is None:
            zeros = [s for s, p in deal.items() if p == 0]
            if len(zeros) != 1:
                raise ScoringError("each deal of deals rummy needs exactly one winner with 0 points")
            winner = zeros[0]
        elif deal.get(winner) != 0:
            raise ScoringError(f"seat {winner} won a deal, so it scores 0 in it")
        for seat, pts in deal.items():
            chips[seat] -= pts
        chips[winner] += sum(deal.values())
    over = len(deals) == n_deals
    top = max(chips.values()) if chips else 0
    leaders = tuple(s for s in all_seats if chips[s] == top)
    return DealsStanding(chips, len(deals), over, leaders)
