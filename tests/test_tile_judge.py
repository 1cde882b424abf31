"""The tile-rummy judge modes (meld, count, contract, declare), input errors and the public cases."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import DeckError, NotationError, PlayerCountError, UnsupportedModeError
from engine.families.tile.variants import TILE_RUMMY
from engine.variants.base import JudgeRequest
from tests._tile_fixtures import judge

ROOT = Path(__file__).resolve().parents[1]
PUBLIC_CASES = ROOT / "tests" / "cases" / "judge-public.jsonl"


def test_the_variant_describes_itself() -> None:
    d = TILE_RUMMY.describe()
    assert d["id"] == "tile-rummy" and d["family"] == "tile" and d["players"] == "2-4"
    assert TILE_RUMMY.uses_tiles and set(TILE_RUMMY.modes) == {"meld", "count", "contract", "declare"}


# --- meld ---------------------------------------------------------------------------------


def test_meld_scores_put_down_values() -> None:
    r = judge("meld", "R12 R13 R1 | B1 Y1 K1 | JY R8 R9")
    assert r.valid and r.points == 30 + 30 + 15
    assert [g.kind for g in r.groups] == ["pure-sequence", "set", "sequence"]
    assert [g.points for g in r.groups] == [30, 30, 15]


def test_meld_names_the_invalid_group_and_scores_only_valid_ones() -> None:
    r = judge("meld", "R13 R1 R2 | B7 Y7 K7")
    assert not r.valid and r.points == 15
    assert r.groups[0].kind == "invalid" and "13-1-2" in r.groups[0].reason
    assert r.reason.startswith("1 group(s) are not melds: R13 R1 R2")


# --- count --------------------------------------------------------------------------------


def test_count_is_the_end_of_game_value_of_every_tile() -> None:
    r = judge("count", "R1 B5 K13 JY")
    assert r.points == 90 and r.valid


def test_count_counts_melded_tiles_kept_on_the_board_too() -> None:
    assert judge("count", "R10 R11 R12 | B7").points == 35


def test_count_with_the_ace_option() -> None:
    assert judge("count", "B7 R2", ace="B7").points == 55
    assert judge("count", "B7 R2", ace="B7", ace_dealt=False).points == 10
    with pytest.raises(DeckError):
        judge("count", "B7 B7", ace="B7")  # one copy is turned up, out of play
    with pytest.raises(NotationError):
        judge("count", "B7", ace="JY")


# --- contract -----------------------------------------------------------------------------


def test_contract_public_examples() -> None:
    ok = judge("contract", "R10 R11 R12 | B7 Y7 K7")
    assert ok.valid and ok.points == 45
    bad = judge("contract", "B10 Y10 K10 | R7 B7 Y7")
    assert not bad.valid
    assert "formations alone cannot open" in bad.reason


def test_contract_with_a_joly_counts_what_it_stands_for() -> None:
    r = judge("contract", "R10 JY R12 | B5 Y5 K5")
    assert r.valid and r.points == 45
    assert not judge("contract", "JY R10 R11 | B5 Y5 K5").valid  # 25 + 15 = 40


def test_contract_threshold_is_an_option() -> None:
    assert judge("contract", "R10 R11 R12", first_meld=30).valid
    with pytest.raises(UnsupportedModeError):
        judge("contract", "R10 R11 R12", first_meld="many")


# --- declare ------------------------------------------------------------------------------


def test_declare_every_tile_melded_with_one_closing_tile() -> None:
    r = judge("declare", "R1 R2 R3 | B7 Y7 K7 JY | K9")
    assert r.valid and r.points == 0
    assert [g.kind for g in r.groups] == ["pure-sequence", "set", "closing-tile"]


def test_declare_with_everything_melded() -> None:
    assert judge("declare", "R1 R2 R3 | B7 Y7 K7").valid


def test_declare_refused_when_a_group_is_not_a_meld() -> None:
    r = judge("declare", "R1 R2 R3 | B7 Y7 | K9")
    assert not r.valid and r.points == 15  # B7 Y7 K9 left: 5 + 5 + 5
    assert "B7 Y7 is not a meld" in r.reason


def test_declare_without_a_closing_tile_when_the_option_says_so() -> None:
    assert not judge("declare", "R1 R2 R3 | K9", closing_tile=False).valid


# --- input errors -------------------------------------------------------------------------


@pytest.mark.parametrize("hand", ["R5 R5 R5", "JY JY JY", "R1 R2 R3 | R1 R2 R3 | R1"])
def test_more_copies_than_the_set_holds(hand: str) -> None:
    with pytest.raises(DeckError):
        judge("meld", hand)


def test_two_sets_allow_more_copies() -> None:
    request = JudgeRequest(mode="meld", groups=TILE_RUMMY.parse("R5 R5 R5"), decks=2)
    assert TILE_RUMMY.judge(request).groups[0].kind == "invalid"


@pytest.mark.parametrize("text", ["R0", "X5", "R14", "5H"])
def test_unknown_tiles(text: str) -> None:
    with pytest.raises(NotationError):
        judge("meld", text)


def test_unsupported_mode_and_player_count() -> None:
    with pytest.raises(UnsupportedModeError):
        judge("best", "R1 R2 R3")
    with pytest.raises(PlayerCountError):
        judge("meld", "R1 R2 R3", players=5)


# --- the command line ---------------------------------------------------------------------


def test_public_tile_cases_through_the_batch_command() -> None:
    cases = [json.loads(line) for line in PUBLIC_CASES.read_text().splitlines()
             if line.strip() and json.loads(line)["variant"] == "tile-rummy"]
    assert len(cases) >= 3
    stdin = "".join(json.dumps({k: v for k, v in c.items() if k not in ("id", "expect", "source")}) + "\n"
                    for c in cases)
    p = subprocess.run([sys.executable, "-m", "tablekit", "judge", "--batch"], input=stdin,
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    answers = [json.loads(line) for line in p.stdout.splitlines()]
    assert len(answers) == len(cases), p.stderr
    for case, got in zip(cases, answers, strict=True):
        for key, want in case["expect"].items():
            assert got[key] == want, (case["id"], got)


def test_a_bad_tile_exits_2_naming_it() -> None:
    p = subprocess.run([sys.executable, "-m", "tablekit", "judge", "--variant", "tile-rummy", "--mode", "meld",
                        "--", "R1 R2 Q3"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("error:") and "Q3" in p.stderr
