"""Open Rummy at the table: two teams, a show ends the deal, every hand is read, first to the target.

Table rulings where the texts are silent:
- at a show the declarer gathers the team's melds into their own zone, so the show is judged
  on that zone alone;
- after a show (valid or wrong) every other seat's zone is read: groups that are melds count
  for the seat's team table, anything else is cards left in hand (which score for the other
  team); the declarer's zone counts as their team's table;
- a wrong show ends the deal: the showing team scores nothing, the other team as usual;
- every turn ended with a press is checked against the camera's reading of the whole table
  (the judge's turn check), when the camera can read it.
Scores are the team's and shown on both partners' seats; they only grow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, cast

from engine.cards import Card, Groups
from engine.families.open_rummy.melds import classify_open
from engine.families.open_rummy.scoring import Ending, TeamTable, cards_value, score_deal, team_of
from engine.families.open_rummy.turn_checks import TurnRules, check_turn
from engine.game.policy import (
    LOST,
    SITTING_OUT,
    WINNER,
    WRONG_SHOW,
    FamilyPolicy,
    SeatOutcome,
    Standings,
    parse_groups,
)
from engine.game.state import DealState, Number
from engine.ruling import Ruling
from engine.table import TableState, TurnVerdict
from engine.variants.base import JudgeRequest

if TYPE_CHECKING:
    from engine.families.open_rummy.variants import OpenRummyVariant
    from engine.game.setup import Game

TEAMS = 2


def _variant(game: Game) -> OpenRummyVariant:
    # Only Open Rummy variants name this policy (OpenRummyVariant.policy).
    return cast("OpenRummyVariant", game.variant)


def split_zone(game: Game, groups: Groups) -> tuple[list[list[Card]], list[Card]]:
    """A zone's groups as (melds on the table, cards left in hand)."""
    melds: list[list[Card]] = []
    loose: list[Card] = []
    for group in parse_groups(game, groups):
        cards = [c for c in group if isinstance(c, Card)]
        if classify_open(cards).kind != "invalid":
            melds.append(cards)
        else:
            loose += cards
    return melds, loose


class OpenRummyPolicy(FamilyPolicy):
    family = "open-rummy"
    wrong_show_outcome = WRONG_SHOW
    wrong_show_ends_deal = True
    stock_out_label = "ground show: the stock ran out"
    checks_turns = True

    def lower_wins(self, game: Game) -> bool:
        return False

    def _request(self, game: Game, mode: str, groups: Groups) -> JudgeRequest:
        return JudgeRequest(mode, parse_groups(game, groups), players=game.players,
                            options=game.judge_options())

    def judge_show(self, game: Game, deal: DealState, groups: Groups) -> Ruling:
        return game.variant.judge(self._request(game, "declare", groups))

    def count_hand(self, game: Game, deal: DealState, seat: int, groups: Groups) -> tuple[str, Number, Ruling]:
        ruling = game.variant.judge(self._request(game, "meld", groups))
        _, loose = split_zone(game, groups)
        return LOST, cards_value(loose), ruling

    def deal_scores(self, game: Game, deal: DealState, outcomes: Sequence[SeatOutcome],
                    readings: Mapping[int, Groups]) -> Mapping[int, Number]:
        melds: list[list[list[Card]]] = [[] for _ in range(TEAMS)]
        hands: list[list[Card]] = [[] for _ in range(TEAMS)]
        for seat, groups in readings.items():
            m, loose = split_zone(game, groups)
            melds[team_of(seat)] += m
            hands[team_of(seat)] += loose
        ender = next((o.seat for o in outcomes if o.outcome in (WINNER, WRONG_SHOW)), None)
        ending: Ending = ("show" if any(o.outcome == WINNER for o in outcomes)
                          else "wrong-show" if ender is not None else "ground-show")
        teams = [TeamTable.of(melds[t], hands[t]) for t in range(TEAMS)]
        v = _variant(game)
        sets_needed, pure_needed = v.show_needs(v.decks)
        points = score_deal(teams, ending, None if ender is None else team_of(ender),
                            sets_needed, pure_needed)
        return {o.seat: _whole(points[team_of(o.seat)]) for o in outcomes if o.outcome != SITTING_OUT}

    def standings(self, game: Game, deals: Sequence[Mapping[int, Number]]) -> Standings:
        seats = range(game.players)
        totals = tuple(_whole(sum((Fraction(d.get(s, 0)) for d in deals), Fraction(0))) for s in seats)
        target = _variant(game).target
        reached = {team_of(s) for s in seats if totals[s] >= target}
        over = bool(reached)
        winners: tuple[int, ...] = ()
        if len(reached) == 1:
            team = reached.pop()
            winners = tuple(s for s in seats if team_of(s) == team)
        elif over:  # both teams on the same show: a draw
            winners = tuple(seats)
        return Standings(totals, (False,) * game.players, over, winners)

    def check_turn(self, game: Game, before: TableState, after: TableState, seat: int,
                   first_turn: bool) -> TurnVerdict:
        return check_turn(before, after, seat, TurnRules(players=game.players, first_turn=first_turn))

    def target(self, game: Game) -> tuple[int | None, str]:
        target = _variant(game).target
        return target, f"{target}: wins"


def _whole(x: Fraction) -> Number:
    return int(x) if x.denominator == 1 else x
