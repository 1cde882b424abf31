"""Worked judge cases from the rule texts and the public sample, all kept in tests/cases/*.jsonl."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.errors import TablekitError
from tablekit.judging import answer

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "tests" / "cases").glob("*.jsonl"))
INPUT_KEYS = ("variant", "mode", "hand", "wild", "deal", "decks", "players", "seat", "before", "after", "options")


def load() -> list[Any]:
    cases = []
    for path in FILES:
        if not path.exists():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                case = json.loads(line)
                cases.append(pytest.param(case, id=f"{path.stem}:{case.get('id', n)}"))
    return cases


CASES = load()


def test_case_files_are_there() -> None:
    assert len(CASES) > 300


@pytest.mark.parametrize("case", CASES)
def test_case(case: dict[str, Any]) -> None:
    expect = case["expect"]
    question = {k: case[k] for k in INPUT_KEYS if k in case}
    if expect.get("error"):
        with pytest.raises(TablekitError):
            answer(question)
        return
    result = answer(question)
    if "valid" in expect:
        assert result["valid"] is expect["valid"], result["reason"]
    if "points" in expect:
        assert abs(result["points"] - expect["points"]) < 1e-9, result
    for i, accepted in enumerate(expect.get("kinds", [])):
        assert result["groups"][i]["kind"] in accepted, result
