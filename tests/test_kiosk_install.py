"""The kiosk installer and launcher under hostile input: values that would run shell code or
break a unit file, a corrupt journal, a table that keeps crashing, and a desktop session that
would merge the desktop's own labwc configuration back in.

Everything runs install.sh with ``--dry-run`` (it prints each file it would write, and changes
nothing) and takes the generated files out of that output; the launcher is then run for real
against a fake venv whose ``tablekit`` only records its arguments."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

KIOSK = Path(__file__).resolve().parents[1] / "hardware" / "kiosk"
SCRIPT = KIOSK / "install.sh"
NEW_GAME = ["--variant", "indian-pool-101", "--players", "Player 1,Player 2,Player 3,Player 4"]


# --- running the installer --------------------------------------------------------------------

def dry_run(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home)}
    return subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-apt", "--user", "tkdry", *args],
                          capture_output=True, text=True, timeout=60, env=env, check=False)


def written(stdout: str) -> dict[str, str]:
    """The files a dry run would write, by path, as it prints them (``    | `` before each line)."""
    files: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in stdout.splitlines():
        m = re.match(r"would write: (.*) \(mode \d+, owner .*\)$", line)
        if m:
            current = files.setdefault(m.group(1), [])
        elif current is not None and line.startswith("    | "):
            current.append(line[6:])
        elif current is not None and line == "    |":
            current.append("")
        else:
            current = None
    return {path: "\n".join(lines) + "\n" for path, lines in files.items()}


# --- systemd's own reading of a unit file (systemd.syntax(7), systemd.service(5)) -------------

_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
            "\\": "\\", '"': '"', "'": "'", "s": " "}


def systemd_words(value: str) -> list[str]:
    """Split a setting's value the way systemd does for Environment= and ExecStart=
    (extract_first_word with quotes removed and C escapes resolved): an unknown escape or an
    unbalanced quote is an error, as it is for systemd."""
    words: list[str] = []
    i, n = 0, len(value)
    while True:
        while i < n and value[i] in " \t\n":
            i += 1
        if i >= n:
            return words
        word: list[str] = []
        quote = ""
        while i < n:
            c = value[i]
            if not quote and c in " \t\n":
                break
            if c == "\\":
                if i + 1 >= n or value[i + 1] not in _ESCAPES:
                    raise ValueError(f"bad escape in {value!r}")
                word.append(_ESCAPES[value[i + 1]])
                i += 2
                continue
            if quote and c == quote:
                quote = ""
            elif not quote and c in "\"'":
                quote = c
            else:
                word.append(c)
            i += 1
        if quote:
            raise ValueError(f"unbalanced quote in {value!r}")
        words.append("".join(word))


def specifiers(value: str) -> str:
    """``%%`` is a literal ``%``; any other specifier would be replaced by systemd (here: an error,
    since none of the installer's values may contain one)."""
    out, i = [], 0
    while i < len(value):
        if value[i] == "%":
            if value[i + 1:i + 2] != "%":
                raise ValueError(f"unescaped specifier in {value!r}")
            out.append("%")
            i += 2
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def unit_settings(text: str) -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;[":
            continue
        key, _, value = line.partition("=")
        settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def environment(text: str) -> dict[str, str]:
    env = {}
    for value in unit_settings(text).get("Environment", []):
        for word in systemd_words(value):
            name, sep, val = specifiers(word).partition("=")
            assert sep and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name), word
            env[name] = val
    return env


def exec_start(text: str) -> list[str]:
    [value] = unit_settings(text)["ExecStart"]
    return [specifiers(w).replace("$$", "$") for w in systemd_words(value)]


def working_directory(text: str) -> str:
    [value] = unit_settings(text)["WorkingDirectory"]
    return specifiers(value)  # a path: no quotes, no escapes, only specifiers


# --- --size -----------------------------------------------------------------------------------

HOSTILE_SIZES = ["1x1;touch {p}", "1x1$(touch {p})", '1x1";touch {p};"', "1x1`touch {p}`",
                 "800x480\ntouch {p}", "1x1 ", "0x480", "800x", "x480", "800X480", "８00x480",
                 "1234567x1"]


@pytest.mark.parametrize("size", HOSTILE_SIZES)
def test_a_size_that_is_not_width_x_height_digits_is_refused_before_anything(size: str, tmp_path: Path) -> None:
    pwned = tmp_path / "pwned"
    result = dry_run("--mode", "lite", "--size", size.format(p=pwned), home=tmp_path)
    assert result.returncode == 2, result.stdout
    assert "install.sh: --size must be WIDTHxHEIGHT" in result.stderr
    assert result.stdout == ""  # refused before the first step
    assert not pwned.exists()


def test_a_plain_size_reaches_the_launcher_quoted(tmp_path: Path) -> None:
    result = dry_run("--mode", "lite", "--size", "800x480", "--prefix", "/opt/tk-dry", home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "SIZE='800x480'" in written(result.stdout)["/opt/tk-dry/bin/tablekit-kiosk"]


# --- --data and --prefix: quoted for systemd and for sh ----------------------------------------

HOSTILE_DATA = ['/tmp/a b/%x"y', "/tmp/a b/%x\"y\\z'q$HOME&|`id`;%%n"]


@pytest.mark.parametrize("data", HOSTILE_DATA)
@pytest.mark.parametrize("mode", ["lite", "desktop"])
def test_a_data_path_with_spaces_percent_and_quotes_round_trips_through_the_unit(data: str, mode: str, tmp_path: Path) -> None:
    prefix = "/opt/tk-dry"
    result = dry_run("--mode", mode, "--data", data, "--prefix", prefix, home=tmp_path)
    assert result.returncode == 0, result.stderr
    files = written(result.stdout)
    unit_path = ("/etc/systemd/system/tablekit-kiosk.service" if mode == "lite"
                 else "/home/tkdry/.config/systemd/user/tablekit-kiosk.service")
    unit = files[unit_path]
    env = environment(unit)
    assert env["TABLEKIT_JOURNAL"] == f"{data}/journal.sqlite"
    assert env["TABLEKIT_DISPLAY"] == "kiosk"
    assert working_directory(unit) == data
    assert exec_start(unit) == [f"{prefix}/bin/tablekit-kiosk"]
    if shutil.which("systemd-analyze"):
        _verify(unit, mode, tmp_path)


def _verify(unit: str, mode: str, tmp_path: Path) -> None:
    """systemd's own parser: no syntax or specifier complaint about any line of the unit."""
    folder = tmp_path / "units"
    folder.mkdir()
    path = folder / "tablekit-kiosk.service"
    path.write_text(unit)
    # the same with the line as it was once written (unquoted): systemd must complain about it,
    # or this systemd-analyze checks nothing here
    control = folder / "control.service"
    control.write_text(re.sub(r'Environment="(TABLEKIT_JOURNAL=.*)"',
                              lambda m: "Environment=" + m.group(1).replace('\\"', '"'), unit))

    def complaints(unit_file: Path) -> list[str]:
        cmd = ["systemd-analyze", "verify", "--man=no", *(["--user"] if mode == "desktop" else []), str(unit_file)]
        runtime = tmp_path / "runtime"  # where a user manager would keep its sockets
        runtime.mkdir(mode=0o700, exist_ok=True)
        env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime)}
        try:
            result = subprocess.run(cmd, capture_output=True, text=True, timeout=30, env=env, check=False)
        except subprocess.TimeoutExpired:
            pytest.skip("systemd-analyze verify did not answer")
        return [line for line in result.stderr.splitlines() if re.search(rf"{unit_file.name}:\d+:", line)]

    if not complaints(control):
        pytest.skip("systemd-analyze verify finds nothing wrong even with an unquoted line here")
    assert complaints(path) == []


@pytest.mark.parametrize("bad", ["/tmp/a\nb", "/tmp/a\tb", "relative/data", "/tmp/a/../b", "/tmp/./b", "/tmp/a ", ""])
@pytest.mark.parametrize("option", ["--data", "--prefix"])
def test_paths_systemd_cannot_take_are_refused(option: str, bad: str, tmp_path: Path) -> None:
    result = dry_run("--mode", "lite", option, bad, home=tmp_path)
    assert result.returncode == 2
    assert f"install.sh: {option}" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("prefix", ['/opt/t"k', "/opt/t'k", "/opt/t\\k", "/opt/t k", "/opt/$(id)", "/opt/t%k"])
def test_a_prefix_is_kept_plain_since_systemd_executes_the_launcher_under_it(prefix: str, tmp_path: Path) -> None:
    result = dry_run("--mode", "lite", "--prefix", prefix, home=tmp_path)
    assert result.returncode == 2
    assert "install.sh: --prefix must be a plain path" in result.stderr
    assert result.stdout == ""


def _fake_venv(venv: Path, python: str) -> Path:
    """A venv whose python is ``python`` (a shell script's text) and whose tablekit records its
    arguments one per line in ``calls``."""
    (venv / "bin").mkdir(parents=True)
    py = venv / "bin" / "python"
    py.write_text(python)
    py.chmod(0o755)
    fake = venv / "bin" / "tablekit"
    fake.write_text('#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done >"${0%/*}/calls"\n')
    fake.chmod(0o755)
    return venv / "bin" / "calls"


def test_a_hostile_data_path_reaches_the_launcher_as_plain_words(tmp_path: Path) -> None:
    pwned = tmp_path / "pwned"
    prefix = tmp_path / "prefix"
    data = tmp_path / "d a'$(touch pwned)`touch pwned`\"t%\\"
    result = dry_run("--mode", "lite", "--prefix", str(prefix), "--data", str(data), "--size", "800x480", home=tmp_path)
    assert result.returncode == 0, result.stderr
    launcher = tmp_path / "tablekit-kiosk"
    launcher.write_text(written(result.stdout)[f"{prefix}/bin/tablekit-kiosk"])
    launcher.chmod(0o755)
    calls = _fake_venv(prefix / "venv", "#!/bin/sh\necho 'every game in it is finished'\nexit 3\n")
    data.mkdir()
    (data / "new-game.args").write_text("--variant\nshanghai\n")
    env = {k: v for k, v in os.environ.items() if k != "TABLEKIT_JOURNAL"}
    run = subprocess.run([str(launcher)], capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path, check=False)
    assert run.returncode == 0, run.stderr
    assert calls.read_text().splitlines() == ["run", "--fullscreen", "--size", "800x480", "--variant", "shanghai"]
    assert str(data / "journal.sqlite") in run.stderr
    assert not pwned.exists()


# --- the launcher: resume, or say why not ------------------------------------------------------

def _launcher(tmp_path: Path, python: str) -> tuple[Path, Path, Path]:
    """The launcher as install.sh writes it, for a fake venv and data folder under tmp_path."""
    prefix, data = tmp_path / "prefix", tmp_path / "data"
    result = dry_run("--mode", "lite", "--prefix", str(prefix), "--data", str(data), home=tmp_path)
    assert result.returncode == 0, result.stderr
    launcher = tmp_path / "tablekit-kiosk"
    launcher.write_text(written(result.stdout)[f"{prefix}/bin/tablekit-kiosk"])
    launcher.chmod(0o755)
    calls = _fake_venv(prefix / "venv", python)
    data.mkdir()
    (data / "new-game.args").write_text((KIOSK / "new-game.args").read_text())
    return launcher, data, calls


def _start(launcher: Path, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run the launcher with a fake ``sleep`` first on PATH that records how long it was asked to wait."""
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir(exist_ok=True)
    sleep = bin_dir / "sleep"
    sleep.write_text(f'#!/bin/sh\necho "$1" >>"{tmp_path}/slept"\n')
    sleep.chmod(0o755)
    full = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", **env}
    return subprocess.run([str(launcher)], capture_output=True, text=True, timeout=60, env=full, check=False)


def _slept(tmp_path: Path) -> list[int]:
    path = tmp_path / "slept"
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def test_a_corrupt_journal_is_logged_and_a_new_game_starts(tmp_path: Path) -> None:
    real_python = f'#!/bin/sh\nexec "{sys.executable}" "$@"\n'
    launcher, _, calls = _launcher(tmp_path, real_python)
    journal = tmp_path / "journal.sqlite"
    garbage = random.Random(7).randbytes(8192)
    journal.write_bytes(garbage)
    root = str(Path(__file__).resolve().parents[1])
    result = _start(launcher, tmp_path, TABLEKIT_JOURNAL=str(journal),
                    PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    assert result.returncode == 0, result.stderr
    assert calls.read_text().splitlines() == ["run", "--fullscreen", *NEW_GAME]  # not --resume
    assert f"could not check the journal {journal}" in result.stderr
    # the reason, in one line (the exception's), not a traceback
    [line] = result.stderr.splitlines()
    assert "(exit 4: " in line and "Error: " in line
    assert journal.read_bytes() == garbage  # moving it aside is `tablekit run`'s business


def test_no_unfinished_game_is_logged_as_such(tmp_path: Path) -> None:
    launcher, _, calls = _launcher(tmp_path, "#!/bin/sh\necho 'every game in it is finished'\nexit 3\n")
    result = _start(launcher, tmp_path)
    assert calls.read_text().splitlines() == ["run", "--fullscreen", *NEW_GAME]
    assert "no unfinished game" in result.stderr and "could not check" not in result.stderr


def test_an_unfinished_game_is_resumed(tmp_path: Path) -> None:
    """With the table's settings from new-game.args (its club, calibration, voice...): after a
    power cut the table comes back as it was set up, not only the game."""
    launcher, data, calls = _launcher(tmp_path, "#!/bin/sh\necho 'game 4'\nexit 0\n")
    result = _start(launcher, tmp_path)
    assert calls.read_text().splitlines() == ["run", "--fullscreen", *NEW_GAME, "--resume"]
    assert "resuming the unfinished game" in result.stderr and "game 4" in result.stderr
    (data / "new-game.args").write_text("# the club's table\r\n--club\r\nmqtt://club:1883\r\n\r\n--mute\r\n")
    (tmp_path / "data" / "kiosk-starts").unlink()
    calls.unlink()
    _start(launcher, tmp_path)
    assert calls.read_text().splitlines() == ["run", "--fullscreen", "--club", "mqtt://club:1883", "--mute", "--resume"]


@pytest.mark.parametrize("python", ["#!/bin/sh\nexit 1\n", "#!/bin/sh\necho 'Segmentation fault' >&2\nexit 139\n", None])
def test_a_check_that_fails_any_other_way_is_logged_not_taken_for_nothing_to_resume(python: str | None, tmp_path: Path) -> None:
    launcher, _, calls = _launcher(tmp_path, python or "")
    if python is None:
        (tmp_path / "prefix" / "venv" / "bin" / "python").unlink()  # the venv is broken
    result = _start(launcher, tmp_path)
    assert calls.read_text().splitlines() == ["run", "--fullscreen", *NEW_GAME]
    assert "could not check the journal" in result.stderr


# --- the launcher: a table that keeps stopping -------------------------------------------------

def _seed(data: Path, seconds_ago: int, streak: int, resumes: int) -> None:
    (data / "kiosk-starts").write_text(f"{int(time.time()) - seconds_ago} {streak} {resumes}\n")


def test_the_first_start_and_a_start_after_a_long_run_do_not_wait(tmp_path: Path) -> None:
    launcher, data, _ = _launcher(tmp_path, "#!/bin/sh\nexit 3\n")
    _start(launcher, tmp_path)
    assert _slept(tmp_path) == []
    _seed(data, 3600, 5, 0)  # the last one ran an hour
    _start(launcher, tmp_path)
    assert _slept(tmp_path) == []
    # no quick restarts, none resumed, and this start is the first of new-game.args's game
    assert (data / "kiosk-starts").read_text().split()[1:] == ["0", "0", "1"]


def test_quick_restarts_wait_longer_and_longer_up_to_a_minute(tmp_path: Path) -> None:
    launcher, data, _ = _launcher(tmp_path, "#!/bin/sh\nexit 3\n")
    for streak in range(8):
        _seed(data, 1, streak, 0)
        result = _start(launcher, tmp_path)
        assert result.returncode == 0
    assert _slept(tmp_path) == [5, 10, 20, 40, 60, 60, 60, 60]
    assert "waiting 60s" in result.stderr


@pytest.mark.parametrize("junk", ["", "garbage\n", "1 2\n", "99999999999999999999999 1 1\n", "-5 -1 x\n"])
def test_a_damaged_record_of_starts_is_a_first_start(junk: str, tmp_path: Path) -> None:
    launcher, data, calls = _launcher(tmp_path, "#!/bin/sh\nexit 3\n")
    (data / "kiosk-starts").write_text(junk)
    result = _start(launcher, tmp_path)
    assert result.returncode == 0, result.stderr
    assert calls.exists() and _slept(tmp_path) == []


def test_a_game_that_fails_to_resume_three_times_running_gives_way_to_a_new_game(tmp_path: Path) -> None:
    checked = tmp_path / "checked"
    launcher, data, calls = _launcher(tmp_path, f"#!/bin/sh\ntouch '{checked}'\necho 'game 9'\nexit 0\n")
    for resumes in range(3):
        _seed(data, 2, resumes, resumes)
        _start(launcher, tmp_path)
        assert calls.read_text().splitlines() == ["run", "--fullscreen", *NEW_GAME, "--resume"], resumes
    _seed(data, 2, 3, 3)
    checked.unlink()
    result = _start(launcher, tmp_path)
    assert calls.read_text().splitlines() == ["run", "--fullscreen", *NEW_GAME]
    assert "3 times in a row" in result.stderr and "starting a new game" in result.stderr
    assert not checked.exists()
    # ...and once a table has run a while, the next start tries to resume again
    _seed(data, 3600, 4, 3)
    _start(launcher, tmp_path)
    assert calls.read_text().splitlines() == ["run", "--fullscreen", *NEW_GAME, "--resume"]


def test_a_new_game_that_stops_three_times_running_gives_way_to_the_setup_screen(tmp_path: Path) -> None:
    launcher, data, calls = _launcher(tmp_path, "#!/bin/sh\nexit 3\n")  # nothing to resume
    # written on Windows: CR LF line ends, which must not reach the app
    (data / "new-game.args").write_bytes(b"--variant\r\nindian-pool-101\r\n")
    for fresh in range(3):
        (data / "kiosk-starts").write_text(f"{int(time.time()) - 2} 1 0 {fresh}\n")
        _start(launcher, tmp_path)
        assert calls.read_text().splitlines() == ["run", "--fullscreen", "--variant", "indian-pool-101"]
    (data / "kiosk-starts").write_text(f"{int(time.time()) - 2} 3 0 3\n")
    result = _start(launcher, tmp_path)
    assert calls.read_text().splitlines() == ["run", "--fullscreen"]  # the app's setup screen
    assert "3 times in a row: showing the setup screen" in result.stderr
    # ...and after a table that ran a while, the listed game is started again
    (data / "kiosk-starts").write_text(f"{int(time.time()) - 3600} 3 0 3\n")
    _start(launcher, tmp_path)
    assert calls.read_text().splitlines() == ["run", "--fullscreen", "--variant", "indian-pool-101"]


def _limits(unit: Path) -> tuple[int, int, int]:
    s = unit_settings(unit.read_text())
    return int(s["StartLimitIntervalSec"][0]), int(s["StartLimitBurst"][0]), int(s["RestartSec"][0])


@pytest.mark.parametrize("unit", ["tablekit-kiosk.service", "tablekit-kiosk-user.service"])
def test_the_units_restart_gently_and_the_start_limit_catches_only_a_launcher_that_cannot_start(unit: str, tmp_path: Path) -> None:
    interval, burst, restart_sec = _limits(KIOSK / unit)
    assert interval > 0 and burst > 0  # 0 would be no limit at all
    assert restart_sec >= 5
    s = unit_settings((KIOSK / unit).read_text())
    assert s["Restart"] == ["always"]
    # A launcher that cannot even start hits the limit...
    assert burst * restart_sec < interval
    # ...a table that crashes at once, with the launcher's waits, never does.
    launcher, data, _ = _launcher(tmp_path, "#!/bin/sh\nexit 3\n")
    delays = []
    for streak in range(burst + 1):
        _seed(data, 1, streak, 0)
        before = len(_slept(tmp_path))
        _start(launcher, tmp_path)
        slept = _slept(tmp_path)
        delays.append(slept[-1] if len(slept) > before else 0)
    # start i comes RestartSec after start i-1 stopped, which was straight after its wait
    starts, t = [], 0
    for i in range(burst + 1):
        starts.append(t)
        t += (delays[i - 1] if i else 0) + restart_sec
    assert all(starts[i + burst - 1] - starts[i] > interval for i in range(len(starts) - burst + 1))


# --- the desktop session: labwc with the kiosk's config only ------------------------------------

def test_the_desktop_session_starts_labwc_with_its_own_config_dir_and_no_merge(tmp_path: Path) -> None:
    result = dry_run("--mode", "desktop", home=tmp_path)
    assert result.returncode == 0, result.stderr
    files = written(result.stdout)
    session = files["/usr/share/wayland-sessions/tablekit-kiosk.desktop"]
    [exec_line] = [line for line in session.splitlines() if line.startswith("Exec=")]
    assert exec_line == "Exec=/etc/tablekit/labwc/session"
    # the session runs labwc with that one folder, again whenever it exits
    script = files["/etc/tablekit/labwc/session"]
    [run] = [line.split() for line in script.splitlines() if line.strip().startswith("labwc")]
    assert run == ["labwc", "-C", "/etc/tablekit/labwc"]
    assert "while :; do" in script and "--merge" not in run
    for name in ("rc.xml", "menu.xml", "autostart"):
        assert f"/etc/tablekit/labwc/{name}" in files
    assert not any(path.startswith("/home/tkdry/.config/labwc") for path in files)
    lightdm = files["/etc/lightdm/lightdm.conf.d/50-tablekit-kiosk.conf"]
    assert "autologin-session=tablekit-kiosk\n" in lightdm and "user-session=tablekit-kiosk\n" in lightdm
    autostart = files["/etc/tablekit/labwc/autostart"]
    for desktop in ("pcmanfm", "wf-panel", "lxsession", "xdg-autostart", "/etc/xdg", "labwc-pi"):
        assert desktop not in autostart


def test_the_readme_says_why_the_kiosk_never_runs_labwc_with_merge() -> None:
    readme = (KIOSK / "README.md").read_text()
    assert "--merge-config" in readme and "-C /etc/tablekit/labwc" in readme


def test_a_person_s_login_is_never_made_the_kiosk_user(tmp_path: Path) -> None:
    # root stands for any login the kiosk would lock (uid 0, 1000 or more, or in sudo)
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-apt", "--user", "root",
                             "--mode", "lite"], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "HOME": str(tmp_path)}, check=False)
    assert result.returncode == 2 and result.stdout == ""  # refused before the first step
    assert "user 'root' is someone's login" in result.stderr


def test_desktop_mode_without_labwc_and_lightdm_is_named_as_refused(tmp_path: Path) -> None:
    if shutil.which("labwc") and Path("/etc/lightdm").is_dir():
        pytest.fail("this test needs a machine without a Pi OS desktop (labwc and LightDM)")
    result = dry_run("--mode", "desktop", home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "desktop mode would be refused (use --mode lite)" in result.stdout


def test_an_unfinished_game_that_cannot_be_resumed_is_said_not_taken_for_finished(tmp_path: Path) -> None:
    """A game left unfinished whose journal rows are damaged starts a new game, but the log
    says which game could not be resumed and why (and the table's screen says it too)."""
    import sqlite3

    from engine.game import DealStarted, Game, Seat
    from tablekit.journal import Journal

    real_python = f'#!/bin/sh\nexec "{sys.executable}" "$@"\n'
    launcher, _, calls = _launcher(tmp_path, real_python)
    journal = tmp_path / "journal.sqlite"
    with Journal(journal) as j:
        gid = j.new_game(Game("indian-points", (Seat("A"), Seat("B"), Seat("C"))), 0)
        j.append(gid, DealStarted("5D", 1000))
    db = sqlite3.connect(journal)
    db.execute("UPDATE events SET body=CAST(X'7B22A5A5' AS TEXT)")
    db.commit()
    db.close()
    root = str(Path(__file__).resolve().parents[1])
    result = _start(launcher, tmp_path, TABLEKIT_JOURNAL=str(journal),
                    PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    assert calls.read_text().splitlines() == ["run", "--fullscreen", *NEW_GAME]
    assert f"game {gid} is unfinished but cannot be resumed: " in result.stderr
    assert "event 1 is not as it was written" in result.stderr  # its checksum tells
