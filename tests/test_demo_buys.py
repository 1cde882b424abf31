"""``tablekit demo --game shanghai``: Shanghai's ten contracts with buys out of turn, through the
real table, journal and screen, headless on scripted keys (the May I demo is ``may-i``)."""

from __future__ import annotations

import pytest
from _demo_fixtures import play_demo, walk


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return play_demo(tmp_path_factory.mktemp("shanghai"), "shanghai", screen=False)


def said(path) -> list[tuple[str, str]]:
    """(event type, the notice it left) for every claim, OK and MENU in play."""
    return [(event.TYPE, state.notice) for event, was, state in walk(path)
            if event.TYPE in ("claim", "confirm", "menu") and was == "play"]


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
