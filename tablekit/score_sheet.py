"""A game's score sheet from the journal, and which game a command line names
(``tablekit history --game``, ``tablekit export``).

:func:`score_sheet` is the sheet as a table of plain values (one row per deal, each player's
points, running total and note side by side): what ``tablekit history --game`` prints and what
``tablekit export`` writes as CSV. :func:`paper_sheet` is everything the printed sheet shows
(:mod:`tablekit.paper` draws it): the game, its deals with the verdicts in words, the final
standings and who won. Both are pure data read from the game's replayed state; nothing here
draws or writes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.errors import TablekitError
from engine.game import GameState, has_partnerships, policy_for, team_of
from engine.ruling import plain_number
from tablekit.journal import Journal, JournalError
from tablekit.present import OUTCOME_WORDS, game_over_headline, winning_sides

#: A score as the sheet prints it: whole, or with a half point (Open Rummy).
Score = int | float


class NothingToExport(TablekitError, LookupError):
    """A game with no finished deal: there is no score sheet to make of it yet."""


def resolve_game(journal: Journal, text: str) -> int:
    """The game id ``text`` names: a number, or ``latest``."""
    if text == "latest":
        latest = journal.latest()
        if latest is None:
            raise JournalError("the journal holds no game yet")
        return latest
    try:
        number = int(text)
    except ValueError:
        raise JournalError(f"not a game id: {text!r} (a number from `tablekit history`, "
                           "or 'latest')") from None
    if not 0 < number < 2**63:  # no journal numbers a game so (SQLite's integers end there)
        raise JournalError(f"no game {text.strip()[:30]} in the journal (a number from "
                           "`tablekit history`, or 'latest')")
    return number


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


# --- the printed sheet ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SheetDeal:
    """One deal as a line of the printed sheet. Per-seat tuples are indexed by seat.

    ``notes`` are the verdicts in words ("first drop", "wrong show", "eliminated"; "" for a
    plain loss or the win, which has a column of its own); ``sat_out`` marks the seats that
    were already out of the game (a pool game's eliminated players)."""

    number: int
    dealer: str
    cut: str
    winner: str
    scores: tuple[Score, ...]
    totals: tuple[Score, ...]
    notes: tuple[str, ...]
    sat_out: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class SheetStanding:
    """A player's final place (players on the same total share it)."""

    place: int
    name: str
    team: str
    total: Score
    note: str  # "winner", "eliminated" or ""


@dataclass(frozen=True, slots=True)
class PaperSheet:
    """Everything the printed score sheet of one game says."""

    game_id: int
    variant: str
    created_ms: int
    players: tuple[str, ...]
    teams: tuple[str, ...]  # each seat's team name; all "" unless partners play
    partnerships: bool
    has_cut: bool  # the variant cuts a card (a wild joker) each deal
    deals: tuple[SheetDeal, ...]
    standings: tuple[SheetStanding, ...]
    over: bool
    headline: str  # "Asha wins Pool 101", or where an unfinished game stands
    lower_wins: bool
    target: int | None  # a total drawn across the chart (a pool's limit, a target to win)
    target_label: str
    caveat: str = ""  # e.g. what a damaged journal could not give back

    @property
    def date(self) -> str:
        """When the game began, local time, ``YYYY-MM-DD HH:MM``."""
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.created_ms / 1000))

    @property
    def totals(self) -> tuple[Score, ...]:
        return self.deals[-1].totals if self.deals else tuple(0 for _ in self.players)

    @property
    def rules(self) -> str:
        """How the game is won, in a few words: "lowest total wins · 101: out"."""
        text = "lowest total wins" if self.lower_wins else "highest total wins"
        return f"{text} · {self.target_label}" if self.target_label else text

    def sides(self) -> list[tuple[str, tuple[int, ...]]]:
        """What the chart draws a line for: each player, or each team of partners (whose
        totals are one) as "Ann & Cy (Jaipur)"."""
        if not self.partnerships:
            return [(name, (s,)) for s, name in enumerate(self.players)]
        out = []
        for team in sorted({team_of(s) for s in range(len(self.players))}):
            seats = tuple(s for s in range(len(self.players)) if team_of(s) == team)
            label = " & ".join(self.players[s] for s in seats)
            if self.teams[seats[0]]:
                label += f" ({self.teams[seats[0]]})"
            out.append((label, seats))
        return out


def format_score(x: Score) -> str:
    """``53``, ``10.5``: a score as the sheet prints it."""
    if isinstance(x, float) and not x.is_integer():
        return f"{x:.2f}".rstrip("0").rstrip(".")
    return str(int(x))


def paper_sheet(journal: Journal, game_id: int, caveat: str = "") -> PaperSheet:
    """The printed sheet of game ``game_id``: its state replayed from the journal's events.

    Raises :class:`~tablekit.journal.JournalError` for a game the journal does not hold and
    :class:`NothingToExport` for one with no finished deal."""
    game = journal.game(game_id)
    state = journal.restore(game_id)
    if not state.history:
        raise NothingToExport(f"game {game_id} has no finished deal yet: no score sheet to "
                              "make of it")
    created = next((g.created_ms for g in journal.games() if g.id == game_id), 0)
    policy = policy_for(game)
    target, label = policy.target(game)
    lower = policy.lower_wins(game)
    over = state.phase == "game-over"
    if over:
        headline = game_over_headline(winning_sides(state), game.variant.name)
    else:
        headline = f"Not finished: where it stood after deal {len(state.history)}"
    return PaperSheet(
        game_id=game_id, variant=game.variant.name, created_ms=created,
        players=tuple(s.name for s in game.seats), teams=tuple(s.team for s in game.seats),
        partnerships=has_partnerships(game.variant),
        has_cut=any(r.wild for r in state.history), deals=_deals(state),
        standings=_standings(state, lower, over), over=over, headline=headline,
        lower_wins=lower, target=target, target_label=label, caveat=caveat)


def _deals(state: GameState) -> tuple[SheetDeal, ...]:
    names = [s.name for s in state.game.seats]
    history = state.history
    out = []
    for i, r in enumerate(history):
        notes = []
        for s in range(len(names)):
            if r.outcomes[s] == "out":
                notes.append("")
                continue
            note = "" if r.outcomes[s] == "winner" else OUTCOME_WORDS.get(r.outcomes[s], r.outcomes[s])
            # out of the game after this deal: the next deal sits them out, or this was the
            # last deal and the game says they are eliminated
            later = history[i + 1].outcomes[s] == "out" if i + 1 < len(history) else state.eliminated[s]
            if later:
                note = f"{note}, eliminated" if note else "eliminated"
            notes.append(note)
        out.append(SheetDeal(
            number=r.number, dealer=names[r.dealer], cut=r.wild,
            winner=names[r.winner] if r.winner is not None else "",
            scores=tuple(plain_number(x) for x in r.scores),
            totals=tuple(plain_number(x) for x in r.totals), notes=tuple(notes),
            sat_out=tuple(o == "out" for o in r.outcomes)))
    return tuple(out)


def _standings(state: GameState, lower: bool, over: bool) -> tuple[SheetStanding, ...]:
    game = state.game

    def key(s: int) -> tuple[bool, Score]:
        total = plain_number(state.totals[s])
        return state.eliminated[s], total if lower else -total

    order = sorted(range(game.players), key=key)
    out = []
    place = 0
    for i, s in enumerate(order):
        if i == 0 or key(s) != key(order[i - 1]):
            place = i + 1
        note = ("winner" if over and s in state.winners
                else "eliminated" if state.eliminated[s] else "")
        out.append(SheetStanding(place, game.seats[s].name, game.seats[s].team,
                                 plain_number(state.totals[s]), note))
    return tuple(out)
