"""Contract games' own table rules refereed live, each against the line of
``/work/shared/rules/contract-rummy-variants.txt`` it follows: Jo's first turn without an
upcard, Telefunken's eighth chip and sixth-deal redraw, American Jokers' upcard offer, Dummy
Rummy's personal goals and optional cut-ins, King Rummy's joker taken at once, Push's pushing.
Each game is driven event by event and its journal replayed."""

from __future__ import annotations

import pytest
from _game_fixtures import Driver, game, groups

from engine.game import Buzz, Called, ClaimMade, DealStarted, event_from_json
from engine.game.claims import book_of
from engine.game.deal_flow import REFUSE_BUZZ_MS
from engine.game.house_options import OptionError, check_options
from engine.variants import find
from tablekit.present import play_hint, present

NAMES = ["Ann", "Bo", "Cy", "Di"]


def start(variant: str, players: int = 4, first_dealer: int = 0, **options: object) -> Driver:
    d = Driver(game(variant, NAMES[:players], first_dealer=first_dealer, options=options))
    d(DealStarted("", d.at(1000)))
    return d


def call(d: Driver, seat: int, what: str, cards: str = "") -> list:
    return d(Called(seat, what, groups(cards) if cards else (), d.at(300)))


def refused(effects: list) -> bool:
    return any(isinstance(e, Buzz) and e.ms == REFUSE_BUZZ_MS for e in effects)


def replays(d: Driver) -> None:
    assert d.replayed() == d.state
    for event in d.log:
        assert event_from_json(event.to_json()) == event


# --- Jo -------------------------------------------------------------------------------------


def test_jo_nothing_can_be_claimed_on_the_first_turn_there_is_no_upcard():
    """Jo: "he does not yet turn over the top card of the stock pile to start the discard pile.
    Instead the first player, on his first turn, only has the option to draw the top card in
    the face-down stock pile" """
    d = start("jo")
    turn = d.state.deal.turn
    other = (turn + 1) % 4
    effects = d(ClaimMade(other, d.at(300)))
    assert refused(effects)
    assert d.state.notice == "no May I on the first turn: there is no upcard yet"
    d.end_turn()  # the first discard: now there is one to claim
    nxt = (d.state.deal.turn + 1) % 4
    assert not refused(d(ClaimMade(nxt, d.at(300))))
    replays(d)


def test_contract_rummy_still_lets_the_first_upcard_be_claimed():
    """README: '"May I": a player may claim the refused discard out of turn' — the standard
    game turns an upcard at the deal, so the first turn's upcard may be claimed."""
    d = start("contract-rummy")
    other = (d.state.deal.turn + 1) % 4
    assert not refused(d(ClaimMade(other, d.at(300))))


# --- Telefunken -----------------------------------------------------------------------------


def test_telefunken_the_cutter_earns_an_eighth_chip_once():
    """Telefunken: "If the top portion of the deck had exactly enough cards to complete the deal
    to each player and the up-card, the player who cut is entitled to add one extra chip for a
    total of 8." (the cut is offered "to the player at his immediate left")"""
    d = start("telefunken", first_dealer=0)
    rules = d.state.game.claim_rules
    cutter = 1  # the dealer's left
    assert refused(call(d, 2, "chip"))
    assert d.state.notice == "Bo cut this deal: only the cutter may earn the extra chip"
    call(d, cutter, "chip")
    assert d.state.notice == "Bo cut exactly: one more chip (8 chips)"
    assert book_of(d.state, rules).tokens[cutter] == 8
    assert refused(call(d, cutter, "chip"))
    assert "already" in d.state.notice
    d.end_turn()
    assert refused(call(d, cutter, "chip"))
    replays(d)


def test_telefunken_the_sixth_deal_opens_with_a_redraw_before_the_first_turn_s_clock():
    """Telefunken, sixth deal: "he may select any number of these for discard ... these discard
    cards are shuffled together and each player is redealt a number of cards, by the dealer, as
    he had originally discarded." """
    d = start("telefunken")
    assert d.state.deal.window_until_ms is None  # deals 1 to 5: no redraw
    for number in range(1, 6):
        assert d.state.deal.number == number
        d.show(d.state.deal.turn, _telefunken_out(d), {s: "3C" for s in range(4)})
        d(DealStarted("", d.at(1000)))
    deal = d.state.deal
    assert deal.number == 6 and deal.window_until_ms is not None
    assert deal.deadline_ms - deal.window_until_ms == 45_000  # the clock waits for the redraw
    view = present(d.state, d.t)
    assert view.countdown.label == "redraw"
    d.ok()  # the dealer has redealt: the first turn starts now
    assert d.state.deal.window_until_ms is None
    assert d.state.notice == f"the redraw is over: {NAMES[deal.turn]} plays first"
    replays(d)


def _telefunken_out(d: Driver) -> str:
    from test_game_playouts import contract_show

    return contract_show(find("telefunken"), d.state.deal.number)  # type: ignore[arg-type]


# --- American Jokers ------------------------------------------------------------------------


def test_american_jokers_a_player_who_takes_the_upcard_at_the_deal_plays_first():
    """American Jokers: "each player in turn, starting with the player to the immediate left of
    the dealer has the opportunity to take this card. If any player thus chooses to take this
    card, that player then has the first turn" """
    d = start("american-jokers", players=3, first_dealer=0)
    assert d.state.deal.turn == 1
    assert play_hint(d.state).endswith("out of turn: take the upcard and play first")
    d.press(2)  # Cy's press out of turn: Cy takes the upcard
    assert d.state.notice == "Cy takes the upcard and plays first"
    assert d.state.deal.turn == 2 and d.state.deal.turns_begun == (0, 0, 1)
    assert refused(call(d, 0, "upcard"))
    assert d.state.notice == "Cy took the upcard: it is offered only once"
    d.end_turn()
    assert d.state.deal.turn == 0  # play goes on round from the one who took it
    d.press(1)  # later, a press out of turn is a wrong press again
    assert d.state.notice == "it is Ann's turn, not Bo's"
    replays(d)


def test_american_jokers_when_nobody_takes_the_upcard_the_dealer_s_left_plays_first():
    """American Jokers: "If every player refuses this card, the player to the dealer's
    immediate left then has the first turn" """
    d = start("american-jokers", players=3, first_dealer=0)
    d.end_turn()
    assert refused(call(d, 0, "upcard"))
    assert d.state.notice == "the upcard is offered only before the first turn ends"


# --- Dummy Rummy ----------------------------------------------------------------------------


def test_dummy_rummy_each_player_works_through_their_own_goals():
    """Dummy Rummy: "He must keep attempting his goal until he is able to successfully achieve
    that goal during a hand. He may then, starting with the next hand, strive for the next
    goal." """
    d = start("dummy-rummy", players=3, first_dealer=0)
    goals = lambda: d.state.deal.family.goals  # noqa: E731
    assert goals() == (1, 1, 1)
    first = d.state.deal.turn  # Bo
    assert refused(call(d, (first + 1) % 3, "goal", "KH KS KD | QH QS QD"))  # not their turn
    assert refused(call(d, first, "goal", "KH KS KD"))  # one set: goal 1 is two sets
    call(d, first, "goal", "KH KS KD | QH QS QD")
    assert d.state.notice == "Bo lays goal 1: goal 2 next deal"
    d.end_turn()
    # Cy goes out with goal 1; Ann laid nothing and tries goal 1 again
    d.show(d.state.deal.turn, "7H 7S 7D | 8C 8D 8S", {0: "3C", 1: "4C"})
    d(DealStarted("", d.at(1000)))
    assert goals() == (1, 2, 2)
    assert [seat.note for seat in present(d.state, d.t).seats] == ["goal 1", "goal 2", "goal 2"]
    # Bo's show is judged against goal 2 (a set and a run), not deal 2's for everyone
    bo = d.state.deal
    while d.state.deal.turn != 1:
        d.end_turn()
    d.declare(1)
    d.read(1, "7H 7S 7D | 8C 9C 10C JC")
    assert d.state.show.declaration.ruling.valid
    replays(d)
    assert bo.number == 2


def test_dummy_rummy_a_show_short_of_the_declarer_s_goal_is_refused():
    """Dummy Rummy: "A player's goal is the specific set of melds he is attempting to make." """
    d = start("dummy-rummy", players=2)
    call(d, d.state.deal.turn, "goal", "KH KS KD | QH QS QD")
    d.end_turn()
    d.show(d.state.deal.turn, "7H 7S 7D | 8C 8D 8S", {0: "3C", 1: "4C"})
    d(DealStarted("", d.at(1000)))
    assert d.state.deal.family.goals == (2, 2)
    turn = d.state.deal.turn
    d.declare(turn)
    d.read(turn, "7H 7S 7D | 8C 8D 8S")  # goal 1 again: not goal 2
    assert not d.state.show.declaration.ruling.valid


def test_dummy_rummy_cut_ins_are_an_optional_rule_off_unless_the_table_turns_them_on():
    """Dummy Rummy: "Another variant that is sometimes used with this game is the allowance of
    cut-ins." """
    d = start("dummy-rummy")
    d.end_turn()
    other = (d.state.deal.turn + 1) % 4
    assert refused(d.press(other)) and "turn" in d.state.notice
    assert "out of turn" not in play_hint(d.state)
    on = start("dummy-rummy", cut_ins=True)
    on.end_turn()
    on.press((on.state.deal.turn + 1) % 4)
    assert on.state.notice.endswith('"Cut in"')
    assert check_options(find("dummy-rummy"), {"cut_ins": True}) == {"cut_ins": True}
    with pytest.raises(OptionError):
        check_options(find("shanghai"), {"cut_ins": True})


# --- King Rummy -----------------------------------------------------------------------------


def test_king_rummy_another_player_takes_a_melded_joker_at_once():
    """King Rummy: "When any player melds a joker to the table, all other players immediately
    have the opportunity to replace this joker with the actual natural card it represents." ...
    "After this exchange occurs, the original player continues their turn as normal." """
    d = start("king-rummy")
    turn = d.state.deal.turn
    other = (turn + 2) % 4
    assert refused(call(d, turn, "joker", "7H"))
    assert refused(call(d, other, "joker", "7H 8H"))
    assert refused(call(d, other, "joker", "PJ"))
    call(d, other, "joker", "7H")
    assert d.state.notice == (f"{NAMES[other]} takes the joker, putting 7H in its place; {NAMES[turn]} plays on"
                              " (a player nearer in turn may still claim it within 5 seconds)")
    assert d.state.deal.turn == turn
    replays(d)


def test_games_without_king_s_rule_take_no_joker_out_of_turn():
    """Contract Rummy: a joker is exchanged only on one's own turn after one's contract
    ("after-contract" in the data), never at once by another player."""
    d = start("contract-rummy")
    assert refused(call(d, (d.state.deal.turn + 1) % 4, "joker", "7H"))
    assert d.state.notice == "Contract Rummy lets no joker be taken out of turn"


# --- Push -----------------------------------------------------------------------------------


def test_push_the_player_in_turn_pushes_the_upcard_left_once_a_turn():
    """Push: "He takes the top, face-down card from the stock pile, turns it over and places it
    on top of the current top-most, face-up card of the discard pile and passes both of these
    cards (called pushing) to the player at his immediate left." """
    d = start("push", first_dealer=0)
    turn = d.state.deal.turn
    left = (turn + 1) % 4
    assert "push the upcard on" in play_hint(d.state)
    d.menu()
    while d.state.menu[0] != "push":
        d.menu()
    d.ok()
    assert d.state.notice == (f"{NAMES[turn]} pushes the upcard and the stock's top card to "
                              f"{NAMES[left]}, and draws from the stock")
    assert d.state.deal.family.pushes[left] == 2
    assert refused(call(d, turn, "push"))
    assert d.state.notice == f"{NAMES[turn]} has pushed already this turn"
    assert refused(call(d, left, "push"))  # not Bo's turn
    d.menu()
    assert "push" not in d.state.menu
    d.menu()
    while d.state.menu and d.state.menu[0] != "close":
        d.menu()
    d.ok()
    d.end_turn()
    call(d, left, "push")  # the next turn: the next player may push
    assert d.state.deal.family.pushes[(left + 1) % 4] == 2
    replays(d)


def test_a_game_without_pushing_refuses_a_push():
    """Push's pushing belongs to Push: Contract Rummy's refused upcard stays for a May I."""
    d = start("contract-rummy")
    assert refused(call(d, d.state.deal.turn, "push"))
    assert d.state.notice == "Contract Rummy has no pushing"


@pytest.mark.parametrize("variant", ["loba", "onze", "dummy-rummy"])
def test_a_game_with_no_melds_but_the_contract_takes_no_show_with_another(variant):
    # Loba (text: new melds may not be played), Onze (never any new melds) and Dummy Rummy
    # (no melds other than the goal): cards beyond the contract go on melds already down
    d = start(variant)
    seat = d.state.deal.turn
    d.declare(seat)
    d.read(seat, "7H 7S 7D | KS KC KD | 5C 6C 7C 8C")  # deal 1's two groups, and a run
    ruling = d.state.show.declaration.ruling
    assert not ruling.valid and "3 melds laid" in ruling.reason
    d.menu()
    d.read(seat, "7H 7S 7D | KS KC KD")  # the contract alone
    assert d.state.show.declaration.ruling.valid
    d.menu()
    d.read(seat, "7H 7S 7D 7C | KS KC KD PJ")  # its melds grown by lay-offs (a joker too)
    assert d.state.show.declaration.ruling.valid  # Loba's trios go down exactly 3, then grow


def test_a_long_run_split_to_meet_shanghai_s_contract_may_lie_beside_other_melds():
    from dataclasses import replace

    from engine.game import policy_for

    d = start("shanghai")
    policy = policy_for(d.state.game)
    deal = replace(d.state.deal, number=7)  # three sequences of 4

    def valid(text: str) -> bool:
        groups = tuple(tuple(g.split()) for g in text.split(" | "))
        return policy.judge_show(d.state.game, deal, groups).valid

    assert valid("3C 4C 5C 6C 7C 8C 9C 10C | 5D 6D 7D 8D")
    assert valid("3C 4C 5C 6C 7C 8C 9C 10C | 5D 6D 7D 8D | KH KS KD")  # a set beside them
    assert not valid("3C 4C 5C 6C 7C 8C 9C | 5D 6D 7D 8D | KH KS KD")  # 7 cards: no two runs of 4


def test_dummy_rummy_a_seat_that_laid_its_goal_never_takes_the_discard_again():
    # the text: once a player has made his mandatory melds he may never draw from the discard pile
    d = start("dummy-rummy", cut_ins=True)
    seat = d.state.deal.turn
    d(Called(seat, "goal", groups("7H 7S 7D | KS KC KD"), d.at(300)))
    assert seat in d.state.deal.family.made
    for _ in range(4):
        d.end_turn()
    assert d.state.deal.turn == seat
    other = (seat + 2) % 4
    d(ClaimMade(other, d.at(300)))  # a cut-in waits; MENU would have the seat in turn take it
    from engine.game.claims import prompt

    assert prompt(d.state, d.state.game.claim_rules).endswith(f"{NAMES[seat]} draws only from the stock: must allow it")
    d.menu()  # it cannot: "may either take the card for themself ... or must allow" the cut-in
    assert d.state.notice.startswith(f"{NAMES[seat]} draws only from the stock, so the cut-in goes through: "
                                     f"{NAMES[other]} takes the upcard and 3 cards from the stock")
    assert book_of(d.state, d.state.game.claim_rules).used[other] == 1
    d.end_turn()
    d.end_turn()  # the discard now is another seat's
    d(ClaimMade(seat, d.at(300)))  # nor may it cut in
    assert "only from the stock" in d.state.notice and seat not in book_of(d.state, d.state.game.claim_rules).waiting


# --- the whole hand in one turn -------------------------------------------------------------


def _at_last_deal(variant: str) -> Driver:
    """A four-seat game of ``variant`` played to its last deal, each deal won on a show."""
    from test_game_playouts import contract_show

    v = find(variant)
    d = start(variant)
    last = len(v.deal_list)  # type: ignore[attr-defined]
    for number in range(1, last):
        turn = d.state.deal.turn
        d.show(turn, contract_show(v, number), {s: "PJ 2C" for s in range(4) if s != turn})  # type: ignore[arg-type]
        d(DealStarted("", d.at(1000)))
    assert d.state.deal.number == last
    return d


def _verdict(d: Driver, seat: int, zone: str):
    d.declare(seat)
    d.read(seat, zone)
    show = d.state.show
    assert show is not None and show.declaration is not None
    return show.declaration.ruling


THREE_RUNS = "3C 4C 5C 6C | 8H 9H 10H JH | 8D 9D 10D JD"


def test_contract_rummy_s_last_deal_goes_out_with_the_whole_hand_and_no_discard():
    """README: the seventh contract is "three sequences, going out with no discard": 12 cards
    dealt and one drawn all go down, so three runs of 4 leave a card that would be discarded."""
    d = _at_last_deal("contract-rummy")
    seat = d.state.deal.turn
    ruling = _verdict(d, seat, THREE_RUNS)
    assert not ruling.valid
    assert ruling.reason == ("deal 7 goes down whole in one turn: at least 13 cards "
                             "(12 dealt, 1 drawn, no discard), not 12")
    d.menu()  # read again: the whole hand this time
    d.read(seat, THREE_RUNS + " QD")
    assert d.state.show.declaration.ruling.valid
    replays(d)


def test_a_may_i_claim_adds_its_cards_to_the_whole_hand_that_must_go_down():
    """May I: the claimant takes the upcard and a penalty card, two cards more to meld."""
    d = _at_last_deal("contract-rummy")
    turn = d.state.deal.turn
    claimant = (turn + 1) % 4
    d(ClaimMade(claimant, d.at(300)))
    d.ok()  # the claim goes through
    d.end_turn()
    assert d.state.deal.turn == claimant
    ruling = _verdict(d, claimant, THREE_RUNS + " QD")
    assert not ruling.valid
    assert ruling.reason == ("deal 7 goes down whole in one turn: at least 15 cards "
                             "(12 dealt, 1 drawn, 2 taken by claims, no discard), not 13")


def test_progressive_rummy_s_last_card_may_go_by_discard():
    """Progressive Rummy: "A player may also play their last card by discard, at which time
    they also win the deal": 12 of the 13 cards melded, the last discarded."""
    d = _at_last_deal("progressive-rummy")
    assert _verdict(d, d.state.deal.turn, THREE_RUNS).valid


def test_telefunken_s_last_deal_melds_all_but_the_discard():
    """Telefunken's seventh deal: "he must meld his entire hand on one turn (or he may meld all
    but one card from his hand and discard his last card)": 11 dealt, 1 drawn, 11 shown."""
    d = _at_last_deal("telefunken")
    seat = d.state.deal.turn
    ruling = _verdict(d, seat, "KH KS KD | 2H 3H 4H 5H 6H 7H 8H")
    assert not ruling.valid and "at least 11 cards (11 dealt, 1 drawn, less the discard), not 10" in ruling.reason
    d.menu()
    d.read(seat, "KH KS KD | 2H 3H 4H 5H 6H 7H 8H 9H")
    assert d.state.show.declaration.ruling.valid


# --- a contract meld grown by lay-offs since it went down ---------------------------------


def _show_at(variant: str, number: int, zone: str):
    from dataclasses import replace as _replace

    from engine.game import policy_for

    d = start(variant)
    deal = _replace(d.state.deal, number=number)
    return policy_for(d.state.game).judge_show(d.state.game, deal, groups(zone))


@pytest.mark.parametrize(("variant", "number", "zone"), [
    # South African Kaluki, "he may also add cards to his own or other player's melds":
    ("sa-kaluki", 3, "7H 8H 9H 10H"),              # a run of exactly 3, one card laid on
    ("sa-kaluki", 2, "5D 5C 5S 5H"),               # a group of exactly 3 grown to 4
    ("sa-kaluki", 2, "5D 5C PJ PJ"),               # one joker going down, one laid on later
    # Telefunken, "he may add cards to those melds on later turns"; Farmer's plays as it:
    ("telefunken", 1, "5S 5H 5D 5C"),              # the limpio of exactly 3, a five laid on
    ("telefunken", 1, "5S 5H 5D PJ"),              # ... a joker laid on
    ("telefunken", 2, "5S 5S 5D 5H | 6S PJ 6D"),
    ("farmers-rummy", 1, "5S 5S 5H 5D"),
    ("american-jokers-alt", 1, "5S 6S 7S 8S"),     # "exactly three" as it went down
    # Shanghai: the wild chart holds for the contract's melds as they go down only
    ("shanghai", 1, "7H 7S 2D 2C | 8C 8D 8H"),
    ("shanghai", 2, "7H 7S 2D | 5C 6C 2H 8C PJ"),
    # a two standing as itself is natural, a joker laid on it later no harm
    ("shanghai", 2, "7H 7S 7D | 2C 3C 4C PJ PJ"),
    ("farmers-rummy", 1, "2S 2H 2D 2C"),
])
def test_a_contract_meld_grown_by_lay_offs_still_meets_the_contract(variant, number, zone):
    ruling = _show_at(variant, number, zone)
    assert ruling.valid, ruling.reason


@pytest.mark.parametrize(("variant", "number", "zone"), [
    ("telefunken", 1, "5S PJ PJ PJ"),        # a limpio went down with three naturals
    ("sa-kaluki", 2, "5D PJ PJ PJ"),         # one joker at most went down with it
    ("shanghai", 1, "7H 2S 2D 2C | 8C 8D 8H"),  # a group of 3 went down with one wild at most
    ("sa-kaluki", 3, "7H 8H"),               # too short whatever was laid on
    ("telefunken", 1, "7H 7H 7S"),           # a limpio went down in three suits
    ("telefunken", 7, "KH KS KD KC | 2H 3H 4H 5H 6H 7H 8H"),  # the whole hand at once: no growing
    ("king-rummy", 4, "5S 5H 5D 5C | 6S 6H 6D | 3C 4C 5C 6C"),  # exactly the ten, the whole hand
])
def test_a_grown_meld_keeps_the_naturals_it_went_down_with(variant, number, zone):
    assert not _show_at(variant, number, zone).valid


@pytest.mark.parametrize(("number", "zone", "why", "without"), [
    (1, "7H 7S 7D | 9C 9D 9S | KC KD KS | KH KS PJ", "two groups of the same rank", "KH KS PJ"),
    (3, "7H 7S 7C | 3D 4D 5D 6D | 8D 9D 10D JD | 8S 9S 10S JS", "two sequences of the same suit", "3D 4D 5D 6D"),
])
def test_caribbean_kalooki_a_zone_with_a_second_three_of_a_rank_or_four_of_a_suit_is_refused(number, zone, why,
                                                                                             without):
    """Caribbean Kalooki: a player may never lay down a second three of one rank, or a second
    four of one suit, in one hand: checked across the declarer's whole zone, not only among
    the contract's melds."""
    ruling = _show_at("caribbean-kalooki", number, zone)
    assert not ruling.valid and why in ruling.reason
    rest = " | ".join(g for g in zone.split(" | ") if g != without)
    assert _show_at("caribbean-kalooki", number, rest).valid
