"""Open Rummy at the table: two teams, a show ends the deal, every hand is read, first to the target.

Table rulings where the texts are silent:
- at a show the declarer gathers the team's melds into their own zone, so the show is judged
  on that zone alone;
- after a show (valid or wrong) every other seat's zone is read. Where the camera has watched
  the table (turn checks), a losing seat's groups count for its team's table only when they
  are melds it had laid on the table (found again, perhaps grown, among the melds the last
  accepted reading saw in front of it); every other card in the zone, in a meld or not, is a
  card left in hand and scores for the other team (the text: each team scores "the unplayed
  cards in their opponents' hands"). Without that table (turn checks off, or the camera never
  read the table this deal) the zone is all there is: its melds count as table, the rest as
  hand. The declarer's zone (the team's melds gathered, judged by the show) counts as table;
- a suited group earns its bonus only while it lies as it was laid: one the table saw grow
  (the watched table marks it) earns none, nor does one read at the show with more cards than
  the table last saw; one first seen at the show was laid in the last turn, whole;
- a wrong show ends the deal: the showing team scores nothing, the other team as usual;
- every turn ended with a press is checked against the camera's reading of the whole table
  (the judge's turn check), when the camera can read it.
Scores are the team's and shown on both partners' seats; they only grow.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, cast

from engine.cards import Card, Groups
from engine.families.open_rummy.melds import classify_open, is_joker
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
from engine.table import TableMeld, TableState, TurnVerdict
from engine.variants.base import JudgeRequest

if TYPE_CHECKING:
    from engine.families.open_rummy.variants import OpenRummyVariant
    from engine.game.setup import Game

TEAMS = 2


def _variant(game: Game) -> OpenRummyVariant:
    # Only Open Rummy variants name this policy (OpenRummyVariant.policy).
    return cast("OpenRummyVariant", game.variant)


#: A meld on a team's table at the end of a deal: its cards and whether it lies as laid.
TableCards = tuple[tuple[Card, ...], bool]


def watched_melds(deal: DealState) -> dict[int, list[TableMeld]] | None:
    """The melds in front of each seat as the camera's last accepted reading of the table saw
    them (turn checks), or None when the deal's table was never read."""
    watch = deal.watch
    if watch is None or watch.table is None:
        return None
    return {seat: list(melds) for seat, melds in watch.table.melds.items()}


def _take_laid(cards: Sequence[Card], pools: Sequence[list[TableMeld]], exact: bool) -> TableMeld | None:
    """The meld on the table that ``cards`` are (``exact``), or else grew from, taken out of
    ``pools`` (searched in order): a meld grew from one whose natural cards all lie in
    ``cards`` (melds only grow, and a replaced joker leaves its natural card behind)."""
    have = Counter(cards)
    for pool in pools:
        for i, meld in enumerate(pool):
            natural = Counter(c for c in meld.cards if not is_joker(c))
            if (Counter(meld.cards) == have) if exact else (natural and not natural - have):
                return pool.pop(i)
    return None


def split_seen_zone(game: Game, groups: Groups, pools: Sequence[list[TableMeld]] | None,
                    on_table: bool) -> tuple[list[TableCards], list[Card]]:
    """A zone read at the end of a deal as (table melds, each with whether it lies as laid;
    cards left in hand).

    ``pools``: the melds the watched table saw that this zone may hold (taken out as they are
    found), None when the table was never watched. ``on_table``: the zone is the declarer's,
    all table (the show judged it); else only melds found in ``pools`` are table and every
    other card is in hand."""
    return split_seen_zones(game, [(groups, pools, on_table)])[0]


Zone = tuple[Groups, Sequence[list[TableMeld]] | None, bool]


def split_seen_zones(game: Game, zones: Sequence[Zone]) -> list[tuple[list[TableCards], list[Card]]]:
    """:func:`split_seen_zone` of each zone (groups, pools, on_table), in order, matched
    together: every group of every zone that lies as the table saw it takes its meld first,
    and only then do the grown ones take what is left (a longer meld in one zone must not
    take a seen meld that lies whole in another, or beside it)."""
    parsed: list[tuple[list[tuple[Card, ...]], list[Card]]] = []
    for groups, _, _ in zones:
        valid: list[tuple[Card, ...]] = []
        loose: list[Card] = []
        for group in parse_groups(game, groups):
            cards = tuple(c for c in group if isinstance(c, Card))
            if classify_open(cards).kind == "invalid":
                loose.extend(cards)
            else:
                valid.append(cards)
        parsed.append((valid, loose))
    laid: list[list[TableMeld | None]] = [[None] * len(valid) for valid, _ in parsed]
    for exact in (True, False):
        for z, (_, pools, _) in enumerate(zones):
            for i, cards in enumerate(parsed[z][0]):
                if pools is not None and laid[z][i] is None:
                    laid[z][i] = _take_laid(cards, pools, exact)
    out: list[tuple[list[TableCards], list[Card]]] = []
    for z, (_, pools, on_table) in enumerate(zones):
        valid, loose = parsed[z]
        melds: list[TableCards] = []
        for cards, seen in zip(valid, laid[z], strict=True):
            if pools is not None and seen is None and not on_table:
                loose.extend(cards)  # melded in the hand, never laid on the table
                continue
            whole = seen is None or (seen.laid_whole and Counter(seen.cards) == Counter(cards))
            melds.append((cards, whole))
        out.append((melds, loose))
    return out


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

    def dealt_table_problems(self, game: Game, table: TableState) -> tuple[str, ...]:
        """The deal leaves no melds, one card turned up and the game's stock (39 with four
        decks; not checked when the camera cannot count it)."""
        v = _variant(game)
        problems = []
        melded = sum(len(m) for m in table.melds.values())
        if melded:
            problems.append(f"{melded} meld(s) already on the table, where none lie after the deal")
        if len(table.discard) != 1:
            problems.append(f"{len(table.discard)} card(s) face up, where the deal turns up one")
        if table.stock is not None and table.stock != v.stock:
            problems.append(f"the stock holds {table.stock} cards, where the deal leaves {v.stock}")
        return tuple(problems)

    def count_hand(self, game: Game, deal: DealState, seat: int, groups: Groups) -> tuple[str, Number, Ruling]:
        ruling = game.variant.judge(self._request(game, "meld", groups))
        seen = watched_melds(deal)
        pools = None if seen is None else [seen.get(seat, [])]
        _, loose = split_seen_zone(game, groups, pools, on_table=False)
        return LOST, cards_value(loose), ruling

    def deal_scores(self, game: Game, deal: DealState, outcomes: Sequence[SeatOutcome],
                    readings: Mapping[int, Groups]) -> Mapping[int, Number]:
        melds: list[list[TableCards]] = [[] for _ in range(TEAMS)]
        hands: list[list[Card]] = [[] for _ in range(TEAMS)]
        ender = next((o.seat for o in outcomes if o.outcome in (WINNER, WRONG_SHOW)), None)
        ending: Ending = ("show" if any(o.outcome == WINNER for o in outcomes)
                          else "wrong-show" if ender is not None else "ground-show")
        seen = watched_melds(deal)
        # the declarer's zone first: it holds the team's melds, gathered from both partners
        order = sorted(readings, key=lambda s: s != ender)
        zones: list[Zone] = []
        for seat in order:
            pools = None
            if seen is not None:
                mates = [seat] + ([s for s in range(game.players) if team_of(s) == team_of(seat) and s != seat]
                                  if seat == ender else [])  # its own melds before its partner's
                pools = [seen.setdefault(s, []) for s in mates]
            zones.append((readings[seat], pools, seat == ender))
        for seat, (m, loose) in zip(order, split_seen_zones(game, zones), strict=True):
            melds[team_of(seat)] += m
            hands[team_of(seat)] += loose
        teams = [TeamTable(tuple(melds[t]), tuple(hands[t])) for t in range(TEAMS)]
        v = _variant(game)
        sets_needed, pure_needed = v.show_needs(v.decks)
        points = score_deal(teams, ending, None if ender is None else team_of(ender),
                            sets_needed, pure_needed)
        return {o.seat: _whole(points[team_of(o.seat)]) for o in outcomes if o.outcome != SITTING_OUT}

    def standings(self, game: Game, deals: Sequence[Mapping[int, Number]],
                  deal_winners: Sequence[int | None] = ()) -> Standings:
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
