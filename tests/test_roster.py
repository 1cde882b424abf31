"""The roster of players in the journal: names added once, refused twice, kept across opens."""

from __future__ import annotations

import sqlite3

import pytest

from engine.game.setup import MAX_NAME
from tablekit.journal import SCHEMA, Journal
from tablekit.roster import Roster, RosterError


def test_names_are_added_once_ignoring_case_and_spaces(tmp_path) -> None:
    with Journal(tmp_path / "j.sqlite") as j:
        roster = Roster(j, now=iter(range(1000, 9000, 10)).__next__)
        assert roster.add("  Ravi ") == "Ravi"
        assert roster.add("मीरा") == "मीरा"
        assert roster.add("王芳") == "王芳"
        assert roster.add("سارا") == "سارا"
        with pytest.raises(RosterError, match="Ravi is on the list already"):
            roster.add("ravi")
        with pytest.raises(RosterError, match="Ravi is on the list already"):
            roster.add(" RAVI  ")
        with pytest.raises(RosterError, match="cannot be empty"):
            roster.add("   ")
        with pytest.raises(RosterError, match=f"at most {MAX_NAME} characters, this one {MAX_NAME + 1}"):
            roster.add("x" * (MAX_NAME + 1))
        with pytest.raises(RosterError, match="control characters"):
            roster.add("A\tB")
        with pytest.raises(RosterError, match="control characters"):
            roster.add("Ann\u202eB")  # a right-to-left override: no name needs one
        # a Persian name and a Devanagari conjunct keep their joiners (they were refused)
        assert roster.add("علی\u200cرضا") == "علی\u200cرضا"
        assert roster.add("क्\u200dष") == "क्\u200dष"
        assert roster.add("y" * MAX_NAME) == "y" * MAX_NAME
        assert roster.names() == ["y" * MAX_NAME, "क्\u200dष", "علی\u200cرضا", "سارا", "王芳", "मीरा",
                                  "Ravi"]  # newest first
    with Journal(tmp_path / "j.sqlite") as j:
        roster = Roster(j, now=lambda: 5000)
        roster.played(["Ravi", "Asha", ""])  # Asha joins; a bad name never does
        assert roster.names()[:2] == ["Asha", "Ravi"]  # played last; Asha added last
        assert set(roster.names()) == {"Ravi", "Asha", "y" * MAX_NAME, "سارا", "王芳", "मीरा",
                                       "علی\u200cرضا", "क्\u200dष"}
        assert roster.find("asha ") == "Asha"


def test_an_older_journal_gets_a_roster_and_a_read_only_one_reads_none(tmp_path) -> None:
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript(SCHEMA.split("CREATE TABLE IF NOT EXISTS players")[0])
    db.commit()
    db.close()
    with Journal(path, read_only=True) as j:
        assert j.roster() == []
    with Journal(path) as j:
        assert Roster(j).add("Asha") == "Asha"
    with Journal(path, read_only=True) as j:
        assert [r.name for r in j.roster()] == ["Asha"]


def test_a_name_is_taken_off_ignoring_case_and_its_games_keep_it(tmp_path) -> None:
    from _game_fixtures import game

    with Journal(tmp_path / "j.sqlite") as j:
        roster = Roster(j)
        roster.add("Ravi")
        roster.add("José")
        j.new_game(game("indian-points", ["Ravi", "José"]), 1000)
        assert roster.remove(" ravi ") == "Ravi"
        assert roster.names() == ["José"]
        with pytest.raises(RosterError, match="Ravi is not on the list"):
            roster.remove("Ravi")
        assert j.games()[0].players == ("Ravi", "José")
        assert roster.add("ravi") == "ravi"  # the name may come back
