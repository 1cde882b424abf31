"""Contract rummy at the table: losers pay for the cards left in hand and the lowest total wins.

The show is the declarer going out: every group in their zone must be a valid meld, and in a
contract game the deal's contract must be among them (the zone holds the contract melds and
whatever else went down later; any set of groups that meets the contract will do). A wrong
show costs nothing here; the declarer simply plays on (the texts give no penalty for it).
Losing hands are counted as laid out (``count``) where the variant answers that, otherwise by
their best arrangement. The game lasts one deal per contract, or the variant's fixed number.

:class:`PartnershipPenaltyPolicy` is the same game played by two teams of partners (Push): a
team scores as one, see its docstring.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from engine.cards import Groups, parse_card
from engine.errors import TablekitError
from engine.game.policy import (
    LOST,
    SITTING_OUT,
    WINNER,
    FamilyPolicy,
    SeatOutcome,
    Standings,
    parse_groups,
)
from engine.game.seats import team_of
from engine.game.state import DealState, Number
from engine.ruling import Ruling
from engine.variants.base import JudgeRequest

if TYPE_CHECKING:
    from engine.game.setup import Game


class PenaltyPolicy(FamilyPolicy):
    family = "penalty"

    def _request(self, game: Game, deal: DealState, mode: str, groups: Groups) -> JudgeRequest:
        wild = parse_card(deal.wild) if deal.wild and not game.variant.uses_tiles else None
        return JudgeRequest(mode, parse_groups(game, groups), wild=wild, deal=deal.number,
                            players=game.players, options=game.judge_options())

    def judge_show(self, game: Game, deal: DealState, groups: Groups) -> Ruling:
        modes = type(game.variant).modes
        mode = "meld" if "meld" in modes else "declare"
        ruling = game.variant.judge(self._request(game, deal, mode, groups))
        words = self.contract_words(game, deal.number)
        if not ruling.valid or "contract" not in modes or words is None:
            return ruling
        if self._contract_met(game, deal, groups):
            return Ruling(True, ruling.points, ruling.groups,
                          f"every group is a valid meld, and deal {deal.number}'s contract ({words}) is among them")
        return Ruling(False, ruling.points, ruling.groups,
                      f"deal {deal.number}'s contract ({words}) is not among these melds")

    def contract_words(self, game: Game, number: int) -> str | None:
        """The deal's contract in words, for contract games (None otherwise)."""
        contract_for = getattr(game.variant, "contract_for", None)
        if contract_for is None:
            return None
        try:
            words: str = contract_for(number).words()
        except (TablekitError, AssertionError):
            return None
        return words

    def _contract_met(self, game: Game, deal: DealState, groups: Groups) -> bool:
        needs = len(getattr(game.variant.contract_for(deal.number), "needs", ()))  # type: ignore[attr-defined]
        sizes = [needs] if 0 < needs <= len(groups) else list(range(1, len(groups) + 1))
        for size in sizes:
            for chosen in combinations(groups, size):
                try:
                    if game.variant.judge(self._request(game, deal, "contract", chosen)).valid:
                        return True
                except TablekitError:
                    continue
        return False

    def deal_label(self, game: Game, number: int) -> str:
        words = self.contract_words(game, number)
        return f"contract: {words}" if words else ""

    def count_hand(self, game: Game, deal: DealState, seat: int, groups: Groups) -> tuple[str, Number, Ruling]:
        modes = type(game.variant).modes
        if "count" in modes and game.option("count", "arranged") == "arranged":
            ruling = game.variant.judge(self._request(game, deal, "count", groups))
        else:
            flat = (tuple(c for g in groups for c in g),)
            ruling = game.variant.judge(self._request(game, deal, "best", flat))
        return LOST, int(ruling.points), ruling

    def deal_scores(self, game: Game, deal: DealState, outcomes: Sequence[SeatOutcome],
                    readings: Mapping[int, Groups]) -> Mapping[int, Number]:
        return {o.seat: (0 if o.outcome == WINNER else o.count)
                for o in outcomes if o.outcome != SITTING_OUT}

    def deals_total(self, game: Game) -> int | None:
        variant = game.variant
        contracts = getattr(variant, "contracts", None)
        if isinstance(contracts, Sequence) and contracts:
            return len(contracts)
        if isinstance(variant.deals, int):
            return variant.deals
        return None

    def standings(self, game: Game, deals: Sequence[Mapping[int, Number]]) -> Standings:
        seats = range(game.players)
        totals = tuple(sum(d.get(s, 0) for d in deals) for s in seats)
        total = self.deals_total(game)
        over = total is not None and len(deals) >= total
        winners: tuple[int, ...] = ()
        if over:
            best = min(totals)
            winners = tuple(s for s in seats if totals[s] == best)
        return Standings(totals, (False,) * game.players, over, winners)


class PartnershipPenaltyPolicy(PenaltyPolicy):
    """Penalty points paid by teams (Push: the variant's ``scoring.partnerships``).

    From the Push text: when a player goes out, their partnership scores nothing for the deal,
    whatever the partner still holds; the other partnership adds the cards left in both of its
    players' hands. The partnership with the lower total after the last deal wins. An empty
    stock also ends a deal (the text: the deal is over when a player would draw from it);
    nobody went out then, so each partnership adds what its own two hands hold (a table
    ruling: the text scores only the going-out ending).

    A team's points are written on both partners' seats, so each seat's total is its team's
    and the lowest total names both partners of the winning team (both teams on a tie).
    """

    family = "partnership-penalty"
    stock_out_label = "the stock ran out"

    def deal_scores(self, game: Game, deal: DealState, outcomes: Sequence[SeatOutcome],
                    readings: Mapping[int, Groups]) -> Mapping[int, Number]:
        playing = [o for o in outcomes if o.outcome != SITTING_OUT]
        out_team = next((team_of(o.seat) for o in playing if o.outcome == WINNER), None)
        owed: dict[int, Number] = {}
        for o in playing:
            team = team_of(o.seat)
            owed[team] = owed.get(team, 0) + (0 if team == out_team else o.count)
        return {o.seat: owed[team_of(o.seat)] for o in playing}
