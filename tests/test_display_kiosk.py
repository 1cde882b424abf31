"""The kiosk install script: shellcheck-clean, and its dry run says every step and changes nothing."""

from __future__ import annotations

import configparser
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

KIOSK = Path(__file__).resolve().parents[1] / "hardware" / "kiosk"
SCRIPT = KIOSK / "install.sh"


def dry_run(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home)}
    return subprocess.run(["bash", str(SCRIPT), "--dry-run", *args], capture_output=True, text=True, timeout=60, env=env, check=False)


def test_the_script_parses_and_is_shellcheck_clean() -> None:
    assert subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, check=False).returncode == 0
    assert subprocess.run(["sh", "-n", str(KIOSK / "tablekit-kiosk.sh")], capture_output=True, check=False).returncode == 0
    if shutil.which("shellcheck"):  # installed on the build machines (apt-get install shellcheck)
        scripts = [str(SCRIPT), str(KIOSK / "labwc" / "autostart"), str(KIOSK / "tablekit-kiosk.sh")]
        result = subprocess.run(["shellcheck", *scripts], capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("mode", ["lite", "desktop"])
def test_a_dry_run_prints_the_steps_and_touches_nothing(mode: str, tmp_path: Path) -> None:
    before = sorted(p.name for p in tmp_path.iterdir())
    result = dry_run("--mode", mode, "--no-apt", "--prefix", "/opt/tk-dry", "--data", "/var/lib/tk-dry", "--user", "tkdry", home=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "dry run: nothing will be changed" in out
    assert "install-kit.sh /opt/tk-dry/venv --quiet <that folder>" in out
    assert "--shell /usr/sbin/nologin tkdry" in out and "passwd -l tkdry" in out
    assert "Restart=always" in out or mode == "desktop"
    if mode == "lite":
        assert "would write: /etc/systemd/system/tablekit-kiosk.service" in out
        assert "SDL_VIDEODRIVER=kmsdrm" in out
        assert 'ExecStart="/opt/tk-dry/bin/tablekit-kiosk"' in out
        assert 'Environment="TABLEKIT_JOURNAL=/var/lib/tk-dry/journal.sqlite"' in out
        assert "systemctl enable tablekit-kiosk.service" in out
    else:
        assert "would write: /home/tkdry/.config/systemd/user/tablekit-kiosk.service" in out
        assert "would write: /etc/tablekit/labwc/rc.xml" in out
        assert "Exec=/etc/tablekit/labwc/session" in out and "    labwc -C /etc/tablekit/labwc" in out
        assert "autologin-user=tkdry" in out
        assert "Restart=always" in out
    assert "NAutoVTs=0" in out and "systemctl mask ctrl-alt-del.target" in out
    assert "systemctl disable getty@tty1.service" in out  # no console login prompt in either mode
    assert "would write: /opt/tk-dry/bin/tablekit-kiosk (mode 0755" in out
    assert "would write: /var/lib/tk-dry/new-game.args" in out
    # nothing happened
    assert not Path("/opt/tk-dry").exists() and not Path("/var/lib/tk-dry").exists()
    assert subprocess.run(["id", "tkdry"], capture_output=True, check=False).returncode != 0
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_without_dry_run_it_refuses_a_machine_that_is_not_a_pi(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Generic x86 Board\x00")
    env = {**os.environ, "HOME": str(tmp_path), "TABLEKIT_MODEL_FILE": str(model)}
    result = subprocess.run(["bash", str(SCRIPT), "--mode", "lite", "--no-apt", "--user", "tkdry"], capture_output=True, text=True, timeout=60, env=env, check=False)
    assert result.returncode == 2
    assert "not a Raspberry Pi" in result.stderr or "run as root" in result.stderr
    assert result.stdout == ""  # refused before the first step
    assert subprocess.run(["id", "tkdry"], capture_output=True, check=False).returncode != 0


def test_bad_options_are_refused(tmp_path: Path) -> None:
    for args in (["--mode", "tv"], ["--user", "Bad User"], ["--prefix", "relative/path"], ["--size", "big"], ["--frobnicate"]):
        result = dry_run(*args, home=tmp_path)
        assert result.returncode == 2, args
        assert "install.sh:" in result.stderr


def _unit(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(path.read_text())
    return parser


def test_the_units_restart_the_table_and_start_it_on_boot() -> None:
    system = _unit(KIOSK / "tablekit-kiosk.service")
    assert system["Service"]["Restart"] == "always"
    assert int(system["Unit"]["StartLimitIntervalSec"]) > 0  # a limit, but far above the launcher's pace
    assert system["Install"]["WantedBy"] == "multi-user.target"
    assert system["Service"]["User"] == "@USER@"
    assert "getty@tty1.service" in system["Unit"]["Conflicts"]
    user = _unit(KIOSK / "tablekit-kiosk-user.service")
    assert user["Service"]["Restart"] == "always"
    assert "TABLEKIT_DISPLAY=kiosk" in (KIOSK / "tablekit-kiosk-user.service").read_text()
    autostart = (KIOSK / "labwc" / "autostart").read_text()
    assert "systemctl --user restart tablekit-kiosk.service" in autostart


def test_labwc_has_no_default_bindings_left() -> None:
    import xml.etree.ElementTree as ET

    rc = ET.parse(KIOSK / "labwc" / "rc.xml").getroot()
    keybinds = rc.findall("./keyboard/keybind")
    assert keybinds, "without any keybind labwc would load its defaults"
    assert rc.find("./keyboard/default") is None and rc.find("./mouse/default") is None
    for bind in keybinds:
        assert [a.get("name") for a in bind.findall("action")] == ["None"], bind.get("key")
    bound = {b.get("key") for b in keybinds}
    assert {"A-Tab", "W-Return", "A-F4", "A-Space"} <= bound
    ET.parse(KIOSK / "labwc" / "menu.xml")


def _launcher(tmp_path: Path, python: str, size: str = "") -> tuple[Path, Path]:
    """The kiosk launcher filled in for a fake venv whose tablekit prints its arguments."""
    venv, data = tmp_path / "venv", tmp_path / "data"
    (venv / "bin").mkdir(parents=True)
    data.mkdir()
    (venv / "bin" / "python").symlink_to(python)
    fake = venv / "bin" / "tablekit"
    fake.write_text('#!/bin/sh\nfor a in "$@"; do echo "[$a]"; done\n')
    fake.chmod(0o755)
    text = (KIOSK / "tablekit-kiosk.sh").read_text()
    for key, value in {"@VENV@": str(venv), "@DATA@": str(data), "@SIZE@": size}.items():
        text = text.replace(key, shlex.quote(value))  # as install.sh fills them in: one sh word each
    launcher = tmp_path / "tablekit-kiosk"
    launcher.write_text(text)
    launcher.chmod(0o755)
    return launcher, data


def _args(launcher: Path, **env: str) -> list[str]:
    result = subprocess.run([str(launcher)], capture_output=True, text=True, timeout=60, env={**os.environ, **env}, check=True)
    return [line[1:-1] for line in result.stdout.splitlines()]


def test_the_launcher_starts_the_listed_game_when_none_is_unfinished(tmp_path: Path) -> None:
    import sys

    launcher, data = _launcher(tmp_path, sys.executable, size="800x480")
    (data / "new-game.args").write_text((KIOSK / "new-game.args").read_text())
    # the real journal code answers: an empty journal has nothing to resume
    args = _args(launcher, TABLEKIT_JOURNAL=str(tmp_path / "journal.sqlite"))
    assert args == ["run", "--fullscreen", "--size", "800x480", "--variant", "indian-pool-101", "--players", "Player 1,Player 2,Player 3,Player 4"]


def test_the_launcher_resumes_an_unfinished_game(tmp_path: Path) -> None:
    launcher, data = _launcher(tmp_path, "/bin/true")  # stands in for "there is a game to resume"
    (data / "new-game.args").write_text("--variant\nshanghai\n")
    # the game comes from the journal; the table's settings listed there come along
    assert _args(launcher) == ["run", "--fullscreen", "--variant", "shanghai", "--resume"]


def test_the_launcher_without_a_game_list_starts_the_app_default(tmp_path: Path) -> None:
    launcher, _ = _launcher(tmp_path, "/bin/false")  # "could not check": a new game, said on stderr
    assert _args(launcher) == ["run", "--fullscreen"]
