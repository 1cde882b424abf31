"""Whole games per family through the flow: pool 101 to an elimination, deals rummy, Shanghai."""

from __future__ import annotations

from fractions import Fraction

from _game_fixtures import FULL_COUNT, LOSER_58, NO_PURE, VALID_SHOW, Driver, game

from engine.game import DealStarted


def test_pool_101_runs_until_one_player_is_left():
    d = Driver(game())
    # deal 1: Asha deals; Ravi, Meera, Asha play; Ravi shows; Meera 80 (capped), Asha counted
    d.deal("5D")
    for seat in (1, 2, 0):
        d.press(seat)
    d.show(1, VALID_SHOW, {2: FULL_COUNT, 0: LOSER_58})
    first = d.state.history[-1]
    assert first.scores[2] == 80 and first.winner == 1
    assert d.state.phase == "deal-over"
    # deal 2: Ravi deals, Meera first; Meera drops at once (20): 100, still in
    d.deal("9C")
    assert d.state.deal.dealer == 1 and d.state.deal.turn == 2
    d.drop(2)
    d.press(0)
    d.declare(1)
    d.read(1, NO_PURE)
    d.ok()  # Ravi's wrong show: Asha is the last one playing and wins
    assert d.state.history[-1].winner == 0
    assert d.state.totals[2] == 100 and not d.state.eliminated[2]
    # deal 3: Meera deals, Asha first; Meera's middle drop takes her to 140: out
    d.deal("KS")
    assert d.state.deal.dealer == 2
    d.press(0)
    d.press(1)
    d.press(2)
    d.press(0)
    d.press(1)
    d.drop(2)
    assert not d.state.eliminated[2]  # only at the end of the deal
    d.drop(0)
    assert d.state.history[-1].winner == 1
    assert d.state.eliminated[2]
    assert d.state.phase in ("deal-over", "game-over")
    # keep dealing with wrong shows until someone else reaches 101
    cuts = iter(["2H", "3H", "4H", "6H", "7H", "8H"])
    while d.state.phase != "game-over":
        d.deal(next(cuts))
        assert d.state.deal.status[2] == "out"
        turn = d.state.deal.turn
        d.declare(turn)
        d.read(turn, NO_PURE)
        d.ok()
    assert sum(not e for e in d.state.eliminated) == 1
    winner = d.state.winners[0]
    assert not d.state.eliminated[winner]
    assert all(t >= 101 for s, t in enumerate(d.state.totals) if s != winner)
    assert d.replayed() == d.state


def test_a_finished_game_takes_no_more_deals():
    d = Driver(game("indian-points", ["A", "B"]))
    d.deal()
    d.drop(1)
    assert d.state.phase == "game-over"
    d(DealStarted("5D", d.at(10)))
    assert d.state.phase == "game-over" and len(d.state.history) == 1


def test_deals_rummy_plays_its_deals_and_the_most_chips_win():
    d = Driver(game("indian-deals", ["A", "B"], options={"deals": 3}))
    for _ in range(3):
        d.deal()
        turn = d.state.deal.turn
        d.press(turn)
        d.press(1 - turn)
        d.show(turn, VALID_SHOW, {1 - turn: LOSER_58})
    assert d.state.phase == "game-over" and len(d.state.history) == 3
    chips = d.state.totals
    assert sum(chips) == 2 * 80 * 2  # chips change hands, none are made or lost
    assert d.state.winners == (max(range(2), key=lambda s: chips[s]),)


# a going-out zone per deal that holds that deal's contract (plus, in deal 1, an extra run)
SHANGHAI_OUT = {
    1: "9C 9D 9S | KD KH KS | 3H 4H 5H 6H",
    2: "9C 9D 9S | 3H 4H 5H 6H",
    3: "9C 9D 9S 9H | KD KH KS KC",
    4: "9C 9D 9S | 3H 4H 5H 6H 7H",
    5: "9C 9D 9S | KD KH KS | 5C 5D 5S",
    6: "9C 9D 9S | 3H 4H 5H 6H 7H 8H 9H",
    7: "3H 4H 5H 6H | 3S 4S 5S 6S | 8D 9D 10D JD",
    8: "9C 9D 9S | 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
    9: "9C 9D 9S | KD KH KS | 5C 5D 5S | 3H 4H 5H 6H 7H",
    10: "3H 4H 5H 6H 7H | 3S 4S 5S 6S 7S | 8D 9D 10D JD QD",
}
SHANGHAI_LEFT = "AS KC 2D 7H 8C"


def test_shanghai_is_ten_deals_and_the_lowest_total_wins():
    from tablekit.present import present

    d = Driver(game("shanghai", ["Ann", "Bo", "Cy", "Di"]))
    for deal in range(10):
        d(DealStarted("", d.at(1000)))
        assert d.state.deal.number == deal + 1
        turn = d.state.deal.turn
        hands = {s: SHANGHAI_LEFT for s in range(4) if s != turn}
        assert present(d.state, d.t).target.startswith("contract: ")
        d.show(turn, SHANGHAI_OUT[deal + 1], hands)
        record = d.state.history[-1]
        assert record.scores[turn] == 0
        assert all(record.scores[s] > 0 for s in hands)
    assert d.state.phase == "game-over"
    totals = d.state.totals
    assert set(d.state.winners) == {s for s in range(4) if totals[s] == min(totals)}
    assert d.replayed() == d.state


def test_a_contract_show_without_the_deals_contract_is_refused():
    d = Driver(game("shanghai", ["Ann", "Bo", "Cy"]))
    d(DealStarted("", d.at(1000)))
    turn = d.state.deal.turn
    d.declare(turn)
    d.read(turn, SHANGHAI_OUT[2])  # deal 1 asks for two groups of 3
    ruling = d.state.show.declaration.ruling
    assert not ruling.valid and "two groups of 3" in ruling.reason
    d.menu()
    d.read(turn, SHANGHAI_OUT[1])
    assert d.state.show.declaration.ruling.valid


def test_a_contract_show_with_an_invalid_meld_lets_the_declarer_play_on():
    d = Driver(game("shanghai", ["Ann", "Bo", "Cy"]))
    d(DealStarted("", d.at(1000)))
    turn = d.state.deal.turn
    d.declare(turn)
    d.read(turn, "3H 5H 9C | KD KH KS")
    d.ok()
    assert d.state.phase == "play" and d.state.deal.turn == turn
    assert d.state.deal.status[turn] == "playing"


SUITS_RUN = "3{s} 4{s} 5{s} 6{s} 7{s} 8{s} 9{s} 10{s} J{s} Q{s} K{s} A{s}"
OPEN_SHOW = SUITS_RUN.format(s="S") + " | " + SUITS_RUN.format(s="H")
OPEN_PARTNER = "7D 8D 9D | KC 4C"
OPEN_OPPONENT = "AS AH KD 5C"


def test_open_rummy_teams_score_tables_and_hands_until_the_target():
    d = Driver(game("open-rummy-2deck", ["Ann", "Bo", "Cy", "Di"]))
    d(DealStarted("", d.at(1000)))
    first = d.state.deal.turn
    assert first == 1  # left of the dealer
    # a wrong show ends the deal: the showing team scores nothing, the others their table
    d.declare(first)
    d.read(first, "3S 4S 5S")
    d.ok()
    assert d.state.phase == "show" and d.state.show.stage == "hand-reading"
    for _ in range(10):
        if d.state.phase != "show":
            break
        if d.state.show.stage == "hand-reading":
            seat = d.state.show.pending[0]
            d.read(seat, OPEN_PARTNER if seat % 2 == first % 2 else OPEN_OPPONENT)
        else:
            d.ok()
    record = d.state.history[-1]
    assert record.winner is None and record.outcomes[first] == "wrong-show"
    assert record.scores[1] == record.scores[3] == 0
    # the other team: no meld of its own, plus the cards left in our hands (K 1, 4 a half)
    assert record.scores[0] == record.scores[2] == Fraction(3, 2)
    for _ in range(12):  # 500 points at more than 80 a deal
        if d.state.phase == "game-over":
            break
        d(DealStarted("", d.at(1000)))
        turn = d.state.deal.turn
        d.show(turn, OPEN_SHOW, {s: OPEN_PARTNER if s % 2 == turn % 2 else OPEN_OPPONENT
                                 for s in range(4) if s != turn})
        record = d.state.history[-1]
        team = [s for s in range(4) if s % 2 == turn % 2]
        assert record.scores[team[0]] == record.scores[team[1]] > 80
    totals = d.state.totals
    assert max(totals) >= 500
    winners = set(d.state.winners)
    assert winners in ({0, 2}, {1, 3})
    assert all(totals[s] >= 500 for s in winners)
    assert d.replayed() == d.state


TILE_CLOSE = "R1 R2 R3 | B5 Y5 K5 | R10 R11 R12 R13 | K7 K8 K9 | Y2"


def test_tile_rummy_opens_with_a_doubles_window_and_scores_laid_against_left():
    from tablekit.present import present

    d = Driver(game("tile-rummy", ["Ann", "Bo", "Cy"]))
    d(DealStarted("r7", d.at(1000)))
    deal = d.state.deal
    assert deal.wild == "R7"
    assert deal.window_until_ms == d.t + 45_000 and deal.deadline_ms == d.t + 90_000
    view = present(d.state, d.t + 5_000)
    assert view.countdown.label == "doubles window" and view.countdown.seconds_left == 40
    d.ok()  # the table is done declaring doubles: the first turn's clock starts
    assert d.state.deal.window_until_ms is None and d.state.deal.deadline_ms == d.t + 45_000
    assert present(d.state, d.t).countdown.label == ""
    for seat in (1, 2, 0):
        d.press(seat)
    d.show(1, TILE_CLOSE, {2: "B7 B8 B9 | Y11 K4 R7", 0: "Y1 Y2 Y3 Y4 | K13"})
    record = d.state.history[-1]
    assert d.state.phase == "game-over"
    # put-down values: low tiles 5, 10 and up 10; left at the end: 11-13 count 10, a 1 25,
    # and the ace's twin R7 only its face value 5: Cy never showed it, so nothing says it was
    # on Cy's board from the deal (the 50 is for the twin held from the beginning)
    assert record.scores[1] == 15 + 15 + 40 + 15 + 50  # all laid, plus the closing bonus
    assert record.scores[2] == 15 - (10 + 5 + 5)
    assert record.scores[0] == 20 - 10
    assert d.state.winners == (1,)


def test_open_rummy_ground_show_scores_tables_and_hands_without_show_points():
    d = Driver(game("open-rummy-2deck", ["Ann", "Bo", "Cy", "Di"]))
    d(DealStarted("", d.at(1000)))
    d.menu()
    assert d.state.menu == ("stock-out", "close")  # Open Rummy has no drop
    d.ok()
    assert d.state.phase == "show" and d.state.show.pending == (1, 2, 3, 0)
    zones = {0: "7D 8D 9D | KC 4C", 1: "AS AH KD 5C", 2: "3H 3D 3C", 3: "QS"}
    for _ in range(20):
        if d.state.phase != "show":
            break
        if d.state.show.stage == "hand-reading":
            seat = d.state.show.pending[0]
            d.read(seat, zones[seat])
        else:
            d.ok()
    record = d.state.history[-1]
    assert record.winner is None
    # each team: its own melds plus the cards left in the other team's hands, no show points
    team_a, team_b = record.scores[0], record.scores[1]
    assert record.scores[2] == team_a and record.scores[3] == team_b
    assert team_a > 0 and team_b > 0 and d.state.phase == "deal-over"


def test_open_rummy_no_ground_show_while_the_camera_sees_cards_in_the_stock():
    # the text: a ground show only when the draw pile is empty
    from engine.game import TableSeen

    d = Driver(game("open-rummy-2deck", ["Ann", "Bo", "Cy", "Di"]))
    d(DealStarted("", d.at(1000)))
    d(TableSeen(((), (), (), ()), ("6C",), 25, d.at(300)))  # as dealt: 25 in the stock
    d.menu()
    assert d.state.menu == ("close",)  # no stock-out to offer
    d.ok()
    assert d.state.phase == "play"


def test_tile_rummy_pool_running_out_ends_the_game_without_a_closing_bonus():
    d = Driver(game("tile-rummy", ["Ann", "Bo"]))
    d(DealStarted("R7", d.at(1000)))
    d.menu()
    assert d.state.menu == ("stock-out", "close")
    d.ok()  # the first time the pool is rebuilt from the thrown tiles and play goes on
    assert d.state.phase == "play"
    d.menu()
    d.ok()  # the second time the game ends
    d.read(1, "B7 B8 B9 | K4")
    d.ok()
    d.read(0, "Y1 Y2 Y3 Y4")
    d.ok()
    assert d.state.phase == "game-over"
    assert d.state.history[-1].scores == (20, 15 - 5)
    assert d.state.winners == (0,)


def test_indian_menu_offers_the_drop_and_no_stock_out():
    d = Driver(game())
    d.deal()
    d.menu()
    assert d.state.menu == ("drop", "close")


def test_open_rummy_wrong_show_the_camera_could_not_read_ends_the_deal_without_crashing():
    d = Driver(game("open-rummy-2deck", ["Ann", "Bo", "Cy", "Di"]))
    d(DealStarted("", d.at(1000)))
    first = d.state.deal.turn
    d.declare(first)
    d.read(first, "5S 6S ?? | KD")  # a card the camera could not tell
    assert d.state.show.declaration.problem
    d.ok()  # refused: nothing judged yet
    assert d.state.show.stage == "verdict" and "cannot be judged" in d.state.notice
    d.read(first, "5S 6S 9H | KD")  # the card put right: judged, and no show
    d.ok()  # confirmed as a wrong show
    for _ in range(10):
        if d.state.phase != "show":
            break
        if d.state.show.stage == "hand-reading":
            seat = d.state.show.pending[0]
            d.read(seat, OPEN_PARTNER if seat % 2 == first % 2 else OPEN_OPPONENT)
        else:
            d.ok()
    record = d.state.history[-1]
    assert record.outcomes[first] == "wrong-show" and record.scores[first] == 0
    assert record.scores[(first + 1) % 4] > 0
