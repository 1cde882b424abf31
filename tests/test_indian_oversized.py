"""A misread zone (more cards than a hand and a draw) is refused, never searched: the judge
answers with an input error and the live table asks for the hand to be read again."""

from __future__ import annotations

import time

import pytest
from _game_fixtures import VALID_SHOW, Driver, game

from engine.cards import Card
from engine.errors import DeckError
from engine.families.indian.scoring import MAX_HAND
from engine.variants import JudgeRequest, find

#: 45 cards from two packs: three hands run together, as a camera might read a crowded table.
RUN_TOGETHER = " ".join(f"{r}{s}" for s in "SHD" for r in ("A 2 3 4 5 6 7 8 9 10 J Q K".split() + ["A", "K"]))


def test_best_mode_takes_at_most_a_hand_and_a_draw() -> None:
    variant = find("indian-points")
    cards = [Card.parse(t) for t in RUN_TOGETHER.split()]
    assert len(cards) == 45 and MAX_HAND == 14
    t0 = time.perf_counter()
    with pytest.raises(DeckError, match="45 given, a hand holds at most 14"):
        variant.judge(JudgeRequest("best", groups=[cards], wild=Card.parse("5D")))
    with pytest.raises(DeckError, match="15 given"):
        variant.judge(JudgeRequest("best", groups=[cards[:15]], wild=Card.parse("5D")))
    assert time.perf_counter() - t0 < 1
    assert variant.judge(JudgeRequest("best", groups=[cards[:14]], wild=Card.parse("5D"))).points >= 0


@pytest.mark.parametrize("count", ["best", "arranged"])
def test_the_table_refuses_a_misread_hand_and_asks_for_it_again(count: str) -> None:
    d = Driver(game(options={"count": count}))
    d.deal()
    d.declare(1)
    d.read(1, VALID_SHOW)
    d.ok()
    t0 = time.perf_counter()
    d.read(2, RUN_TOGETHER)
    assert time.perf_counter() - t0 < 1
    reading = d.state.show.current
    assert reading.ruling is None and reading.points is None
    assert "45 given, a hand holds at most 14" in reading.problem
    # nothing was scored: the same hand read again, correctly, is counted as usual
    d.ok()
    assert d.state.show.stage == "hand-check" and "MENU reads it again" in d.state.notice
    d.menu()
    d.read(2, "4H 5H 6H | 7C 8C 5D | 9D 9S 4C | KD QD 7S 9S")
    assert not d.state.show.current.problem
    assert d.state.show.current.points == (53 if count == "best" else 58)  # best: Q-K with the wild 5D
    assert d.replayed() == d.state
