"""Deals rummy refereed at the live table (engine.game.flow), against the Indian rule texts.

Each test drives a game event by event (tests/_game_fixtures.Driver) and replays its journal.
"""

from __future__ import annotations

from _game_fixtures import LOSER_58, VALID_SHOW, Driver, game

from engine.families.indian.policy import IndianPolicy
from engine.game import Notice

# Thirteen cards all in melds (two pure sequences) but laid out in two groups: it counts 0, yet it
# is no valid declaration (the texts: "Declaring with two pairs ... Invalid declaration").
TWO_GROUPS = "4H 5H 6H 7H 8H 9H 10H | 3C 4C 5C 6C 7C 8C"


def deals(names: tuple[str, ...] = ("Asha", "Ravi", "Meera"), **kw: object) -> Driver:
    d = Driver(game("indian-deals", names, **kw))
    d.deal()
    return d


def test_a_losing_hand_counting_0_does_not_crash_a_deals_rummy_deal():
    """indian-rummy-basics.txt: "For a successful show, a player wins the game with 0 Points. For
    the rest of the players, the score of the unmatched cards are taken into account."

    A loser whose hand counts 0 pays nothing; the winner still takes the other losers' points.
    """
    d = deals(options={"count": "arranged"})
    first = d.state.deal.turn  # Ravi
    for seat in (1, 2, 0):  # a round of turns: nobody's hand is a deal show
        d.press(seat)
    d.show(first, VALID_SHOW, {0: TWO_GROUPS, 2: LOSER_58})
    record = d.state.history[-1]
    assert record.winner == first
    assert record.outcomes == ("lost", "winner", "lost")
    assert record.scores == (0, 0, 58)
    start = 80 * 3
    assert record.totals == (start, start + 58, start - 58)  # the chips went to the winner
    assert d.state.phase == "deal-over"
    # the second deal: Meera wins while Ravi's hand counts 0; Asha's points go to Meera only
    d.deal()
    turn = d.state.deal.turn
    assert turn == 2
    for seat in (2, 0, 1):
        d.press(seat)
    d.show(turn, VALID_SHOW, {0: LOSER_58, 1: TWO_GROUPS})
    last = d.state.history[-1]
    assert last.winner == 2 and last.scores == (58, 0, 0)
    assert last.totals == (start - 58, start + 58, start)
    assert d.state.phase == "game-over" and d.state.winners == (1,)
    assert d.replayed() == d.state


def test_three_missed_turns_drop_a_seat_in_deals_rummy_too():
    """indian-rummy-howto.txt: "Additionally in all variants, if a player misses three turns in a
    row, they will get dropped from the game automatically." and "Consecutive Misses | 40 Points"
    (deals rummy allows no drop by choice: "Deals Rummy (Best of 2) ... Drop not allowed")."""
    d = deals(("Asha", "Ravi"))
    # Ravi (seat 1) plays first and lets his clock run out three times while Asha plays
    for _ in range(2):
        d.time_out()
        d.press(0)
    assert d.state.deal.missed_in_row[1] == 2
    d.drop(1)  # missed turns make no drop by choice allowed
    assert d.state.deal.status[1] == "playing" and "allows no drop" in d.state.notice
    effects = d.time_out()
    assert Notice("Ravi missed 3 turns in a row and is dropped") in effects
    assert d.state.phase == "deal-over"
    record = d.state.history[-1]
    assert record.outcomes == ("winner", "missed-turns")
    assert record.scores == (0, 40)
    assert record.totals == (160 + 40, 160 - 40)
    assert d.replayed() == d.state


def test_a_missed_turn_notice_never_counts_past_the_limit(monkeypatch):
    """indian-rummy-howto.txt: "If A player misses three consecutive turns, he will be
    automatically dropped out of the game."

    The notice counts missed turns out of the limit only while the limit is still ahead; a
    table that does not drop the seat at the limit (here: a policy that refuses every drop)
    says how many turns in a row were missed, never "4 of 3".
    """
    monkeypatch.setattr(IndianPolicy, "drop_outcome", lambda self, game, deal, seat: None)
    d = Driver(game("indian-points", ("Asha", "Ravi")))
    d.deal()
    notices: list[str] = []
    for _ in range(4):
        effects = d.time_out()
        notices += [e.text for e in effects if isinstance(e, Notice)]
        d.press(0)
    assert notices[:2] == ["Ravi missed a turn (1 of 3)", "Ravi missed a turn (2 of 3)"]
    for text in notices[2:]:
        assert " of 3" not in text, text
        assert "dropped" not in text, text
    assert notices[3] == "Ravi missed a turn (4 in a row)"
    assert d.state.deal.status[1] == "playing"


def test_three_missed_turns_cost_pool_201_the_40_of_consecutive_misses_not_its_50_middle_drop():
    """indian-rummy-howto.txt: "Consecutive Misses | 40 Points" — "It will be considered a
    middle drop i.e 40 Points." (pool 201's own middle drop, chosen by a player, costs 50:
    "Pool 201 Rummy ... 25 ... 50")."""
    d = Driver(game("indian-pool-201", ("Asha", "Ravi")))
    d.deal()
    for _ in range(2):  # Ravi (seat 1) plays first and lets his clock run out three times
        d.time_out()
        d.press(0)
    effects = d.time_out()
    assert Notice("Ravi missed 3 turns in a row and is dropped") in effects
    record = d.state.history[-1]
    assert record.outcomes == ("winner", "missed-turns")
    assert record.scores == (0, 40)
    # a middle drop chosen by the player still costs pool 201's 50
    d.deal()
    d.end_turn()
    d.end_turn()  # each seat has played a turn: a drop now is a middle drop
    d.drop(d.state.deal.turn)
    last = d.state.history[-1]
    assert last.scores[last.outcomes.index("middle-drop")] == 50
    assert d.replayed() == d.state
