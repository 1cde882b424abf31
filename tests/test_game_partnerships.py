"""Push at the table: partners score as one team (the Push text), over its five deals."""

from __future__ import annotations

from _game_fixtures import Driver, game

from engine.game import DealStarted, Game, Seat, policy_for
from tablekit.present import present

NAMES = ["Ann", "Bo", "Cy", "Di"]  # Ann and Cy against Bo and Di
# Going out in each deal: every group a meld, the deal's contract among them.
OUT = {
    1: "7H 7S 7D | 9C 9D 2S",
    2: "7H 7S 7D | 4C 5C 6C 7C",
    3: "3D 4D 5D 6D | JS QS KS AS",
    4: "7H 7S 7D | 9C 9D 9S | KH KS PJ",
    5: "3C 4C 5C 6C 7C | 9H 10H JH QH KH",
}
# Push card values: wild (a two or a joker) 20, ace 15, 10-K 10, 3-9 5.
HAND_30 = "AS KD 9C"
HAND_15 = "KD 9C"
HAND_40 = "PJ 2H"


def start(names=NAMES) -> Driver:
    d = Driver(game("push", names) if isinstance(names[0], str)
               else Game("push", tuple(names)))
    d(DealStarted("", d.at(1000)))
    return d


def test_the_team_that_went_out_scores_nothing_and_the_other_pays_both_hands():
    d = start()
    bo = d.state.deal.turn
    assert bo == 1  # left of Ann, who deals
    d.show(bo, OUT[1], {0: HAND_30, 2: HAND_15, 3: HAND_40})
    record = d.state.history[-1]
    assert record.winner == 1
    assert record.counts[3] == 40  # Di still held a joker and a two...
    assert record.scores[1] == record.scores[3] == 0  # ...but his partner went out
    assert record.scores[0] == record.scores[2] == 30 + 15  # Ann and Cy pay together
    assert d.state.totals == (45, 0, 45, 0)


def test_push_is_five_deals_and_the_team_with_the_lower_total_wins_together():
    d = start()
    owed = {0: 0, 1: 0}
    for deal in range(1, 6):
        if deal > 1:
            d(DealStarted("", d.at(1000)))
        out = d.state.deal.turn
        hands = {s: HAND_30 if s % 2 != out % 2 else HAND_40 for s in range(4) if s != out}
        d.show(out, OUT[deal], hands)
        owed[1 - out % 2] += 60
        assert d.state.totals == (owed[0], owed[1], owed[0], owed[1])
    # Bo, Cy, Di, Ann, Bo went out: Ann and Cy paid three times, Bo and Di twice
    assert d.state.phase == "game-over"
    assert d.state.totals == (180, 120, 180, 120)
    assert d.state.winners == (1, 3)
    view = present(d.state, d.t)
    assert "Bo" in view.winner and "Di" in view.winner
    assert [s.name for s in view.standings[:2]] == ["Bo", "Di"]
    assert d.replayed() == d.state


def test_a_tie_between_the_teams_is_won_by_all_four():
    d = start()
    for deal in range(1, 6):
        if deal > 1:
            d(DealStarted("", d.at(1000)))
        out = d.state.deal.turn
        # Bo, Cy, Di, Ann, Bo go out: Ann and Cy pay 3 x 40, Bo and Di 2 x 60
        opponents = "KD QD" if out % 2 else HAND_30
        hands = {s: opponents if s % 2 != out % 2 else HAND_40 for s in range(4) if s != out}
        d.show(out, OUT[deal], hands)
    assert d.state.totals == (120, 120, 120, 120)
    assert d.state.winners == (0, 1, 2, 3)


def test_an_empty_stock_ends_the_deal_and_each_team_pays_its_own_hands():
    d = start()
    d.menu()
    # no drop in Push, but an empty stock ends a deal (and the player in turn may push the upcard)
    assert d.state.menu == ("stock-out", "push", "close")
    d.ok()
    assert d.state.phase == "show" and d.state.show.pending == (1, 2, 3, 0)
    hands = {0: HAND_30, 1: HAND_40, 2: HAND_15, 3: HAND_30}
    for _ in range(12):
        if d.state.phase != "show":
            break
        if d.state.show.stage == "hand-reading":
            d.read(d.state.show.pending[0], hands[d.state.show.pending[0]])
        else:
            d.ok()
    record = d.state.history[-1]
    assert record.winner is None
    assert record.scores == (30 + 15, 40 + 30, 30 + 15, 40 + 30)
    assert d.state.phase == "deal-over"


def test_teams_the_players_named_score_the_same_as_the_seats_alone():
    named = [Seat("Ann", "north-south"), Seat("Bo", "east-west"), Seat("Cy", "north-south"),
             Seat("Di", "east-west")]
    d = start(named)
    d.show(1, OUT[1], {0: HAND_30, 2: HAND_15, 3: HAND_40})
    assert d.state.totals == (45, 0, 45, 0)


def test_games_without_partners_still_score_each_seat_alone():
    d = Driver(game("shanghai", NAMES))
    d(DealStarted("", d.at(1000)))
    assert policy_for(d.state.game).stock_out_label == ""
    out = d.state.deal.turn
    d.show(out, "7H 7S 7D | 9C 9D 9S", {s: HAND_30 if s % 2 else HAND_15 for s in range(4) if s != out})
    scores = d.state.history[-1].scores
    assert scores[out] == 0
    assert len({scores[s] for s in range(4) if s != out}) == 2  # each pays their own hand
