"""The kit as a package: a wheel built from the checkout carries everything its commands read."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _build_isolation_flags() -> list[str]:
    # setuptools in this venv is used when it is new enough (quick, offline); otherwise pip
    # fetches one into an isolated build environment
    if importlib.util.find_spec("setuptools") is not None:
        import setuptools

        if int(setuptools.__version__.split(".")[0]) >= 77:
            return ["--no-build-isolation"]
    return []


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    source = tmp_path_factory.mktemp("source")
    # build from a copy of the committed tree, so the build leaves nothing in the checkout
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "HEAD"],
                             capture_output=True, timeout=120)
    if archive.returncode != 0:  # not a git checkout: copy the files as they are
        subprocess.run(["tar", "-C", str(ROOT), "--exclude=./.venv", "--exclude=./.git", "-cf",
                        str(out / "src.tar"), "."], check=True, timeout=120)
    else:
        (out / "src.tar").write_bytes(archive.stdout)
    subprocess.run(["tar", "-xf", str(out / "src.tar"), "-C", str(source)], check=True, timeout=120)
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                             *_build_isolation_flags(), str(source), "-w", str(out)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "project.license" not in result.stderr, result.stderr  # no deprecation warning
    (path,) = out.glob("tablekit-*.whl")
    return zipfile.ZipFile(path)


def test_the_wheel_carries_demo_scripts_weights_and_type_markers(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    demos = {Path(n).stem for n in names if n.startswith("tablekit/demos/") and n.endswith(".json")}
    assert {"indian-pool-101", "open-rummy", "shanghai"} <= demos
    assert {"vision/weights/cardnet.onnx", "vision/weights/indexnet.onnx"} <= names
    for package in ("engine", "vision", "display", "firmware_bridge", "tablekit"):
        assert f"{package}/__init__.py" in names
    assert "engine/py.typed" in names
    assert not [n for n in names if n.startswith(("tests/", "bench/"))]


def test_the_metadata_names_the_licence_as_spdx(wheel: zipfile.ZipFile) -> None:
    (meta,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
    text = wheel.read(meta).decode()
    assert "License-Expression: Apache-2.0" in text
    assert "Classifier: Programming Language :: Python :: 3.11" in text
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in wheel.namelist())
    (entry,) = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
    assert "tablekit = tablekit.cli:main" in wheel.read(entry).decode()
