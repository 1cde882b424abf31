"""A journal that is damaged, not a journal, out of reach, read-only or on a full disk: always
one ``error:`` line or a warning, never a traceback, and never a journal lost.

Damaged files are made here: truncated, a page overwritten with noise, random bytes, text,
another program's SQLite database, one with a ``games`` table of another shape, and single rows
holding what the kit never writes (a setup that is no game, an event with a seat that does not
exist or a time that is no number).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from _game_fixtures import DEMO_SCRIPT
from _kill_fixtures import load_script, play

from engine.errors import TablekitError
from engine.game import ButtonPressed, DealStarted, event_from_json
from engine.game.codec import RecordError
from engine.game.events import check_event
from tablekit.cameras import ScriptedCamera
from tablekit.cli import main
from tablekit.clock import ManualClock
from tablekit.journal import (
    Journal,
    JournalDamagedError,
    JournalError,
    JournalFileError,
    JournalFullError,
    JournalReadOnlyError,
    JournalRowError,
)
from tablekit.journal_open import open_table_journal, read_journal, salvage, set_aside
from tablekit.table import Table

# --- journals to damage -------------------------------------------------------------------


@pytest.fixture(scope="module")
def healthy(tmp_path_factory) -> Path:
    """Two whole pool-101 demo games, then a third cut short: 3 games, 100+ events."""
    path = tmp_path_factory.mktemp("healthy") / "j.sqlite"
    script = load_script(DEMO_SCRIPT)
    assert play(script, path) and play(script, path)
    assert not play(script, path, kill_at=12)  # the third game: killed after its 12th event
    with Journal(path) as j:
        assert [g.status for g in j.games()] == ["over", "over", "playing"]
    return path


def _copy(healthy: Path, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    shutil.copy(healthy, path)
    return path


def damaged(kind: str, healthy: Path, tmp_path: Path) -> Path:
    path = tmp_path / f"{kind}.sqlite"
    if kind == "truncated":
        shutil.copy(healthy, path)
        with path.open("r+b") as f:
            f.truncate(healthy.stat().st_size - 4096)  # its last page lost
    elif kind == "noise":  # the page holding the second game's first deal, overwritten
        shutil.copy(healthy, path)
        data = path.read_bytes()
        at = data.index(b'"type":"deal-started"', data.index(b'"type":"deal-started"') + 1)
        with path.open("r+b") as f:
            f.seek(at // 4096 * 4096)
            f.write(bytes(range(256)) * 16)
    elif kind == "random":
        path.write_bytes(os.urandom(6000))
    elif kind == "text":
        path.write_text("these are not the games you are looking for\n")
    elif kind == "other-schema":
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE games (name TEXT, score INTEGER)")
        db.execute("INSERT INTO games VALUES ('chess', 3)")
        db.commit()
        db.close()
    elif kind == "foreign":
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE moz_places (url TEXT)")
        db.commit()
        db.close()
    else:
        raise AssertionError(kind)
    return path


KINDS = ["truncated", "noise", "random", "text", "other-schema", "foreign"]
UNREADABLE = {"random", "text", "other-schema", "foreign"}


def _one_error_line(err: str) -> None:
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, err


# --- every command on every kind of damage ------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_history_and_export_on_a_damaged_journal_read_what_they_can_or_say_why_not(
        kind, healthy, tmp_path, capsys):
    path = damaged(kind, healthy, tmp_path)
    before = path.read_bytes()
    for argv in (["history"], ["history", "--players"], ["history", "--game", "1"],
                 ["history", "--json"], ["export", "1", "--out", str(tmp_path / "out")]):
        code = main([*argv, "--journal", str(path)])
        out, err = capsys.readouterr()
        if kind in UNREADABLE:
            assert code == 2, argv
            _one_error_line(err)
            assert "not a tablekit journal" in err
        elif code == 0:
            assert "is damaged" in err and "could not be read" in err and "Traceback" not in err
        else:  # export of a game whose deals were all lost: nothing to chart
            assert argv[0] == "export" and code == 2, (argv, err)
            _one_error_line(err)
    assert path.read_bytes() == before  # reading never writes


def test_history_of_a_damaged_journal_lists_the_games_it_can_read(healthy, tmp_path, capsys):
    path = damaged("noise", healthy, tmp_path)
    assert main(["history", "--json", "--journal", str(path)]) == 0
    out, err = capsys.readouterr()
    games = [json.loads(line) for line in out.splitlines()]
    assert [g["id"] for g in games] == [1, 2, 3]
    assert "showing the 3 games" in err


@pytest.mark.parametrize("kind", KINDS)
def test_run_and_demo_on_a_damaged_journal_never_crash(kind, healthy, tmp_path, capsys):
    """Either the table starts afresh (the damaged file kept aside) or one error line."""
    path = damaged(kind, healthy, tmp_path)
    for argv in (["run", "--headless", "--seconds", "0.1", "--no-box", "--camera", "/nowhere",
                  "--variant", "indian-points", "--players", "A,B"],
                 ["demo", "--no-screen", "--box", "keys"]):
        code = main([*argv, "--journal", str(path)])
        _, err = capsys.readouterr()
        assert "Traceback" not in err
        if code != 0:
            assert code == 2
            _one_error_line(err)
        kept = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
        assert path.exists() or kept  # never lost


@pytest.mark.parametrize("where", ["/dev/null", "folder"])
def test_a_device_or_a_folder_named_as_the_journal_is_one_clear_error(where, tmp_path, capsys):
    path = Path(where) if where != "folder" else tmp_path
    for argv in (["history"], ["export", "latest", "--out", str(tmp_path / "out")],
                 ["run", "--headless", "--seconds", "0.1", "--no-box", "--camera", "/nowhere",
                  "--variant", "indian-points", "--players", "A,B"],
                 ["demo", "--no-screen", "--box", "keys"]):
        assert main([*argv, "--journal", str(path)]) == 2, argv
        _, err = capsys.readouterr()
        _one_error_line(err)
        assert ("folder" in err) if where == "folder" else ("not a plain file" in err)
    with pytest.raises(JournalFileError):
        Journal(path)
    with pytest.raises(JournalFileError):
        open_table_journal(path)
    assert Path("/dev/null").is_char_device()


def test_a_missing_journal_to_read_is_an_error_not_a_new_file(tmp_path, capsys):
    assert main(["history", "--journal", str(tmp_path / "none.sqlite")]) == 2
    assert "no journal at" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite").exists()


# --- a damaged journal is kept aside, never lost ------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_a_table_opening_a_damaged_journal_keeps_it_aside_and_carries_over_what_it_can(kind, healthy, tmp_path):
    path = damaged(kind, healthy, tmp_path)
    before = path.read_bytes()
    journal, note = open_table_journal(path)
    with journal:
        carried = journal.games()
        new = journal.new_game(load_script(DEMO_SCRIPT).game, 0)
        assert new > max((g.id for g in carried), default=0)  # a new game never takes an old number
    [aside] = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name and not p.name.endswith(("-wal", "-shm"))]
    assert aside.read_bytes() == before
    assert aside.name.startswith(f"{path.name}.corrupt-")
    if kind in UNREADABLE:
        assert carried == [] and note == f"the journal was damaged; kept as {aside.name}; starting fresh"
    else:  # the games salvage reads come along, each with the events it could read
        assert carried and note is not None
        assert note.startswith(f"the journal was damaged; kept as {aside.name}; its {len(carried)} readable game")
        salvaged, report = salvage(aside)
        with salvaged:
            # an unfinished game may have lost its last events with the file's end: not resumed
            want = [(g.id, "damaged" if report.at_least and g.status == "playing" else g.status, g.winners)
                    for g in salvaged.games()]
            assert [(g.id, g.status, g.winners) for g in carried] == want
        if kind == "truncated":
            assert report.at_least and "no unfinished game is resumed" in note


def test_a_game_whose_events_the_damage_spared_is_resumed_where_it_was(healthy, tmp_path):
    """A page of score rows (or of an index, or of the roster) lost: every event is still
    there, so the unfinished game is carried over whole and resumes exactly where it was."""
    path = _copy(healthy, tmp_path, "j.sqlite")
    with Journal(path, read_only=True) as j:
        want = j.restore(3)
    db = sqlite3.connect(path)
    [(root,)] = db.execute("SELECT rootpage FROM sqlite_master WHERE name='deals'").fetchall()
    db.close()
    with path.open("r+b") as f:  # the score rows' page zeroed
        f.seek((root - 1) * 4096)
        f.write(bytes(4096))
    journal, note = open_table_journal(path)
    with journal:
        assert note is not None and "its 3 readable games carried over" in note
        assert journal.resumable() == 3 and journal.restore(3) == want
        assert [g.status for g in journal.games()] == ["over", "over", "playing"]


def test_a_healthy_journal_is_opened_as_it_is(healthy, tmp_path):
    path = _copy(healthy, tmp_path, "j.sqlite")
    journal, note = open_table_journal(path)
    with journal:
        assert note is None and len(journal.games()) == 3 and journal.resumable() == 3
    journal, note = open_table_journal(tmp_path / "new" / "j.sqlite")
    with journal:
        assert note is None and journal.games() == []


def test_setting_aside_never_overwrites_and_takes_the_wal_along(tmp_path):
    path = tmp_path / "j.sqlite"
    names = []
    for n in range(3):  # three damaged journals in the same second
        path.write_text(f"damaged {n}")
        Path(f"{path}-wal").write_text(f"wal {n}")
        aside = set_aside(path)
        names.append(aside.name)
        assert aside.read_text() == f"damaged {n}" and Path(f"{aside}-wal").read_text() == f"wal {n}"
        assert not path.exists() and not Path(f"{path}-wal").exists()
    assert len(set(names)) == 3


# --- rows that cannot be read --------------------------------------------------------------


def _spoil(path: Path, sql: str, *params: object) -> None:
    db = sqlite3.connect(path)
    db.execute(sql, params)
    db.commit()
    db.close()


@pytest.mark.parametrize(("what", "sql", "params"), [
    ("setup", "UPDATE games SET setup=? WHERE id=2", ("{not json",)),
    ("setup", "UPDATE games SET setup=? WHERE id=2", (json.dumps({"variant": "snap", "seats": []}),)),
    ("event", "UPDATE events SET body=? WHERE game_id=2 AND seq=5", ("garbage",)),
    ("event", "UPDATE events SET body=? WHERE game_id=2 AND seq=5",
     (json.dumps({"type": "button-pressed", "seat": 7, "t_ms": 100}),)),
    ("event", "UPDATE events SET body=? WHERE game_id=2 AND seq=5",
     (json.dumps({"type": "button-pressed", "seat": 1, "t_ms": "noon"}),)),
    ("event", "UPDATE events SET body=? WHERE game_id=2 AND seq=5",
     (json.dumps({"type": "table-read", "zone": 0, "groups": [["5S", 6]], "t_ms": 1}),)),
])
def test_a_row_that_cannot_be_read_is_a_clear_error_and_history_reads_the_rest(
        what, sql, params, healthy, tmp_path, capsys):
    path = _copy(healthy, tmp_path, "j.sqlite")
    _spoil(path, sql, *params)
    with Journal(path) as j:
        with pytest.raises(JournalRowError, match="game 2"):
            j.restore(2)
        assert j.restore(1).phase == "game-over"  # the other games are fine
        with pytest.raises(TablekitError):
            Table.resume(j, 2, ManualClock(), camera=ScriptedCamera())
    assert main(["history", "--players", "--journal", str(path)]) == 0  # replays every game
    out, err = capsys.readouterr()
    assert "could not be read" in err and "Traceback" not in err and "Asha" in out
    assert main(["history", "--json", "--journal", str(path)]) == 0
    out, err = capsys.readouterr()
    ids = [json.loads(line)["id"] for line in out.splitlines()]
    assert 1 in ids and 3 in ids and "Traceback" not in err
    assert main(["history", "--game", "1", "--journal", str(path)]) == 0
    code = main(["history", "--game", "2", "--journal", str(path)])
    _, err = capsys.readouterr()
    assert "Traceback" not in err
    if code:  # its setup is lost: nothing of it can be shown
        assert what == "setup" and code == 2
        _one_error_line(err)


def test_a_game_whose_events_cannot_be_read_is_not_offered_for_resume(healthy, tmp_path, caplog):
    path = _copy(healthy, tmp_path, "j.sqlite")
    _spoil(path, "UPDATE events SET body='{' WHERE game_id=3 AND seq=2")
    with Journal(path) as j:
        assert j.resumable() is None
    assert "game 3 cannot be resumed" in caplog.text


def test_events_are_checked_when_read():
    assert event_from_json({"type": "button-pressed", "seat": 1, "t_ms": 5}) == ButtonPressed(1, 5)
    for bad, words in [({"type": "button-pressed", "seat": 1, "t_ms": "5"}, "t_ms must be a whole number"),
                       ({"type": "button-pressed", "seat": True}, "seat must be a whole number"),
                       ({"type": "deal-started", "wild": 5}, "wild must be text"),
                       ({"type": "table-read", "groups": "5S 6S"}, "groups must be a list"),
                       ({"type": "table-seen", "stock": "many"}, "stock must be a whole number or null")]:
        with pytest.raises(RecordError, match=words) as info:
            event_from_json(bad)
        assert isinstance(info.value, TablekitError)
    assert event_from_json({"type": "table-seen", "stock": None}).stock is None
    for event, words in [(ButtonPressed(3, 0), "seat 3 does not exist at a table of 3"),
                         (ButtonPressed(-1, 0), "seat -1"),
                         (DealStarted("", -5), "before the table's clock")]:
        with pytest.raises(RecordError, match=words):
            check_event(event, 3)
    assert check_event(ButtonPressed(2, 0), 3) == ButtonPressed(2, 0)


# --- salvage ---------------------------------------------------------------------------------


def test_salvage_counts_what_it_could_not_read(healthy, tmp_path):
    with Journal(healthy) as j:
        total = sum(len(j.events(g.id)) for g in j.games())
    journal, report = salvage(damaged("noise", healthy, tmp_path))
    with journal:
        assert report.games + report.games_lost == 3
        assert report.events + report.events_lost == total and report.events_lost > 0
        assert sum(len(journal.events(g.id)) for g in journal.games()) == report.events
        assert "damaged" in {g.status for g in journal.games()}
        assert journal.resumable() in (None, 3)  # a game that lost events is never resumed
    journal, report = salvage(damaged("truncated", healthy, tmp_path))
    with journal:
        assert report.games == 3 and report.events < total and report.at_least
        assert "how many is not known" in report.sentence()
    with pytest.raises(JournalDamagedError):
        salvage(damaged("text", healthy, tmp_path))


def test_read_journal_reads_a_healthy_journal_without_salvage(healthy):
    games, note = read_journal(healthy, lambda j: j.games())
    assert note is None and len(games) == 3


# --- read-only places ------------------------------------------------------------------------


@pytest.fixture
def read_only(tmp_path):
    """A folder made read-only after the test fills it: chmod, or (as root, whom chmod does
    not stop) a read-only bind mount; skipped where neither can be had."""
    folder = tmp_path / "ro"
    folder.mkdir()
    undo: list[list[str]] = []

    def seal() -> None:
        if os.geteuid() != 0:
            folder.chmod(0o555)
            return
        try:
            subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True,
                           capture_output=True, timeout=10)
            undo.append(["umount", str(folder)])
            subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True,
                           capture_output=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            pytest.skip("running as root without mount: no read-only folder to be had")

    yield folder, seal
    for command in undo:
        subprocess.run(command, capture_output=True, timeout=10)
    folder.chmod(0o755)


def test_history_and_export_read_a_journal_in_a_read_only_folder(read_only, healthy, tmp_path, capsys):
    folder, seal = read_only
    path = _copy(healthy, folder, "j.sqlite")
    seal()
    assert not os.access(folder, os.W_OK)
    assert main(["history", "--journal", str(path)]) == 0
    assert main(["history", "--players", "--journal", str(path)]) == 0
    assert main(["export", "1", "--journal", str(path), "--out", str(tmp_path / "out")]) == 0
    out, err = capsys.readouterr()
    assert "Asha" in out and "error" not in err
    with pytest.raises(JournalReadOnlyError):
        Journal(path)
    with pytest.raises(JournalReadOnlyError):
        open_table_journal(path)
    with pytest.raises(JournalReadOnlyError):
        Journal(folder / "new.sqlite")
    assert main(["demo", "--no-screen", "--box", "keys", "--journal", str(path)]) == 2
    _one_error_line(capsys.readouterr().err)


# --- a full disk ---------------------------------------------------------------------------------


class _FullDisk:
    """Stands in for the journal's connection: every write of an event finds the disk full."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.full = True

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        if self.full and sql.startswith("INSERT INTO events"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self.db, name)


def test_a_full_disk_is_an_error_the_shell_can_show_and_loses_nothing(tmp_path):
    path = tmp_path / "j.sqlite"
    script = load_script(DEMO_SCRIPT)
    clock = ManualClock()
    with Journal(path) as journal:
        table = Table.start(journal, script.game, clock,
                            camera=ScriptedCamera(script.readings, script.cuts))
        table.ok_pressed(1000)  # the deal starts
        table.button(1, True, 2000)
        table.button(1, False, 2100)
        before, events = table.state, journal.events(table.game_id)
        journal._db = full = _FullDisk(journal._db)  # type: ignore[assignment]
        with pytest.raises(JournalFullError, match="disk is full") as info:
            table.button(2, True, 3000)
        assert isinstance(info.value, TablekitError)
        assert table.state is before  # the event did not happen
        assert journal.events(table.game_id) == events  # nothing journaled is lost
        full.full = False  # space was freed: the table carries on
        table.button(2, True, 3000)
        assert journal.events(table.game_id) == [*events, ButtonPressed(2, 3000)]


def test_a_real_full_disk_leaves_a_journal_that_resumes_to_the_same_end(tmp_path):
    """As root: the demo's journal on a tiny tmpfs, then the tmpfs grown and the game resumed."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("needs root to mount a small tmpfs")
    folder = tmp_path / "small"
    folder.mkdir()
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=112k", "tmpfs", str(folder)],
                       check=True, capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        pytest.skip("cannot mount a tmpfs here")
    try:
        script = load_script(DEMO_SCRIPT)
        path = folder / "j.sqlite"
        with pytest.raises(JournalFullError):
            play(script, path)
        with Journal(path, read_only=True) as j:
            written = [e.to_json() for e in j.events(1)]
        subprocess.run(["mount", "-o", "remount,size=4m", str(folder)], check=True,
                       capture_output=True, timeout=10)
        assert play(script, path, resume=True)
        play(script, tmp_path / "whole.sqlite")
        with Journal(path) as a, Journal(tmp_path / "whole.sqlite") as b:
            events = [e.to_json() for e in a.events(1)]
            assert events[:len(written)] == written and 0 < len(written) < len(events)
            assert events == [e.to_json() for e in b.events(1)]
            assert a.score_rows(1) == b.score_rows(1) and a.games()[0].status == "over"
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True, timeout=10)


def test_every_journal_error_is_a_tablekit_error():
    for cls in (JournalError, JournalFileError, JournalReadOnlyError, JournalFullError,
                JournalDamagedError, JournalRowError, RecordError):
        assert issubclass(cls, TablekitError)


def test_salvage_copies_the_roster_and_the_photos_of_the_events_it_kept(healthy, tmp_path):
    path = _copy(healthy, tmp_path, "kept.sqlite")
    with Journal(path) as j:
        assert j.add_player("Ravi", 1000) and j.add_player("रवि शर्मा", 2000) and j.add_player("李娜", 3000)
        j.player_played(["Ravi"], 5000)
        for game_id, seq in ((1, 3), (2, 3), (2, 7), (3, 2)):
            j.add_photo(game_id, seq, b"\xff\xd8photo-%d-%d" % (game_id, seq))
        roster = j.roster()
    _spoil(path, "UPDATE events SET body=? WHERE game_id=2 AND seq=5", "garbage")  # game 2 ends at 4
    journal, report = salvage(path)
    with journal:
        assert journal.roster() == roster  # every name, with when it was added and last played
        assert report.players == 3 and report.photos == 3
        assert journal.photo_seqs(1) == {3} and journal.photo_seqs(2) == {3}  # 7: its event is lost
        assert journal.photo_seqs(3) == {2}
        assert journal.photo(2, 3) == b"\xff\xd8photo-2-3"
        assert journal.resumable() in (None, 3)


def test_salvage_of_a_journal_an_older_kit_wrote_has_no_roster_and_no_photos(healthy, tmp_path):
    path = _copy(healthy, tmp_path, "old.sqlite")
    _spoil(path, "DROP TABLE players")
    _spoil(path, "DROP TABLE photos")
    journal, report = salvage(path)
    with journal:
        assert report.games == 3 and journal.roster() == [] and report.players == report.photos == 0


def test_an_event_whose_text_is_no_longer_utf8_is_one_damaged_row(healthy, tmp_path, caplog):
    """Bytes flipped inside one event's text (an SD card's bad sector): that game cannot be
    resumed and says why; the file is not taken for one SQLite cannot read."""
    path = _copy(healthy, tmp_path, "j.sqlite")
    _spoil(path, "UPDATE events SET body=CAST(X'7B22A5A5A5' AS TEXT) WHERE game_id=3 AND seq=5")
    with Journal(path) as journal:
        with pytest.raises(JournalRowError, match="event 5 is not as it was written"):
            journal.events(3)
        assert journal.resumable() is None
    assert "game 3 cannot be resumed" in caplog.text
    # a row with no checksum (an older kit's): its text is found unreadable all the same
    _spoil(path, "UPDATE events SET crc=NULL WHERE game_id=3 AND seq=5")
    with Journal(path) as journal:
        with pytest.raises(JournalRowError, match="event 5 cannot be read"):
            journal.events(3)


def test_an_event_changed_on_disk_that_still_reads_is_told_by_its_checksum(healthy, tmp_path):
    """A digit of an event's time flipped on the card itself (SQLite keeps no checksum of its
    pages, and the row still reads as an event): the game stops being resumable and says
    why, and salvage keeps its events before that one."""
    path = _copy(healthy, tmp_path, "j.sqlite")
    data = path.read_bytes()

    def rows() -> list[tuple[int, str]]:
        db = sqlite3.connect(path)
        try:
            return db.execute("SELECT seq, body FROM events WHERE game_id=3 ORDER BY seq").fetchall()
        finally:
            db.close()

    before = rows()
    seq, body = before[4]
    # the three games played one script: the byte to flip is the one of the copies in game 3
    for start in (i for i in range(len(data)) if data.startswith(body.encode(), i)):
        at = start + body.index('"t_ms":') + len('"t_ms":')
        path.write_bytes(data[:at] + (b"2" if data[at:at + 1] == b"1" else b"1") + data[at + 1:])
        if rows() != before:
            break
    changed = dict(rows())[seq]
    assert changed != body and json.loads(changed)["t_ms"] >= 0  # still an event's text
    with Journal(path) as journal:
        with pytest.raises(JournalRowError, match=f"event {seq} is not as it was written"):
            journal.events(3)
        assert [g for g, _ in journal.stuck()] == [3] and journal.resumable() is None
        assert len(journal.events(2)) > 0  # the other games read as before
    recovered, report = salvage(path)
    with recovered:
        assert len(recovered.events(3)) == seq - 1
        assert [g.status for g in recovered.games()] == ["over", "over", "damaged"]
    assert report.events_lost == len(before) - (seq - 1) and report.games_lost == 0


def test_what_the_damage_took_is_said_with_the_error(healthy, tmp_path, capsys):
    """An event of a finished game spoilt: its score sheet cannot be made from what salvage
    reads, and the error says the journal is damaged, not only that no deal finished."""
    path = _copy(healthy, tmp_path, "j.sqlite")
    _spoil(path, "UPDATE events SET body='{bad' WHERE game_id=1 AND seq=3")
    assert main(["export", "1", "--journal", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "no finished deal" in err and f"the journal {path} is damaged" in err


def test_a_write_ahead_log_with_a_damaged_header_is_kept_not_emptied(tmp_path):
    """A power cut that left the log's header spoilt: SQLite would pass over the log's moves
    and then empty it; the journal is said damaged instead and kept aside with its log whole."""
    from engine.game import DealStarted, Game, Seat

    live = tmp_path / "live" / "j.sqlite"
    live.parent.mkdir()
    journal = Journal(live)
    game = journal.new_game(Game("indian-points", (Seat("A"), Seat("B"), Seat("C"))), 0)
    journal.append(game, DealStarted("5D", 1000))
    wal = Path(f"{live}-wal")
    assert wal.stat().st_size > 32  # the moves are in the log, not yet in the file
    for name in ("good", "spoilt"):  # the files as a power cut leaves them
        (tmp_path / name).mkdir()
        shutil.copy(live, tmp_path / name / "j.sqlite")
        shutil.copy(wal, tmp_path / name / "j.sqlite-wal")
    journal.close()
    with Journal(tmp_path / "good" / "j.sqlite", read_only=True) as j:
        assert len(j.events(game)) == 1
    spoilt = tmp_path / "spoilt" / "j.sqlite"
    with Path(f"{spoilt}-wal").open("r+b") as f:
        f.write(bytes(32))
    log_bytes = Path(f"{spoilt}-wal").read_bytes()
    opened, note = open_table_journal(spoilt)
    opened.close()
    assert note is not None and note.startswith("the journal was damaged; kept as")
    [aside_wal] = [p for p in spoilt.parent.iterdir() if ".corrupt-" in p.name and p.name.endswith("-wal")]
    assert aside_wal.read_bytes() == log_bytes


def test_a_type_column_no_longer_utf8_spoils_its_row_alone(healthy, tmp_path):
    """The checksum reads every column it covers as bytes: a byte flipped in an event's type
    (which the kit read as text only for the checksum) made the whole journal unreadable, the
    table unable to start, where the event alone is damaged."""
    path = _copy(healthy, tmp_path, "j.sqlite")
    _spoil(path, "UPDATE events SET type=CAST(X'627574746F6EA5' AS TEXT) WHERE game_id=3 AND seq=2")
    with Journal(path) as journal:
        with pytest.raises(JournalRowError, match="event 2 is not as it was written"):
            journal.events(3)
        assert [g for g, _ in journal.stuck()] == [3] and len(journal.events(1)) > 0
    recovered, report = salvage(path)
    with recovered:
        assert len(recovered.events(3)) == 1 and report.games == 3
    # the same in an older kit's journal: its checksums are added from what reads now
    older = _copy(healthy, tmp_path, "older.sqlite")
    _spoil(older, "UPDATE events SET type=CAST(X'627574746F6EA5' AS TEXT) WHERE game_id=3 AND seq=2")
    db = sqlite3.connect(older)
    for table in ("events", "games"):
        db.execute(f"ALTER TABLE {table} DROP COLUMN crc")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    with Journal(older) as journal:  # migrated (it failed): every row checksummed as it reads
        assert journal.resumable() == 3  # the body, all the game is read from, is whole
