"""Kills simulated in-process: a demo game whose journal "dies" right after its N-th event.

``play(script, path, kill_at=N)`` plays a demo script (as ``tablekit demo --no-screen --box keys``
does) into the journal at ``path`` and stops dead the moment event N is on disk: the journal
raises :class:`Killed` from ``append`` once that event's transaction committed, so nothing the
table would have done afterwards (performing the event's effects, writing anything else)
happens, exactly as if the process had been killed there. ``play(..., resume=True)`` then
finishes the game as ``tablekit demo --resume`` does. :func:`outcome` is what must come out the
same as an uninterrupted game: the events, the game's status and winners, and its deal rows.

Used by ``tests/test_journal_kill.py`` (a sample of kill points) and ``bench/bench_kills.py``
(every kill point of every demo script).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablekit.cameras import ScriptedCamera
from tablekit.clock import ManualClock
from tablekit.commands.demo import DEMO_DIR, Player, Script, load_script
from tablekit.demo_box import KeyPresses
from tablekit.journal import Journal
from tablekit.table import Table

SCRIPTS = sorted(DEMO_DIR.glob("*.json"))


class Killed(BaseException):
    """The simulated kill (a BaseException, so no ``except Exception`` on the way stops it)."""


class KillingJournal(Journal):
    """A journal that dies right after event number ``kill_at`` of a game is committed."""

    def __init__(self, path: Path, kill_at: int) -> None:
        super().__init__(path)
        self.kill_at = kill_at

    def append(self, game_id: int, event: Any, *args: Any, **kwargs: Any) -> int:
        seq = super().append(game_id, event, *args, **kwargs)
        if seq == self.kill_at:
            raise Killed(seq)
        return seq


@dataclass(frozen=True)
class Outcome:
    """What a game left in its journal."""

    events: tuple[str, ...]
    status: str
    winners: tuple[str, ...]
    deals: tuple[tuple[int, tuple[Any, ...], tuple[Any, ...]], ...]
    resumable: int | None


@contextmanager
def _journal(path: Path, kill_at: int | None) -> Iterator[Journal]:
    journal = Journal(path) if kill_at is None else KillingJournal(path, kill_at)
    try:
        yield journal
    finally:
        journal.close()


def play(script: Script, path: Path, *, kill_at: int | None = None, resume: bool = False) -> bool:
    """Play (or with ``resume`` finish) the script's game; False when the kill came first."""
    try:
        with _journal(path, kill_at) as journal:
            camera = ScriptedCamera(script.readings, script.cuts, script.tables)
            clock = ManualClock()
            presses = KeyPresses()
            start_after = -1
            if resume:
                game_id = journal.resumable()
                if game_id is None:  # the game ended with the last event before the kill
                    return True
                start_after = journal.last_time(game_id)
                clock.set(start_after)
                table = Table.resume(journal, game_id, clock, camera=camera, box=presses)
                table.catch_up()
            else:
                table = Table.start(journal, script.game, clock, camera=camera, box=presses)
            presses.attach(table, clock)
            player = Player(table, clock, presses)
            for action in script.actions:
                if action.t > start_after:
                    player.do(action)
    except Killed:
        return False
    return True


def outcome(path: Path) -> Outcome:
    with Journal(path) as journal:
        game_id = journal.latest()
        assert game_id is not None
        [summary] = [g for g in journal.games() if g.id == game_id]
        return Outcome(tuple(repr(e) for e in journal.events(game_id)), summary.status,
                       summary.winners, tuple(journal.score_rows(game_id)), journal.resumable())


def whole(script: Script, path: Path) -> Outcome:
    """The uninterrupted game."""
    assert play(script, path)
    return outcome(path)


def killed_and_resumed(script: Script, path: Path, kills: list[int]) -> Outcome:
    """The game killed after each event number in ``kills`` (ascending), resumed after each,
    then finished."""
    for n, kill_at in enumerate(kills):
        if play(script, path, kill_at=kill_at, resume=n > 0):
            break  # the game ended before this kill point
    else:
        assert play(script, path, resume=True)
    return outcome(path)


def event_count(script: Script, path: Path) -> int:
    whole(script, path)
    with Journal(path) as journal:
        game_id = journal.latest()
        assert game_id is not None
        return len(journal.events(game_id))


__all__ = ["SCRIPTS", "Killed", "KillingJournal", "Outcome", "event_count", "killed_and_resumed",
           "load_script", "outcome", "play", "whole"]
