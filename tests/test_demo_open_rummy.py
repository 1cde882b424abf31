"""``tablekit demo --game open-rummy``: two teams to 500 with every turn checked against the
camera's reading of the whole table: a legal turn, an illegal one accepted with OK, one put
right and read again with MENU, a wrong and valid shows; headless screenshots checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _game_fixtures import DEMO_SCRIPT

from tablekit.cameras import ScriptedCamera, SeenTable, TableRequest
from tablekit.cli import main
from tablekit.commands.demo import ScriptError, demo_games, load_script
from tablekit.journal import Journal

SCRIPT = DEMO_SCRIPT.parent / "open-rummy.json"
# Deal 2: Ann's 3H 3S 3D were still in her hand at Bo's wrong show (never on the table the
# camera watched), so they are no table points for her team (open-rummy-marwari.txt: each team
# scores "all the cards they have placed on the table").
STANDINGS = [("Ann", 503), ("Cy", 503), ("Bo", 125), ("Di", 125)]


def _play(out: Path, *extra: str) -> tuple[int, dict]:
    report = out / "report.json"
    code = main(["demo", "--game", "open-rummy", "--box", "keys", "--report", str(report),
                 "--journal", str(out / "j.sqlite"), *extra])
    return code, json.loads(report.read_text())


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("open")
    code, report = _play(out, "--headless", "--screenshots", str(out / "shots"))
    return code, report, out


def _shots(report, kind):
    return [(Path(s["file"]), " ".join(s["texts"])) for s in report["screenshots"] if kind in s["file"]]


def test_the_open_rummy_demo_plays_to_500_and_the_team_wins_together(demo):
    code, report, _ = demo
    assert code == 0 and report["over"] and report["variant"] == "open-rummy-2deck"
    assert [(s["name"], s["total"]) for s in report["standings"]] == STANDINGS
    assert report["winners"] == ["Ann", "Cy"]
    outcomes = [d["outcomes"] for d in report["deals"]]
    assert len(outcomes) == 5
    assert outcomes[1]["Bo"] == "wrong-show" and report["deals"][1]["scores"]["Bo"] == 0
    assert [d["winner"] for d in report["deals"]] == ["Ann", None, "Di", "Cy", "Cy"]
    for deal in report["deals"]:  # partners share every deal's score
        assert deal["scores"]["Ann"] == deal["scores"]["Cy"] and deal["scores"]["Bo"] == deal["scores"]["Di"]


def test_the_turn_check_screen_shows_each_illegal_turn_with_its_reason(demo):
    _, report, _ = demo
    checks = _shots(report, "TurnCheckView")
    assert len(checks) == 2
    (di_shot, di), (ann_shot, ann) = checks
    assert "Di's turn is not legal" in di and "2 cards left the stock" in di
    assert "Ann's turn is not legal" in ann and "9D 10D is not a valid meld" in ann
    for _, text in checks:
        assert "OK: accept the turn as it lies" in text and "MENU: put it right" in text
    # what came after each: OK let Di's turn stand; MENU read Ann's again, now legal
    files = [Path(s["file"]) for s in report["screenshots"]]
    after_di = " ".join(report["screenshots"][files.index(di_shot) + 1]["texts"])
    after_ann = " ".join(report["screenshots"][files.index(ann_shot) + 1]["texts"])
    assert "accepts Di's turn as it lies" in after_di
    assert "Ann's turn is put right" in after_ann


def test_the_turn_check_screenshot_is_a_real_frame_with_the_red_band(demo):
    import pygame

    _, report, _ = demo
    shot, _ = _shots(report, "TurnCheckView")[0]
    image = pygame.image.load(str(shot))
    assert image.get_size() == (1280, 720)
    w, h = image.get_size()
    reds = sum(1 for x in range(0, w, 8) for y in range(0, h // 4, 8)
               if (c := image.get_at((x, y))).r > 170 and c.g < 60 and c.b < 60)
    assert reds > 300  # the "not legal" band (theme.INVALID_FILL)


def test_every_screen_of_the_game_was_captured(demo):
    _, report, _ = demo
    kinds = {s["file"].rsplit("-", 1)[-1][:-4] for s in report["screenshots"]}
    assert kinds >= {"SetupView", "PlayView", "TurnCheckView", "ShowView", "DealResultView",
                     "ScoreboardView", "GameOverView"}
    setup = " ".join(t for _, t in _shots(report, "SetupView"))
    assert "Jaipur" in setup and "Udaipur" in setup
    shows = " ".join(t for _, t in _shots(report, "ShowView"))
    assert "Valid show" in shows and "Wrong show" in shows
    assert any("Ann & Cy" in t for _, t in _shots(report, "GameOverView"))


def test_the_journal_holds_every_reading_and_the_table_s_answers(demo):
    _, report, out = demo
    with Journal(out / "j.sqlite") as j:
        kinds = [e.to_json()["type"] for e in j.events(report["game_id"])]
    # per deal: the table as dealt, then after each turn (deal 1: once more after MENU; deal 4:
    # once more after Ann's missed turn, a reading that only sets the table)
    assert kinds.count("table-seen") == (1 + 7 + 1) + (1 + 3) + (1 + 4) + (1 + 5 + 1) + (1 + 1)
    # MENU on the turn check is journaled; flipping to the scoreboard and back is the screen's
    assert kinds.count("menu") == 1


def test_the_standings_are_the_same_on_every_run(tmp_path):
    code, report = _play(tmp_path, "--no-screen")
    assert code == 0
    assert [(s["name"], s["total"]) for s in report["standings"]] == STANDINGS


def test_a_demo_stopped_on_the_turn_check_screen_resumes_to_the_same_end(tmp_path, demo):
    _, whole, _ = demo
    data = json.loads(SCRIPT.read_text())
    steps = data["steps"]
    cut = next(i for i, s in enumerate(steps) if "MENU reads the table again" in s.get("note", ""))
    data["steps"] = steps[:cut]
    short = tmp_path / "short.json"
    short.write_text(json.dumps(data))
    journal = tmp_path / "j.sqlite"
    assert main(["demo", "--script", str(short), "--no-screen", "--box", "keys",
                 "--journal", str(journal)]) == 1  # not finished: stopped on the check
    with Journal(journal) as j:
        state = j.restore(j.latest())
    assert state.phase == "turn-check" and state.deal.watch.check.seat == 0
    report = tmp_path / "r.json"
    assert main(["demo", "--game", "open-rummy", "--no-screen", "--box", "keys", "--resume",
                 "--journal", str(journal), "--report", str(report)]) == 0
    resumed = json.loads(report.read_text())
    assert resumed["standings"] == whole["standings"] and resumed["deals"] == whole["deals"]


def test_the_script_s_tables_are_read_again_in_order_after_menu():
    script = load_script(SCRIPT)
    assert script.game.variant_id == "open-rummy-2deck"
    first, fixed = script.tables[(1, 4)]
    assert first.melds[0] == (("9D", "10D"),) and fixed.melds[0] == (("9D", "10D", "JD"),)
    assert script.tables[(1, 0)] == (SeenTable(((), (), (), ()), ("6C",), 25),)
    camera = ScriptedCamera(script.readings, script.cuts, script.tables)
    assert camera.read_table(TableRequest(4, 1)) == script.tables[(1, 0)][0]  # deal 1, as dealt
    assert camera.read_table(TableRequest(4, 1, 4)) == first  # the turn check's first look
    assert camera.read_table(TableRequest(4, 1, 4, rereads=1)) == fixed  # MENU: a fresh look
    assert camera.read_table(TableRequest(4, 1, 4, rereads=3)) == fixed  # the last one repeats
    assert camera.table_unread == ""  # the demo's camera reads whole tables: turns are checked


def test_a_table_reading_naming_a_seat_that_is_not_there_is_refused(tmp_path):
    data = json.loads(SCRIPT.read_text())
    data["tables"]["1"]["0"] = {"melds": {"7": "3S 4S 5S"}, "discard": "6C", "stock": 25}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ScriptError, match="seat beyond"):
        load_script(bad)


def test_the_demo_s_games_are_chosen_by_name():
    assert {"indian-pool-101", "shanghai", "open-rummy"} <= set(demo_games())
    with pytest.raises(SystemExit):
        main(["demo", "--game", "open-rummy", "--script", str(SCRIPT)])
