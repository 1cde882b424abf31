"""What a command writes never lands on what it must keep: the journal it reads, another of its
own outputs, a device or a pipe named as a file (the write-then-rename would replace it with a
plain file); an empty path is refused rather than taken for the current folder; a journal in
a folder whose name is not UTF-8 reads back; a bad serial URL is one line, not pyserial's
KeyError; a game that damage keeps from resuming is named as such."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
import serial

from tablekit.cli import main
from tablekit.journal import Journal

Capture = pytest.CaptureFixture[str]


def _error(capsys: Capture) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert err and err[-1].startswith("error: ") and "Traceback" not in "\n".join(err), err
    return err[-1]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A journal holding one whole demo game."""
    journal = tmp_path_factory.mktemp("played") / "j.sqlite"
    assert main(["demo", "--no-screen", "--journal", str(journal)]) == 0
    return journal


def test_export_never_writes_over_the_journal_or_its_own_files(played: Path, tmp_path: Path,
                                                              capsys: Capture) -> None:
    before = played.read_bytes()
    assert main(["export", "1", "--journal", str(played), "--pdf", str(played), "--out", str(tmp_path)]) == 2
    assert "is the journal" in _error(capsys)
    assert main(["export", "1", "--journal", str(played), "--csv", f"{played}-wal", "--out", str(tmp_path)]) == 2
    assert "write-ahead" in _error(capsys)
    # a named file clashing with a default one in --out: the PDF would be lost under the chart
    assert main(["export", "1", "--journal", str(played), "--out", str(tmp_path),
                 "--chart", str(tmp_path / "game-1-sheet.pdf")]) == 2
    assert "--out and --chart name the same file" in _error(capsys)
    assert played.read_bytes() == before and not list(tmp_path.iterdir())


def test_a_pipe_or_device_named_as_an_output_stays_what_it_is(played: Path, tmp_path: Path,
                                                              capsys: Capture) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for argv in (["export", "1", "--journal", str(played), "--out", str(tmp_path), "--pdf", str(pipe)],
                 ["camera", "--source", str(tmp_path), "--calibrate", str(pipe)],
                 ["demo", "--no-screen", "--report", str(pipe)]):
        assert main(argv) == 2
        assert "not a plain file" in _error(capsys)
        assert pipe.is_fifo()
    assert main(["export", "1", "--journal", str(played), "--out", str(tmp_path), "--csv", os.devnull]) == 2
    assert "not a plain file" in _error(capsys)


def test_the_lower_level_writers_refuse_a_pipe_too(tmp_path: Path) -> None:
    from tablekit.paper import replacing
    from tablekit.values import ValueRefused
    from vision.errors import VisionError
    from vision.files import write_atomically

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(VisionError, match="not a plain file"):
        write_atomically(pipe, b"calibration")
    with pytest.raises(ValueRefused, match="not a plain file"):
        with replacing(pipe):
            pass
    assert pipe.is_fifo()


def test_a_demo_report_is_never_written_over_its_journal(played: Path, capsys: Capture) -> None:
    before = played.read_bytes()
    assert main(["demo", "--no-screen", "--resume", "--journal", str(played), "--report", str(played)]) == 2
    assert "is the journal" in _error(capsys)
    assert played.read_bytes() == before
    assert main(["demo", "--no-screen", "--resume"]) == 2
    assert "--resume needs --journal" in _error(capsys)


@pytest.mark.parametrize("argv", [
    ["export", "1", "--out", ""], ["demo", "--no-screen", "--screenshots", ""],
    ["run", "--headless", "--camera", " "], ["mat", "--out", ""], ["camera", "--out", ""],
    ["history", "--photos", ""],
])
def test_an_empty_path_is_refused_not_taken_for_the_current_folder(argv: list[str], tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: Capture) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert "empty" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())  # nothing written where the command was run


def test_a_mat_given_a_folder_is_written_into_it(tmp_path: Path) -> None:
    assert main(["mat", "--size", "A4", "--out", f"{tmp_path}{os.sep}"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tablekit-mat.pdf", "tablekit-mat.png"]


def test_an_a4_mat_can_be_calibrated_as_printed() -> None:
    from tablekit.cli import build_parser

    args = build_parser().parse_args(["camera", "--mat", "A4", "--calibrate", "mat.json"])
    assert args.mat == "A4"


def test_a_journal_in_a_folder_whose_name_is_not_utf8_reads_back(tmp_path: Path) -> None:
    folder = tmp_path / os.fsdecode(b"caf\xe9")
    folder.mkdir()
    path = folder / "j.sqlite"
    assert main(["demo", "--no-screen", "--journal", str(path)]) == 0
    with Journal(path, read_only=True) as journal:
        assert [g.status for g in journal.games()] == ["over"]
    assert main(["history", "--journal", str(path)]) == 0


@pytest.mark.parametrize("url", ["loop://?baudrate=abc", "socket://localhost:abc", "nosuch://x"])
def test_a_serial_url_pyserial_cannot_read_is_one_line(url: str, capsys: Capture) -> None:
    from firmware_bridge.link import open_serial

    with pytest.raises(serial.SerialException) as err:
        open_serial(url)
    assert url in str(err.value) and "debug|info" not in str(err.value)
    assert main(["buttons", "--port", url, "--seconds", "0.1"]) == 2
    assert url in _error(capsys)


def test_the_table_says_a_missing_box_port_at_once(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    port = str(tmp_path / "no-such-pty")
    assert main(["run", "--headless", "--mute", "--seconds", "0.5", "--journal", str(tmp_path / "j.sqlite"),
                 "--port", port, "--photos", str(tmp_path), "--variant", "indian-points",
                 "--players", "A,B"]) == 0
    assert f"cannot open the button box port {port}" in caplog.text
    assert "using the keyboard until it opens" in caplog.text


def test_resuming_a_game_damage_keeps_from_going_on_names_it(played: Path, tmp_path: Path,
                                                             capsys: Capture) -> None:
    path = tmp_path / "j.sqlite"
    with Journal(played, read_only=True) as source, Journal(path) as journal:
        events = source.events(1)
        game_id = journal.new_game(source.game(1), 0)
        for event in events[:12]:  # an unfinished game
            journal.append(game_id, event)
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET body=replace(body, '\"t_ms\":', '\"t_ms\": ') WHERE seq=5")
    db.commit()
    db.close()
    assert main(["run", "--headless", "--no-box", "--mute", "--resume", "--journal", str(path)]) == 2
    error = _error(capsys)
    assert "no unfinished game can be resumed: game 1 cannot be" in error and "event 5" in error


@pytest.mark.parametrize(("argv", "said"), [
    (["buttons", "--port", "loop://", "--count", "0"], "bad --count 0"),
    (["demo", "--no-screen", "--pace-ms", "-5"], "bad --pace-ms -5"),
    (["enroll", "--deck", "deck.npz", "--source", ".", "--cards", "ZZ,QQ"], "unknown card 'ZZ'"),
])
def test_values_that_were_taken_silently_are_refused(argv: list[str], said: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: Capture) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert said in _error(capsys)


def test_a_journal_from_a_newer_kit_is_used_and_said(played: Path, tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    import shutil

    path = tmp_path / "j.sqlite"
    shutil.copy(played, path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.commit()
    db.close()
    with Journal(path) as journal:
        assert [g.status for g in journal.games()] == ["over"]
    assert "written by a newer kit (journal schema 99" in caplog.text


def test_a_demo_report_never_lands_on_its_script(tmp_path: Path, capsys: Capture) -> None:
    from tablekit.commands.demo import DEMO_DIR

    script = tmp_path / "s.json"
    script.write_bytes((DEMO_DIR / "indian-pool-101.json").read_bytes())
    before = script.read_bytes()
    assert main(["demo", "--no-screen", "--script", str(script), "--report", str(script)]) == 2
    assert "is the demo script" in _error(capsys)
    assert script.read_bytes() == before


def test_a_calibration_never_lands_on_the_deck_it_names(tmp_path: Path, capsys: Capture) -> None:
    deck = tmp_path / "deck.npz"
    deck.write_bytes(b"a deck")
    assert main(["camera", "--source", str(tmp_path), "--calibrate", str(deck), "--deck", str(deck)]) == 2
    assert "is the --deck" in _error(capsys)
    assert deck.read_bytes() == b"a deck"


def test_resume_says_which_new_game_flags_it_passes_over(played: Path, tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    import logging

    path = tmp_path / "j.sqlite"
    with Journal(played, read_only=True) as source, Journal(path) as journal:
        game_id = journal.new_game(source.game(1), 0)
        for event in source.events(1)[:12]:
            journal.append(game_id, event)
    caplog.set_level(logging.INFO)
    assert main(["-v", "run", "--headless", "--no-box", "--mute", "--seconds", "0.3", "--resume", "--journal",
                 str(path), "--photos", str(tmp_path), "--variant", "shanghai", "--players", "X,Y,Z",
                 "--dealer", "2"]) == 0
    assert "not --variant, --players, --dealer" in caplog.text
