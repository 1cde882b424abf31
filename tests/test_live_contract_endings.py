"""Contract games at the live table, each as its text plays it: which way turns and the deal
go, Jo's highest total, Kalooki 40's eliminations, Hunt and void deals, and what an empty stock
does (the texts in /work/shared/rules/contract-rummy-variants.txt, quoted test by test)."""

from __future__ import annotations

import json

import pytest
from _game_fixtures import REPO, Driver, game

from engine.families.contract.games import GAMES
from engine.game import DealStarted, policy_for
from engine.game.flow import MENU_STOCK_OUT
from engine.variants import find
from tablekit.cli import main
from tablekit.journal import Journal
from tablekit.present import present

NAMES3 = ["Ann", "Bo", "Cy"]
NAMES4 = ["Ann", "Bo", "Cy", "Di"]


def start(variant: str, names: list[str] = NAMES4, first_dealer: int = 0) -> Driver:
    d = Driver(game(variant, names, first_dealer=first_dealer))
    d(DealStarted("", d.at(1000)))
    return d


def turn_order(d: Driver, turns: int) -> list[int]:
    """Seats on turn: the first, then after each ended turn."""
    seen = [d.state.deal.turn]
    for _ in range(turns - 1):
        d.end_turn()
        seen.append(d.state.deal.turn)
    return seen


def next_deal(d: Driver) -> None:
    d(DealStarted("", d.at(1000)))


# --- 1. the direction of play ------------------------------------------------------------


def test_loba_starts_at_the_dealers_left_and_turns_go_counter_clockwise():
    """Loba: "The player to the dealer's immediate left has the first turn and the turns
    proceed in a counter-clockwise direction around the table." Seats are numbered clockwise,
    so the dealer's left is the next seat up and counter-clockwise goes down."""
    d = start("loba", first_dealer=1)
    assert turn_order(d, 5) == [2, 1, 0, 3, 2]
    assert d.replayed() == d.state


def test_carioca_plays_loba_s_way_round():
    """Carioca: "In all other aspects Carioca is played identically to the Central American
    game, Loba." (its turns "proceed in a counter-clockwise direction")."""
    d = start("carioca")
    assert turn_order(d, 4) == [1, 0, 3, 2]


def test_telefunken_turns_and_the_deal_go_counter_clockwise():
    """Telefunken: "The player to the immediate right of he dealer has the first turn and play
    rotates around the table in a counter-clockwise direction" and "After each hand the role
    of dealer rotates around the table in a counter-clockwise direction"."""
    d = start("telefunken")
    assert turn_order(d, 5) == [3, 2, 1, 0, 3]
    d.show(d.state.deal.turn, "7H 7S 7D", {s: "KD" for s in range(4) if s != 3})
    assert d.state.history[-1].winner == 3
    next_deal(d)
    assert (d.state.deal.dealer, d.state.deal.turn) == (3, 2)
    assert d.replayed() == d.state


def test_farmers_rummy_goes_round_like_telefunken():
    """Farmer's Rummy: "In all other aspects Farmer's Rummy is played identically to Telefunken
    as described above." (no difference it lists touches the direction of play)."""
    d = start("farmers-rummy")
    assert turn_order(d, 3) == [3, 2, 1]


@pytest.mark.parametrize(("variant", "direction"), [(v.id, "counter-clockwise" if v.id in {
    "loba", "carioca", "telefunken", "farmers-rummy"} else "clockwise") for v in GAMES])
def test_every_contract_game_names_the_direction_its_text_gives(variant, direction):
    """The clockwise games say so, e.g. Kalooki 40: "the turns rotate in a clockwise direction
    around the table"; Caribbean Kalooki: "the deal rotates in a clockwise direction"; the
    rest follow standard Contract Rummy (the player at the dealer's left starts)."""
    assert find(variant).table.direction == direction  # type: ignore[attr-defined]


# --- 2. Jo: the highest total wins ----------------------------------------------------------

JO_OUT = {
    1: "7H 7S 7D | 9C 9D 9S",
    2: "7H 7S 7D | 3H 4H 5H 6H",
    3: "3H 4H 5H 6H | 8C 9C 10C JC",
    4: "7H 7S 7D | 9C 9D 9S | KC KD KS",
    5: "7H 7S 7D | 9C 9D 9S | 3H 4H 5H 6H",
    6: "7H 7S 7D | 3H 4H 5H 6H | 8C 9C 10C JC",
    7: "3H 4H 5H 6H 7H | 8C 9C 10C JC | 3S 4S 5S 6S",  # the whole hand: 12 dealt, 1 drawn
}


def test_jo_the_deal_s_winner_collects_the_others_cards():
    """Jo: "The winning player earns a number of points based on the point value of all cards
    remaining in each other player's hand as per the scoring value as per standard Contract
    Rummy." (ace 15, K Q J 10 = 10, 2-9 face value, joker 15)."""
    d = start("jo", NAMES3)
    bo = d.state.deal.turn
    d.show(bo, JO_OUT[1], {2: "AS KD", 0: "PJ 5C"})
    assert d.state.history[-1].scores == (0, 25 + 20, 0)


def test_jo_the_highest_total_wins_and_leads_the_standings():
    """Jo: "After the completion of all seven hands which form a game, the player with the
    highest accumulated scoring total is declared the winner." """
    d = start("jo", NAMES3)
    for deal in range(1, 8):
        if deal > 1:
            next_deal(d)
        out = d.state.deal.turn
        # Bo collects big in deal 1, the others collect a little afterwards
        hands = {s: ("AS AH AD AC KS" if deal == 1 else "3C") for s in range(3) if s != out}
        d.show(out, JO_OUT[deal], hands)
    assert d.state.phase == "game-over"
    assert policy_for(d.state.game).lower_wins(d.state.game) is False
    totals = d.state.totals
    assert totals[1] == max(totals) and d.state.winners == (1,)
    view = present(d.state, d.t)
    assert view.winner == "Bo"  # type: ignore[attr-defined]
    assert view.standings[0].name == "Bo"  # type: ignore[attr-defined]
    assert d.replayed() == d.state


# --- 3. Kalooki 40 and North American Kalooki: eliminations, the Hunt, void deals ------------

K40_OUT = "10S JS QS | AH AD AC"  # 61 points of new melds: a valid first meld
HAND_100 = "KS QS JS 10S KH QH JH 10H KD QD"  # 100 in hand
HAND_50 = "KC QC JC 10C 10D"  # 50
HAND_10 = "10C"


def play_k40_deal(d: Driver, hands: dict[int, str], first_turn_out: bool = False) -> int:
    """The seat on turn goes out (after one round of turns unless ``first_turn_out``)."""
    if not first_turn_out:
        for _ in range(len(d.state.deal.playing())):
            d.end_turn()
    out = d.state.deal.turn
    d.show(out, K40_OUT, {s: h for s, h in hands.items() if s != out})
    return out


def test_kalooki_40_a_player_reaching_150_is_out_and_the_last_player_left_wins():
    """Kalooki 40: "If any player finds his accumulated score has reached or exceeded 150
    points, he must immediately drop from the game. The game continues hand to hand, until
    all players except one have been eliminated." """
    d = start("kalooki-40", NAMES3)
    assert d.state.deal.turn == 1
    play_k40_deal(d, {0: HAND_100, 2: HAND_10})  # Bo goes out
    assert d.state.totals == (100, 0, 10) and d.state.phase == "deal-over"
    next_deal(d)
    play_k40_deal(d, {0: HAND_50, 1: HAND_10, 2: HAND_10})  # Cy deals... whoever is on turn
    ann = d.state.totals[0]
    assert ann == 150 and d.state.eliminated == (True, False, False)  # reached, not passed
    assert d.state.phase == "deal-over"  # two players are left
    next_deal(d)
    assert d.state.deal.status[0] == "out" and 0 not in d.state.deal.playing()
    out = play_k40_deal(d, {1: HAND_100 + " AS AH AD AC", 2: HAND_100 + " AS AH AD AC"})
    loser = 3 - out
    assert d.state.totals[loser] >= 150
    assert d.state.phase == "game-over" and d.state.winners == (out,)
    assert d.replayed() == d.state


def test_north_american_kalooki_also_ends_with_one_player_left():
    """North American Kalooki: "Other than these differences, North American Kalooki is
    otherwise played identically to Kalooki 40" (out at 150, last player left wins)."""
    d = start("na-kalooki", NAMES3)
    for _ in range(2):
        d.end_turn()
    out = d.state.deal.turn
    d.show(out, "10S JS QS | AH AD AC | KH KS KC", {s: "AS AC AH AD KS KH KD QS QH QD JS JH JD"
                                                     for s in range(3) if s != out})
    assert d.state.phase == "game-over" and d.state.winners == (out,)


def test_kalooki_40_a_hunt_takes_40_off_the_winners_total():
    """Kalooki 40: "If a player melds his entire hand on the same turn, discarding his last
    card, that player is entitled to subtract 40 points from his current ongoing score. This
    is called a "Hunt" or "Kalooki"." Going out on one's first turn melds the whole hand then."""
    d = start("kalooki-40", NAMES3)
    out = play_k40_deal(d, {0: HAND_10, 2: HAND_10}, first_turn_out=True)
    assert out == 1
    assert d.state.history[-1].scores == (10, -40, 10)
    assert d.state.totals == (10, -40, 10)  # "subtract": the text sets no floor at zero
    next_deal(d)
    play_k40_deal(d, {0: HAND_10, 1: HAND_10, 2: HAND_10})  # a later turn: no Hunt
    assert 0 in d.state.history[-1].scores and -40 not in d.state.history[-1].scores


def stock_out(d: Driver) -> None:
    d.menu()
    assert MENU_STOCK_OUT in d.state.menu, "the menu offers no stock-out"
    while d.state.menu[0] != MENU_STOCK_OUT:
        d.menu()
    d.ok()


def test_kalooki_40_a_second_empty_stock_voids_the_deal_and_the_same_dealer_deals_again():
    """Kalooki 40: "However, if the stock pile runs out a second time, the game immediately
    ends with no scores calculated, and the same dealer deals again." """
    d = start("kalooki-40", NAMES3)
    policy = policy_for(d.state.game)
    assert policy.stock_out_label == "the stock ran out a second time"
    d.end_turn()
    stock_out(d)
    assert d.state.history == () and d.state.totals == (0, 0, 0)
    assert "void" in d.state.notice
    next_deal(d)
    assert (d.state.deal.number, d.state.deal.dealer, d.state.deal.turn) == (1, 0, 1)
    play_k40_deal(d, {0: HAND_10, 2: HAND_10})
    next_deal(d)
    assert (d.state.deal.number, d.state.deal.dealer) == (2, 1)
    assert d.replayed() == d.state


def test_after_a_void_deal_the_setup_screen_names_the_dealer_dealing_it_again():
    """Kalooki 40: "the game immediately ends with no scores calculated, and the same dealer
    deals again." — the screen before the next deal names that dealer and that deal, where
    it said "deals first" before."""
    d = start("kalooki-40", NAMES3, first_dealer=1)
    assert present(Driver(d.state.game).state, 0).hint == "Bo deals first · OK: start the deal"
    play_k40_deal(d, {0: HAND_10, 1: HAND_10, 2: HAND_10})
    next_deal(d)
    dealer = d.state.deal.dealer
    assert dealer != 1
    d.end_turn()
    stock_out(d)
    name = NAMES3[dealer]
    assert present(d.state, d.t).hint == f"{name} deals deal 2 again · OK: start the deal"
    next_deal(d)
    assert (d.state.deal.number, d.state.deal.dealer, d.state.redeal) == (2, dealer, None)
    assert d.replayed() == d.state


def test_caribbean_kalooki_a_dead_hand_is_dealt_again_with_the_same_contract():
    """Caribbean Kalooki: "If the stock pile runs out twice during the same hand, the hand is
    dead and all the cards are thrown in and no scores are accumulated. The same dealer deals
    for the same hand again (and the same meld requirement for the hand)." """
    d = start("caribbean-kalooki")
    d.show(d.state.deal.turn, "7H 7S 7D | 9C 9D 9S | KC KD KS", {s: "3C" for s in (0, 2, 3)})
    next_deal(d)
    label = policy_for(d.state.game).deal_label(d.state.game, 2)
    stock_out(d)
    assert len(d.state.history) == 1
    next_deal(d)
    assert (d.state.deal.number, d.state.deal.dealer) == (2, 1)
    assert policy_for(d.state.game).deal_label(d.state.game, d.state.deal.number) == label


# --- 4. the other stock-out endings ---------------------------------------------------------


def test_dummy_rummy_an_empty_stock_ends_the_deal_and_everyone_counts():
    """Dummy Rummy: "If the stock is exhausted, after the player taking the last card from the
    stock finishes his turn, and no payer has managed to yet win the hand, each player must
    add to his ongoing score a number of points based on the cards remaining in their hand."
    (3-9 are 5 points, 10-K 10, ace 15, joker and two 50)."""
    d = start("dummy-rummy")
    d.end_turn()
    stock_out(d)
    for _ in range(4):
        seat = d.state.show.pending[0]
        d.read(seat, {0: "3C", 1: "KD", 2: "AS", 3: "2H"}[seat])
        d.ok()
    record = d.state.history[-1]
    assert record.winner is None and record.scores == (5, 10, 15, 50)
    assert d.replayed() == d.state


@pytest.mark.parametrize(("variant", "way"), [
    ("loba", "reshuffle"), ("carioca", "reshuffle"), ("sa-kaluki", "reshuffle"),
    ("telefunken", "reshuffle"), ("farmers-rummy", "reshuffle"),
    ("caribbean-kalooki", "void-second"), ("super-kalooki", "void-second"),
    ("baby-kalooki", "void-second"), ("kalooki-40", "void-second"), ("na-kalooki", "void-second"),
    ("push", "ends-deal"), ("dummy-rummy", "ends-deal"),
])
def test_each_game_handles_an_empty_stock_as_its_text_says(variant, way):
    """Loba: "If the draw pile is exhausted during play, the top card of the discard pile is
    set aside and the remainder of the discard pile is shuffled and placed face-down to begin a
    new draw pile." (likewise South African Kaluki and Telefunken); Push: "if the stock pile is
    exhausted, and a player would want to draw from this pile (which has no cards), the game
    also immediately ends." The Kalooki games void the deal the second time."""
    assert find(variant).table.stock_out == way  # type: ignore[attr-defined]
    d = start(variant, NAMES4)
    d.menu()
    assert (MENU_STOCK_OUT in d.state.menu) == (way != "reshuffle")


# --- the demo scripts ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(p.stem for p in (REPO / "tablekit" / "demos").glob("*.json")))
def test_every_demo_script_plays_to_its_end(name, tmp_path):
    """Every script under tablekit/demos plays through the real table to the game's end."""
    report_path = tmp_path / "r.json"
    assert main(["demo", "--no-screen", "--box", "keys", "--game", name, "--report", str(report_path),
                 "--journal", str(tmp_path / "j.sqlite")]) == 0
    assert json.loads(report_path.read_text())["over"]


def journal_replay(path) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...], int]:
    """The demo game as its journal replays it: totals, winners, eliminated, deals."""
    journal = Journal(path, read_only=True)
    state = journal.restore(journal.latest())  # type: ignore[arg-type]
    return state.totals, state.winners, state.eliminated, len(state.history)  # type: ignore[return-value]


def test_the_jo_demo_ends_with_the_highest_total_winning(tmp_path):
    report_path = tmp_path / "jo.json"
    assert main(["demo", "--no-screen", "--box", "keys", "--game", "jo", "--report", str(report_path),
                 "--journal", str(tmp_path / "j.sqlite")]) == 0
    report = json.loads(report_path.read_text())
    totals = [s["total"] for s in report["standings"]]
    assert report["over"] and len(report["deals"]) == 7
    assert totals == sorted(totals, reverse=True) and report["winners"] == [report["standings"][0]["name"]]
    replayed_totals, winners, _, deals = journal_replay(tmp_path / "j.sqlite")
    assert deals == 7 and max(replayed_totals) == totals[0] and winners == (0,)  # Ann


def test_the_kalooki_40_demo_eliminates_players_until_one_is_left(tmp_path):
    report_path = tmp_path / "k.json"
    assert main(["demo", "--no-screen", "--box", "keys", "--game", "kalooki-40", "--report", str(report_path),
                 "--journal", str(tmp_path / "j.sqlite")]) == 0
    report = json.loads(report_path.read_text())
    assert report["over"] and len(report["winners"]) == 1
    out = [s for s in report["standings"] if s["eliminated"]]
    assert len(out) == len(report["standings"]) - 1 and all(s["total"] >= 150 for s in out)
    assert any(score == -40 for d in report["deals"] for score in d["scores"].values())  # a Hunt
    assert [d["deal"] for d in report["deals"]] == [1, 2, 3]  # the void deal 2 was dealt again
    assert report["deals"][1]["dealer"] == "Bo"  # by the same dealer
    totals, winners, eliminated, deals = journal_replay(tmp_path / "j.sqlite")
    assert (totals, winners, eliminated, deals) == ((156, -10, 155), (1,), (True, False, True), 3)


def test_caribbean_kalooki_a_table_bent_on_the_first_turn_doubles_the_others_cards():
    """Caribbean Kalooki: melding the whole hand in one turn, contract included, "bends the
    table" and doubles the others' card points for that hand; a win over several turns does
    not (the first turn is the case the table can be sure of). ``bent_table`` is the judge's
    switch for one hand, not a house rule."""
    from engine.game.house_options import OptionError, check_options
    from engine.variants import find

    d = Driver(game("caribbean-kalooki", ["Ann", "Bo", "Cy", "Di"]))
    d(DealStarted("", d.at(1000)))
    out = d.state.deal.turn
    d.show(out, "7H 7S 7D | 9C 9D 9S | KC KD KS | 4H 4S PJ", {s: "3C 5D" for s in range(4) if s != out})
    assert d.state.history[-1].scores == tuple(0 if s == out else 16 for s in range(4))
    d(DealStarted("", d.at(1000)))
    for _ in range(4):
        d.end_turn()
    out = d.state.deal.turn
    d.show(out, "7H 7S 7D | 8H 8S 8D | 2C 3C 4C 5C", {s: "3C 5D" for s in range(4) if s != out})
    assert d.state.history[-1].scores == tuple(0 if s == out else 8 for s in range(4))
    with pytest.raises(OptionError, match="bent_table"):
        check_options(find("caribbean-kalooki"), {"bent_table": True})
