"""``tablekit demo --game tile-rummy``: a game of tile rummy with doubles exchanged and the ace
shown, through the real table, journal and screen, headless on scripted keys."""

from __future__ import annotations

import pytest
from _demo_fixtures import play_demo, walk

from engine.game import GameState
from tablekit.commands.demo import DEMO_DIR, demo_games, expand, load_script


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return play_demo(tmp_path_factory.mktemp("tile"), "tile-rummy")


def notices(path) -> tuple[list[tuple[str, str]], GameState]:
    """(event type, the notice it left) for every event that changed the notice; the state
    at the end."""
    seen, before = [], ""
    for event, _, state in walk(path):
        if state.notice != before:
            seen.append((event.TYPE, state.notice))
        before = state.notice
    return seen, state


def test_the_tile_demo_plays_one_game_to_a_winner(demo):
    code, report, _ = demo
    assert code == 0 and report["over"] and len(report["deals"]) == 1
    assert report["input"] == "scripted keys"
    # Cy: 100 laid, the closing bonus and the ace bonus; Ann and Bo: what is left on their boards
    assert [(s["name"], s["total"]) for s in report["standings"]] == [("Cy", 200), ("Ann", -55), ("Bo", -65)]
    assert report["winners"] == ["Cy"]


def test_doubles_are_exchanged_and_the_ace_is_shown_as_journaled_calls(demo):
    _, _, out = demo
    seen, final = notices(out / "j.sqlite")
    calls = [text for kind, text in seen if kind == "call"]
    assert "Bo declares a low double: B7 B7" in calls and "Cy declares a low double: Y3 Y3" in calls
    assert "R7 cannot be a double: the other R7 is the ace turned up at the deal" in calls
    assert "Cy shows the ace R7: 50 points" in calls  # the long press in the window, journaled as a call
    assert any(text.startswith("Cy has shown the ace's twin already") for text in calls)
    assert any(kind == "confirm" and "Bo gives B7 to Cy, Cy gives Y3 to Bo" in text for kind, text in seen)
    assert any(text.startswith("Cy's first meld is refused") for text in calls)
    assert any("go back to the board" in text for _, text in seen)
    assert any("mixed into a new pool" in text for _, text in seen)
    record = final.deal.family
    assert record.swaps == ((1, "B7", 2, "Y3"),) and record.ace_shown_by == 2
    assert record.melded == (2,) and record.lapsed == 1 and record.rebuilds == 1


def test_the_last_thrown_tile_is_taken_tiles_are_added_and_a_run_broken_as_the_text_says(demo):
    """tile-rummy-romanian.txt line 106: once melded, a seat may take the last thrown tile
    instead of drawing; line 104: it may add tiles to melds on the table; line 49: it may
    break a run laid on the table; line 120 with line 112: after the pool is rebuilt nothing
    thrown is left to take; line 114: a seat that has not melded may not break."""
    _, _, out = demo
    seen, final = notices(out / "j.sqlite")
    calls = [text for kind, text in seen if kind == "call"]
    assert "Cy takes R8, the last tile thrown, instead of drawing" in calls
    assert "Cy adds R13 to their own R10 R11 R12: it counts once a tile is thrown in time" in calls
    assert any(t.startswith("Ann cannot take K4: the thrown tiles went into the new pool") for t in calls)
    assert any(t.startswith("Ann has not melded yet") and t.endswith("cannot break a run on the table")
               for t in calls)
    assert ("Cy breaks R10 R11 R12 R13 with R12 R1 into R10 R11 R12 | R12 R13 R1: it counts once a tile "
            "is thrown in time") in calls
    record = final.deal.family
    # the turn of the take and the add counted (Bo's R8 kept in a meld, R13 on the run) ...
    assert record.table == ((2, ("R10", "R11", "R12", "R13")), (2, ("K9", "B9", "Y9")),
                            (2, ("R5", "R6", "R7", "R8")))
    # ... and the close's own turn broke the run and added R9 (the zone read scores them)
    assert record.laying_table == ((2, ("R10", "R11", "R12")), (2, ("R12", "R13", "R1")),
                                   (2, ("K9", "B9", "Y9", "R9")), (2, ("R5", "R6", "R7", "R8")))
    assert record.off_board == ((2, 6), (2, 5)) and record.laid_points == ((2, 45), (2, 30))


def test_the_tile_script_is_listed_and_its_call_steps_are_checked():
    assert "tile-rummy" in demo_games()
    script = load_script(DEMO_DIR / "tile-rummy.json")
    assert any(a.kind == "call" for a in script.actions)
    with pytest.raises(ValueError, match="needs \"what\""):
        list(expand([{"call": 1, "tiles": "B7 B7"}], seats=3))
    with pytest.raises(ValueError, match="seats 0 to 2"):
        list(expand([{"call": 3, "what": "ace"}], seats=3))
