"""13-card Indian rummy at the table: shows judged by the variant, deals scored by the Indian rules.

Table rulings where the texts are silent:
- a drop during the seat's first turn is a first drop (the table cannot see whether a card
  was drawn); any later drop is a middle drop;
- losing hands are counted by their best arrangement unless the ``count`` option is
  ``arranged`` (the camera's grouping of a hastily laid hand should not cost points);
- a loser whose hand would itself be a valid show scores as a second valid declarer (2);
- three missed turns in a row drop the seat in every variant, deals rummy included (where no
  drop may be chosen): the texts drop such a player "in all variants";
- a reading of more cards than a player can hold (13 plus a draw: a zone misread, hands run
  together) is not a hand: it is refused like any unreadable hand, to be read again or
  corrected, and nothing is scored from it (the best arrangement is never asked to search it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, cast

from engine.cards import Groups, parse_card
from engine.errors import TablekitError
from engine.families.indian.scoring import (
    HAND_SIZE,
    SeatResult,
    check_hand_size,
    deal_scores,
    deals_standings,
    pool_standings,
)
from engine.game.policy import (
    DEAL_SHOW,
    FIRST_DROP,
    LOST,
    MIDDLE_DROP,
    MISSED_TURNS,
    SECOND_VALID,
    SITTING_OUT,
    WRONG_SHOW,
    FamilyPolicy,
    SeatOutcome,
    Standings,
    parse_groups,
)
from engine.game.state import DealState, Number
from engine.outcomes import Outcome
from engine.ruling import Ruling
from engine.variants.base import JudgeRequest

if TYPE_CHECKING:
    from engine.families.indian.variants import IndianVariant
    from engine.game.setup import Game

MISSED_TURN_LIMIT = 3


def _variant(game: Game) -> IndianVariant:
    # Only Indian variants name this policy (IndianVariant.policy).
    return cast("IndianVariant", game.variant)


class IndianPolicy(FamilyPolicy):
    family = "indian"
    uses_wild = True
    missed_turn_limit = MISSED_TURN_LIMIT
    wrong_show_outcome = WRONG_SHOW

    def lower_wins(self, game: Game) -> bool:
        return _variant(game).deal_count is None  # deals rummy counts chips: more is better

    def drop_outcome(self, game: Game, deal: DealState, seat: int) -> str | None:
        if deal.missed_in_row[seat] >= MISSED_TURN_LIMIT:  # the drop the missed turns make
            return MISSED_TURNS
        if not _variant(game).drops_allowed:
            return None
        return FIRST_DROP if deal.turns_played[seat] == 0 else MIDDLE_DROP

    def _request(self, game: Game, deal: DealState, mode: str, groups: Groups) -> JudgeRequest:
        wild = parse_card(deal.wild) if deal.wild else None
        return JudgeRequest(mode, parse_groups(game, groups), wild=wild,
                            players=game.players, options=game.judge_options())

    def judge_show(self, game: Game, deal: DealState, groups: Groups) -> Ruling:
        return game.variant.judge(self._request(game, deal, "declare", groups))

    def count_hand(self, game: Game, deal: DealState, seat: int, groups: Groups) -> tuple[str, Number, Ruling]:
        variant = game.variant
        check_hand_size([c for g in groups for c in g])
        if game.option("count", "best") == "arranged":
            ruling = variant.judge(self._request(game, deal, "count", groups))
            try:
                valid_hand = variant.judge(self._request(game, deal, "declare", groups)).valid
            except TablekitError:
                valid_hand = False
        else:
            flat = (tuple(c for g in groups for c in g),)
            ruling = variant.judge(self._request(game, deal, "best", flat))
            cards = sum(len(g) for g in groups)
            valid_hand = ruling.valid and int(ruling.points) == 0 and cards == HAND_SIZE
        count = int(ruling.points)
        if valid_hand:
            return SECOND_VALID, count, ruling
        if deal.turns_begun[seat] == 0:
            return DEAL_SHOW, count, ruling
        return LOST, count, ruling

    def entered_hand(self, game: Game, deal: DealState, seat: int, points: int) -> tuple[str, Number]:
        """A hand entered as counting 0 lies all in valid melds: the second valid hand, which
        scores 2, as it does when the camera reads it."""
        if points == 0:
            return SECOND_VALID, 0
        return super().entered_hand(game, deal, seat, points)

    def deal_scores(self, game: Game, deal: DealState, outcomes: Sequence[SeatOutcome],
                    readings: Mapping[int, Groups]) -> Mapping[int, Number]:
        results = [SeatResult(o.seat, Outcome(o.outcome), int(o.count))
                   for o in outcomes if o.outcome != SITTING_OUT]
        return deal_scores(_variant(game), results)

    def deals_total(self, game: Game) -> int | None:
        v = _variant(game)
        if v.deal_count is not None:
            return int(game.option("deals", v.deal_count))
        if v.pool_limit is None:
            return 1
        return None

    def target(self, game: Game) -> tuple[int | None, str]:
        v = _variant(game)
        if v.pool_limit is not None:
            return v.pool_limit, f"{v.pool_limit}: out"
        return None, ""

    def standings(self, game: Game, played: Sequence[Mapping[int, Number]],
                  deal_winners: Sequence[int | None] = ()) -> Standings:
        v = _variant(game)
        deals = [{s: int(p) for s, p in d.items()} for d in played]
        seats = list(range(game.players))
        if v.pool_limit is not None:
            pool = pool_standings(v, deals, seats)
            totals = tuple(pool.totals[s] for s in seats)
            out = tuple(s in pool.eliminated for s in seats)
            alive = [s for s in seats if not out[s]]
            over_winners = tuple(alive or _lowest(totals, seats)) if pool.over else ()
            return Standings(totals, out, pool.over, over_winners)
        if v.deal_count is not None:
            count = self.deals_total(game)
            named = [*deal_winners, *[None] * (len(played) - len(deal_winners))]
            chips = deals_standings(v, deals, seats, deal_count=count, winners=named)
            totals = tuple(chips.chips[s] for s in seats)
            return Standings(totals, (False,) * len(seats), chips.over,
                             chips.leaders if chips.over else ())
        totals = tuple(sum(d.get(s, 0) for d in deals) for s in seats)
        over = len(deals) >= 1
        return Standings(totals, (False,) * len(seats), over, tuple(_lowest(totals, seats)) if over else ())


def _lowest(totals: Sequence[Number], seats: Sequence[int]) -> list[int]:
    best = min(totals[s] for s in seats)
    return [s for s in seats if totals[s] == best]
