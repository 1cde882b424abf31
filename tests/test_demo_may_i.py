"""``tablekit demo --game may-i``: Contract Rummy's seven deals with claims out of turn ("May I"),
through the real table, journal and screen, headless on scripted keys."""

from __future__ import annotations

import pytest
from _demo_fixtures import play_demo, walk

from tablekit.commands.demo import DEMO_DIR, demo_games, expand, load_script


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return play_demo(tmp_path_factory.mktemp("may-i"), "may-i")


def notices(path) -> list[tuple[str, str]]:
    """(event type, the notice it left) for every claim, OK and MENU in play."""
    return [(event.TYPE, state.notice) for event, was, state in walk(path)
            if event.TYPE in ("claim", "confirm", "menu", "button-released") and was == "play"]


def test_the_may_i_demo_plays_seven_deals_to_a_winner(demo):
    code, report, _ = demo
    assert code == 0 and report["over"] and len(report["deals"]) == 7
    assert report["input"] == "scripted keys"
    assert report["winners"] == [report["standings"][0]["name"]]


def test_claims_are_journaled_answered_and_refused_as_the_text_says(demo):
    _, _, out = demo
    seen = notices(out / "j.sqlite")
    claims = [text for kind, text in seen if kind == "claim"]
    assert 'Di: "May I?"' in claims and 'Bo: "May I?"' in claims and 'Ann: "May I?"' in claims
    answers = [text for kind, text in seen if kind in ("confirm", "menu")]
    assert "Di takes the upcard and 1 card from the stock" in answers  # a penalty card
    assert "Ann takes the upcard and 1 card from the stock (Bo asked too)" in answers  # nearest wins
    assert "Ann takes the upcard: no May I" in answers  # the player in turn takes it first
    assert "Ann discarded that card: no May I of one's own discard" in claims
    assert "the upcard is taken: no May I until the next discard" in claims
    assert any(text.startswith("answer Ann's May I first") for kind, text in seen if kind == "button-released")


def test_a_waiting_claim_is_a_screen_of_its_own(demo):
    _, report, _ = demo
    plays = [" ".join(s["texts"]) for s in report["screenshots"] if s["file"].endswith("PlayView.png")]
    assert any('Di: "May I?" · OK: Di takes it and 1 card from the stock · MENU: Cy takes it' in t for t in plays)
    assert any('out of turn: "May I?"' in t for t in plays)


def test_the_claim_step_is_a_short_press():
    assert [(a.t, a.kind, a.seat) for a in expand([{"after": 10, "claim": 2}])] == [(10, "down", 2), (210, "up", 2)]
    assert "may-i" in demo_games()
    script = load_script(DEMO_DIR / "may-i.json")
    assert script.game.variant_id == "contract-rummy" and script.game.players == 4
