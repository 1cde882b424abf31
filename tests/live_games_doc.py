"""``docs/live-games.md`` written from the registry and the tests, so it cannot drift:
``test_live_games_doc.py`` checks the file is what :func:`render` gives now.

Regenerate it after changing a game's table data, a demo or the tests that play a game:

    .venv/bin/python tests/live_games_doc.py > docs/live-games.md
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine.game.setup import Game, Seat
from engine.variants import all_variants
from engine.variants.base import Variant
from tablekit.call_panel import LABELS

REPO = Path(__file__).resolve().parent.parent
TESTS = REPO / "tests"
DEMOS = REPO / "tablekit" / "demos"
#: Tests that play every game (the seeded playouts), named once in the header, not per game.
EVERY_GAME = ("test_game_playouts.py",)
#: Tests that play every demo script to its end.
EVERY_DEMO = "test_live_contract_endings.py::test_every_demo_script_plays_to_its_end"


def _game(v: Variant) -> Game:
    """A table for ``v`` with every house rule that adds a table action switched on."""
    players = max(v.min_players, min(3, v.max_players))
    if v.partnerships:
        players = max(4, v.min_players)
    options = {key: True for key in ("cut_ins", "floating") if key in v.table_options()}
    names = tuple(Seat(f"P{i + 1}") for i in range(players))
    return Game(v.id, names, options=options)


def actions(v: Variant) -> list[str]:
    """What the table referees live in ``v``, in words."""
    g = _game(v)
    policy = v.policy
    out = ["a turn ended with a short press", "a turn timed out", "a show with a long press (the zone read, "
           "a misread card corrected, every other hand read)", "play paused when the box or camera is lost"]
    if v.partnerships:
        out.append("partnerships (partners sit alternately)")
    if policy.turn_step(g) < 0:
        out.append("turns go counter-clockwise")
    rules = v.table_claim_rules({"cut_ins": True})
    if rules is not None:
        optional = " (house rule cut_ins)" if v.table_claim_rules({}) is None else ""
        limit = rules.limits
        out.append(f"{rules.name} out of turn (\"{rules.say}\", priority: {rules.ties}"
                   + (f", limit {limit}" if limit is not None else "")
                   + (f", {rules.tokens} chips" if rules.tokens is not None else "") + f"){optional}")
        if rules.in_turn_pays:
            out.append("the upcard bought in turn (play menu)")
    if getattr(v, "drops_allowed", False):
        out.append("drops (first and middle)")
    if policy.missed_turn_limit:
        out.append(f"a seat dropped after {policy.missed_turn_limit} missed turns in a row")
    if policy.opening_window_label:
        out.append(f"the {policy.opening_window_label} before the first turn")
    for call in policy.panel_calls(g):
        words = policy.call_words(g, call)
        if words == call and call in LABELS:  # tile rummy's, in the call panel's words
            words = LABELS[call][0]
        house = " (house rule floating)" if call in ("extend", "float") else ""
        out.append(f"call `{call}`" + (f": {words}" if words != call else "") + house)
    if policy.checks_turns:
        out.append("every turn checked against the camera's reading of the whole table")
    if policy.stock_out_label:
        what = ("voids the deal" if policy.stock_out_void else "rebuilt once, then the game ends"
                if v.family == "tile" else "ends the deal")
        out.append(f"the stock-out item ({policy.stock_out_label}: {what})")
    target, label = policy.target(g)
    if target is not None:
        out.append(f"the game's target total ({label})")
    out.append("highest total wins" if not policy.lower_wins(g) else "lowest total wins")
    return out


def _demos() -> dict[str, list[str]]:
    by_game: dict[str, list[str]] = {}
    for path in sorted(DEMOS.glob("*.json")):
        variant = json.loads(path.read_text())["game"]["variant"]
        by_game.setdefault(variant, []).append(path.stem)
    return by_game


def tests_naming(game_id: str) -> list[str]:
    """Test files (not the every-game ones) that name ``game_id`` in quotes."""
    pattern = re.compile(rf"""["']{re.escape(game_id)}["']""")
    found = []
    for path in sorted(TESTS.glob("test_*.py")):
        if path.name in EVERY_GAME or path.name.startswith("test_vision"):
            continue
        if pattern.search(path.read_text()):
            found.append(path.name)
    return found


def render() -> str:
    demos = _demos()
    lines = [
        "# Every game refereed live",
        "",
        "Written by `tests/live_games_doc.py` from the game registry, the demo scripts and the tests",
        "(`tests/test_live_games_doc.py` fails when this file is out of date; regenerate it with",
        "`.venv/bin/python tests/live_games_doc.py > docs/live-games.md`). How each action is made",
        "at the table (the box, the keyboard, touch) is in `docs/table.md`.",
        "",
        "Every game below is played from its first deal to its end by seeded random playouts with",
        "legal actions only, every action kind it supports played and the journal replayed to the",
        "same state at every step: `tests/test_game_playouts.py` (Open Rummy's games through",
        "`test_a_seeded_legal_open_rummy_game_reaches_its_end_replaying_exactly`, the others through",
        "`test_a_seeded_legal_playout_reaches_the_game_s_end_replaying_exactly`). Every demo script",
        f"is played to its end by `tests/{EVERY_DEMO}`.",
        "",
    ]
    variants = sorted(all_variants(), key=lambda v: (v.family, v.id))
    lines.append(f"{len(variants)} games.")
    for v in variants:
        lines += ["", f"## `{v.id}`: {v.name}", ""]
        lines += [f"- {a}" for a in actions(v)]
        played = demos.get(v.id, [])
        if played:
            lines.append("- demo: " + ", ".join(f"`tablekit demo --game {d}`" for d in played))
        named = tests_naming(v.id)
        lines.append("- tests: `test_game_playouts.py`" + "".join(f", `{t}`" for t in named))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
