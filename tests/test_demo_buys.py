"""``tablekit demo --game shanghai``: Shanghai's ten contracts with buys out of turn, through the
real table, journal and screen, headless on scripted keys (the May I demo is ``may-i``)."""

from __future__ import annotations

import json

import pytest

from engine.game import apply, new_game
from tablekit.cli import main
from tablekit.journal import Journal


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("shanghai")
    code = main(["demo", "--game", "shanghai", "--no-screen", "--box", "keys", "--report", str(out / "r.json"),
                 "--journal", str(out / "j.sqlite")])
    return code, json.loads((out / "r.json").read_text()), out


def said(path) -> list[tuple[str, str]]:
    """(event type, the notice it left) for every claim, OK and MENU in play."""
    with Journal(path) as journal:
        gid = journal.latest()
        state = new_game(journal.game(gid))
        seen = []
        for event in journal.events(gid):
            was = state.phase
            state, _ = apply(state, event)
            if event.TYPE in ("claim", "confirm", "menu") and was == "play":
                seen.append((event.TYPE, state.notice))
    return seen


def test_the_shanghai_demo_still_plays_ten_contracts_to_a_winner(demo):
    code, report, _ = demo
    assert code == 0 and report["over"] and len(report["deals"]) == 10
    assert report["winners"] == [report["standings"][0]["name"]]


def test_buys_are_journaled_and_answered_as_shanghai_s_text_says(demo):
    """Shanghai: "another player would state 'Buy It'" ... "In the first 9 deals of the game each
    player is allowed 3 "buys"" ... "the player must still also take an additional card from the
    stock pile when "buying" the card" — and the first to ask buys it."""
    _, _, out = demo
    seen = said(out / "j.sqlite")
    claims = [text for kind, text in seen if kind == "claim"]
    assert claims[:2] == ['Di: "Buy it"', 'Ann: "Buy it"']
    answers = [text for kind, text in seen if kind in ("confirm", "menu")]
    assert "Di takes the upcard and 1 card from the stock (buy 1 of 3 this deal) (Ann asked too)" in answers
    assert "Cy discarded that card: no buy of one's own discard" in claims
    assert "Di takes the upcard: no buy" in answers
