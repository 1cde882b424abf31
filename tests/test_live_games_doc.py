"""``docs/live-games.md`` lists every game with what the table referees live and the tests that
play it; it is written by ``tests/live_games_doc.py`` and must match what that gives now."""

from __future__ import annotations

from live_games_doc import REPO, actions, render

from engine.variants import KNOWN_IDS, find


def test_the_live_games_page_matches_the_registry_demos_and_tests():
    page = (REPO / "docs" / "live-games.md").read_text()
    assert page == render(), "docs/live-games.md is out of date: .venv/bin/python tests/live_games_doc.py > docs/live-games.md"


def test_the_page_lists_all_34_games_each_with_its_playout():
    page = render()
    assert len(KNOWN_IDS) == 34
    for game_id in KNOWN_IDS:
        assert f"## `{game_id}`:" in page
    assert page.count("- tests: `test_game_playouts.py`") == 34


def test_the_actions_come_from_each_game_s_data():
    """A few spot checks against the texts: tile rummy's calls (tile-rummy-romanian.txt lines
    24, 49, 104, 106), King Rummy's joker (contract-rummy-variants.txt line 23), Jo's highest
    total winning."""
    tile = actions(find("tile-rummy"))
    assert {"call `take`: take the last tile thrown", "call `add`: add tiles to a meld",
            "call `break`: break a run", "call `double`: declare a double"} <= set(tile)
    assert "call `joker`: take the joker just melded" in actions(find("king-rummy"))
    assert "highest total wins" in actions(find("jo"))
