"""How a family of games scores a deal and ends a game: the small object the flow plugs in.

The flow (turns, timers, shows, readings) is the same for every family; what differs — how a
show is judged, what a losing hand costs, drops, eliminations, when the game ends — is a
:class:`FamilyPolicy`. Each family writes its own beside its rules (for example
:mod:`engine.families.indian.policy`) and each variant names it (``Variant.policy``), so
:func:`policy_for` just asks the game's variant.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.cards import Groups
from engine.errors import TablekitError
from engine.game.seats import TURN_SECONDS, next_seat
from engine.game.state import PLAYING, DealState, FamilyDeal, GameState, Number
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
#: The most an entered hand may count where the family's scoring charges a losing hand
#: whatever it counts (no cap of its own): three digits on the scorepad.
ENTRY_LIMIT = 999
#: The counts the default :meth:`FamilyPolicy.max_hand_points` asks the family's scoring about.
_PROBE_SMALL = 7
_PROBE_LARGE = 10**6


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
    #: The stock running out voids the deal instead: nothing is read or scored and the same
    #: dealer deals the same deal again (see :meth:`stock_out_voids`).
    stock_out_void = False
    #: A window before the first turn's clock starts (tile rummy's doubles), and its label.
    opening_window_ms = 0
    opening_window_label = ""
    #: Each ended turn is checked against the camera's reading of the whole table (the
    #: family's ``check_turn``); the house option ``turn_checks=false`` turns it off.
    checks_turns = False
    #: The call a long press makes while the opening window is open ("" none): tile rummy's
    #: showing of the ace, which needs no tile named (the table knows the ace).
    window_press_call = ""

    def turn_seconds(self, game: Game) -> int:
        return game.turn_seconds or TURN_SECONDS

    def lower_wins(self, game: Game) -> bool:
        return True

    # --- who plays and deals next (seats are numbered clockwise) ------------------------

    def turn_step(self, game: Game) -> int:
        """+1 when turns go clockwise (to the left), -1 when they go counter-clockwise."""
        return 1

    def deal_step(self, game: Game) -> int:
        """The way the deal passes after each deal; by default the way turns go."""
        return self.turn_step(game)

    def first_player(self, game: Game, dealer: int, alive: Callable[[int], bool]) -> int | None:
        """Who plays first in a deal: by default the next seat from the dealer in turn order."""
        return next_seat(dealer, alive, game.players, self.turn_step(game))

    def next_dealer(self, game: Game, dealer: int, alive: Callable[[int], bool]) -> int | None:
        """Who deals after ``dealer``: the next seat still in the game the way the deal passes."""
        return next_seat(dealer, alive, game.players, self.deal_step(game))

    def stock_out_voids(self, game: Game) -> bool:
        """Does the stock-out item void the deal (no scores, the same dealer deals it again)
        rather than end it with every hand read and counted?"""
        return self.stock_out_void

    def drop_outcome(self, game: Game, deal: DealState, seat: int) -> str | None:
        """The outcome a drop by ``seat`` now gives, or None when drops are not allowed."""
        return None

    def judge_show(self, game: Game, deal: DealState, groups: Groups) -> Ruling:
        raise NotImplementedError

    def judge_seat_show(self, game: Game, deal: DealState, seat: int, groups: Groups) -> Ruling:
        """``seat``'s show judged: by default the deal's show (:meth:`judge_show`), the same
        for every seat; a game where each player has a goal of their own judges theirs."""
        return self.judge_show(game, deal, groups)

    def dealt_table_problems(self, game: Game, table: TableState) -> tuple[str, ...]:
        """What in the deal's first reading of the table is not as the deal leaves it (no
        melds, the turned-up card, the stock's count), in families that check turns; () when
        it looks dealt, or the family cannot tell."""
        return ()

    def show_floor(self, state: GameState, seat: int) -> tuple[int, str] | None:
        """The fewest cards ``seat``'s show may hold at the table now, and why (None: no
        floor beyond the judge's): where a deal's contract takes the whole hand, the table
        knows what the judge cannot, how many cards the hand holds."""
        return None

    def count_hand(self, game: Game, deal: DealState, seat: int, groups: Groups) -> tuple[str, Number, Ruling]:
        """(outcome, count, ruling) for a losing hand laid out after a valid show."""
        raise NotImplementedError

    def deal_scores(self, game: Game, deal: DealState, outcomes: Sequence[SeatOutcome],
                    readings: Mapping[int, Groups]) -> Mapping[int, Number]:
        """Points per seat for one deal; ``readings`` are the zones read at the show."""
        raise NotImplementedError

    def standings(self, game: Game, deals: Sequence[Mapping[int, Number]],
                  deal_winners: Sequence[int | None] = ()) -> Standings:
        """Fold the deals' scores (seat -> points, seats that played only) into standings;
        ``deal_winners`` names each deal's winner where the flow knows it (None: it had none):
        scores alone cannot always say (in deals rummy a losing hand may count 0 too)."""
        raise NotImplementedError

    def deals_total(self, game: Game) -> int | None:
        return None

    # --- hands entered by the players (the scorepad, when no camera reads them) ----------

    def max_hand_points(self, game: Game) -> int | None:
        """The most a losing hand's count may be when the players enter it by hand; None when
        the family scores a deal from the cards themselves, so a count alone cannot score it.

        The default asks the family's own :meth:`deal_scores` what a lost hand of a small and
        of a huge count costs: a family that charges the count as it is takes any count up
        to :data:`ENTRY_LIMIT`; one that caps it (Indian rummy's 80) takes counts up to its
        cap; one whose scores do not follow the count (they come from the cards) takes none.
        A family may say its limit directly by overriding this.
        """
        def cost(count: int) -> Number | None:
            return self._lost_hand_costs(game, LOST, count)

        small, large = cost(_PROBE_SMALL), cost(_PROBE_LARGE)
        if small != _PROBE_SMALL or large is None:
            return None
        if large >= _PROBE_LARGE:
            return ENTRY_LIMIT
        return int(large) if large >= _PROBE_SMALL and int(large) == large else None

    def entered_hand(self, game: Game, deal: DealState, seat: int, points: int) -> tuple[str, Number]:
        """(outcome, count) of a losing hand whose count the players entered (already within
        :meth:`max_hand_points`): a lost hand counting ``points``; a seat that had no turn
        before the show gets the deal-show outcome where the family's scoring charges it
        differently (Indian rummy's half count), as it would for a hand the camera read."""
        if deal.turns_begun[seat] == 0 and points > 0:
            if self._lost_hand_costs(game, DEAL_SHOW, points) != self._lost_hand_costs(game, LOST, points):
                return DEAL_SHOW, points
        return LOST, points

    def _lost_hand_costs(self, game: Game, outcome: str, count: int) -> Number | None:
        """What the family's :meth:`deal_scores` charges one seat ending a deal with
        ``outcome`` and ``count`` (None: its scoring cannot say from a count alone)."""
        n = game.players
        deal = DealState(number=1, dealer=0, wild="", turn=0, status=(PLAYING,) * n,
                         turns_played=(1,) * n, turns_begun=(1,) * n, missed_in_row=(0,) * n,
                         outcomes=("",) * n)
        try:
            scores = self.deal_scores(game, deal, [SeatOutcome(0, outcome, count)], {})
        except (TablekitError, ValueError, KeyError, TypeError, ArithmeticError):
            return None
        return scores.get(0)

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

    # --- calls and the family's own record of a deal (tile rummy's doubles, ace, melds) -----

    def answer_call(self, game: Game, deal: DealState, seat: int, call: str, cards: Groups,
                    t_ms: int) -> tuple[DealState | None, str]:
        """``seat`` calls ``call`` (with ``cards``, in notation) at ``t_ms``: the deal after it
        and what the table is told, or (None, why it is refused, in players' words)."""
        return None, f"{game.variant.name} has no call {call[:20]!r}"

    def answer_state_call(self, state: GameState, seat: int, call: str, cards: Groups,
                          t_ms: int) -> tuple[GameState | None, str]:
        """A call answered with the whole game in view (a call that changes more than the
        deal: chips that last the game). By default the deal's :meth:`answer_call`."""
        deal = state.deal
        assert deal is not None
        new_deal, text = self.answer_call(state.game, deal, seat, call, cards, t_ms)
        if new_deal is None:
            return None, text
        return replace(state, deal=new_deal), text

    def press_call(self, state: GameState, seat: int) -> str:
        """The call a short press by ``seat`` out of turn makes now ("" none: the press is a
        claim where the game has claims, else a wrong press)."""
        return ""

    def panel_calls(self, game: Game) -> tuple[str, ...]:
        """The calls the table's call panel offers (keyboard and touch), in order (none: empty):
        tile rummy's doubles, ace and melds."""
        return ()

    def menu_calls(self, state: GameState) -> tuple[str, ...]:
        """Calls the player in turn may make from the play menu now (OK on one makes it)."""
        return ()

    def call_words(self, game: Game, call: str) -> str:
        """A call (a menu item, a press out of turn) in the players' words."""
        return call

    def seat_notes(self, state: GameState) -> tuple[str, ...]:
        """What the play screen notes beside each seat from the family's record ("" none)."""
        return ("",) * state.game.players

    def opening_window(self, game: Game, number: int) -> tuple[int, str]:
        """(ms, label) of the window before deal ``number``'s first turn (0: none)."""
        return self.opening_window_ms, self.opening_window_label

    def stock_only(self, state: GameState, seat: int) -> bool:
        """Whether ``seat`` may no longer take the discard (the upcard) this deal, drawing only
        from the stock. By default never."""
        return False

    def family_deal(self, state: GameState, number: int) -> FamilyDeal | None:
        """The family's record for a new deal ``number``, from the game so far (the last
        deal played or voided left ``state.carried``). By default none."""
        return None

    def window_closed(self, game: Game, deal: DealState) -> tuple[DealState, str]:
        """The opening window is over (time, OK, the first turn ended, a pause): what follows
        from what was called in it, and the words for the table ("" nothing)."""
        return deal, ""

    def turn_ended(self, game: Game, deal: DealState, seat: int, in_time: bool) -> tuple[DealState, str]:
        """``seat``'s turn ended with its press (``in_time``) or ran out of time: the deal
        after it, and the words for the table ("" nothing)."""
        return deal, ""

    def stock_out_goes_on(self, game: Game, deal: DealState) -> tuple[DealState, str] | None:
        """The stock (pool) ran out: (the deal, the words) when the family renews it and play
        goes on; None when the deal ends (or is void) as :meth:`stock_out_voids` says."""
        return None

    def deal_label(self, game: Game, number: int) -> str:
        """What the screen should say about deal ``number`` (a contract game's contract)."""
        return ""

    def target(self, game: Game) -> tuple[int | None, str]:
        """A number to draw across the score chart, and its label."""
        return None, ""


def policy_for(game: Game) -> FamilyPolicy:
    """The policy the game's variant plays by at the table (its family's: ``Variant.policy``)."""
    return game.variant.policy
