"""No import circles, and the layers of the design: the engine pure, the shell on top."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.import_graph import ROOT, circles, graph, layer_breaches


def test_the_checker_finds_a_circle_and_a_breach(tmp_path: Path) -> None:
    # a tiny tree of its own: engine.a -> engine.b -> engine.a, and the engine importing display
    for package in ("engine", "vision", "firmware_bridge", "display", "tablekit"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "engine" / "a.py").write_text("from engine import b\n")
    (tmp_path / "engine" / "b.py").write_text("def f():\n    from engine.a import x\n")
    (tmp_path / "engine" / "c.py").write_text("import display.screen\n")
    (tmp_path / "display" / "screen.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tablekit import app\n")
    # a registry importing by name still counts: engine.r -> engine.plugin -> engine.r
    (tmp_path / "engine" / "r.py").write_text(
        "import importlib\nPLUGINS = ('engine.plugin',)\n"
        "def load():\n    return [importlib.import_module(p) for p in PLUGINS]\n")
    (tmp_path / "engine" / "plugin.py").write_text("from engine.r import load\n")
    edges = graph(tmp_path)
    assert circles(edges) == [["engine.a", "engine.b"], ["engine.plugin", "engine.r"]]
    assert layer_breaches(edges) == [("engine.c", "display.screen")]


def test_no_import_circles_and_no_layer_breaches_in_the_kit() -> None:
    edges = graph()
    assert len(edges) > 100
    assert circles(edges) == []
    assert layer_breaches(edges) == []


def test_the_script_says_so() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "import_graph.py")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == (0 if not circles(graph()) else 1)
    assert ("no import circles" in result.stdout) == (result.returncode == 0)
