"""A game's score sheet from the journal, and which game a command line names
(``tablekit history --game``, ``tablekit export``)."""

from __future__ import annotations

from engine.ruling import plain_number
from tablekit.journal import Journal, JournalError


def resolve_game(journal: Journal, text: str) -> int:
    """The game id ``text`` names: a number, or ``latest``."""
    if text == "latest":
        latest = journal.latest()
        if latest is None:
            raise JournalError("the journal holds no game yet")
        return latest
    try:
        return int(text)
    except ValueError:
        raise JournalError(f"not a game id: {text!r}") from None


def score_sheet(journal: Journal, game_id: int) -> tuple[list[str], list[list[object]]]:
    """Header and rows: one row per deal with each player's score and running total."""
    state = journal.restore(game_id)
    names = [s.name for s in state.game.seats]
    header = ["deal", "dealer", "cut", "winner"]
    for name in names:
        header += [f"{name} points", f"{name} total", f"{name} note"]
    rows: list[list[object]] = []
    for r in state.history:
        row: list[object] = [r.number, names[r.dealer], r.wild or "-",
                             names[r.winner] if r.winner is not None else "-"]
        for s in range(len(names)):
            row += [plain_number(r.scores[s]), plain_number(r.totals[s]), r.outcomes[s]]
        rows.append(row)
    return header, rows
