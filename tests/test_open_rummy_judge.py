"""Open Rummy through the judge: meld, count, contract, declare and turn, engine and command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import DeckError, TableStateError, UnsupportedModeError
from engine.families.open_rummy.variants import VARIANTS
from engine.variants import find
from tests._open_fixtures import judge, judge_turn

ROOT = Path(__file__).resolve().parents[1]
PURE = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
MIXED = "3C 4C 5C 6C 7C 8C PJ 10C JC QC KC AC"


@pytest.mark.parametrize(("vid", "players", "decks", "dealt", "stock", "sets", "pure", "target"), [
    ("open-rummy", 4, 4, 45, 39, 5, 1, 1500),
    ("open-rummy-3deck", 4, 3, 31, 40, 3, 0, 1000),
    ("open-rummy-3deck-slow", 4, 3, 27, 56, 3, 0, 1000),
    ("open-rummy-6p", 6, 4, 31, 33, 5, 1, 1500),
    ("open-rummy-6p-3deck", 6, 3, 21, 38, 3, 0, 1000),
    ("open-rummy-2deck", 4, 2, 21, 25, 2, 0, 500),
])
def test_the_six_variants(vid: str, players: int, decks: int, dealt: int, stock: int, sets: int,
                          pure: int, target: int) -> None:
    v = find(vid)
    assert (v.min_players, v.decks, v.jokers, v.cards_dealt) == (players, decks, 3 * decks, dealt)
    assert (v.stock, v.sets_for_show, v.pure_for_show, v.target) == (stock, sets, pure, target)  # type: ignore[attr-defined]
    assert players * dealt + stock + 1 == 55 * decks  # every card dealt, stocked or turned up


def test_all_six_are_registered() -> None:
    assert len({v.id for v in VARIANTS}) == 6


def test_meld_public_cases() -> None:
    assert judge("meld", PURE).points == 30.5
    four_threes = judge("meld", "3D 3D 3D 3D")
    assert four_threes.valid and four_threes.points == 77
    assert not judge("meld", "7H 7S 7C").valid


def test_meld_kinds_and_partial_points() -> None:
    r = judge("meld", f"{MIXED} | 8H 9H 10H | AS AS AH | 5D 7D 6D")
    assert [g.kind for g in r.groups] == ["complete-set", "pure-sequence", "set", "invalid"]
    assert not r.valid and r.points == (13.5 + 15) + 3 + 4.5


def test_count_is_every_card() -> None:
    r = judge("count", "3H 4H 5H | PJ 2C | AS KD")
    assert r.valid and r.points == 1.5 + 6 + 2.5


def test_contract_has_no_minimum() -> None:
    r = judge("contract", "8H 9H 10H")
    assert r.valid and "no first-meld minimum" in r.reason and r.points == 3
    assert not judge("contract", "8H 9H JH").valid


def test_declare_needs_the_complete_sets() -> None:
    two_deck = judge("declare", f"{PURE} | {MIXED} | 5D 6D 7D", variant="open-rummy-2deck")
    assert two_deck.valid and two_deck.points == 0  # no penalty for a valid show
    assert two_deck.extra["show_points"] == 30.5 + 28.5 + 2 + 20
    short = judge("declare", f"{PURE} | {MIXED}")
    assert not short.valid and short.points == 0 and "at least 5" in short.reason
    assert short.extra["show_points"] == 0
    no_pure = judge("declare", " | ".join([MIXED] * 3), variant="open-rummy-3deck")
    assert no_pure.valid  # three decks: no pure set needed


def test_too_many_copies() -> None:
    with pytest.raises(DeckError, match="PJ"):
        judge("meld", "PJ PJ PJ 5S | PJ 2S PJ PJ | 9D PJ JD", variant="open-rummy-2deck")  # 7 of 6


def test_best_is_not_a_mode_here() -> None:
    with pytest.raises(UnsupportedModeError):
        judge("best", "5S 6S 7S")


def test_turn_via_the_variant() -> None:
    ok = judge_turn(0, {"melds": {}, "discard": "4C", "stock": 40},
                    {"melds": {"0": ["5S 6S 7S"]}, "discard": "4C KH", "stock": 39})
    assert ok.valid and ok.points == 0 and ok.violations == ()
    out = ok.to_json("open-rummy", "turn")
    assert out["violations"] == [] and out["turn"]["discard"] == "KH"
    bad = judge_turn(0, {"melds": {"1": ["8H 9H 10H"]}, "discard": "4C", "stock": 40},
                     {"melds": {"1": ["8H 9H 10H JH"]}, "discard": "4C KH", "stock": 39})
    assert not bad.valid and bad.violations and "opponent" in bad.reason


def test_turn_input_errors() -> None:
    state = {"melds": {}, "discard": "4C"}
    with pytest.raises(TableStateError, match="seat 4"):
        judge_turn(4, state, state)
    with pytest.raises(TableStateError, match="seat 5"):
        judge_turn(0, state, {"melds": {"5": ["5S 6S 7S"]}, "discard": "4C KH"})
    assert judge_turn(5, state, {"melds": {"5": ["5S 6S 7S"]}, "discard": "4C KH"}, variant="open-rummy-6p").valid


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablekit", *args], input=stdin, capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_turn_on_the_command_line(tmp_path: Path) -> None:
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    before.write_text(json.dumps({"melds": {"2": ["9S 10S JS"]}, "discard": "6C 7H QS", "stock": 40}))
    after.write_text(json.dumps({"melds": {"2": ["9S 10S JS QS"]}, "discard": "6C 7H 4D", "stock": 40}))
    p = _cli("judge", "--variant", "open-rummy", "--mode", "turn", "--seat", "0",
             "--before", str(before), "--after", str(after))
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["valid"] is True and out["points"] == 0 and out["violations"] == []
    bad = tmp_path / "bad.json"
    bad.write_text('{"melds": {"0": ["5S 6S 7S", "5S 6S 7S", "5S 6S 7S", "5S 6S 7S", "5S 6S 7S"]}}')
    p = _cli("judge", "--variant", "open-rummy", "--mode", "turn", "--seat", "0",
             "--before", str(before), "--after", str(bad))
    assert p.returncode == 2 and p.stderr.startswith("error:") and "5S" in p.stderr and not p.stdout


def test_turn_batch_lines() -> None:
    lines = [
        {"variant": "open-rummy", "mode": "turn", "seat": 1,
         "before": {"melds": {"3": ["5C PJ 7C"]}, "discard": "4C"},
         "after": {"melds": {"3": ["5C 6C 7C"]}, "discard": "4C 9D"}},
        {"variant": "open-rummy", "mode": "turn", "seat": 9, "before": {}, "after": {}},
    ]
    p = _cli("judge", "--batch", stdin="\n".join(json.dumps(x) for x in lines) + "\n")
    assert p.returncode == 0, p.stderr
    first, second = (json.loads(x) for x in p.stdout.splitlines())
    assert first["valid"] is True and first["turn"]["to_hand"] == ["PJ"]
    assert "error" in second and "seat 9" in second["error"]


def test_the_judge_is_told_whether_a_turn_was_the_deals_first() -> None:
    """``first_turn`` (documented for the judge) decides the first-turn joker exception; a
    table never takes it as a house rule, since it knows its own first turn."""
    line = {"variant": "open-rummy", "mode": "turn", "seat": 0,
            "before": {"melds": {}, "discard": "PJ", "stock": 40},
            "after": {"melds": {}, "discard": "9S", "stock": 40}}
    said = [{**line, "options": {"first_turn": v}} for v in (True, False)] + [line]
    p = _cli("judge", "--batch", stdin="\n".join(json.dumps(x) for x in said) + "\n")
    assert p.returncode == 0, p.stderr
    first, later, unsaid = (json.loads(x) for x in p.stdout.splitlines())
    assert first["valid"] and unsaid["valid"]  # a lone joker on the pile marks the first turn
    assert not later["valid"] and "dealer's joker" in later["reason"]
    assert "first_turn" not in find("open-rummy").table_options()


def test_a_stock_the_decks_cannot_hold_is_an_input_error() -> None:
    state = {"melds": {"0": ["5S 6S 7S"]}, "discard": "4C", "stock": 110}
    with pytest.raises(TableStateError, match="stock of 110"):
        judge_turn(0, state, state, variant="open-rummy-2deck")  # 110 cards in all


def test_the_assumed_reading_is_said() -> None:
    r = judge_turn(0, {"melds": {}, "discard": "4C"}, {"melds": {"0": ["5S 6S 7S"]}, "discard": "4C KH"})
    assert r.valid and "assumed a draw from the stock" in r.reason


def test_judge_names_both_complete_sets_complete_set() -> None:
    from engine.variants import JudgeRequest, find

    v = find("open-rummy")
    pure = v.judge(JudgeRequest("meld", groups=v.parse("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")))
    mixed = v.judge(JudgeRequest("meld", groups=v.parse("3H 4H 5H 6H 7H 8H 2S 10H JH QH KH AH")))
    assert [g.kind for g in pure.groups] == ["complete-set"] and "pure" in pure.groups[0].reason
    assert [g.kind for g in mixed.groups] == ["complete-set"]
    assert pure.groups[0].bonus > mixed.groups[0].bonus
