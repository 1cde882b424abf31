"""The journal: durable SQLite settings, append and restore, history, statistics, export."""

from __future__ import annotations

import csv
import json
import sqlite3

import pytest
from _game_fixtures import FULL_COUNT, LOSER_58, NO_PURE, VALID_SHOW, Driver, game

from tablekit.cli import main
from tablekit.commands.export import score_sheet, write_chart, write_csv
from tablekit.journal import SCHEMA_VERSION, TABLES, Journal, JournalError, JournalRowError
from tablekit.journal_open import salvage


def played(journal: Journal) -> tuple[int, Driver]:
    """A finished pool-101-like points game written to the journal event by event."""
    d = Driver(game("indian-pool-101"))
    gid = journal.new_game(d.state.game, 1_700_000_000_000)
    d.deal("5D")
    for seat in (1, 2, 0):
        d.press(seat)
    d.show(1, VALID_SHOW, {2: FULL_COUNT, 0: LOSER_58})
    d.deal("9C")
    d.drop(2)
    d.press(0)
    d.declare(1)
    d.read(1, NO_PURE)
    d.ok()
    for event in d.log:
        journal.append(gid, event)
    for record in d.state.history:
        journal.write_scores(gid, record.number, record.scores, record.totals)
    return gid, d


def test_the_database_is_durable_wal_with_full_sync(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_an_appended_event_is_visible_to_another_connection_at_once(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        d = Driver(game())
        gid = j.new_game(d.state.game, 0)
        d.deal()
        assert j.append(gid, d.log[0]) == 1
        other = sqlite3.connect(path)
        assert other.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1
        other.close()


def test_restore_replays_to_exactly_the_same_state(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        gid, d = played(j)
        assert j.events(gid) == d.log
        assert j.restore(gid) == d.state
        assert j.last_time(gid) == d.t
    with Journal(tmp_path / "j.sqlite") as j:  # a new process would see the same
        assert j.restore(gid) == d.state
        assert j.append(gid, d.log[-1]) == len(d.log) + 1  # numbering goes on


def test_resumable_is_the_latest_unfinished_game(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        first = j.new_game(game(), 0)
        second = j.new_game(game(), 1)
        assert j.resumable() == second
        j.finish(second, (0,), 2)
        assert j.resumable() == first and j.latest() == second
        with pytest.raises(JournalError):
            j.game(99)


def test_history_and_player_statistics(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        gid, d = played(j)
        [summary] = j.games()
        assert summary.players == ("Asha", "Ravi", "Meera") and summary.deals == 2
        stats = {s.name: s for s in j.player_stats()}
        assert stats["Ravi"].deals_won == 1 and stats["Asha"].deals_won == 1
        assert stats["Meera"].points == sum(r.scores[2] for r in d.state.history)
        assert stats["Meera"].average == stats["Meera"].points / 2


def test_the_score_sheet_has_a_row_per_deal_with_running_totals(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        gid, d = played(j)
        header, rows = score_sheet(j, gid)
        path = write_csv(j, gid, tmp_path / "out" / "sheet.csv")
    lines = list(csv.reader(path.open(encoding="utf-8-sig")))
    assert lines[0] == header and len(lines) == 3
    assert lines[2][header.index("Ravi note")] == "wrong-show"
    assert int(lines[2][header.index("Meera total")]) == d.state.totals[2]


def test_the_chart_is_a_png_of_the_scoreboard(tmp_path):
    import pygame

    with Journal(tmp_path / "j.sqlite") as j:
        gid, _ = played(j)
        path = write_chart(j, gid, tmp_path / "chart.png", (800, 480))
    image = pygame.image.load(str(path))
    assert image.get_size() == (800, 480)
    colours = {tuple(image.get_at((x, y)))[:3] for x in range(0, 800, 25) for y in range(0, 480, 25)}
    assert len(colours) > 5  # lines, labels and background, not a blank image


def test_export_and_history_commands(tmp_path, capsys):
    db = tmp_path / "j.sqlite"
    with Journal(db) as j:
        gid, _ = played(j)
    assert main(["export", "latest", "--journal", str(db), "--out", str(tmp_path / "x")]) == 0
    assert (tmp_path / "x" / f"game-{gid}-scores.csv").exists()
    assert (tmp_path / "x" / f"game-{gid}-chart.png").exists()
    capsys.readouterr()
    assert main(["history", "--journal", str(db), "--json"]) == 0
    row = json.loads(capsys.readouterr().out.splitlines()[0])
    assert row["variant"] == "indian-pool-101" and row["deals"] == 2
    assert main(["history", "--journal", str(db), "--players"]) == 0
    assert "Meera" in capsys.readouterr().out
    assert main(["history", "--journal", str(db), "--game", "7"]) == 2
    assert main(["export", "1", "--journal", str(tmp_path / "none.sqlite")]) == 2


def test_the_event_that_ends_a_deal_or_the_game_writes_its_summary_with_it(tmp_path):
    """No separate write a kill could lose: appending the events alone leaves the score rows
    and the game's end on disk."""
    with Journal(tmp_path / "j.sqlite") as j:
        d = Driver(game("indian-pool-101"))
        gid = j.new_game(d.state.game, 0)
        d.deal("5D")
        for seat in (1, 2, 0):
            d.press(seat)
        d.show(1, VALID_SHOW, {2: FULL_COUNT, 0: LOSER_58})
        for event in d.log:
            j.append(gid, event)
        assert [row[0] for row in j.score_rows(gid)] == [1]
        assert j.score_rows(gid)[0][2] == tuple(d.state.totals)
        assert j.games()[0].status == "playing" and j.resumable() == gid
        while d.state.phase != "game-over":  # Ravi and Meera keep dropping until they are out
            d.deal("9C")
            d.drop(d.state.deal.turn)
            if d.state.phase == "play":
                d.drop(d.state.deal.turn)
        for event in d.log[len(j.events(gid)):]:
            j.append(gid, event, None)
    with Journal(tmp_path / "j.sqlite") as j:
        [summary] = j.games()
        assert summary.status == "over" and summary.deals == len(d.state.history)
        assert summary.winners == tuple(d.state.game.seats[w].name for w in d.state.winners)
        assert j.resumable() is None


#: The tables as a kit before checksums made them (schema 1: no ``crc`` columns).
# schema 1: no checksums, and no drafts kept
OLDER_SCHEMA = ";\n".join(sql for name, sql in TABLES.items() if name != "drafts").replace(",\n    crc INTEGER", "")


def _older_kit_journal(path, d: Driver) -> int:
    """A journal as an older kit left it when killed right after a game's last event: every
    event written, the last deal's score row and the game's end not."""
    db = sqlite3.connect(path)
    db.executescript(OLDER_SCHEMA)
    db.execute("INSERT INTO games (created_ms, variant, setup) VALUES (0, ?, ?)",
               (d.state.game.variant_id, json.dumps(d.state.game.to_json())))
    for seq, event in enumerate(d.log, 1):
        db.execute("INSERT INTO events VALUES (1, ?, ?, ?, ?)",
                   (seq, event.t_ms, event.TYPE, json.dumps(event.to_json())))
    for record in d.state.history[:-1]:
        db.execute("INSERT INTO deals VALUES (1, ?, ?, ?)", (record.number, json.dumps(list(record.scores)),
                                                             json.dumps(list(record.totals))))
    db.commit()
    db.close()
    return 1


def _finished(d: Driver) -> Driver:
    d.deal("5D")
    for seat in (1, 2, 0):
        d.press(seat)
    d.show(1, VALID_SHOW, {2: FULL_COUNT, 0: LOSER_58})
    while d.state.phase != "game-over":
        d.deal("9C")
        d.drop(d.state.deal.turn)
        if d.state.phase == "play":
            d.drop(d.state.deal.turn)
    return d


def test_a_finished_game_an_older_kit_left_playing_is_over_once_opened(tmp_path):
    path = tmp_path / "j.sqlite"
    d = _finished(Driver(game("indian-pool-101")))
    gid = _older_kit_journal(path, d)
    with Journal(path, read_only=True) as j:  # reading only: the events say what it is
        [summary] = j.games()
        assert summary.status == "over" and summary.deals == len(d.state.history)
    with Journal(path) as j:  # the repair pass writes it
        assert j.resumable() is None
        assert [row[0] for row in j.score_rows(gid)] == [r.number for r in d.state.history]
    db = sqlite3.connect(path)
    assert db.execute("SELECT status, winners FROM games").fetchone() == ("over", json.dumps(list(d.state.winners)))
    assert db.execute("SELECT COUNT(*) FROM deals").fetchone()[0] == len(d.state.history)
    db.close()


def test_an_older_kits_journal_gets_checksums_and_a_changed_row_is_told_from_then_on(tmp_path):
    path = tmp_path / "j.sqlite"
    d = _finished(Driver(game("indian-pool-101")))
    gid = _older_kit_journal(path, d)
    with Journal(path, read_only=True) as j:  # read as it lies: nothing to check it by
        assert len(j.events(gid)) == len(d.log)
    with Journal(path) as j:  # opened for writing: every row gets its checksum
        assert j.events(gid) == d.log
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("SELECT COUNT(*) FROM events WHERE crc IS NULL").fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM games WHERE crc IS NULL").fetchone()[0] == 0
    # a later change that still reads as an event (its time) is told by its checksum
    body = json.loads(db.execute("SELECT body FROM events WHERE seq=2").fetchone()[0])
    body["t_ms"] += 1
    db.execute("UPDATE events SET body=? WHERE seq=2", (json.dumps(body),))
    db.commit()
    db.close()
    with Journal(path, read_only=True) as j:
        with pytest.raises(JournalRowError, match="event 2 is not as it was written"):
            j.events(gid)


def test_a_setup_changed_after_it_was_written_is_not_trusted(tmp_path):
    path = tmp_path / "j.sqlite"
    d = _finished(Driver(game("indian-pool-101")))
    with Journal(path) as j:
        gid = j.new_game(d.state.game, 0)
        j.append(gid, d.log[0])
    db = sqlite3.connect(path)
    setup = json.loads(db.execute("SELECT setup FROM games").fetchone()[0])
    setup["seats"][0]["name"] = "Mallory"  # still a setup the kit reads
    db.execute("UPDATE games SET setup=?", (json.dumps(setup),))
    db.commit()
    db.close()
    with Journal(path) as j:
        with pytest.raises(JournalRowError, match="its setup is not as it was written"):
            j.game(gid)
        assert j.stuck() and j.stuck()[0][0] == gid and j.resumable() is None
    recovered, report = salvage(path)
    with recovered:
        assert recovered.games() == [] and report.games_lost == 1 and report.events_lost == 1


def test_resumable_never_offers_a_game_its_events_say_is_over(tmp_path):
    path = tmp_path / "j.sqlite"
    d = _finished(Driver(game("indian-pool-101")))
    with Journal(path) as j:
        gid = j.new_game(d.state.game, 0)
        for event in d.log:
            j.append(gid, event)
        j._db.execute("UPDATE games SET status='playing'")  # as if the end had been lost
        j._db.execute("DELETE FROM deals WHERE deal=(SELECT MAX(deal) FROM deals)")
        assert j.resumable() is None
        assert j.games()[0].status == "over" and j.games()[0].deals == len(d.state.history)


def test_a_game_is_replayed_once_for_all_the_looks_at_it_and_stays_its_events_fold(tmp_path, monkeypatch):
    import tablekit.journal as journal_module

    path = tmp_path / "j.sqlite"
    d = _finished(Driver(game("indian-pool-101")))
    half = len(d.log) // 2
    with Journal(path) as j:
        gid = j.new_game(d.state.game, 0)
        for event in d.log[:half]:
            j.append(gid, event)
    replays = []
    real = journal_module.replay
    monkeypatch.setattr(journal_module, "replay", lambda g, e: replays.append(len(e)) or real(g, e))
    with Journal(path) as j:
        assert j.stuck() == [] and j.resumable() == gid  # the table's start: both look
        assert replays == [half]
        for event in d.log[half:]:
            j.append(gid, event)
        assert j.restore(gid) == real(d.state.game, d.log)  # the appends folded in, no replay
        assert replays == [half]


def test_a_draft_is_kept_with_the_game_s_last_event_and_only_that_one(tmp_path, caplog):
    path = tmp_path / "j.sqlite"
    d = Driver(game("indian-pool-101"))
    with Journal(path) as j:
        gid = j.new_game(d.state.game, 1_700_000_000_000)
        assert j.draft(gid) is None
        j.keep_draft(gid, json.dumps({"typed": "12"}))  # before any event: kept with none
        assert j.draft(gid) == {"typed": "12"}
        d.deal("5D")
        for event in d.log:
            j.append(gid, event)
        assert j.draft(gid) is None  # events came after it: what it answered may be gone
        j.keep_draft(gid, json.dumps({"typed": "7"}))
        assert j.draft(gid) == {"typed": "7"}
        j.keep_draft(gid, None)
        assert j.draft(gid) is None
        j.keep_draft(gid, json.dumps({"name": "Zoë"}))
    with Journal(path, read_only=True) as j:  # what was kept reads back after a restart
        assert j.draft(gid) == {"name": "Zoë"}
    db = sqlite3.connect(path)
    db.execute("UPDATE drafts SET body = replace(body, 'Zo', 'Xo')")
    db.commit()
    db.close()
    with Journal(path) as j, caplog.at_level("WARNING", logger="tablekit.journal"):
        assert j.draft(gid) is None  # changed after it was written: passed over, said
        assert any("cannot be read back" in r.getMessage() for r in caplog.records)
        assert len(j.events(gid)) == len(d.log)  # and nothing else is touched


def test_an_older_kits_journal_gets_a_drafts_table(tmp_path):
    path = tmp_path / "j.sqlite"
    d = _finished(Driver(game("indian-pool-101")))
    gid = _older_kit_journal(path, d)
    with Journal(path, read_only=True) as j:  # nothing written: no draft to read
        assert j.draft(gid) is None
    assert "drafts" not in {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    with Journal(path) as j:
        j.keep_draft(gid, "{}")
        assert j.draft(gid) == {}


def test_a_salvaged_journal_keeps_the_hand_being_entered_while_it_is_still_current(tmp_path):
    from tablekit.journal_open import carry_over

    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        gid, d = played(j)
        j.keep_draft(gid, json.dumps({"entry": {"typed": "12"}}))
        other = j.new_game(d.state.game, 1_700_000_100_000)
        j.keep_draft(other, json.dumps({"entry": {"typed": "3"}}))
    db = sqlite3.connect(path)
    db.execute("UPDATE drafts SET body = replace(body, '3', '4') WHERE game_id=?", (other,))
    db.commit()
    db.close()
    recovered, _ = salvage(path)
    with recovered:
        assert recovered.draft(gid) == {"entry": {"typed": "12"}}
        assert recovered.draft(other) is None  # changed after it was written: not carried
    with Journal(tmp_path / "fresh.sqlite") as fresh:
        carry_over(path, fresh)
        assert fresh.draft(gid) == {"entry": {"typed": "12"}}
