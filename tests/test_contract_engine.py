"""The contract machinery itself: the contract notation, matching groups to needs, errors and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import DeckError, GameSetupError, TablekitError, UnsupportedModeError
from engine.families.contract.contracts import Need, contract, parse_needs
from engine.families.contract.games import GAMES
from engine.notation import format_hand
from tests._contract_fixtures import ask, game

ROOT = Path(__file__).resolve().parents[1]
PUBLIC = ROOT / "tests" / "cases" / "judge-public.jsonl"


def test_contract_notation() -> None:
    assert parse_needs("2G3 S4") == (Need("group", 3), Need("group", 3), Need("sequence", 4))
    assert parse_needs("=S4") == (Need("sequence", 4, exact=True),)
    assert parse_needs("P3") == (Need("group", 3, exact=True, pure=True),)
    assert parse_needs("M3 *") == (Need("either", 3),)
    with pytest.raises(ValueError, match="X4"):
        parse_needs("X4")


def test_contract_words_for_players() -> None:
    assert contract("2G3 S4").words() == "two groups of 3 and one sequence of 4"
    assert contract("*", min_points=40).words() == "any valid melds worth at least 40 points"
    assert contract("=G3", max_wilds=1).words() == "one group of exactly 3, at most 1 wild card in all"
    assert "trios" in game("loba").contract_for(1).words(game("loba").style)


def test_groups_find_their_needs_in_any_order() -> None:
    a = ask("shanghai", "contract", "5C 6C 7C 8C | 7H 7S 2D", deal=2)
    b = ask("shanghai", "contract", "7H 7S 2D | 5C 6C 7C 8C", deal=2)
    assert a.valid and b.valid and a.points == b.points
    assert [g.kind for g in a.groups] == ["sequence", "set"]


def test_a_group_that_could_be_either_kind_fills_the_need_left_open() -> None:
    # groups are matched to needs by trying every assignment; a joker group of kings is a group
    r = ask("contract-rummy", "contract", "KS KD PJ | 7H 7S 7D", deal=1)
    assert r.valid and [g.kind for g in r.groups] == ["set", "set"]


def test_wild_limit_follows_the_meld_the_group_fills() -> None:
    # Shanghai deal 4: a sequence of 5 may hold two wilds, the group only one
    assert ask("shanghai", "contract", "7H 7S 7D | 5C 2D 7C PJ 9C", deal=4).valid
    r = ask("shanghai", "contract", "7H 2S PJ | 5C 6C 7C 8C 9C", deal=4)
    assert not r.valid and "at most 1" in r.reason


def test_invalid_group_is_explained_in_players_words() -> None:
    r = ask("loba", "contract", "5D PJ PJ | QS QC QS", deal=1)
    assert "5D PJ PJ" in r.reason and "wild" in r.reason
    r = ask("caribbean-kalooki", "contract", "7H 7S 7D | 8H 8S 8D | 9C PJ PJ QC", deal=2)
    assert "next to each other" in r.reason
    r = ask("farmers-rummy", "meld", "7H 8H 9H")
    assert not r.valid and "sequences are not melds" in r.groups[0].reason


def test_points_are_the_melding_value() -> None:
    r = ask("kalooki-40", "contract", "10S JS QS | AH AD AC")
    assert r.points == 63 and [g.points for g in r.groups] == [30, 33]
    # a joker in a set is worth the set's rank
    assert ask("kalooki-40", "contract", "AH AD PJ").points == 33


def test_meld_mode_scores_nothing_and_checks_each_group() -> None:
    r = ask("dummy-rummy", "meld", "5C 6D 7H 8S | 7H 7S | PJ 2C 9D")
    assert not r.valid and r.points == 0
    assert [g.kind for g in r.groups] == ["sequence", "invalid", "set"]


def test_house_option_same_suit_runs() -> None:
    assert ask("dummy-rummy", "meld", "5C 6D 7H 8S").valid
    assert not ask("dummy-rummy", "meld", "5C 6D 7H 8S", same_suit_runs=True).valid


@pytest.mark.parametrize("deal", [0, 8, 99])
def test_wrong_deal_number_is_an_error_naming_it(deal: int) -> None:
    with pytest.raises(GameSetupError, match=f"no deal {deal}"):
        ask("contract-rummy", "contract", "7H 7S 7D | KS KC KD", deal=deal)


def test_contract_mode_needs_a_deal_where_deals_differ() -> None:
    with pytest.raises(UnsupportedModeError, match="--deal"):
        ask("shanghai", "contract", "7H 7S 7D | KS KC KD")


def test_unsupported_modes_and_tiles_are_refused() -> None:
    with pytest.raises(UnsupportedModeError):
        ask("loba", "declare", "7H 7S 7D")
    with pytest.raises(DeckError, match="too many copies of AS"):
        ask("american-jokers-single", "count", "AS AS")


def tablekit(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablekit", *args], input=stdin, capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_cli_contract_and_errors() -> None:
    p = tablekit("judge", "--variant", "shanghai", "--mode", "contract", "--deal", "2", "--",
                 "7H 7S 2D | 5C 6C 7C 8C")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["valid"] is True and out["groups"][0]["kind"] == "set"
    p = tablekit("judge", "--variant", "shanghai", "--mode", "contract", "--deal", "11", "--", "7H 7S 7D")
    assert p.returncode == 2 and p.stdout == "" and p.stderr.startswith("error:") and "11" in p.stderr


def test_public_contract_family_cases_in_one_batch() -> None:
    contract_ids = {g.id for g in GAMES}
    cases = [json.loads(line) for line in PUBLIC.read_text().splitlines() if line.strip()]
    ours = [c for c in cases if c["variant"] in contract_ids]
    assert ours
    p = tablekit("judge", "--batch", stdin="\n".join(json.dumps(c) for c in ours))
    for case, line in zip(ours, p.stdout.splitlines(), strict=True):
        got = json.loads(line)
        for key, want in case["expect"].items():
            assert (("error" in got) if key == "error" else got[key]) == want, case["id"]


# --- properties ---------------------------------------------------------------------------

_CARD = st.sampled_from(["AS", "2S", "5H", "7H", "7S", "7D", "KC", "KD", "QC", "JC", "10C", "PJ", "2D", "AH"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(_CARD, min_size=1, max_size=5), min_size=1, max_size=4),
       st.sampled_from(["shanghai", "onze", "dummy-rummy", "caribbean-kalooki", "telefunken"]),
       st.integers(min_value=1, max_value=4))
def test_contract_ruling_does_not_depend_on_group_order(groups: list[list[str]], variant: str, deal: int) -> None:
    hand = format_hand(groups)
    try:
        forward = ask(variant, "contract", hand, deal=deal)
    except TablekitError:
        return  # more copies than the decks hold
    backward = ask(variant, "contract", format_hand(list(reversed(groups))), deal=deal)
    assert forward.valid == backward.valid
    if forward.valid:
        assert forward.points == backward.points


@settings(max_examples=60, deadline=None)
@given(st.lists(_CARD, min_size=1, max_size=8), st.sampled_from(["loba", "push", "onze", "farmers-rummy"]))
def test_count_is_additive_over_cards(cards: list[str], variant: str) -> None:
    try:
        whole = ask(variant, "count", " ".join(cards)).points
    except TablekitError:
        return
    assert whole == sum(ask(variant, "count", c).points for c in cards)
