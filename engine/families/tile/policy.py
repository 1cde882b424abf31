"""Tile rummy at the table: a 45-second doubles window before the first turn, one deal, a close,
and every seat scored on what it laid against what it still holds; the highest score wins.

Table rulings where the texts are silent:
- the tile turned up at the deal is the deal's cut (``DealStarted.wild``), so its twin counts
  as the ace at the end;
- at the close each seat's zone is read: groups that are melds are what the seat laid, and
  every other tile is still on its board (counted against it at its end value); the closer's
  zone is all laid, and the closer earns the closing bonus;
- a close that is not valid lets the closer play on (the text sets no penalty).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from engine.cards import Groups
from engine.families.tile.game_rules import CLOSING_BONUS, DOUBLES_WINDOW_SECONDS
from engine.families.tile.rules import end_value
from engine.game.policy import (
    LOST,
    SITTING_OUT,
    WINNER,
    FamilyPolicy,
    SeatOutcome,
    Standings,
    parse_groups,
)
from engine.game.state import DealState, Number
from engine.ruling import Ruling
from engine.tiles import Tile, parse_tile
from engine.variants.base import JudgeRequest

if TYPE_CHECKING:
    from engine.game.setup import Game


class TilePolicy(FamilyPolicy):
    family = "tile"
    uses_wild = True
    opening_window_ms = DOUBLES_WINDOW_SECONDS * 1000
    opening_window_label = "doubles window"
    stock_out_label = "the pool ran out"

    def lower_wins(self, game: Game) -> bool:
        return False

    def _request(self, game: Game, deal: DealState, mode: str, groups: Groups) -> JudgeRequest:
        options = game.judge_options()
        if deal.wild:
            options["ace"] = deal.wild
        return JudgeRequest(mode, parse_groups(game, groups), players=game.players, options=options)

    def judge_show(self, game: Game, deal: DealState, groups: Groups) -> Ruling:
        return game.variant.judge(self._request(game, deal, "declare", groups))

    def _laid_and_left(self, game: Game, deal: DealState, groups: Groups) -> tuple[int, int, Ruling]:
        ruling = game.variant.judge(self._request(game, deal, "meld", groups))
        ace = parse_tile(deal.wild) if deal.wild else None
        laid = sum(int(g.points) for g in ruling.groups if g.valid)
        left = sum(end_value(t, ace) for g in ruling.groups if not g.valid
                   for t in g.cards if isinstance(t, Tile))
        return laid, left, ruling

    def count_hand(self, game: Game, deal: DealState, seat: int, groups: Groups) -> tuple[str, Number, Ruling]:
        _, left, ruling = self._laid_and_left(game, deal, groups)
        return LOST, left, ruling

    def deal_scores(self, game: Game, deal: DealState, outcomes: Sequence[SeatOutcome],
                    readings: Mapping[int, Groups]) -> Mapping[int, Number]:
        out: dict[int, Number] = {}
        for o in outcomes:
            if o.outcome == SITTING_OUT:
                continue
            groups = readings.get(o.seat, ())
            laid, left, _ = self._laid_and_left(game, deal, groups) if groups else (0, 0, None)
            bonus = 0
            if o.outcome == WINNER:  # the closer's one loose tile was thrown to close
                bonus, left = CLOSING_BONUS, 0
            out[o.seat] = laid + bonus - left
        return out

    def deals_total(self, game: Game) -> int | None:
        return 1

    def standings(self, game: Game, deals: Sequence[Mapping[int, Number]],
                  deal_winners: Sequence[int | None] = ()) -> Standings:
        seats = range(game.players)
        totals = tuple(sum((d.get(s, 0) for d in deals), 0) for s in seats)
        over = len(deals) >= 1
        winners = tuple(s for s in seats if totals[s] == max(totals)) if over else ()
        return Standings(totals, (False,) * game.players, over, winners)
