"""Tile rummy at the table: a 45-second doubles window before the first turn, one deal, a close,
and every seat scored on what it laid against what it still holds; the closer wins (with no
close, the highest score).

Table rulings where the texts are silent:
- the tile turned up at the deal is the deal's cut (``DealStarted.wild``), so its twin counts
  as the ace at the end;
- at the close each seat's zone is read. Where the table calls its melds, the record says
  what each seat laid (tiles added to another's meld are the adder's), and every tile of a
  zone that is not a meld on the table is on that seat's board (counted against it at its end
  value, valid groups kept there included); where it calls none, the zone's melds are what the
  seat laid and its other tiles its board. The closer's zone is all laid, and the closer earns
  the closing bonus;
- where the table calls its melds (:mod:`engine.families.tile.live`), a seat whose first
  meld never counted (none called, or it lapsed when time ran out) laid nothing: every tile
  in its zone, valid groups too, was kept on the board and counts against it; a table that
  calls no melds at all leaves the zones read as the only word on what was laid;
- a close that is not valid lets the closer play on (the text sets no penalty); a seat that
  has not melded closes only with a first meld's worth (45 points, or the house rule
  ``first_meld``, with a run) among what it
  lays (where no melds are called, the record knows of none, so every closer's zone is held
  to it: its earlier melds lie in it too);
- what the players call during the game (doubles, the ace, melds) and the pool's one rebuild
  are refereed by :mod:`engine.families.tile.live`; the seat that showed the ace earns the
  ace bonus, and the ace's twin left on a board counts 50 only against that seat.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.cards import Groups
from engine.families.tile import live
from engine.families.tile.game_rules import ACE_BONUS, CLOSING_BONUS, DOUBLES_WINDOW_SECONDS
from engine.families.tile.rules import FIRST_MELD_POINTS, end_value
from engine.game.policy import (
    LOST,
    SITTING_OUT,
    WINNER,
    FamilyPolicy,
    SeatOutcome,
    Standings,
    parse_groups,
)
from engine.game.state import DealState, FamilyDeal, GameState, Number
from engine.ruling import Ruling
from engine.tiles import Tile, parse_tile
from engine.variants.base import JudgeRequest

if TYPE_CHECKING:
    from engine.game.setup import Game


#: Why no close is taken in the game's first turn (the text: it opens with one tile thrown).
OPENING_CLOSE = "the first player opens the game by throwing one tile: nobody closes in that turn"


class TilePolicy(FamilyPolicy):
    family = "tile"
    uses_wild = True
    opening_window_ms = DOUBLES_WINDOW_SECONDS * 1000
    opening_window_label = "doubles window"
    stock_out_label = "the pool ran out"
    window_press_call = live.CALL_ACE

    def panel_calls(self, game: Game) -> tuple[str, ...]:
        return live.CALLS

    def family_deal(self, state: GameState, number: int) -> FamilyDeal | None:
        """The game's record starts with the first meld's threshold (the house rule
        ``first_meld``, else the text's 45)."""
        threshold = state.game.option("first_meld", FIRST_MELD_POINTS)
        return live.TileDeal(first_meld=int(threshold)) if isinstance(threshold, int) else None

    def lower_wins(self, game: Game) -> bool:
        return False

    def _request(self, game: Game, deal: DealState, mode: str, groups: Groups) -> JudgeRequest:
        options = game.judge_options()
        if deal.wild:
            options["ace"] = deal.wild
        return JudgeRequest(mode, parse_groups(game, groups), players=game.players, options=options)

    def judge_show(self, game: Game, deal: DealState, groups: Groups) -> Ruling:
        return game.variant.judge(self._request(game, deal, "declare", groups))

    def judge_seat_show(self, game: Game, deal: DealState, seat: int, groups: Groups) -> Ruling:
        """A close by a seat that has not melded is also its first meld: at least 45 points
        with a run among what it lays (the text's rule for the first put-down)."""
        ruling = self.judge_show(game, deal, groups)
        if not ruling.valid:
            return ruling
        problem = (OPENING_CLOSE if deal.turn_count <= 1 else  # the opening throw lays nothing
                   live.closing_first_meld(live.of(deal), seat, game.seats[seat].name, groups))
        if not problem:
            return ruling
        return replace(ruling, valid=False, reason=f"not a valid close: {problem}",
                       violations=(*ruling.violations, problem))

    def _laid_and_left(self, game: Game, deal: DealState, groups: Groups, ace_dealt: bool = False
                       ) -> tuple[int, int, Ruling]:
        ruling = game.variant.judge(self._request(game, deal, "meld", groups))
        ace = parse_tile(deal.wild) if deal.wild else None
        laid = sum(int(g.points) for g in ruling.groups if g.valid)
        left = sum(end_value(t, ace, ace_dealt) for g in ruling.groups if not g.valid
                   for t in g.cards if isinstance(t, Tile))
        return laid, left, ruling

    def _scored(self, game: Game, deal: DealState, seat: int, groups: Groups, closed: bool
                ) -> tuple[int, int, Ruling]:
        """(laid, left on the board, ruling) for ``seat``'s zone at the end of the game.

        Where the table calls its melds, a seat whose first meld never counted (none laid,
        or it lapsed when time ran out) has laid nothing: its valid groups were kept on the
        board and count against it like every other tile; a seat that melded laid what the
        record says, and the rest of its zone (its melds on the table set aside) was on its
        board, counted against it; the closer laid that rest in its closing turn. A table
        that calls no melds leaves the zones read as the only word.
        """
        record = live.of(deal)
        dealt = record.ace_shown_by == seat
        laid, left, ruling = self._laid_and_left(game, deal, groups, dealt)
        if not record.melds_called:
            return laid, left, ruling
        ace = parse_tile(deal.wild) if deal.wild else None
        if not closed and seat not in record.melded:
            every = sum(end_value(t, ace, dealt) for g in ruling.groups for t in g.cards if isinstance(t, Tile))
            return 0, every, ruling
        # The record says what the seat laid (tiles it added to others' melds too, and not
        # those others added to its own). Its zone holds melds on the table (its own, and a
        # piece another seat broke off one of its runs, which stays where the run lay) and
        # what was on its board: for the closer, laid at the close (the zone's put-down value
        # less that of the table's melds in it, which a break in the closing turn leaves
        # right); for the others, counted against them, valid groups kept there too.
        zone = Counter(str(t) for g in ruling.groups for t in g.cards)
        melds = [(owner, Counter(tiles), tiles) for owner, tiles in record.table]
        in_zone: list[tuple[str, ...]] = []
        for g in ruling.groups:  # a table meld, whoever's, lying whole as one of its groups
            tiles = Counter(str(t) for t in g.cards)
            hit = next((m for m in melds if m[1] == tiles), None)
            if hit is not None:
                melds.remove(hit)
                in_zone.append(hit[2])
        rest = zone - Counter(t for tiles in in_zone for t in tiles)
        for owner, tiles, cards in melds:  # its own melds, grown in the zone since
            if owner == seat and not tiles - rest:
                rest -= tiles
                in_zone.append(cards)
        if closed:
            table_value = self._laid_and_left(game, deal, tuple(in_zone), dealt)[0] if in_zone else 0
            return record.points_laid(seat) + laid - table_value, 0, ruling
        left_on_board = sum(end_value(parse_tile(t), ace, dealt) for t in rest.elements())
        return record.points_laid(seat), left_on_board, ruling

    def count_hand(self, game: Game, deal: DealState, seat: int, groups: Groups) -> tuple[str, Number, Ruling]:
        _, left, ruling = self._scored(game, deal, seat, groups, closed=False)
        return LOST, left, ruling

    def deal_scores(self, game: Game, deal: DealState, outcomes: Sequence[SeatOutcome],
                    readings: Mapping[int, Groups]) -> Mapping[int, Number]:
        out: dict[int, Number] = {}
        shown_by = live.of(deal).ace_shown_by
        for o in outcomes:
            if o.outcome == SITTING_OUT:
                continue
            groups = readings.get(o.seat, ())
            dealt = shown_by == o.seat
            closed = o.outcome == WINNER
            laid, left, _ = self._scored(game, deal, o.seat, groups, closed) if groups else (0, 0, None)
            bonus = ACE_BONUS if dealt else 0
            if o.outcome == WINNER:  # the closer's one loose tile was thrown to close
                bonus, left = bonus + CLOSING_BONUS, 0
            out[o.seat] = laid + bonus - left
        return out

    # --- what the players call during the game (engine.families.tile.live) ----------------

    def answer_call(self, game: Game, deal: DealState, seat: int, call: str, cards: Groups,
                    t_ms: int) -> tuple[DealState | None, str]:
        record = live.of(deal)
        names = tuple(s.name for s in game.seats)
        if call == live.CALL_DOUBLE:
            new, text = live.declare_double(record, deal, seat, names, cards, self.opening_window_ms, t_ms)
        elif call == live.CALL_ACE:
            new, text = live.show_ace(record, deal, seat, names, cards, t_ms)
        elif call == live.CALL_MELD:
            new, text = live.lay(record, deal, seat, names[seat], cards, t_ms)
        elif call == live.CALL_TAKE:
            new, text = live.take(record, deal, seat, names[seat], cards, t_ms)
        elif call == live.CALL_ADD:
            new, text = live.add(record, deal, seat, names, cards, t_ms)
        elif call == live.CALL_BREAK:
            new, text = live.break_run(record, deal, seat, names, cards, t_ms)
        else:
            return None, (f"tile rummy has no call {call[:20]!r}: a double, the ace, a meld, the last "
                          "thrown tile taken, tiles added or a run broken")
        return (None if new is None else replace(deal, family=new)), text

    def window_closed(self, game: Game, deal: DealState) -> tuple[DealState, str]:
        record, text = live.close_window(live.of(deal), tuple(s.name for s in game.seats))
        return replace(deal, family=record), text

    def turn_ended(self, game: Game, deal: DealState, seat: int, in_time: bool) -> tuple[DealState, str]:
        record = live.of(deal)
        if record.laying_seat is None:
            return deal, ""
        record, text = live.turn_ended(record, seat, game.seats[seat].name, in_time)
        return replace(deal, family=record), text

    def stock_out_goes_on(self, game: Game, deal: DealState) -> tuple[DealState, str] | None:
        rebuilt = live.pool_out(live.of(deal), deal.turn_count)
        if rebuilt is None:
            return None
        record, text = rebuilt
        return replace(deal, family=record), text

    def deals_total(self, game: Game) -> int | None:
        return 1

    def standings(self, game: Game, deals: Sequence[Mapping[int, Number]],
                  deal_winners: Sequence[int | None] = ()) -> Standings:
        seats = range(game.players)
        totals = tuple(sum((d.get(s, 0) for d in deals), 0) for s in seats)
        over = len(deals) >= 1
        closer = deal_winners[-1] if over and len(deal_winners) == len(deals) else None
        if closer is not None:  # the text: who gets rid of every tile is the winner
            winners: tuple[int, ...] = (closer,)
        else:  # the pool ran out: places by score
            winners = tuple(s for s in seats if totals[s] == max(totals)) if over else ()
        return Standings(totals, (False,) * game.players, over, winners)
