"""Claims at the live table: a short press out of turn claims the upcard, checked game by game
against the rule texts (``/work/shared/rules/contract-rummy-variants.txt`` and the standard game
in the rules README); each test quotes the line it checks."""

from __future__ import annotations

from dataclasses import replace

import pytest
from _game_fixtures import Driver, game

from engine.game import (
    ButtonPressed,
    ButtonReleased,
    ClaimMade,
    GameState,
    LinkLost,
    SetLed,
    apply,
    event_from_json,
)
from engine.game.claims import MENU_CLAIM, book_of
from engine.game.events import check_event
from tablekit.present import play_hint

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed")


def dealt(variant: str, players: int = 4, **options: object) -> Driver:
    d = Driver(game(variant, NAMES[:players], options=options))
    d.deal("")
    assert d.state.phase == "play"
    return d


def order(state: GameState) -> list[int]:
    """The seats in turn order after the player in turn, found by ending turns on a copy."""
    seats = []
    s = state
    for k in range(state.game.players - 1):
        assert s.deal is not None
        turn = s.deal.turn
        s, _ = apply(s, ButtonPressed(turn, 10**9 + 2 * k))
        s, _ = apply(s, ButtonReleased(turn, 10**9 + 2 * k + 1))
        assert s.deal is not None
        seats.append(s.deal.turn)
    return seats


def second_turn(variant: str, players: int = 4, **options: object) -> tuple[Driver, int, list[int]]:
    """A deal on its second turn: (driver, the discarder, the others after the player in turn)."""
    d = dealt(variant, players, **options)
    discarder = d.state.deal.turn
    d.end_turn()
    return d, discarder, order(d.state)[:-1]


def claimed(d: Driver) -> tuple[int, ...]:
    rules = d.state.game.variant.claim_rules
    assert rules is not None
    return book_of(d.state, rules).used


def rest(state: GameState) -> GameState:
    """The state without what a refusal may change: the notice and the count of refusals."""
    rules = state.game.variant.claim_rules
    assert rules is not None
    return replace(state, notice="", claims=replace(book_of(state, rules), refused=0))


# --- standard Contract Rummy: May I --------------------------------------------------------


def test_may_i_gives_the_upcard_and_a_penalty_card_to_the_claimant_once_ok():
    """README: '"May I": a player may claim the refused discard out of turn, taking a penalty
    card from the stock'."""
    d, _, (a, b) = second_turn("contract-rummy")
    effects = d.press(b)
    assert d.state.notice == f'{NAMES[b]}: "May I?"' and SetLed(b, "slow") in effects
    assert play_hint(d.state) == (f"OK: {NAMES[b]} takes it and 1 card from the stock · "
                                  f"MENU: {NAMES[d.state.deal.turn]} takes it")
    d.ok()
    assert d.state.notice.startswith(f"{NAMES[b]} takes the upcard and 1 card from the stock")
    assert claimed(d)[b] == 1


def test_may_i_tie_goes_to_the_nearest_in_turn_order():
    """README: 'the nearest player in turn order wins a tie'."""
    d, _, (a, b) = second_turn("contract-rummy")
    d.press(b)
    d.press(a)  # a claims later but sits nearer
    d.ok()
    assert d.state.notice.startswith(f"{NAMES[a]} takes the upcard")
    assert f"{NAMES[b]} asked too" in d.state.notice
    assert claimed(d)[a] == 1 and claimed(d)[b] == 0


@pytest.mark.parametrize("variant", ["contract-twos-wild", "jo", "progressive-rummy", "king-rummy"])
def test_the_games_played_like_contract_rummy_keep_its_may_i(variant):
    """Jo: 'If multiple players indicate they want to so take this card, the player who is
    nearest to this player (next in turn) is given the privilege.' (King, Progressive and
    twos wild follow "the rules for Contract Rummy".)"""
    d, _, (a, b) = second_turn(variant)
    d.press(b)
    d.press(a)
    d.ok()
    assert d.state.notice.startswith(f"{NAMES[a]} takes the upcard and 1 card from the stock")


def test_the_player_in_turn_may_take_the_upcard_first():
    """Jo: 'another player may, if the current player declines the current top card of the
    draw pile, request he be allowed to take his card' — MENU: the player in turn keeps it."""
    d, _, (a, b) = second_turn("jo")
    turn = d.state.deal.turn
    d.press(a)
    d.menu()
    assert d.state.notice == f"{NAMES[turn]} takes the upcard: no May I"
    assert claimed(d) == (0, 0, 0, 0)
    d.press(b)  # the upcard is gone: nothing more to claim until the next discard
    assert d.state.notice == "the upcard is taken: no May I until the next discard"


def test_a_waiting_claim_must_be_answered_before_the_turn_ends():
    d, _, (a, _b) = second_turn("contract-rummy")
    turn = d.state.deal.turn
    d.press(a)
    d.end_turn()
    assert d.state.deal.turn == turn and d.state.notice.startswith(f"answer {NAMES[a]}'s May I first")
    d.ok()
    d.end_turn()
    assert d.state.deal.turn == a


# --- Shanghai: buys ---------------------------------------------------------------------------


def test_shanghai_three_buys_a_deal_then_refused():
    """Shanghai: 'In the first 9 deals of the game each player is allowed 3 "buys".'"""
    d, _, (a, _b) = second_turn("shanghai")
    for n in range(1, 4):
        d.press(a)
        d.ok()
        assert f"(buy {n} of 3 this deal)" in d.state.notice
        d.end_turn()
        while d.state.deal.turn == a or order(d.state)[-1] == a:  # a new discard, not a's own
            d.end_turn()
    before = d.state
    d.press(a)
    assert d.state.notice == f"{NAMES[a]} has had 3 buys this deal, the most deal 1 allows"
    assert rest(d.state) == rest(replace(before, pressed_at=d.state.pressed_at))


def test_shanghai_allows_four_buys_in_the_last_deal():
    """Shanghai: 'In the last deal of the game, a player is allowed 4 such "buys".'"""
    d, _, (a, _b) = second_turn("shanghai")
    d.state = replace(d.state, deal=replace(d.state.deal, number=10))
    d.press(a)
    d.ok()
    assert "(buy 1 of 4 this deal)" in d.state.notice


def test_shanghai_the_first_to_say_buy_it_wins():
    """Shanghai: 'If two or more players want to "buy" this card, the player who first states
    "Buy It" gets the privilege.' ... 'the player must still also take an additional card from
    the stock pile'."""
    d, _, (a, b) = second_turn("shanghai")
    d.press(b)
    d.press(a)
    d.ok()
    assert d.state.notice.startswith(f"{NAMES[b]} takes the upcard and 1 card from the stock")


# --- South African Kaluki ------------------------------------------------------------------


def test_sa_kaluki_four_buys_a_hand_nearest_first():
    """South African Kaluki: 'The opportunity to buy a card then proceeds in a clockwise
    rotation around the table from the player whose current turn it is' and 'A player may buy
    a maximum of four cards in any given hand.'"""
    d, _, (a, b) = second_turn("sa-kaluki")
    d.press(b)
    d.press(a)
    d.ok()
    assert d.state.notice.startswith(f"{NAMES[a]} takes the upcard") and "(buy 1 of 4 this deal)" in d.state.notice
    rules = d.state.game.variant.claim_rules
    assert rules is not None and rules.limit_for(1) == 4 and rules.limit_for(7) == 4


# --- the Kalooki games: calls ---------------------------------------------------------------


@pytest.mark.parametrize("variant", ["caribbean-kalooki", "super-kalooki", "baby-kalooki"])
def test_kalooki_first_call_wins_and_three_calls_a_hand(variant):
    """Caribbean Kalooki: 'If multiple players call the card, the first player to call has the
    right to take the card if the call is accepted.' ... 'A specific player may only have three
    accepted calls per hand.'"""
    d, _, (a, b) = second_turn(variant)
    d.press(b)
    d.press(a)
    d.ok()
    assert d.state.notice.startswith(f"{NAMES[b]} takes the upcard and 1 card from the stock")
    assert "(call 1 of 3 this deal)" in d.state.notice
    d.state = replace(d.state, claims=replace(d.state.claims, used=(3, 3, 3, 3), taken=False))
    d.press(a)
    assert d.state.notice == f"{NAMES[a]} has had 3 calls this deal, the most deal 1 allows"


def test_kalooki_the_card_under_an_accepted_call_cannot_be_called():
    """Caribbean Kalooki: 'The card under the one last called (after an accepted call) cannot
    also be called by the same or another player.'"""
    d, _, (a, b) = second_turn("caribbean-kalooki")
    d.press(a)
    d.ok()
    d.press(b)
    assert d.state.notice == "the upcard is taken: no call until the next discard"


def test_kalooki_the_player_in_turn_may_refuse_the_call():
    """Caribbean Kalooki: 'The player whose turn it would actually be has two options when
    another player calls in this manner. He may either Allow or Refuse the call.'"""
    d, _, (a, _b) = second_turn("caribbean-kalooki")
    turn = d.state.deal.turn
    d.press(a)
    d.menu()
    assert d.state.notice == f"{NAMES[turn]} takes the upcard: no call"
    assert claimed(d) == (0, 0, 0, 0)


# --- Russian Rummy and Onze: the card is free once the player in turn took from the stock ----


def test_russian_first_to_say_i_want_it_takes_it_and_a_stock_card():
    """Russian Rummy: 'The first player to state "I want it" has the right to the card. That
    player then takes the top card of the discard and also the top card of the stock as a
    penalty.'"""
    d, _, (a, b) = second_turn("russian-rummy")
    d.press(b)
    assert d.state.notice == f'{NAMES[b]}: "I want it"'
    d.press(a)
    d.ok()
    assert d.state.notice.startswith(f"{NAMES[b]} takes the upcard and 1 card from the stock")


def test_russian_menu_turns_the_claim_down():
    d, _, (a, _b) = second_turn("russian-rummy")
    d.press(a)
    d.menu()
    assert d.state.notice == "no claim: the upcard stays" and claimed(d) == (0, 0, 0, 0)


def test_onze_nearest_takes_it_and_the_chance_ends_with_the_turn():
    """Onze: 'If two or more of these other players want the card, the player who is closest,
    in a clockwise direction to the player who is currently having a turn is entitled to the
    card.' ... 'This opportunity to take this card by any other player ends as soon as the
    current player discards, ending his turn.'"""
    d, _, (a, b) = second_turn("onze")
    d.press(b)
    d.press(a)
    d.ok()
    assert d.state.notice.startswith(f"{NAMES[a]} takes the upcard and 1 card from the stock")
    d.end_turn()
    d.press(order(d.state)[1])
    effects = d.end_turn()  # the claim was not answered: it lapses with the turn
    assert book_of(d.state, d.state.game.variant.claim_rules).waiting == ()
    assert any(isinstance(e, SetLed) and e.mode == "off" for e in effects)


# --- Telefunken and Farmer's Rummy: chips -------------------------------------------------


def test_telefunken_seven_chips_for_the_game():
    """Telefunken: 'each player is supplied with seven tokens or chips. These chips can be used
    to "buy" discards during course of the play. Once a player uses his last chip he is not
    provided any more'."""
    d, _, (a, _b) = second_turn("telefunken")
    d.press(a)
    d.ok()
    assert "6 chips left" in d.state.notice
    d.state = replace(d.state, claims=replace(d.state.claims, tokens=(0, 0, 0, 0), taken=False))
    d.press(a)
    assert d.state.notice == f"{NAMES[a]} has no chips left: no buy"


def test_telefunken_nearest_to_the_discarder_in_turn_order_wins():
    """Telefunken: 'If multiple players want to "buy" this card, the precedence is for the
    player closes to the discarding player in a counter-clockwise direction' (the way its turns
    go: the next to play after the discarder comes first)."""
    d, _, (a, b) = second_turn("telefunken")
    d.press(b)
    d.press(a)
    d.ok()
    assert d.state.notice.startswith(f"{NAMES[a]} takes the upcard")


def test_telefunken_the_player_in_turn_buys_the_discard_too_but_not_the_first_upcard():
    """Telefunken: 'If the player buying the card is the player next in turn, he must draw a
    card as usual to start his actual turn.' and 'If the first player on the first turn of each
    hand would prefer to draw the turned-up card ... without the requirement to give a chip'."""
    d = dealt("telefunken")
    first = d.state.deal.turn
    d.press(order(d.state)[0])
    d.menu()  # the first player takes the turned-up card, free
    assert d.state.notice == f"{NAMES[first]} takes the upcard: no buy"
    assert d.state.claims.tokens == (7, 7, 7, 7)
    d.end_turn()
    turn = d.state.deal.turn
    d.menu()
    assert MENU_CLAIM in d.state.menu
    while d.state.menu[0] != MENU_CLAIM:
        d.menu()
    d.ok()
    assert d.state.notice == (f"{NAMES[turn]} takes the upcard and 1 card from the stock (6 chips left), "
                              "then draws as usual")
    assert d.state.claims.cards[turn] == 2  # the upcard and the penalty card, beyond the turn's draw


def test_telefunken_the_menu_offers_no_buy_to_a_player_in_turn_without_chips():
    """Telefunken: 'Once a player uses his last chip he is not provided any more' — the play
    menu offers the player in turn no buy once their chips are spent (found by the playouts:
    the item was offered, then refused)."""
    d, _, _ = second_turn("telefunken")
    turn = d.state.deal.turn
    d.menu()
    assert MENU_CLAIM in d.state.menu
    d.menu()
    while d.state.menu[0] != "close":
        d.menu()
    d.ok()
    book = book_of(d.state, d.state.game.variant.claim_rules)
    tokens = tuple(0 if s == turn else t for s, t in enumerate(book.tokens))
    d.state = replace(d.state, claims=replace(book, tokens=tokens))
    d.menu()
    assert MENU_CLAIM not in d.state.menu


def test_farmers_rummy_ten_chips_and_two_cards_a_buy():
    """Farmer's Rummy: 'each player is provided with 10 tokens' ... 'To buy a card a player
    must give one token and draw two additional cards from the top of the stock pile'."""
    d, _, (a, _b) = second_turn("farmers-rummy")
    d.press(a)
    d.ok()
    assert d.state.notice == f"{NAMES[a]} takes the upcard and 2 cards from the stock (9 chips left)"


# --- Dummy Rummy: cut-ins ---------------------------------------------------------------------


def test_dummy_rummy_cut_in_three_cards_twice_a_hand():
    """Dummy Rummy: 'the player cutting in must take an additional three cards from the deck.
    A player is only allowed to cut-in two times during a hand.'"""
    d, _, (a, _b) = second_turn("dummy-rummy", cut_ins=True)
    d.press(a)
    d.ok()
    assert d.state.notice == f"{NAMES[a]} takes the upcard and 3 cards from the stock (cut-in 1 of 2 this deal)"
    d.state = replace(d.state, claims=replace(d.state.claims, used=(2, 2, 2, 2), taken=False))
    d.press(a)
    assert d.state.notice == f"{NAMES[a]} has had 2 cut-ins this deal, the most deal 1 allows"


def test_dummy_rummy_the_player_in_turn_may_take_it_instead():
    """Dummy Rummy: 'the player to whom the actual turn belongs may either take the card for
    themself (as their draw), or must allow the player to take the card.'"""
    d, _, (a, _b) = second_turn("dummy-rummy", cut_ins=True)
    turn = d.state.deal.turn
    d.press(a)
    d.menu()
    assert d.state.notice == f"{NAMES[turn]} takes the upcard: no cut-in"


def test_claims_count_afresh_each_deal():
    d, _, (a, _b) = second_turn("shanghai")
    d.press(a)
    d.ok()
    book = book_of(d.state, d.state.game.variant.claim_rules)
    assert book.used[a] == 1
    later = replace(d.state, deal=replace(d.state.deal, number=2))
    assert book_of(later, d.state.game.variant.claim_rules).used == (0, 0, 0, 0)


# --- refusals: nothing changes but the words on screen -------------------------------------


def test_a_claim_in_a_game_without_claims_is_only_a_wrong_press():
    d = dealt("loba")
    d.end_turn()
    turn = d.state.deal.turn
    other = order(d.state)[0]
    d.press(other)
    assert d.state.notice == f"it is {NAMES[turn]}'s turn, not {NAMES[other]}'s"
    d(ClaimMade(other, d.at(100)))
    assert d.state.notice == "Loba (Central American) has no claims out of turn"
    assert d.state.claims is None


def test_one_s_own_discard_cannot_be_claimed():
    d, discarder, _ = second_turn("contract-rummy")
    before = d.state
    d.press(discarder)
    assert d.state.notice == f"{NAMES[discarder]} discarded that card: no May I of one's own discard"
    assert rest(d.state) == rest(replace(before, pressed_at=d.state.pressed_at))


def test_an_eliminated_seat_cannot_claim():
    d, _, (a, _b) = second_turn("contract-rummy")
    status = tuple("out" if s == a else st for s, st in enumerate(d.state.deal.status))
    d.state = replace(d.state, eliminated=tuple(s == a for s in range(4)),
                      deal=replace(d.state.deal, status=status))
    before = d.state
    d(ClaimMade(a, d.at(100)))
    assert d.state.notice == f"{NAMES[a]} is out of the game: no May I"
    assert rest(d.state) == rest(before)


def test_no_claim_while_play_is_paused_or_outside_play():
    d, _, (a, _b) = second_turn("contract-rummy")
    d(LinkLost(d.at(100)))
    d(ClaimMade(a, d.at(100)))
    assert d.state.notice == "no May I now: play is paused (button box lost)"
    fresh = Driver(game("contract-rummy", NAMES[:4]))
    fresh(ClaimMade(1, fresh.at(100)))
    assert fresh.state.notice == "no May I now: only during play"


def test_the_player_in_turn_cannot_claim_by_event():
    d, _, _ = second_turn("contract-rummy")
    turn = d.state.deal.turn
    d(ClaimMade(turn, d.at(100)))
    assert d.state.notice == f"it is {NAMES[turn]}'s own turn: the upcard is theirs to draw"


def test_claiming_twice_is_refused():
    d, _, (a, _b) = second_turn("contract-rummy")
    d.press(a)
    d.press(a)
    assert d.state.notice.startswith(f"{NAMES[a]} has claimed it already")
    assert book_of(d.state, d.state.game.variant.claim_rules).waiting == (a,)


# --- the event, the journal and replay ------------------------------------------------------


def test_claim_events_round_trip_and_are_checked():
    event = ClaimMade(2, 5000)
    assert event_from_json(event.to_json()) == event
    assert event.to_json() == {"type": "claim", "seat": 2, "t_ms": 5000}
    with pytest.raises(ValueError):
        check_event(ClaimMade(7, 0), 4)


def test_replay_reaches_the_same_claims():
    d, discarder, (a, b) = second_turn("shanghai")
    d(ClaimMade(b, d.at(100)))
    d.press(a)
    d.press(discarder)  # refused
    d.ok()
    d.end_turn()
    d.press(order(d.state)[1])
    d.menu()
    d.end_turn()
    state = d.replayed()
    assert state == d.state
    assert state.claims is not None and state.claims.granted == 1 and state.claims.refused == 1


def test_the_play_hint_says_how_to_claim_and_when():
    """Telefunken: 'A player may only "buy" a card during a hand if he has not yet melded during
    this same hand.' (the table cannot see melds: the hint says it)."""
    assert play_hint(dealt("telefunken").state).startswith(
        'short press: end turn · hold 1.5 s: show · out of turn: "Buy it" (before melding)')
    assert 'out of turn: "May I?"' in play_hint(dealt("contract-rummy").state)
    assert "out of turn" not in play_hint(dealt("loba").state)
