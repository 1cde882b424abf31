"""The contract games' own calls at the table: Telefunken's chip, Dummy Rummy's goal and its
floating discard, King Rummy's joker, each from the call panel (keyboard and touch), from the
box (a seat's button held while OK is pressed, or the play menu), refused at the wrong moment
with the reason and journaled either way; and Dummy Rummy's optional dummy hand.

Each rule is checked against the line of the rule text ``contract-rummy-variants.txt`` it
follows (paraphrased; line numbers of that file)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402
from _game_fixtures import Driver, game, groups  # noqa: E402
from _panel_fixtures import keys, tap  # noqa: E402

from display.viewmodel import CallsView, PlayView  # noqa: E402
from display.window import Screen  # noqa: E402
from engine.families.contract import live  # noqa: E402
from engine.game import Buzz, Called, Confirm, DealStarted, MenuPressed  # noqa: E402
from engine.game.claims import book_of  # noqa: E402
from engine.game.deal_flow import REFUSE_BUZZ_MS  # noqa: E402
from engine.game.flow import MENU_STOCK_OUT  # noqa: E402
from engine.game.house_options import OptionError, check_options  # noqa: E402
from engine.game.policy import policy_for  # noqa: E402
from engine.variants import find  # noqa: E402
from firmware_bridge import ButtonEvent  # noqa: E402
from tablekit.box_input import key_to_table  # noqa: E402
from tablekit.cameras import ScriptedCamera  # noqa: E402
from tablekit.clock import ManualClock  # noqa: E402
from tablekit.journal import Journal  # noqa: E402
from tablekit.shell import call_key, open_screen  # noqa: E402
from tablekit.table import Table  # noqa: E402

NAMES = ("Ann", "Bo", "Cy", "Di")


# --- helpers --------------------------------------------------------------------------------


@pytest.fixture
def screen() -> Iterator[Screen]:
    s = open_screen((800, 480), headless=True)
    yield s
    s.close()


def table_for(tmp_path, variant: str, players: int = 4, screen: Screen | None = None,
              **options: object) -> Table:
    journal = Journal(tmp_path / f"{variant}.sqlite")
    g = game(variant, NAMES[:players], first_dealer=0, options=options)
    t = Table.start(journal, g, ManualClock(1000), camera=ScriptedCamera(cuts={}, absent=True),
                    on_view=screen.show if screen is not None else None)
    t.ok_pressed(t.now())  # the deal
    return t


def journaled(table: Table) -> list[Called]:
    return [e for e in table.journal.events(table.game_id) if isinstance(e, Called)]


def chord(table: Table, seat: int, t: int) -> None:
    """The box's pattern: a seat's button held while OK is pressed, then let go (keyboard
    numbering: the seats, then MENU, then OK)."""
    ok = table.state.game.players + 1
    for button, action, at in ((seat, "press", t), (ok, "press", t + 200), (ok, "release", t + 300),
                               (seat, "release", t + 600)):
        key_to_table(table, ButtonEvent(button, action, at), at)  # type: ignore[arg-type]


def refused(effects: list) -> bool:
    return any(isinstance(e, Buzz) and e.ms == REFUSE_BUZZ_MS for e in effects)


def start(variant: str, players: int = 4, **options: object) -> Driver:
    d = Driver(game(variant, NAMES[:players], first_dealer=0, options=options))
    d(DealStarted("", d.at(1000)))
    return d


def call(d: Driver, seat: int, what: str, cards: str = "") -> list:
    return d(Called(seat, what, groups(cards) if cards else (), d.at(300)))


# --- the call panel offers each game's own calls --------------------------------------------


@pytest.mark.parametrize("variant, calls", [
    ("telefunken", ["chip"]),
    ("dummy-rummy", ["goal"]),
    ("king-rummy", ["joker"]),
    ("american-jokers", ["upcard"]),
    ("push", ["push"]),
    ("contract-rummy", []),
])
def test_the_call_panel_offers_the_calls_each_game_s_data_has(variant, calls):
    assert list(policy_for(game(variant, NAMES[:4])).panel_calls(game(variant, NAMES[:4]))) == calls


def test_dummy_rummy_with_floating_offers_calling_out_a_discard_and_floating():
    g = game("dummy-rummy", NAMES, options={"floating": True})
    assert policy_for(g).panel_calls(g) == ("goal", "extend", "float")


def test_telefunken_s_chip_from_the_keyboard_panel_then_refused_the_second_time(tmp_path, screen):
    """contract-rummy-variants.txt line 321: when the cut part held just the cards dealt and the
    upcard, the cutter adds a chip, eight in all — once, so a second claim is refused."""
    table = table_for(tmp_path, "telefunken", screen=screen)
    view = table.draw()
    assert isinstance(view, PlayView) and view.calls == "Calls"
    assert call_key(table, "k", "k")
    view = table.draw()
    assert isinstance(view, CallsView) and [o.call for o in view.options] == ["chip"]
    assert view.options[0].label == "cut exactly: the extra chip"
    cutter = 1  # the dealer's (seat 0's) left
    while table.calling().seat != cutter:
        call_key(table, "right", "")
    call_key(table, "return", "")
    assert table.state.notice == "Bo cut exactly: one more chip (8 chips)"
    assert book_of(table.state, table.state.game.claim_rules).tokens[cutter] == 8
    call_key(table, "return", "")
    panel = table.calling()
    assert panel is not None and panel.refused
    assert panel.said == "Bo has had the extra chip already: 8 is the most a player holds"
    assert [(c.seat, c.call) for c in journaled(table)] == [(1, "chip"), (1, "chip")]


def test_king_rummy_s_joker_by_touch_names_the_card_put_in(tmp_path, screen):
    """contract-rummy-variants.txt line 23: when a joker is melded, the other players may at
    once put the natural card in its place and take the joker; the melder plays on."""
    table = table_for(tmp_path, "king-rummy", screen=screen)
    turn = table.state.deal.turn
    other = (turn + 1) % 4
    tap(table, screen, "call:open")
    tap(table, screen, f"call:seat:{other}")
    tap(table, screen, "call:what:joker")
    keys(table, "7H")
    tap(table, screen, "call:make")
    name, in_turn = NAMES[other], NAMES[turn]
    assert table.state.notice == f"{name} takes the joker, putting 7H in its place; {in_turn} plays on"
    tap(table, screen, f"call:seat:{turn}")
    tap(table, screen, "call:make")
    assert table.calling().refused
    assert table.state.notice == f"{in_turn} melded it: only the other players may take a joker at once"
    assert [c.call for c in journaled(table)] == ["joker", "joker"]


# --- the box: a seat's button held while OK is pressed ----------------------------------------


def test_the_box_chord_earns_telefunken_s_chip_and_is_refused_after_the_first_turn(tmp_path):
    """contract-rummy-variants.txt line 321: the chip is the cutter's, earned at the cut (the
    table takes it until the deal's first turn ends)."""
    table = table_for(tmp_path, "telefunken")
    t = table.now() + 1000
    chord(table, 2, t)  # not the cutter: refused, journaled
    assert table.state.notice == "Bo cut this deal: only the cutter may earn the extra chip"
    chord(table, 1, t + 2000)
    assert table.state.notice == "Bo cut exactly: one more chip (8 chips)"
    assert table.state.pressed_at[1] is None  # the press became the call: no claim, no show
    assert [(c.seat, c.call) for c in journaled(table)] == [(2, "chip"), (1, "chip")]
    assert table.state.claims is None or not table.state.claims.waiting


def test_the_box_chord_lays_a_dummy_rummy_goal_only_in_one_s_own_turn(tmp_path):
    """contract-rummy-variants.txt line 515: a player lays their goal's melds after drawing, in
    their own turn; each player keeps trying a goal until it is made."""
    table = table_for(tmp_path, "dummy-rummy")
    turn = table.state.deal.turn
    other = (turn + 1) % 4
    t = table.now() + 1000
    chord(table, other, t)
    assert table.state.notice == f"{NAMES[other]} lays a goal only in their own turn"
    chord(table, turn, t + 2000)
    assert table.state.notice == f"{NAMES[turn]} lays goal 1, as the table saw it"
    assert turn in live.of(table.state.deal).made
    chord(table, turn, t + 4000)
    assert table.state.notice == f"{NAMES[turn]} has laid goal 1 already this deal"
    assert [c.call for c in journaled(table)] == ["goal"] * 3


def test_the_box_chord_takes_a_king_rummy_joker_out_of_turn(tmp_path):
    """contract-rummy-variants.txt line 23: another player takes the melded joker at once."""
    table = table_for(tmp_path, "king-rummy")
    turn = table.state.deal.turn
    other = (turn + 2) % 4
    chord(table, other, table.now() + 1000)
    assert table.state.notice == (f"{NAMES[other]} takes the joker, putting the card it stands for "
                                  f"in its place; {NAMES[turn]} plays on (a player nearer in turn may "
                                  "still claim it within 5 seconds)")
    assert table.state.deal.turn == turn  # the melder plays on


def test_of_several_who_want_a_king_rummy_joker_the_nearest_in_turn_has_the_first_chance():
    """contract-rummy-variants.txt line 23: when more than one player can and wants to take a
    melded joker, the player closest to being next in turn gets the first opportunity. The
    first call opens a short window; a seat nearer in turn takes the joker over, one farther
    away is refused with the reason; after the window a call is for another joker."""
    d = start("king-rummy")
    turn = d.state.deal.turn
    near, mid, far = ((turn + k) % 4 for k in (1, 2, 3))
    t = d.t
    assert not refused(d(Called(mid, "joker", (("7H",),), t + 500)))
    assert live.of(d.state.deal).joker_to == mid and live.of(d.state.deal).jokers == 1
    before = d.state
    effects = d(Called(far, "joker", (), t + 1500))  # farther from playing next: refused
    assert refused(effects)
    assert d.state.notice == (f"{NAMES[mid]} plays sooner after {NAMES[turn]} and asked for that joker: "
                              f"the player nearest in turn has the first chance, so it stays with {NAMES[mid]}")
    assert d.state.deal == before.deal
    assert not refused(d(Called(near, "joker", (("7H",),), t + 3000)))  # nearer: takes it over
    assert d.state.notice.startswith(f"{NAMES[near]} plays sooner after {NAMES[turn]} than {NAMES[mid]}: "
                                     f"{NAMES[near]} takes the joker, putting 7H in its place")
    assert live.of(d.state.deal).joker_to == near and live.of(d.state.deal).jokers == 1
    assert refused(d(Called(mid, "joker", (), t + 4000)))  # mid again: near plays sooner
    assert refused(d(Called(near, "joker", (), t + 4500)))  # near has it already
    assert "has taken that joker already" in d.state.notice
    # the window is over: another joker melded, and the far seat may take that one
    assert not refused(d(Called(far, "joker", (), t + 500 + live.JOKER_WINDOW_MS + 1)))
    assert live.of(d.state.deal).joker_to == far and live.of(d.state.deal).jokers == 2
    assert d.replayed() == d.state


def test_ok_without_a_seat_held_is_still_ok(tmp_path):
    table = table_for(tmp_path, "telefunken")
    t = table.now() + 1000
    ok = table.state.game.players + 1
    key_to_table(table, ButtonEvent(ok, "press", t), t)  # type: ignore[arg-type]
    assert journaled(table) == []


def test_a_goal_from_the_play_menu_for_the_player_in_turn():
    """contract-rummy-variants.txt line 515: the player in turn lays their goal."""
    d = start("dummy-rummy")
    turn = d.state.deal.turn
    d(MenuPressed(d.at(200)))
    assert "goal" in d.state.menu
    while d.state.menu[0] != "goal":
        d(MenuPressed(d.at(200)))
    d(Confirm(d.at(200)))
    assert d.state.notice == f"{NAMES[turn]} lays goal 1, as the table saw it"
    d(MenuPressed(d.at(200)))
    assert "goal" not in d.state.menu  # laid: not offered again this deal


# --- Dummy Rummy's floating discard ----------------------------------------------------------


def test_dummy_rummy_offers_floating_and_the_dummy_hand_as_house_rules():
    """contract-rummy-variants.txt lines 544-550: the floating discard and the dummy hand are
    optional rules some players use."""
    v = find("dummy-rummy")
    assert check_options(v, {"floating": True, "dummy_hand": True})
    with pytest.raises(OptionError):
        check_options(find("contract-rummy"), {"floating": True})


def test_without_the_house_rule_a_player_may_not_float():
    """contract-rummy-variants.txt line 535: a player must always keep a card to discard."""
    d = start("dummy-rummy")
    turn = d.state.deal.turn
    assert refused(call(d, turn, "goal", "7H 7S 7D | 9C 9D 9S"))  is False
    assert refused(call(d, turn, "float"))
    assert d.state.notice == (f"{NAMES[turn]} must keep a card to discard: floating is a house rule "
                              "this table did not choose")


def test_a_discard_that_extends_a_meld_is_called_out_by_another_player():
    """contract-rummy-variants.txt line 550: with the floating discard, a card that could extend
    a meld on the table may not be discarded; any other player may point it out and the card
    goes onto that meld."""
    d = start("dummy-rummy", floating=True)
    first = d.state.deal.turn
    other = (first + 2) % 4
    assert refused(call(d, other, "extend"))  # nothing discarded yet
    assert d.state.notice == "no discard to call out: only the last one, until the next turn ends"
    d.end_turn()
    assert refused(call(d, first, "extend"))
    assert d.state.notice == f"{NAMES[first]} discarded it: another player calls it out"
    assert not refused(call(d, other, "extend"))
    assert d.state.notice == (f"{NAMES[other]} calls out {NAMES[first]}'s discard: it extends a meld "
                              f"on the table, so {NAMES[first]} plays it there")
    assert refused(call(d, (first + 1) % 4, "extend"))
    assert d.state.notice == f"{NAMES[first]}'s discard was called out already"
    d.end_turn()
    d.end_turn()
    assert refused(call(d, other, "extend"))  # that discard is old now


def test_a_player_who_laid_their_goal_floats_with_no_card_and_pays_nothing():
    """contract-rummy-variants.txt line 551: a player may so play their last card and float with
    no card in hand; they have not won yet (they win by discarding a drawn card that fits no
    meld); line 537: the others pay for the cards they still hold."""
    d = start("dummy-rummy", floating=True)
    turn = d.state.deal.turn
    assert refused(call(d, turn, "float"))
    assert d.state.notice == (f"{NAMES[turn]} has not laid their goal: no card goes onto the table's "
                              "melds before it")
    assert not refused(call(d, turn, "goal", "7H 7S 7D | 9C 9D 9S"))
    other = (turn + 1) % 4
    assert refused(call(d, other, "float"))
    assert not refused(call(d, turn, "float"))
    assert d.state.notice.startswith(f"{NAMES[turn]} plays their last card to a meld and floats")
    assert turn in live.of(d.state.deal).floating
    assert "floating" in policy_for(d.state.game).seat_notes(d.state)[turn]
    assert d.state.deal.status[turn] == "playing"  # not won
    assert refused(call(d, turn, "float"))
    # the stock runs out before anyone goes out: the floating hand is read empty and pays 0
    d.menu()
    while d.state.menu[0] != MENU_STOCK_OUT:
        d.menu()
    d.ok()
    for _ in range(4):
        seat = d.state.show.pending[0]
        d.read(seat, "" if seat == turn else "3C 4D")
        d.ok()
    assert d.replayed() == d.state
    record = d.state.history[-1]
    assert record.scores[turn] == 0 and all(record.scores[s] == 10 for s in range(4) if s != turn)


def test_the_called_out_discarder_may_float_at_once():
    """contract-rummy-variants.txt lines 550-551: the called-out card goes onto the meld; if it
    was the discarder's last card, they float."""
    d = start("dummy-rummy", floating=True)
    first = d.state.deal.turn
    assert not refused(call(d, first, "goal", "7H 7S 7D | 9C 9D 9S"))
    d.end_turn()
    assert not refused(call(d, (first + 1) % 4, "extend"))
    assert not refused(call(d, first, "float"))
    assert first in live.of(d.state.deal).floating


# --- Dummy Rummy's dummy hand ----------------------------------------------------------------


def test_with_fewer_than_four_players_a_dummy_hand_is_dealt_face_up():
    """contract-rummy-variants.txt line 548: with two or three players a dummy hand may be dealt
    face up; it takes no part in play."""
    three = game("dummy-rummy", NAMES[:3], options={"dummy_hand": True})
    policy = policy_for(three)
    assert policy.deal_label(three, 1) == "each player's own goal; 13 cards dealt face up to a dummy hand"
    four = game("dummy-rummy", NAMES)
    assert policy.deal_label(four, 1) == "each player's own goal"
    plain = game("dummy-rummy", NAMES[:3])
    assert policy.deal_label(plain, 1) == "each player's own goal"
    d = start("dummy-rummy", players=3, dummy_hand=True)
    assert len(d.state.deal.status) == 3  # the dummy holds no seat and takes no turn


def test_the_dummy_hand_with_four_players_is_refused_at_setup_with_the_reason():
    """contract-rummy-variants.txt line 548: the dummy hand is dealt only when fewer than four
    play (two or three): asked for with four, the game does not start, and the table says why
    instead of leaving the house rule silently unplayed."""
    from engine.game.setup import SetupError
    from tablekit.commands.run import game_from_args
    from tablekit.values import ValueRefused

    with pytest.raises(SetupError, match="dummy hand is dealt only when 3 or fewer play, not 4"):
        game("dummy-rummy", NAMES, options={"dummy_hand": True})
    assert game("dummy-rummy", NAMES[:3], options={"dummy_hand": True}).players == 3
    assert game("dummy-rummy", NAMES, options={"dummy_hand": False}).players == 4
    parser = __import__("argparse").Namespace(players="Ann,Bo,Cy,Di", option=["dummy_hand=true"], dealer=1,
                                              variant="dummy-rummy", turn_seconds=0)
    with pytest.raises((SetupError, ValueRefused), match="leave out dummy_hand or seat fewer players"):
        game_from_args(parser)
