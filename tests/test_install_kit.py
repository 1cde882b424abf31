"""hardware/install-kit.sh and the requirement filter it uses on a Raspberry Pi."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "hardware" / "install-kit.sh"
spec = importlib.util.spec_from_file_location("pi_requirements", ROOT / "hardware" / "pi_requirements.py")
assert spec and spec.loader
pi_requirements = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pi_requirements)

PYPROJECT = ROOT / "pyproject.toml"


def names(requirements: list[str]) -> set[str]:
    return {pi_requirements.requirement_name(r) for r in requirements}


def test_on_a_pi_numpy_and_opencv_come_from_the_system_when_it_has_them() -> None:
    versions = {"numpy": "1.26.4", "cv2": "4.10.0"}
    install, kept = pi_requirements.needed(PYPROJECT, [], versions.get)
    assert sorted(kept) == ["cv2", "numpy"]
    assert not names(install) & {"numpy", "opencv-python-headless", "opencv-python"}
    assert {"pygame-ce", "pyserial", "onnxruntime"} <= names(install)
    # a requirement keeps its version and its platform marker for pip
    assert any(r.startswith("onnxruntime") and "platform_machine" in r for r in install)


def test_without_them_pip_installs_every_requirement_and_the_extras_asked_for() -> None:
    install, kept = pi_requirements.needed(PYPROJECT, ["dev"], lambda module: None)
    assert kept == []
    assert {"numpy", "opencv-python-headless", "pytest", "mypy"} <= names(install)
    assert len(install) == len(set(install))


def test_a_system_opencv_older_than_the_kit_needs_is_replaced_by_one_for_its_numpy() -> None:
    # Bookworm's python3-opencv is 4.6: no ArucoDetector, no generateImageMarker
    install, kept = pi_requirements.needed(PYPROJECT, [], {"numpy": "1.24.2", "cv2": "4.6.0"}.get)
    assert kept == ["numpy"]
    [opencv] = [r for r in install if pi_requirements.requirement_name(r) == "opencv-python-headless"]
    assert opencv == "opencv-python-headless>=4.8,<4.12"  # 4.12 needs numpy 2
    assert pi_requirements.allows("numpy>=1.24", "1.24.2rc1")
    assert not pi_requirements.allows("numpy>=1.24", "1.23.5")
    assert pi_requirements.allows("matplotlib", "3.6.3")


def test_an_unknown_extra_is_refused_by_name() -> None:
    with pytest.raises(SystemExit, match="no extra 'gpu'"):
        pi_requirements.needed(PYPROJECT, ["gpu"], lambda module: None)


def test_requirement_names() -> None:
    assert pi_requirements.requirement_name("numpy>=1.24") == "numpy"
    assert pi_requirements.requirement_name("onnxruntime>=1.17; platform_machine != 'armv7l'") == "onnxruntime"
    assert pi_requirements.requirement_name("Pygame-CE") == "pygame-ce"


def test_the_filter_prints_one_requirement_a_line() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "hardware" / "pi_requirements.py"), str(PYPROJECT), "dev"],
                         capture_output=True, text=True, timeout=60, check=True).stdout.splitlines()
    assert "pyserial>=3.5" in out and all(line.strip() for line in out)


@pytest.mark.parametrize(("args", "message"), [
    ([], "usage: install-kit.sh VENV"),
    (["venv", "--extras", "dev;rm"], "--extras must be"),
    (["venv", "--frobnicate"], "unknown option: --frobnicate"),
    (["venv", "/nonexistent-kit"], "no pyproject.toml in /nonexistent-kit"),
])
def test_bad_arguments_are_named_and_nothing_is_made(args: list[str], message: str, tmp_path: Path) -> None:
    result = subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert result.returncode == 2
    assert message in result.stderr
    assert not (tmp_path / "venv").exists()


def test_the_script_passes_shellcheck() -> None:
    if not shutil.which("shellcheck"):
        pytest.fail("shellcheck is not installed (make test installs it)")
    result = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout
