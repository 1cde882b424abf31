"""Indian rummy deal and game scoring on plain data."""

from __future__ import annotations

import pytest

from engine.families.indian.scoring import (
    ScoringError,
    SeatResult,
    deal_scores,
    deal_show_points,
    deals_standings,
    pool_standings,
    winnings,
)
from engine.outcomes import Outcome
from engine.variants import find

POINTS = find("indian-points")
POOL101 = find("indian-pool-101")
POOL201 = find("indian-pool-201")
DEALS = find("indian-deals")


def test_drops_wrong_show_and_the_cap() -> None:
    scores = deal_scores(POINTS, [
        SeatResult(0, Outcome.WINNER), SeatResult(1, Outcome.FIRST_DROP), SeatResult(2, Outcome.MIDDLE_DROP),
        SeatResult(3, Outcome.WRONG_SHOW), SeatResult(4, Outcome.LOST, 112), SeatResult(5, Outcome.MISSED_TURNS)])
    assert scores == {0: 0, 1: 20, 2: 40, 3: 80, 4: 80, 5: 40}
    assert winnings(scores) == 260


def test_pool_201_drops_cost_25_and_50() -> None:
    scores = deal_scores(POOL201, [SeatResult(0, Outcome.WINNER), SeatResult(1, Outcome.FIRST_DROP),
                                   SeatResult(2, Outcome.MIDDLE_DROP)])
    assert scores == {0: 0, 1: 25, 2: 50}


def test_deals_rummy_allows_no_drop() -> None:
    with pytest.raises(ScoringError, match="no drop"):
        deal_scores(DEALS, [SeatResult(0, Outcome.WINNER), SeatResult(1, Outcome.FIRST_DROP)])


def test_second_valid_declarer_scores_two() -> None:
    assert deal_scores(POINTS, [SeatResult(0, Outcome.WINNER), SeatResult(1, Outcome.SECOND_VALID)])[1] == 2


@pytest.mark.parametrize(("count", "points"), [(60, 30), (2, 2), (3, 2), (5, 2), (7, 3), (80, 40), (112, 40), (0, 0)])
def test_deal_show_is_half_with_bounds(count: int, points: int) -> None:
    assert deal_show_points(count) == points


def test_one_winner_per_deal_and_distinct_seats() -> None:
    with pytest.raises(ScoringError):
        deal_scores(POINTS, [SeatResult(0, Outcome.WINNER), SeatResult(1, Outcome.WINNER)])
    with pytest.raises(ScoringError):
        deal_scores(POINTS, [SeatResult(0, Outcome.WINNER), SeatResult(0, Outcome.LOST, 5)])


def test_pool_101_eliminates_at_101_and_ends_with_one_player() -> None:
    deals = [{0: 0, 1: 80, 2: 40}, {0: 20, 1: 0, 2: 40}, {0: 0, 1: 21, 2: 80}]
    s = pool_standings(POOL101, deals[:2])
    assert s.totals == {0: 20, 1: 80, 2: 80} and not s.eliminated and not s.over
    s = pool_standings(POOL101, deals)
    assert s.totals == {0: 20, 1: 101, 2: 160}
    assert s.eliminated == {1, 2} and s.winner == 0 and s.over
    with pytest.raises(ScoringError, match="eliminated"):
        pool_standings(POOL101, [*deals, {0: 0, 1: 5}])


def test_pool_201_limit() -> None:
    s = pool_standings(POOL201, [{0: 0, 1: 80}, {0: 0, 1: 80}, {0: 80, 1: 0}])
    assert s.totals == {0: 80, 1: 160} and not s.eliminated
    assert pool_standings(POOL201, [{0: 0, 1: 80}] * 3).winner == 0


def test_deals_rummy_moves_chips_to_the_winner() -> None:
    s = deals_standings(DEALS, [{0: 0, 1: 30, 2: 45}, {0: 10, 1: 0, 2: 80}], start_chips=160)
    assert s.chips == {0: 160 + 75 - 10, 1: 160 - 30 + 90, 2: 160 - 45 - 80}
    assert s.over and s.leaders == (0,)
    assert sum(s.chips.values()) == 480
    three = deals_standings(DEALS, [{0: 0, 1: 30}], deal_count=3)
    assert not three.over
    with pytest.raises(ScoringError):
        deals_standings(DEALS, [{0: 0, 1: 30}], deal_count=4)
