"""Playing a demo script through the real command and walking the journal it leaves."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.game import Event, GameState, apply, new_game
from tablekit.cli import main
from tablekit.journal import Journal


def play_demo(out: Path, game: str, screen: bool = True) -> tuple[int, dict[str, Any], Path]:
    """``tablekit demo --game GAME`` on scripted keys, headless (or with no screen at all),
    its journal, report and screenshots in ``out``: its exit code, report and ``out``."""
    shown = ["--headless", "--screenshots", str(out / "shots")] if screen else ["--no-screen"]
    code = main(["demo", "--game", game, *shown, "--box", "keys", "--report", str(out / "r.json"),
                 "--journal", str(out / "j.sqlite")])
    return code, json.loads((out / "r.json").read_text()), out


def walk(path: Path) -> Iterator[tuple[Event, str, GameState]]:
    """The latest game of the journal at ``path`` replayed: each event, the phase before it
    and the state after it."""
    with Journal(path) as journal:
        gid = journal.latest()
        state = new_game(journal.game(gid))
        events = list(journal.events(gid))
    for event in events:
        was = state.phase
        state, _ = apply(state, event)
        yield event, was, state
