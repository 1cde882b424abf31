"""The scorepad in the engine: hands the players enter, checked, confirmed by a second seat, replayed."""

from __future__ import annotations

from dataclasses import replace

import pytest
from _game_fixtures import LOSER_58, Driver, game

from engine.game import HandEntered, ReadZone, TableRead, event_from_json, policy_for
from engine.game.codec import RecordError
from engine.game.events import check_event
from engine.game.policy import ENTRY_LIMIT, LOST
from engine.game.scorepad import (
    CARDS,
    CONFIRMING,
    ENTERING,
    HOLD_MS,
    POINTS,
    VERDICT,
    confirm,
    count_problem,
    draft_goto,
    draft_new_group,
    draft_rank,
    draft_remove,
    draft_suit,
    entry_from_record,
    entry_record,
    erase,
    finish,
    finish_typing,
    judge,
    new_draft,
    open_entry,
    press,
    step_back,
    type_key,
    wanted,
)
from engine.game.show import judge_declaration


def declared(variant: str = "indian-pool-101", seat: int = 1, *, first_round: bool = False) -> Driver:
    """A show declared by ``seat`` after every seat had a turn (``first_round``: on the
    deal's very first turn)."""
    d = Driver(game(variant))
    d.deal()
    for _ in range(0 if first_round else d.state.game.players):
        d.end_turn()
    while d.state.deal.turn != seat:
        d.end_turn()
    d.declare(seat)
    return d


def enter(d: Driver, seat: int, *, points: int | None = None, valid: bool | None = None,
          by: int | None = 0, confirmed_by: int = 2) -> None:
    d(HandEntered(seat, points, valid, by, confirmed_by, d.at(500)))


def test_the_show_asks_for_the_declarers_verdict_then_each_hand_in_turn():
    d = declared()
    assert wanted(d.state) == (1, VERDICT)
    enter(d, 1, valid=True, by=0, confirmed_by=2)
    assert d.state.show.stage == "hand-reading" and d.state.show.declaration.entered
    assert wanted(d.state) == (2, POINTS)
    assert isinstance(d.effects[-1], ReadZone) and d.effects[-1].seat == 2
    enter(d, 2, points=45, by=2, confirmed_by=0)
    assert wanted(d.state) == (0, POINTS)
    enter(d, 0, points=80, by=1, confirmed_by=2)
    record = d.state.history[-1]
    assert d.state.phase == "deal-over" and record.winner == 1
    assert record.scores == (80, 0, 45) and record.outcomes == (LOST, "winner", LOST)
    assert d.state.show.hands[0].entered and d.state.show.hands[0].groups == ()


def test_a_count_over_the_familys_cap_or_below_zero_is_refused_with_the_reason():
    d = declared()
    enter(d, 1, valid=True)
    before = d.state
    enter(d, 2, points=81, by=0, confirmed_by=1)
    assert d.state.show == before.show and "at most 80 points" in d.state.notice
    enter(d, 2, points=-3, by=0, confirmed_by=1)
    assert d.state.show == before.show and "less than 0" in d.state.notice
    enter(d, 2, points=None, by=0, confirmed_by=1)
    assert d.state.show == before.show and "enter the points" in d.state.notice


def test_the_seat_that_entered_cannot_confirm_and_only_the_asked_hand_is_taken():
    d = declared()
    enter(d, 1, valid=True, by=2, confirmed_by=2)
    assert d.state.show.stage == "reading" and "a different seat must confirm" in d.state.notice
    enter(d, 0, valid=True, by=2, confirmed_by=1)
    assert d.state.show.stage == "reading" and "Ravi's hand is asked for" in d.state.notice
    enter(d, 1, valid=None, by=2, confirmed_by=0)
    assert d.state.show.stage == "reading" and "valid" in d.state.notice
    enter(d, 1, valid=True, by=None, confirmed_by=0)  # typed at the keyboard: any seat confirms
    assert d.state.show.stage == "hand-reading"


def test_an_entry_outside_a_show_is_refused():
    d = Driver(game())
    d.deal()
    enter(d, 1, points=10)
    assert d.state.phase == "play" and "no hand is being asked for" in d.state.notice


def test_a_wrong_show_entered_costs_what_the_family_says_and_play_goes_on():
    d = declared()
    enter(d, 1, valid=False, by=0, confirmed_by=2)
    assert d.state.phase == "play" and d.state.deal.outcomes[1] == "wrong-show"
    assert "Ravi made a wrong show" in d.state.notice
    assert d.state.deal.turn == 2


def test_an_entered_game_replays_exactly_from_its_json_lines():
    d = declared()
    enter(d, 1, valid=True)
    enter(d, 2, points=99, by=0, confirmed_by=1)  # refused, journaled like any refusal
    enter(d, 2, points=12, by=0, confirmed_by=1)
    enter(d, 0, points=30, by=2, confirmed_by=1)
    assert d.state.phase == "deal-over" and d.replayed() == d.state
    line = HandEntered(2, 12, None, 0, 1, 5).to_json()
    assert line == {"type": "hand-entered", "seat": 2, "points": 12, "valid": None,
                    "by_seat": 0, "confirmed_by": 1, "t_ms": 5}
    assert event_from_json(line) == HandEntered(2, 12, None, 0, 1, 5)


def test_a_journal_line_with_a_seat_that_does_not_exist_is_refused_where_it_is_read():
    with pytest.raises(RecordError, match="confirmed_by 5"):
        check_event(HandEntered(0, 3, None, 1, 5, 0), 3)
    with pytest.raises(RecordError, match="points must be"):
        event_from_json({"type": "hand-entered", "seat": 0, "points": "ten"})


def test_a_hand_the_camera_read_but_could_not_count_can_be_entered_instead():
    d = declared()
    enter(d, 1, valid=True)
    d.read(2, "4H 5H ?? | KD")
    assert d.state.show.stage == "hand-check" and d.state.show.current.problem
    enter(d, 2, points=20, by=2, confirmed_by=0)
    assert wanted(d.state) == (0, POINTS) and d.state.show.hands[-1].points == 20


def test_a_seat_that_had_no_turn_before_the_show_pays_the_deal_show_half():
    d = declared(first_round=True)
    enter(d, 1, valid=True)
    enter(d, 2, points=45, by=0, confirmed_by=1)
    enter(d, 0, points=80, by=2, confirmed_by=1)
    record = d.state.history[-1]
    assert record.outcomes == ("deal-show", "winner", "deal-show") and record.scores == (40, 0, 22)


def test_a_read_show_and_entered_hands_mix():
    d = declared()
    d.read(1, "4H 5H 6H 7H | KC QC PJ | QD QS QC | 7S 7D 7C")
    d.ok()
    enter(d, 2, points=7, by=0, confirmed_by=1)
    d.read(0, LOSER_58)
    d.ok()
    record = d.state.history[-1]
    assert record.scores[1:] == (0, 7) and record.scores[0] > 7
    assert not d.state.show.hands[1].entered and d.state.show.hands[0].entered


@pytest.mark.parametrize(("variant", "cap"), [
    ("indian-pool-101", 80), ("indian-deals", 80), ("shanghai", ENTRY_LIMIT),
    ("open-rummy", None), ("tile-rummy", None)])
def test_each_family_says_the_most_a_hand_may_count(variant, cap):
    names = ("Ann", "Bo", "Cy", "Di")
    g = game(variant, names)
    assert policy_for(g).max_hand_points(g) == cap


def tile_show(seat_cards: str = "") -> tuple[Driver, int]:
    d = Driver(game("tile-rummy", ("Ann", "Bo", "Cy", "Di")))
    d.deal("R7")
    d.ok()  # the doubles window closes (a long press in it shows the ace instead)
    d.press(d.state.deal.turn)  # the opening throw (nobody closes in that turn)
    seat = d.state.deal.turn
    d.declare(seat)
    return d, seat


def test_a_family_scoring_from_the_cards_takes_the_cards_the_declarers_and_every_hand():
    d, seat = tile_show()
    entry = open_entry(d.state)
    assert entry is not None and entry.kind == CARDS and entry.declared and entry.seat == seat
    assert entry.hand is not None and entry.hand.tiles and entry.hand.groups == ()
    assert "read, not entered" in count_problem(d.state, 5)  # a count alone still cannot score it
    assert finish(entry, d.state).problem == "enter the tiles of Cy's show"  # Cy: after Bo's opening throw


def test_cards_entered_are_judged_as_a_reading_of_them_would_be():
    d, seat = tile_show()
    entry = open_entry(d.state)
    for key in "r10 r11 r12 / k9 b9 y9 / r1 r2 r3 / b4 b5 b6 b7":
        entry = type_key(entry, key)
    entry = finish(entry, d.state)
    assert entry.stage == CONFIRMING and entry.hand.groups[0] == ("R10", "R11", "R12")
    assert judge(d.state, entry).ruling == judge_declaration(d.state, entry.hand.groups).ruling
    assert judge(d.state, entry).ruling.valid
    bad = open_entry(d.state)
    for key in "r10 r11 b5 | k9 b9":
        bad = type_key(bad, key)
    bad = finish(bad, d.state)
    ruled = judge(d.state, bad)
    assert bad.stage == CONFIRMING and not ruled.ruling.valid  # a wrong show is a verdict too
    assert ruled.ruling == judge_declaration(d.state, bad.hand.groups).ruling
    # confirmed, they are the camera's reading of the zone: the same event
    assert entry.reading(77) == TableRead(seat, entry.hand.groups, 77)


def open_show() -> Driver:
    """Open Rummy (four players): Bo declares after a round of turns."""
    d = Driver(game("open-rummy", ("Ann", "Bo", "Cy", "Di")))
    d.deal()
    for _ in range(4):
        d.end_turn()
    while d.state.deal.turn != 1:
        d.end_turn()
    d.declare(1)
    return d


def test_a_word_that_is_not_a_card_is_refused_and_kept_to_mend():
    d = open_show()
    entry = open_entry(d.state)
    assert entry.kind == CARDS and not entry.hand.tiles
    for key in "4h 5h 6x":
        entry = type_key(entry, key)
    entry = finish(entry, d.state)
    assert entry.stage == ENTERING and "not a card" in entry.problem and "6X" in entry.problem
    assert entry.hand.typed == "4H 5H 6X"
    entry = erase(erase(entry))
    entry = finish_typing(type_key(type_key(entry, "6"), "h"), True)
    assert entry.hand.groups == (("4H", "5H", "6H"),) and entry.hand.typed is None


def test_the_box_steps_a_card_rank_by_rank_and_suit_by_suit_and_menu_moves_on():
    d = open_show()
    entry = open_entry(d.state)
    entry = press(entry, 0, 100)  # the first card: the ace of spades
    assert entry.hand.groups == (("AS",),) and entry.by_seat == 0
    entry = press(press(entry, 0, 100), 0, 100)
    assert entry.hand.groups == (("3S",),)
    entry = press(entry, 2, HOLD_MS)  # held: the next suit
    assert entry.hand.groups == (("3H",),) and entry.by_seat == 2
    entry = step_back(entry)  # MENU: the next slot, "add a card to this group"
    assert entry.hand.cursor == (0, 1)
    entry = press(entry, 0, 100)
    assert entry.hand.groups == (("3H", "AS"),) and entry.hand.cursor == (0, 1)
    for _ in range(13):  # A … K, then the joker
        entry = press(entry, 0, 100)
    assert entry.hand.groups == (("3H", "PJ"),)
    entry = press(entry, 0, 100)  # past the joker: the card goes
    assert entry.hand.groups == (("3H",),) and entry.hand.cursor == (0, 1)
    entry = step_back(entry)  # from "add a card" on to "a new group"
    assert entry.hand.cursor == (1, 0)
    entry = press(entry, 0, 100)
    assert entry.hand.groups == (("3H",), ("AS",))


def test_the_screen_keys_enter_a_run_with_its_suit_carried_and_a_new_group():
    d = open_show()
    draft = open_entry(d.state).hand
    draft = draft_suit(draft_rank(draft, 10), "H")
    draft = draft_rank(draft_rank(draft, 11), 12)
    assert draft.groups == (("10H", "JH", "QH"),) and draft.cursor == (0, 3)
    draft = draft_suit(draft_rank(draft_new_group(draft), 13), "S")
    draft = draft_suit(draft_rank(draft, 13), "D")
    assert draft.groups == (("10H", "JH", "QH"), ("KS", "KD"))
    draft = draft_remove(draft)
    assert draft.groups == (("10H", "JH", "QH"), ("KS",))
    draft = draft_rank(draft_goto(draft, (0, 0)), 9)
    assert draft.groups[0] == ("9H", "JH", "QH") and draft.cursor == (0, 0)
    assert "not there" in draft_goto(draft, (5, 5)).problem
    assert "rank first" in draft_suit(new_draft(), "S").problem
    joly = draft_rank(new_draft((), True), 0)
    assert joly.groups == (("JY",),) and "no colour" in draft_suit(joly, "R").problem


def test_a_cards_entry_is_still_confirmed_by_another_seat():
    d = open_show()
    entry = press(open_entry(d.state), 1, 100)
    entry = replace(entry, hand=replace(entry.hand, groups=(("4H", "5H", "6H"),)))
    entry = finish(entry, d.state)
    assert entry.stage == CONFIRMING
    assert "cannot confirm" in confirm(entry, 1).problem and confirm(entry, 0) is None


# --- the draft ------------------------------------------------------------------------------


def test_seat_buttons_step_the_count_and_menu_steps_it_back():
    d = declared()
    enter(d, 1, valid=True)
    entry = open_entry(d.state)
    assert entry is not None and entry.kind == POINTS and entry.limit == 80
    entry = press(entry, 2, 100)
    entry = press(entry, 2, HOLD_MS)
    entry = press(entry, 2, HOLD_MS + 500)
    assert entry.points == 21 and entry.by_seat == 2
    entry = step_back(entry)
    assert entry.points == 20
    for _ in range(8):
        entry = press(entry, 0, HOLD_MS)
    assert entry.points == 80 and "at most 80" in entry.problem and entry.by_seat == 0
    zero = step_back(open_entry(d.state))
    assert zero.points == 0 and "less than 0" in zero.problem


def test_ok_asks_a_second_seat_and_the_seat_that_entered_cannot_confirm():
    d = declared()
    entry = open_entry(d.state)
    assert entry.kind == VERDICT and entry.valid
    entry = press(entry, 0, 100)
    assert not entry.valid and entry.by_seat == 0
    entry = finish(entry, d.state)
    assert entry.stage == CONFIRMING
    refused = confirm(entry, 0)
    assert refused is not None and "cannot confirm" in refused.problem
    assert confirm(entry, 2) is None
    assert entry.event(2, 9) == HandEntered(1, None, False, 0, 2, 9)
    assert step_back(entry).stage == ENTERING


def test_the_keyboard_types_the_count_and_a_count_over_the_cap_is_refused_on_ok():
    d = declared()
    enter(d, 1, valid=True)
    entry = open_entry(d.state)
    for key in "9x5":
        entry = type_key(entry, key)
    assert entry.typed == "95"
    entry = finish(entry, d.state)
    assert entry.stage == ENTERING and "at most 80 points" in entry.problem and entry.points == 95
    entry = erase(type_key(entry, "4"))
    entry = finish_typing(type_key(entry, "7"), True)
    assert entry.points == 7 and entry.by_seat is None
    assert finish_typing(type_key(entry, "3"), False).points == 7
    entry = finish(entry, d.state)
    assert entry.stage == CONFIRMING and confirm(entry, 1) is None


def test_a_hand_entered_as_counting_0_is_the_second_valid_hand_as_when_read():
    # howto: a losing player whose hand is all valid melds scores 2, read or entered
    d = declared()
    enter(d, 1, valid=True)
    enter(d, 2, points=0, by=2, confirmed_by=0)
    enter(d, 0, points=53, by=1, confirmed_by=2)
    record = d.state.history[-1]
    assert record.scores == (53, 0, 2) and record.outcomes == (LOST, "winner", "second-valid")


def test_a_declaration_the_camera_could_not_read_is_no_wrong_show():
    d = declared(seat=1)
    d(TableRead(1, (), d.at(500)))  # nothing read where the declarer's cards lie
    effects = d.ok()
    assert d.state.phase == "show" and d.state.deal.outcomes == ("", "", "")
    assert any("cannot be judged" in getattr(e, "text", "") for e in effects)
    d.read(1, "4H 5H 6H 7H | KC QC PJ | QD QS QC | 7S 7D 7C")  # read again: a valid show
    d.ok()
    assert d.state.show.valid and d.state.show.stage == "hand-reading"


def test_an_entry_kept_comes_back_as_it_was_where_the_show_still_asks_for_it() -> None:
    d = declared()
    entry = open_entry(d.state)
    assert entry is not None and entry.kind == VERDICT
    enter(d, 1, valid=True, by=None, confirmed_by=0)
    entry = type_key(open_entry(d.state), "4")
    entry = replace(press(entry, 0, 100), typed="05", problem="was refused")
    record = entry_record(entry)
    assert entry_from_record(d.state, record) == entry
    # the record as JSON gives it back the same
    import json
    assert entry_from_record(d.state, json.loads(json.dumps(record))) == entry
    # digits typed and all rubbed out again: an entry as it may be, taken back as it was
    erased = erase(replace(entry, typed="7"))
    assert erased.typed == "" and entry_from_record(d.state, entry_record(erased)) == erased


@pytest.mark.parametrize("change", [
    {"seat": 0}, {"kind": "verdict"}, {"declared": True}, {"points": 81}, {"points": -1},
    {"points": True}, {"points": 4.0}, {"by_seat": 3}, {"by_seat": False}, {"stage": "blocked"},
    {"stage": "done"}, {"typed": "1a"}, {"typed": "１２"}, {"typed": "1234"}, {"typed": 12},
    {"valid": 1}, {"problem": None}, {"problem": "x" * 401},
])
def test_a_kept_entry_that_holds_what_no_entry_could_is_not_taken_back(change) -> None:
    d = declared()
    enter(d, 1, valid=True, by=None, confirmed_by=0)
    record = entry_record(open_entry(d.state))
    assert entry_from_record(d.state, record) is not None
    assert entry_from_record(d.state, {**record, **change}) is None
    assert entry_from_record(d.state, [record]) is None


def test_a_kept_hand_of_cards_comes_back_only_with_cards_the_notation_reads() -> None:
    d = open_show()
    entry = open_entry(d.state)
    assert entry is not None and entry.kind == CARDS and entry.declared
    entry = replace(entry, hand=replace(new_draft((("4H", "5H", "6H"), ("KD",))), cursor=(1, 1),
                                        typed="4H 5H 6H | KD Q"))
    record = entry_record(entry)
    assert entry_from_record(d.state, record) == entry
    hand = record["hand"]
    for bad in ({"groups": [["4H", "5H", "6H"], ["KX"]]}, {"groups": [["4H"], []]}, {"groups": "4H"},
                {"cursor": [5, 0]}, {"cursor": [0, True]}, {"cursor": [0]}, {"typed": "a\nb"},
                {"groups": [["4H"]] * 213}, {"problem": 3}):
        assert entry_from_record(d.state, {**record, "hand": {**hand, **bad}}) is None, bad
    assert entry_from_record(d.state, {**record, "hand": None}) is None
