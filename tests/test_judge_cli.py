"""`tablekit judge` and `tablekit variants` as a user runs them: real processes, real output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PUBLIC_CASES = ROOT / "tests" / "cases" / "judge-public.jsonl"


def tablekit(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablekit", *args], input=stdin, capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_count_prints_one_json_object() -> None:
    p = tablekit("judge", "--variant", "indian-points", "--mode", "count", "--wild", "5D", "--",
                 "4H 5H 6H | 7C 8C 5D | 9D 9S 4C | KD QD 7S 9S")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["variant"] == "indian-points" and out["mode"] == "count"
    assert out["valid"] is True and out["points"] == 58
    assert out["groups"][0] == {"cards": ["4H", "5H", "6H"], "kind": "pure-sequence", "points": 0, "bonus": 0,
                                "reason": "a run 4 to 6 of hearts"}
    assert out["reason"]


def test_hand_may_be_given_as_several_words() -> None:
    p = tablekit("judge", "--variant", "indian-points", "--mode", "best", "--wild", "3S",
                 "4H", "5H", "6H", "7H", "KC", "QC", "PJ", "QD", "QS", "QC", "7S", "7D", "7C")
    assert p.returncode == 0 and json.loads(p.stdout)["points"] == 0


@pytest.mark.parametrize(
    ("args", "names"),
    [(["--variant", "indian-points", "--mode", "count", "--", "4H 5H 1X"], "1X"),
     (["--variant", "no-such-game", "--mode", "count", "--", "4H"], "no-such-game"),
     (["--variant", "indian-points", "--mode", "count", "--wild", "ZZ", "--", "4H 5H 6H"], "ZZ"),
     (["--variant", "indian-points", "--mode", "count", "--wild", "²H", "--", "4H 5H 6H"], "²H"),
     (["--variant", "indian-points", "--mode", "count", "--", "４H ٥H 6H"], "４H"),
     (["--variant", "indian-points", "--mode", "count", "--", "7S 7S 7S"], "7S"),
     (["--variant", "indian-points", "--mode", "contract", "--", "4H 5H 6H"], "contract"),
     (["--variant", "indian-points", "--mode", "count", "--"], "empty")],
)
def test_bad_input_exits_2_with_an_error_line(args: list[str], names: str) -> None:
    p = tablekit("judge", *args)
    assert p.returncode == 2
    assert p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and names in lines[0]


def test_batch_answers_every_line_in_order_and_goes_on_after_errors() -> None:
    lines = [
        {"variant": "indian-points", "mode": "declare", "hand": "4H 5H 6H 7H | KC QC PJ | QD QS QC | 7S 7D 7C", "wild": "3S"},
        {"variant": "indian-points", "mode": "count", "hand": "4H 5H 6H | 1X"},
        "not json",
        "   ",  # a blank line is a line too: its answer keeps the lines paired
        {"variant": "indian-points", "mode": "count", "hand": "9S 9H 9C | 8D 9D 6D | 8S 10S JS | QH KH | KS KD", "wild": "6C"},
    ]
    text = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    p = tablekit("judge", "--batch", stdin=text)
    assert p.returncode == 0
    out = [json.loads(line) for line in p.stdout.splitlines()]
    assert len(out) == 5
    assert out[0]["valid"] is True and out[0]["points"] == 0
    assert "1X" in out[1]["error"]
    assert "error" in out[2]
    assert out[3] == {"error": "empty line"}
    assert out[4]["points"] == 80


def test_public_indian_cases_pass() -> None:
    if not PUBLIC_CASES.exists():
        pytest.fail(f"public cases missing at {PUBLIC_CASES}")
    cases = [json.loads(line) for line in PUBLIC_CASES.read_text().splitlines() if line.strip()]
    indian = [c for c in cases if c["variant"].startswith("indian")]
    assert indian
    keys = ("variant", "mode", "hand", "wild", "deal", "decks", "players")
    batch = "".join(json.dumps({k: c[k] for k in keys if k in c}) + "\n" for c in indian)
    p = tablekit("judge", "--batch", stdin=batch)
    results = [json.loads(line) for line in p.stdout.splitlines()]
    for case, result in zip(indian, results, strict=True):
        expect = case["expect"]
        if expect.get("error"):
            assert "error" in result, case["id"]
            continue
        assert "error" not in result, (case["id"], result)
        if "valid" in expect:
            assert result["valid"] is expect["valid"], case["id"]
        if "points" in expect:
            assert result["points"] == expect["points"], case["id"]


def test_variants_lists_every_indian_game() -> None:
    p = tablekit("variants", "--json")
    assert p.returncode == 0
    rows = {json.loads(line)["id"]: json.loads(line) for line in p.stdout.splitlines()}
    for vid in ("indian-points", "indian-pool-101", "indian-pool-201", "indian-deals"):
        assert rows[vid]["cards_dealt"] == 13 and rows[vid]["summary"]


def test_console_script_and_module_agree() -> None:
    exe = Path(sys.executable).with_name("tablekit")
    assert exe.exists(), "the tablekit console script is installed beside the interpreter"
    p = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.startswith("tablekit ")


def test_wild_names_the_turned_up_ace_in_tile_rummy() -> None:
    plain = json.loads(tablekit("judge", "--variant", "tile-rummy", "--mode", "count", "--", "B7 R5").stdout)
    with_ace = json.loads(tablekit("judge", "--variant", "tile-rummy", "--mode", "count", "--wild", "B7",
                                   "--", "B7 R5").stdout)
    assert with_ace["points"] > plain["points"]
    bad = tablekit("judge", "--variant", "tile-rummy", "--mode", "count", "--wild", "QH", "--", "B7 R5")
    assert bad.returncode == 2 and "QH" in bad.stderr


@pytest.mark.parametrize("args", [["--variant", "indian-points", "--mode", "fly", "--", "4H"],
                                  ["--variant", "indian-points", "--mode", "count", "--bogus", "--", "4H"],
                                  ["--variant", "indian-points", "--deal"]])
def test_usage_mistakes_are_one_error_line(args: list[str]) -> None:
    p = tablekit("judge", *args)
    assert p.returncode == 2 and p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:")


# --- work that explodes: bounded input, one error line, never a traceback ----------------

FORTY = " ".join(f"{r}{s}" for s in "SHD" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()) + " PJ"


def _one_error_line(p: subprocess.CompletedProcess[str], names: str) -> None:
    assert p.returncode == 2 and p.stdout == "", (p.returncode, p.stdout, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and names in lines[0], p.stderr


def test_best_refuses_more_cards_than_a_hand_and_a_draw() -> None:
    assert len(FORTY.split()) == 40
    p = subprocess.run([sys.executable, "-m", "tablekit", "judge", "--variant", "indian-points", "--mode", "best",
                        "--wild", "5D", "--", FORTY], capture_output=True, text=True, timeout=20, cwd=ROOT)
    _one_error_line(p, "40 given, a hand holds at most 14")
    fourteen = " ".join(FORTY.split()[:14])
    p = tablekit("judge", "--variant", "indian-points", "--mode", "best", "--wild", "5D", "--", fourteen)
    assert p.returncode == 0 and json.loads(p.stdout)["mode"] == "best"


def test_decks_are_bounded_by_what_the_games_use() -> None:
    p = subprocess.run([sys.executable, "-m", "tablekit", "judge", "--variant", "indian-points", "--mode", "count",
                        "--decks", "1000000", "--", "4H 5H 6H"], capture_output=True, text=True, timeout=20, cwd=ROOT)
    _one_error_line(p, "decks out of range: 1000000")
    assert tablekit("judge", "--variant", "open-rummy", "--mode", "meld", "--decks", "4", "--", "5S 6S 7S").returncode == 0
    lines = [{"variant": "indian-points", "mode": "count", "hand": "4H 5H 6H", "decks": 10 ** 6},
             {"variant": "indian-points", "mode": "count", "hand": "4H 5H 6H", "decks": "5"},
             {"variant": "indian-points", "mode": "count", "hand": "4H 5H 6H", "decks": 3}]
    p = subprocess.run([sys.executable, "-m", "tablekit", "judge", "--batch"], capture_output=True, text=True,
                       timeout=20, cwd=ROOT, input="".join(json.dumps(x) + "\n" for x in lines))
    out = [json.loads(line) for line in p.stdout.splitlines()]
    assert "decks" in out[0]["error"] and "decks" in out[1]["error"] and out[2]["points"] == 15


def test_deeply_nested_json_is_the_contracts_error(tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    state = tmp_path / "deep.json"
    state.write_text('{"melds": {"0": ' + deep + "}}")
    p = tablekit("judge", "--variant", "open-rummy", "--mode", "turn", "--seat", "0",
                 "--before", str(state), "--after", str(state))
    _one_error_line(p, "nested too deeply")
    good = {"variant": "indian-points", "mode": "count", "hand": "4H 5H 6H"}
    batch = "\n".join([deep, '{"variant": "open-rummy", "mode": "turn", "seat": 0, "before": ' + deep + "}",
                       json.dumps(good)]) + "\n"
    p = tablekit("judge", "--batch", stdin=batch)
    assert p.returncode == 0 and p.stderr == ""
    out = [json.loads(line) for line in p.stdout.splitlines()]
    assert len(out) == 3 and "nested too deeply" in out[0]["error"] and "nested too deeply" in out[1]["error"]
    assert out[2]["points"] == 15


def test_fuzzed_questions_never_give_a_traceback() -> None:
    base = {"variant": "indian-points", "mode": "count", "hand": "4H 5H 6H"}
    odd: list[object] = [10 ** 30, -1, 1.5, "NaN", True, [], {}, "9" * 5000, "²", "+-5", "x" * 100_000]
    questions: list[dict[str, object]] = []
    for key in ("hand", "wild", "deal", "decks", "players", "seat", "variant", "mode", "options"):
        questions += [{**base, key: value} for value in odd]
    questions += [
        {**base, "options": {"min_show_groups": 1e308}},
        {**base, "options": {"min_show_groups": "three"}},
        {**base, "variant": "tile-rummy", "hand": "R² B7"},
        {**base, "variant": "tile-rummy", "hand": "R" + "9" * 5000},
        {"variant": "open-rummy", "mode": "turn", "seat": 0, "before": {"melds": {"²": ["5S 6S 7S"]}},
         "after": {"melds": {"9" * 5000: ["5S 6S 7S"]}}},
    ]
    text = "".join(json.dumps(q) + "\n" for q in questions)
    text += '{"variant": "indian-points", "mode": "count", "hand": "4H", "decks": NaN}\n'
    text += '{"variant": "indian-points", "mode": "count", "hand": "4H", "options": {"min_show_groups": Infinity}}\n'
    text += '{"variant": "indian-points", "mode": "count", "hand": "4H", "deal": 1' + "0" * 5000 + "}\n"
    p = subprocess.run([sys.executable, "-m", "tablekit", "judge", "--batch"], capture_output=True, text=True,
                       timeout=60, cwd=ROOT, input=text)
    assert p.returncode == 0 and p.stderr == ""
    out = [json.loads(line) for line in p.stdout.splitlines()]
    assert len(out) == len(text.splitlines())
    for answer in out:
        assert ("error" in answer) != ("valid" in answer), answer
        assert "unexpected" not in answer.get("error", "") and len(answer.get("error", "")) <= 400, answer
    for args in (["--variant", "tile-rummy", "--mode", "count", "--", "R²"],
                 ["--variant", "indian-points", "--mode", "count", "--option", "min_show_groups=x", "--", "4H"],
                 ["--variant", "indian-points", "--mode", "count", "--deal", "9" * 5000, "--", "4H"]):
        p = tablekit("judge", *args)
        assert p.returncode == 2 and p.stdout == "" and len(p.stderr.splitlines()) == 1, (args, p.stderr)


def test_a_batch_line_that_is_not_utf8_is_its_own_error_whatever_the_locale() -> None:
    """A UTF-8 locale other than C.UTF-8 decodes stdin strictly: one bad byte ended the batch
    with no line answered."""
    import os

    good = json.dumps({"variant": "indian-points", "mode": "count", "hand": "4H"}).encode()
    stdin = good + b"\n" + b'{"variant":"indian-points","mode":"count","hand":"4H \xff\xfe"}\n' + good + b"\n"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    p = subprocess.run([sys.executable, "-m", "tablekit", "judge", "--batch"], input=stdin,
                       capture_output=True, timeout=120, cwd=ROOT, env=env)
    assert p.returncode == 0, p.stderr
    lines = [json.loads(line) for line in p.stdout.decode("utf-8").splitlines()]
    assert len(lines) == 3 and lines[0] == lines[2] and lines[0]["points"] == 4
    assert "error" in lines[1] and "unknown card" in lines[1]["error"]


def test_a_number_option_of_one_or_nought_is_a_number_and_a_switch_of_one_is_true() -> None:
    """`--option min_show_groups=1` is the number 1 (it was read as a switch and refused);
    a switch still takes 1 and 0 for true and false."""
    show = "4H 5H 6H 7H | KC QC PJ | QD QS QC | 7S 7D 7C"
    one = tablekit("judge", "--variant", "indian-points", "--mode", "declare", "--wild", "3S",
                   "--option", "min_show_groups=1", "--", show)
    assert one.returncode == 0, one.stderr
    nought = tablekit("judge", "--variant", "tile-rummy", "--mode", "contract", "--option", "first_meld=0",
                      "--", "R1 R2 R3")
    assert nought.returncode == 0 and json.loads(nought.stdout)["valid"] is True, nought.stderr
    wraps = {v: tablekit("judge", "--variant", "indian-points", "--mode", "count", "--wild", "9D",
                         "--option", f"wrap={v}", "--", "KS AS 2S | 4H 5H 6H") for v in ("1", "0")}
    assert json.loads(wraps["1"].stdout)["points"] == 0  # K-A-2 a run: wrap on
    assert json.loads(wraps["0"].stdout)["valid"] is False
    bad = tablekit("judge", "--variant", "indian-points", "--mode", "count", "--option", "wrap=2", "--", "KS")
    assert bad.returncode == 2 and "wrap must be true or false" in bad.stderr


def test_a_table_takes_a_switch_given_as_one() -> None:
    from engine.game.house_options import check_options
    from engine.variants import find
    from tablekit.values import parse_option

    assert check_options(find("indian-pool-101"), dict([parse_option("wrap=1")])) == {"wrap": True}
    assert check_options(find("tile-rummy"), dict([parse_option("first_meld=0")])) == {"first_meld": 0}
