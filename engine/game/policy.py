"""How a family of games scores a deal and ends a game: the small object the flow plugs in.

The flow (turns, timers, shows, readings) is the same for every family; what differs — how a
show is judged, what a losing hand costs, drops, eliminations, when the game ends — is a
:class:`FamilyPolicy`. Each family writes its own beside its rules (for example
:mod:`engine.families.indian.policy`) and each variant names it (``Variant.policy``), so
:func:`policy_for` just asks the game's variant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.cards import Groups
from engine.errors import TablekitError
from engine.game.seats import TURN_SECONDS
from engine.game.state import DealState, Number
from engine.notation import split_groups
from engine.outcomes import Outcome
from engine.ruling import Ruling
from engine.table import TableState, TurnVerdict
from engine.variants.base import ItemGroups, JudgeRequest

if TYPE_CHECKING:
    from engine.game.setup import Game

# Seat outcomes of a deal: the shared names (engine.outcomes), plus a seat sitting the deal out.
WINNER: str = Outcome.WINNER.value
LOST: str = Outcome.LOST.value
SECOND_VALID: str = Outcome.SECOND_VALID.value
WRONG_SHOW: str = Outcome.WRONG_SHOW.value
FIRST_DROP: str = Outcome.FIRST_DROP.value
MIDDLE_DROP: str = Outcome.MIDDLE_DROP.value
MISSED_TURNS: str = Outcome.MISSED_TURNS.value
DEAL_SHOW: str = Outcome.DEAL_SHOW.value
SITTING_OUT = "out"


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    seat: int
    outcome: str
    count: Number = 0


@dataclass(frozen=True, slots=True)
class Standings:
    """The game after some deals: totals, who is out, whether it is over and who won."""

    totals: tuple[Number, ...]
    eliminated: tuple[bool, ...]
    over: bool
    winners: tuple[int, ...] = ()


def parse_groups(game: Game, groups: Groups) -> ItemGroups:
    """Notation strings to the variant's cards or tiles (raises NotationError on a misread)."""
    text = " | ".join(" ".join(g) for g in groups if g)
    if not split_groups(text):
        raise EmptyReadingError("no cards were read")
    return game.variant.parse(text)


class EmptyReadingError(TablekitError, ValueError):
    """The camera saw no cards where a hand should lie."""


class FamilyPolicy:
    """Defaults shared by every family; subclasses override what their games do differently."""

    family = ""
    uses_wild = False
    missed_turn_limit: int | None = None
    #: What an invalid show costs the declarer; None: they play on as before.
    wrong_show_outcome: str | None = None
    #: A wrong show ends the deal (every hand is then read) instead of play going on.
    wrong_show_ends_deal = False
    #: How the table says the stock (or pool) ran out and the deal ends without a show;
    #: "" when that never ends a deal (the discards are shuffled into a new stock).
    stock_out_label = ""
    #: A window before the first turn's clock starts (tile rummy's doubles), and its label.
    opening_window_ms = 0
    opening_window_label = ""
    #: Each ended turn is checked against the camera's reading of the whole table (the
    #: family's ``check_turn``); the house option ``turn_checks=false`` turns it off.
    checks_turns = False

    def turn_seconds(self, game: Game) -> int:
        return game.turn_seconds or TURN_SECONDS

    def lower_wins(self, game: Game) -> bool:
        return True

    def drop_outcome(self, game: Game, deal: DealState, seat: int) -> str | None:
        """The outcome a drop by ``seat`` now gives, or None when drops are not allowed."""
        return None

    def judge_show(self, game: Game, deal: DealState, groups: Groups) -> Ruling:
        raise NotImplementedError

    def count_hand(self, game: Game, deal: DealState, seat: int, groups: Groups) -> tuple[str, Number, Ruling]:
        """(outcome, count, ruling) for a losing hand laid out after a valid show."""
        raise NotImplementedError

    def deal_scores(self, game: Game, deal: DealState, outcomes: Sequence[SeatOutcome],
                    readings: Mapping[int, Groups]) -> Mapping[int, Number]:
        """Points per seat for one deal; ``readings`` are the zones read at the show."""
        raise NotImplementedError

    def standings(self, game: Game, deals: Sequence[Mapping[int, Number]]) -> Standings:
        """Fold the deals' scores (seat -> points, seats that played only) into standings."""
        raise NotImplementedError

    def deals_total(self, game: Game) -> int | None:
        return None

    def watches_turns(self, game: Game) -> bool:
        return self.checks_turns and game.option("turn_checks", True) is not False

    def read_table(self, game: Game, melds: Sequence[Groups], discard: Sequence[str],
                   stock: int | None) -> TableState:
        """The camera's reading of the whole table as the turn checker's table state; raise a
        TablekitError naming what the decks cannot have produced (a misread card, a seat that
        does not exist, more copies of a card than the decks hold)."""
        data = {"melds": {str(s): [" ".join(g) for g in groups if g]
                          for s, groups in enumerate(melds) if any(groups)},
                "discard": " ".join(discard), "stock": stock}
        table = TableState.from_json(data, game.players, "the table")
        allowed = game.variant.copies_allowed(
            JudgeRequest("meld", players=game.players, options=game.judge_options()))
        table.check_copies(lambda card: allowed[card], "the table")
        return table

    def check_turn(self, game: Game, before: TableState, after: TableState, seat: int,
                   first_turn: bool) -> TurnVerdict:
        """Was the change from ``before`` to ``after`` a legal turn by ``seat``?"""
        raise NotImplementedError

    def deal_label(self, game: Game, number: int) -> str:
        """What the screen should say about deal ``number`` (a contract game's contract)."""
        return ""

    def target(self, game: Game) -> tuple[int | None, str]:
        """A number to draw across the score chart, and its label."""
        return None, ""


def policy_for(game: Game) -> FamilyPolicy:
    """The policy the game's variant plays by at the table (its family's: ``Variant.policy``)."""
    return game.variant.policy
