"""The table model: reading and writing the judge's table-state JSON, and impossible states."""

from __future__ import annotations

import pytest

from engine.errors import DeckError, NotationError, TablekitError, TableStateError
from engine.table import TableHistory, TableMeld, TableState
from engine.variants import JudgeRequest, find

SPEC_EXAMPLE = {"melds": {"0": ["5S 6S 7S", "3D 3D 3D"], "2": ["9S 10S JS"]},
                "discard": "6C 7H QS 6H 4S", "stock": 40}


def test_reads_the_spec_example() -> None:
    s = TableState.from_json(SPEC_EXAMPLE, 4)
    assert [str(m) for m in s.seat_melds(0)] == ["5S 6S 7S", "3D 3D 3D"]
    assert [str(c) for c in s.discard] == ["6C", "7H", "QS", "6H", "4S"]  # bottom to top
    assert s.stock == 40 and s.seat_melds(1) == ()


def test_round_trip() -> None:
    s = TableState.from_json(SPEC_EXAMPLE, 4)
    assert s.to_json() == SPEC_EXAMPLE
    assert TableState.from_json(s.to_json(), 4) == s


def test_groups_may_be_token_lists_and_stock_may_be_missing() -> None:
    s = TableState.from_json({"melds": {"1": [["8h", "9h", "T♥"]]}, "discard": ["4C"]}, 4)
    assert str(s.seat_melds(1)[0]) == "8H 9H 10H" and s.stock is None


def test_a_seat_may_hold_its_groups_as_one_text() -> None:
    s = TableState.from_json({"melds": {"0": "5S 6S 7S | 3D 3D 3D"}}, 4)
    assert [str(m) for m in s.seat_melds(0)] == ["5S 6S 7S", "3D 3D 3D"]


def test_meld_flags_default_to_the_kind_reading() -> None:
    m = TableState.from_json(SPEC_EXAMPLE, 4).seat_melds(0)[1]
    assert m == TableMeld(m.cards, True, None)


@pytest.mark.parametrize(("state", "error", "words"), [
    ({"melds": {"4": ["5S 6S 7S"]}, "discard": ""}, TableStateError, "seat 4 does not exist"),
    ({"melds": {"north": ["5S 6S 7S"]}}, TableStateError, "'north'"),
    ({"melds": {"0": ["5S 6S XX"]}}, NotationError, "XX"),
    ({"melds": {"0": ["5S 6S 7S | 8S"]}}, TableStateError, "one group"),
    ({"melds": {"0": [""]}}, TableStateError, "empty group"),
    ({"melds": ["5S 6S 7S"]}, TableStateError, "melds"),
    ({"discard": "4C", "stock": -1}, TableStateError, "stock"),
    ({"discard": 7}, TableStateError, "discard"),
])
def test_impossible_or_malformed_states(state: dict[str, object], error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words) as info:
        TableState.from_json(state, 4)
    assert isinstance(info.value, TablekitError)


def test_too_many_copies_is_an_input_error() -> None:
    five = {"melds": {"0": ["5S 6S 7S", "5S 6S 7S", "5S 6S 7S", "5S 6S 7S"]}, "discard": "5S"}
    with pytest.raises(DeckError, match="5S"):
        find("open-rummy").judge(JudgeRequest(mode="turn", seat=0, before=five, after=five))
    s = TableState.from_json(five, 4)
    s.check_copies(lambda c: 5)  # five decks would hold them


def test_six_player_seats() -> None:
    assert TableState.from_json({"melds": {"5": ["5S 6S 7S"]}}, 6).seat_melds(5)
    with pytest.raises(TableStateError):
        TableState.from_json({"melds": {"5": ["5S 6S 7S"]}}, 4)


def test_history_keeps_states_in_order() -> None:
    start = TableState.from_json({"discard": "4C", "stock": 39}, 4)
    after = TableState.from_json({"melds": {"0": ["5S 6S 7S"]}, "discard": "4C KH", "stock": 38}, 4)
    h = TableHistory.start(start).record(0, after)
    assert len(h) == 2 and h.current is after and h.seats == (None, 0)


def test_an_event_the_journal_could_not_read_back_is_ignored_not_journaled(tmp_path, caplog):
    from engine.game import TableSeen
    from engine.game.codec import RecordError
    from tablekit.cameras import ScriptedCamera
    from tablekit.clock import ManualClock
    from tablekit.journal import Journal
    from tablekit.table import Table
    from tests._game_fixtures import game

    with Journal(tmp_path / "j.sqlite") as journal:
        table = Table.start(journal, game(), ManualClock(0), camera=ScriptedCamera())
        before = journal.events(table.game_id)
        table.post(TableSeen(((),) * 5, (), None, 10))  # five seats' melds at a table of three
        assert journal.events(table.game_id) == before
        assert "melds for 5 seats at a table of 3" in caplog.text
        with pytest.raises(RecordError):
            journal.append(table.game_id, TableSeen(((),) * 5, (), None, 10))
