"""``tablekit demo --game scorepad``: an Indian pool game with no camera, every hand entered on the
scorepad with the seat buttons and confirmed by another seat, to the end."""

from __future__ import annotations

import json

from tablekit.cli import main
from tablekit.commands.demo import DEMO_DIR, demo_games, load_script


def test_the_scorepad_demo_finishes_with_a_winner_and_no_camera_reading(tmp_path):
    report_path = tmp_path / "report.json"
    code = main(["demo", "--no-screen", "--box", "keys", "--game", "scorepad",
                 "--report", str(report_path), "--journal", str(tmp_path / "j.sqlite")])
    report = json.loads(report_path.read_text())
    assert code == 0 and report["over"] and report["winners"] == ["Ravi"]
    assert [(s["name"], s["total"], s["eliminated"]) for s in report["standings"]] == [
        ("Ravi", 25, False), ("Meera", 115, True), ("Asha", 122, True)]
    assert [d["scores"] for d in report["deals"]] == [
        {"Asha": 42, "Ravi": 0, "Meera": 35},
        {"Asha": 0, "Ravi": 25, "Meera": 80},
        {"Asha": 80, "Ravi": 0, "Meera": 0}]
    assert report["deals"][1]["outcomes"]["Meera"] == "wrong-show"


def test_the_scorepad_script_reads_nothing_from_a_camera():
    assert "scorepad" in demo_games()
    script = load_script(DEMO_DIR / "scorepad.json")
    assert not script.readings and not script.tables
    assert {a.kind for a in script.actions} <= {"down", "up", "ok", "menu"}
