"""``tablekit demo --headless``: the whole scripted game ends by itself with the right standings
and a screenshot of every screen showing what it must."""

from __future__ import annotations

import json

import pytest
from _game_fixtures import DEMO_SCRIPT

from tablekit.cli import main
from tablekit.commands.demo import ScriptError, expand, load_script


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo")
    code = main(["demo", "--headless", "--box", "keys", "--report", str(out / "report.json"),
                 "--screenshots", str(out / "shots"), "--journal", str(out / "j.sqlite")])
    return code, json.loads((out / "report.json").read_text()), out


def test_the_demo_plays_to_the_end_of_the_pool(demo):
    code, report, _ = demo
    assert code == 0 and report["over"]
    assert report["winners"] == ["Asha"]
    places = [(s["name"], s["total"], s["eliminated"]) for s in report["standings"]]
    assert places[0] == ("Asha", 0, False)
    assert all(out and total >= 101 for _, total, out in places[1:])
    outcomes = [o for d in report["deals"] for o in d["outcomes"].values()]
    for needed in ("winner", "lost", "wrong-show", "first-drop", "middle-drop"):
        assert needed in outcomes
    assert len(report["deals"]) >= 3


def _texts(report, kind):
    return [" ".join(s["texts"]) for s in report["screenshots"] if kind in s["file"]]


def test_every_screen_was_captured_with_what_it_must_show(demo):
    _, report, out = demo
    kinds = {s["file"].rsplit("-", 1)[-1][:-4] for s in report["screenshots"]}
    assert kinds >= {"SetupView", "PlayView", "ShowView", "DealResultView", "ScoreboardView",
                     "GameOverView"}
    assert any("Asha" in t and "Ravi" in t and "Meera" in t for t in _texts(report, "SetupView"))
    shows = _texts(report, "ShowView")
    assert any("Valid show" in t for t in shows)
    assert any("Wrong show" in t or "Invalid show" in t for t in shows)
    assert any("no pure sequence" in t for t in shows)
    plays = _texts(report, "PlayView")
    assert any("Paused" in t or "paused" in t for t in plays)
    assert any("scripted keys" in t for t in plays) and report["input"] == "scripted keys"
    assert any("Asha" in t for t in _texts(report, "GameOverView"))
    assert any("101" in t for t in _texts(report, "ScoreboardView"))


def test_screenshots_are_real_frames(demo):
    import pygame

    _, report, _ = demo
    valid = next(s["file"] for s in report["screenshots"]
                 if "ShowView" in s["file"] and "Valid show" in " ".join(s["texts"]))
    image = pygame.image.load(valid)
    assert image.get_size() == (1280, 720)
    w, h = image.get_size()
    greens = sum(1 for x in range(0, w, 8) for y in range(0, h, 8)
                 if (c := image.get_at((x, y))).g > 150 and c.r < 120 and c.b < 140)
    assert greens > 200  # the valid verdict band and group marks are green


def test_the_demo_journal_can_be_exported(demo, tmp_path):
    _, report, out = demo
    assert main(["export", str(report["game_id"]), "--journal", str(out / "j.sqlite"),
                 "--out", str(tmp_path)]) == 0
    sheet = (tmp_path / f"game-{report['game_id']}-scores.csv").read_text()
    assert sheet.count("\n") == len(report["deals"]) + 1


def test_scripts_must_move_forward_in_time():
    assert [a.t for a in expand([{"after": 10, "press": 0, "hold": 5}, {"after": 10, "ok": True}])] == [10, 15, 20]
    with pytest.raises(ScriptError):
        list(expand([{"after": 10, "press": 0, "hold": 50}, {"after": 10, "ok": True}]))
    with pytest.raises(ScriptError):
        list(expand([{"dance": True}]))


def test_the_demo_script_seats_its_game():
    script = load_script(DEMO_SCRIPT)
    assert script.game.variant_id == "indian-pool-101" and script.game.players == 3
    assert script.cuts[1] == "5D" and (1, 0) in script.readings


def test_the_demo_through_vision_ends_the_same_way(tmp_path, demo):
    """Synthetic table images read by the real recognizer; the demo table corrects misreads."""
    _, plain, _ = demo
    report_path = tmp_path / "v.json"
    assert main(["demo", "--no-screen", "--vision", "--box", "keys", "--report", str(report_path),
                 "--journal", str(tmp_path / "j.sqlite")]) == 0
    report = json.loads(report_path.read_text())
    assert report["vision"]["readings"] >= 4 and report["vision"]["cards"] >= 50
    assert report["standings"] == plain["standings"]
    assert [d["scores"] for d in report["deals"]] == [d["scores"] for d in plain["deals"]]


def test_the_shanghai_demo_plays_ten_contracts(tmp_path):
    report_path = tmp_path / "s.json"
    script = DEMO_SCRIPT.parent / "shanghai.json"
    assert main(["demo", "--no-screen", "--box", "keys", "--script", str(script), "--report", str(report_path),
                 "--journal", str(tmp_path / "j.sqlite")]) == 0
    report = json.loads(report_path.read_text())
    assert report["over"] and len(report["deals"]) == 10
    assert all(list(d["scores"].values()).count(0) == 1 for d in report["deals"])
    totals = [s["total"] for s in report["standings"]]
    assert totals == sorted(totals) and report["winners"] == [report["standings"][0]["name"]]


def test_a_demo_cut_off_after_its_last_event_resumes_to_its_report(tmp_path):
    """A power cut after the game's last event was journaled but before the report was
    written: --resume finds the game over and writes the same report."""
    journal = tmp_path / "j.sqlite"
    whole, again = tmp_path / "whole.json", tmp_path / "again.json"
    args = ["demo", "--game", "kalooki-40", "--no-screen", "--box", "keys", "--journal", str(journal)]
    assert main([*args, "--report", str(whole)]) == 0
    assert main([*args, "--resume", "--report", str(again)]) == 0
    assert json.loads(again.read_text()) == json.loads(whole.read_text())
    assert json.loads(again.read_text())["over"] is True


def test_a_script_that_ends_before_its_game_says_so(tmp_path, capsys):
    script = json.loads((DEMO_SCRIPT.parent / "kalooki-40.json").read_text())
    script["steps"] = script["steps"][:5]
    short = tmp_path / "short.json"
    short.write_text(json.dumps(script))
    assert main(["demo", "--headless", "--no-screen", "--box", "keys", "--script", str(short),
                 "--journal", str(tmp_path / "j.sqlite")]) == 1
    assert "the script's steps ended before the game did" in capsys.readouterr().err


def test_a_resume_with_another_game_s_script_is_refused(tmp_path, capsys):
    """Resuming a journal's unfinished kalooki game with the default pool-101 script would play
    one game's steps into another: refused, the journal left as it was."""
    script = json.loads((DEMO_SCRIPT.parent / "kalooki-40.json").read_text())
    script["steps"] = script["steps"][:5]
    short = tmp_path / "short.json"
    short.write_text(json.dumps(script))
    journal = tmp_path / "j.sqlite"
    assert main(["demo", "--headless", "--no-screen", "--box", "keys", "--script", str(short),
                 "--journal", str(journal)]) == 1
    before = journal.read_bytes()
    assert main(["demo", "--headless", "--no-screen", "--box", "keys", "--journal", str(journal), "--resume"]) == 2
    assert "is not this script's" in capsys.readouterr().err
    assert journal.read_bytes() == before
