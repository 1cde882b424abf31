"""The contract games' own calls in demo scripts, played through the real table, journal and
screen, headless on scripted keys: Telefunken's eighth chip, Dummy Rummy's goals, floating
discard and dummy hand, King Rummy's joker taken at once, American Jokers' upcard offer. Each
is checked against the line of ``contract-rummy-variants.txt`` it follows (paraphrased)."""

from __future__ import annotations

import pytest
from _demo_fixtures import play_demo, walk

from engine.families.contract import live
from engine.game import Called
from engine.game.policy import policy_for
from tablekit.commands.demo import demo_games


def said(path) -> list[tuple[str, str]]:
    """(event type, the notice it left) for every call, claim and button let go in play."""
    return [(event.TYPE, state.notice) for event, was, state in walk(path)
            if event.TYPE in ("call", "claim", "confirm", "button-released") and was == "play"]


def calls(path) -> list[Called]:
    return [event for event, _, _ in walk(path) if isinstance(event, Called)]


@pytest.fixture(scope="module")
def demo_runs():
    """Each demo played at most once for the module: (exit code, report, output folder) by name."""
    played: dict[str, tuple] = {}

    def run(name: str, tmp_path_factory) -> tuple:
        if name not in played:
            played[name] = play_demo(tmp_path_factory.mktemp(name), name, screen=name == "dummy-rummy")
        return played[name]

    return run


@pytest.fixture(scope="module", params=["telefunken", "dummy-rummy", "king-rummy", "american-jokers"])
def demo(request, demo_runs, tmp_path_factory):
    name = request.param
    return name, demo_runs(name, tmp_path_factory)


def test_each_contract_call_demo_is_listed_and_plays_its_game_to_the_end(demo):
    name, (code, report, _) = demo
    assert name in demo_games()
    assert code == 0 and report["over"] and report["winners"]
    deals = {"telefunken": 7, "dummy-rummy": 12, "king-rummy": 4, "american-jokers": 6}[name]
    assert len(report["deals"]) == deals


def test_the_demo_s_calls_are_answered_as_the_text_says(demo):
    """telefunken: line 321 (the cutter's eighth chip for an exact cut, once); dummy-rummy:
    line 515 (a goal laid in one's own turn, judged against one's own goal), lines 550-551 (a
    discard that fits a meld called out, a player floating with no card) and line 548 (a
    face-up dummy hand with fewer than four players); king-rummy: line 23 (another player takes
    a melded joker at once, the melder plays on; of several who want it, the one nearest to
    playing next has the first chance); american-jokers: the upcard offered at the
    deal, taken once, and its taker plays first."""
    name, (_, _, out) = demo
    seen = said(out / "j.sqlite")
    texts = [text for _, text in seen if text]
    made = calls(out / "j.sqlite")
    if name == "telefunken":
        assert [c.call for c in made] == ["chip", "chip", "chip"]
        assert texts[:5] == ["Bo cut this deal: only the cutter may earn the extra chip",
                             "Bo cut exactly: one more chip (8 chips)",
                             'Bo: "Buy it"',
                             "Bo takes the upcard and 1 card from the stock (7 chips left)",
                             "the extra chip is earned at the cut, before the first turn ends"]
    elif name == "dummy-rummy":
        assert [c.call for c in made] == ["goal", "goal", "extend", "float", "goal", "goal"]
        assert texts[:6] == [
            "Cy lays a goal only in their own turn",
            "Bo lays goal 1, as the table saw it",
            "Ann calls out Bo's discard: it extends a meld on the table, so Bo plays it there",
            "Bo plays their last card to a meld and floats: no card in hand, and out only by "
            "discarding a drawn card that fits no meld",
            "Ann's goal 1 is not met: 1 group(s) are not melds: a set needs at least 3 cards",
            "Ann lays goal 1: goal 2 next deal",
        ]
        last = None
        for _, _, state in walk(out / "j.sqlite"):
            last = state
        assert last is not None
        assert policy_for(last.game).deal_label(last.game, 1).endswith("13 cards dealt face up to a dummy hand")
    elif name == "king-rummy":
        assert [c.call for c in made] == ["joker", "joker", "joker", "joker"]
        assert texts[:4] == [
            "Di takes the joker, putting the card it stands for in its place; Bo plays on (a player "
            "nearer in turn may still claim it within 5 seconds)",
            "Bo melded it: only the other players may take a joker at once",
            "Cy plays sooner after Bo than Di: Cy takes the joker, putting 7H in its place, and Di "
            "takes back the card put in; Bo plays on",
            "Cy plays sooner after Bo and asked for that joker: the player nearest in turn has the "
            "first chance, so it stays with Cy",
        ]
    else:
        assert texts[:2] == ["Cy takes the upcard and plays first",
                             "Cy took the upcard: it is offered only once"]
        assert [c.call for c in made] == [live.CALL_UPCARD]


@pytest.fixture(scope="module")
def dummy_rummy(demo_runs, tmp_path_factory):
    """The Dummy Rummy demo played once for this module (the one played for ``demo`` when that
    ran first)."""
    return demo_runs("dummy-rummy", tmp_path_factory)


def test_dummy_rummy_s_demo_floats_bo_and_bo_still_goes_out(dummy_rummy):
    """contract-rummy-variants.txt line 551: a floating player has not won; they go out by a
    discard later (Bo declares his show in a later turn of deal 1)."""
    _, report, out = dummy_rummy
    floated = [state for event, _, state in walk(out / "j.sqlite")
               if isinstance(event, Called) and event.call == "float"]
    assert floated and 1 in live.of(floated[0].deal).floating
    assert report["deals"][0]["winner"] == "Bo"
