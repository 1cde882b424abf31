"""Contract rummy at the table: losers pay for the cards left in hand and the lowest total wins
(or, in Jo, the winner collects them and the highest total wins).

The show is the declarer going out: every group in their zone must be a valid meld, and in a
contract game the deal's contract must be among them (the zone holds the contract melds and
whatever else went down later; any set of groups that meets the contract will do). A wrong
show costs nothing here; the declarer simply plays on (the texts give no penalty for it).
Losing hands are counted as laid out (``count``) where the variant answers that, otherwise by
their best arrangement. The game lasts one deal per contract, or the variant's fixed number,
or (Kalooki 40, North American Kalooki) until all but one player reached the elimination total.

Each game's own data (:class:`~engine.families.contract.variants.TableRules` and
:class:`~engine.families.contract.variants.Scoring`) says which way turns and the deal go, who
plays first, what an empty stock does, who wins and what a one-turn win is worth; this policy
only reads it, so no game is named here.

:class:`PartnershipPenaltyPolicy` is the same game played by two teams of partners (Push): a
team scores as one, see its docstring.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from typing import TYPE_CHECKING, Literal, cast

from engine.cards import Groups, parse_card
from engine.errors import TablekitError
from engine.families.contract import live
from engine.game.claims import book_of, cards_claimed
from engine.game.policy import (
    LOST,
    SITTING_OUT,
    WINNER,
    FamilyPolicy,
    SeatOutcome,
    Standings,
    parse_groups,
)
from engine.game.seats import next_seat, team_of
from engine.game.state import DealState, FamilyDeal, GameState, Number
from engine.ruling import Ruling
from engine.variants.base import JudgeRequest

if TYPE_CHECKING:
    from engine.families.contract.variants import ContractVariant
    from engine.game.setup import Game

#: What an empty stock does to a deal (``TableRules.stock_out``): see :class:`PenaltyPolicy`.
StockOut = Literal["reshuffle", "ends-deal", "void-second"]
STOCK_OUTS: tuple[StockOut, ...] = ("reshuffle", "ends-deal", "void-second")
#: The table menu's item for each (none where the players just shuffle a new stock).
STOCK_OUT_LABELS: dict[StockOut, str] = {
    "reshuffle": "",
    "ends-deal": "the stock ran out",
    "void-second": "the stock ran out a second time",
}


#: Each of the game's own calls in the players' words (a menu item, the call panel).
CALL_WORDS: dict[str, str] = {
    live.CALL_PUSH: "push the upcard on",
    live.CALL_UPCARD: "take the upcard and play first",
    live.CALL_CHIP: "cut exactly: the extra chip",
    live.CALL_GOAL: "lay my goal",
    live.CALL_JOKER: "take the joker just melded",
    live.CALL_EXTEND: "call out the discard: it extends a meld",
    live.CALL_FLOAT: "play my last card and float",
}


def _variant(game: Game) -> ContractVariant:
    # Only contract variants name this policy (ContractVariant.policy).
    return cast("ContractVariant", game.variant)


class PenaltyPolicy(FamilyPolicy):
    """One instance per way an empty stock is handled (the menu item is per game):

    - ``reshuffle``: the discards become a new stock and play goes on; the table has nothing
      to do (Loba, Carioca, South African Kaluki, Telefunken, Farmer's Rummy; and the games
      whose texts say nothing, as players shuffle the discards at a real table);
    - ``ends-deal``: MENU offers "the stock ran out": nobody went out, every hand is read and
      counts (Dummy Rummy; Push, scored by teams);
    - ``void-second``: the players reshuffle the first time; MENU offers "the stock ran out a
      second time", which voids the deal: no hand is read, nothing is scored and the same
      dealer deals the same deal again (the Caribbean Kalooki games, Kalooki 40, North
      American Kalooki).
    """

    family = "penalty"

    def __init__(self, stock_out: StockOut = "reshuffle") -> None:
        self.stock_out = stock_out
        self.stock_out_label = STOCK_OUT_LABELS[stock_out]
        self.stock_out_void = stock_out == "void-second"

    # --- which way round the table ------------------------------------------------------

    def turn_step(self, game: Game) -> int:
        return _variant(game).turn_step()

    def deal_step(self, game: Game) -> int:
        return _variant(game).deal_step()

    def first_player(self, game: Game, dealer: int, alive: Callable[[int], bool]) -> int | None:
        side = _variant(game).table.first_turn
        if side == "next":
            return super().first_player(game, dealer, alive)
        return next_seat(dealer, alive, game.players, 1 if side == "left" else -1)

    def lower_wins(self, game: Game) -> bool:
        return _variant(game).scoring.lower_wins

    def target(self, game: Game) -> tuple[int | None, str]:
        limit = _variant(game).scoring.eliminate_at
        return (limit, f"{limit}: out") if limit is not None else (None, "")

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
        needs = len(getattr(game.variant.contract_for(deal.number), "needs", ()))  # type: ignore[attr-defined]
        laid = sum(1 for g in groups if g)
        if _variant(game).table.new_melds == "contract-only" and 0 < needs < laid:
            return Ruling(False, ruling.points, ruling.groups,
                          f"{laid} melds laid, where {game.variant.name} allows no meld but the "
                          f"contract's {needs} ({words}): the other cards go on melds already down")
        clash = getattr(game.variant, "zone_clash", None)
        why = clash(self._request(game, deal, "meld", groups)) if clash is not None else None
        if why:
            return Ruling(False, ruling.points, ruling.groups, why)
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
        if 0 < needs <= len(groups) and _variant(game).style.split_runs:
            sizes += range(needs - 1, 0, -1)  # a long run among them may be split (Shanghai)
        grown = getattr(game.variant, "met_as_grown", None)  # melds laid earlier may have grown
        for size in sizes:
            for chosen in combinations(groups, size):
                try:
                    request = self._request(game, deal, "contract", chosen)
                    if game.variant.judge(request).valid or (grown is not None and grown(request)):
                        return True
                except TablekitError:
                    continue
        return False

    def deal_label(self, game: Game, number: int) -> str:
        if _variant(game).table.personal_goals:
            label = "each player's own goal"
        else:
            words = self.contract_words(game, number)
            label = f"contract: {words}" if words else ""
        dummy = self.dummy_cards(game, number)
        return f"{label}; {dummy} cards dealt face up to a dummy hand" if dummy else label

    def dummy_cards(self, game: Game, number: int) -> int:
        """Cards dealt face up to a dummy hand this deal (0: none): the house rule
        ``dummy_hand``, where the text offers it, with fewer players than it names. The dummy
        is dealt like a player's hand and takes no part in play: it holds no seat, takes no
        turn, is never read and pays nothing."""
        table = _variant(game).table
        if not (table.dummy_hand and game.option("dummy_hand", False) and game.players < table.dummy_below):
            return 0
        deals = _variant(game).deal_list
        if not deals:
            return 0
        return int(deals[min(number, len(deals)) - 1].cards)

    # --- the game's own live rules (engine.families.contract.live) ------------------------

    def family_deal(self, state: GameState, number: int) -> FamilyDeal | None:
        variant = _variant(state.game)
        if not variant.table.live:
            return None
        carried = state.carried if isinstance(state.carried, live.ContractDeal) else None
        winner = state.history[-1].winner if state.history and state.redeal is None else None
        return live.new_deal(variant, state.game.players, number, carried, state.redeal is not None, winner)

    def stock_only(self, state: GameState, seat: int) -> bool:
        """Whether ``seat`` draws only from the stock now: in a game whose text says so, once
        it has laid its goal this deal (Dummy Rummy)."""
        deal = state.deal
        return (deal is not None and _variant(state.game).table.draw_after_contract == "stock-only"
                and seat in live.of(deal).made)

    def judge_seat_show(self, game: Game, deal: DealState, seat: int, groups: Groups) -> Ruling:
        """Where each player has a goal of their own, the show meets the declarer's."""
        goals = live.of(deal).goals
        if goals:
            return self.judge_show(game, replace(deal, number=goals[seat]), groups)
        return self.judge_show(game, deal, groups)

    def show_floor(self, state: GameState, seat: int) -> tuple[int, str] | None:
        """A contract that goes down with the whole hand in one turn: the judge asks for the
        cards dealt, the table for the hand as it stands, the cards dealt, the one drawn and
        any taken by claims, less the discard where the deal lets the last card go so."""
        deal = state.deal
        if deal is None:
            return None
        variant = _variant(state.game)
        goals = live.of(deal).goals
        number = goals[seat] if goals else deal.number
        try:
            terms = variant.contract_for(number)
        except (TablekitError, AssertionError):
            return None
        if not terms.one_turn or not variant.deal_list:
            return None
        dealt = variant.cards_for(number, state.game.players)
        claimed = cards_claimed(state, seat)
        discard = variant.going_out(number) != "no-discard"
        floor = dealt + 1 + claimed - discard
        parts = [f"{dealt} dealt", "1 drawn"] + ([f"{claimed} taken by claims"] if claimed else [])
        why = (f"deal {number} goes down whole in one turn: at least {floor} cards "
               f"({', '.join(parts)}{', less the discard' if discard else ', no discard'})")
        return floor, why

    def opening_window(self, game: Game, number: int) -> tuple[int, str]:
        if number in _variant(game).table.redraw_deals:
            return live.REDRAW_WINDOW_MS, live.REDRAW_LABEL
        return 0, ""

    def window_closed(self, game: Game, deal: DealState) -> tuple[DealState, str]:
        if deal.number in _variant(game).table.redraw_deals:
            return deal, f"the redraw is over: {game.seats[deal.turn].name} plays first"
        return deal, ""

    def press_call(self, state: GameState, seat: int) -> str:
        deal = state.deal
        if deal is not None and live.upcard_open(_variant(state.game), deal) and deal.status[seat] == "playing":
            return live.CALL_UPCARD
        return ""

    def menu_calls(self, state: GameState) -> tuple[str, ...]:
        """The player in turn's calls from the play menu: a push (Push); laying their goal
        (Dummy Rummy), and floating where the table plays it."""
        deal = state.deal
        if deal is None:
            return ()
        variant = _variant(state.game)
        record = live.of(deal)
        calls: list[str] = []
        if live.can_push(variant, deal):
            calls.append(live.CALL_PUSH)
        if record.goals and deal.turn not in record.made:
            calls.append(live.CALL_GOAL)
        if live.floating_on(variant, state.game.options) and deal.turn not in record.floating:
            calls.append(live.CALL_FLOAT)
        return tuple(calls)

    def panel_calls(self, game: Game) -> tuple[str, ...]:
        """The game's own calls, each where its data has it (none in most games)."""
        table = _variant(game).table
        offered = ((live.CALL_UPCARD, table.upcard_offer), (live.CALL_CHIP, table.cut_chip),
                   (live.CALL_GOAL, table.personal_goals), (live.CALL_JOKER, table.swap.when == "at-once"),
                   (live.CALL_PUSH, table.pushing),
                   (live.CALL_EXTEND, live.floating_on(_variant(game), game.options)),
                   (live.CALL_FLOAT, live.floating_on(_variant(game), game.options)))
        return tuple(call for call, on in offered if on)

    def call_words(self, game: Game, call: str) -> str:
        return CALL_WORDS.get(call, call)

    def turn_ended(self, game: Game, deal: DealState, seat: int, in_time: bool) -> tuple[DealState, str]:
        """A turn ended with its press: its discard may be called out (the floating discard)."""
        if in_time:
            return live.discard_made(_variant(game), deal, seat), ""
        return deal, ""

    def seat_notes(self, state: GameState) -> tuple[str, ...]:
        """Each seat's goal (Dummy Rummy: laid or not) and the cards pushed to it (Push)."""
        deal = state.deal
        n = state.game.players
        if deal is None or not isinstance(deal.family, live.ContractDeal):
            return ("",) * n
        record = deal.family
        notes = []
        for s in range(n):
            parts = []
            if record.goals:
                parts.append(f"goal {record.goals[s]}" + (" laid" if s in record.made else ""))
            if record.pushes and record.pushes[s]:
                parts.append(f"{record.pushes[s]} pushed to")
            if s in record.floating:
                parts.append("floating")
            notes.append(" · ".join(parts))
        return tuple(notes)

    def answer_call(self, game: Game, deal: DealState, seat: int, call: str, cards: Groups,
                    t_ms: int) -> tuple[DealState | None, str]:
        variant = _variant(game)
        names = tuple(s.name for s in game.seats)
        if call == live.CALL_UPCARD:
            return live.take_upcard(variant, deal, seat, names, self.turn_seconds(game) * 1000, t_ms)
        if call == live.CALL_GOAL:
            return live.lay_goal(variant, deal, seat, names[seat], cards, self._goal_met(game, deal, seat, cards))
        if call == live.CALL_JOKER:
            return live.exchange_joker(variant, deal, seat, names, cards, t_ms, self.turn_step(game))
        if call == live.CALL_PUSH:
            return live.push(variant, deal, seat, names, self.turn_step(game))
        if call == live.CALL_EXTEND:
            return live.call_out(variant, deal, seat, names, live.floating_on(variant, game.options))
        if call == live.CALL_FLOAT:
            return live.float_(variant, deal, seat, names, live.floating_on(variant, game.options))
        return super().answer_call(game, deal, seat, call, cards, t_ms)

    def _goal_met(self, game: Game, deal: DealState, seat: int, cards: Groups) -> bool | str:
        goals = live.of(deal).goals
        if not goals or not cards:
            return False
        try:
            ruling = self.judge_seat_show(game, deal, seat, cards)
        except (TablekitError, ValueError) as exc:
            return str(exc)
        return True if ruling.valid else ruling.reason

    def answer_state_call(self, state: GameState, seat: int, call: str, cards: Groups,
                          t_ms: int) -> tuple[GameState | None, str]:
        if call == live.CALL_CHIP:
            return self._cut_chip(state, seat)
        return super().answer_state_call(state, seat, call, cards, t_ms)

    def _cut_chip(self, state: GameState, seat: int) -> tuple[GameState | None, str]:
        """The player who cut earns one more chip (Telefunken's eighth), once a game."""
        game = state.game
        deal = state.deal
        rules = game.claim_rules
        name = game.seats[seat].name
        if deal is None or rules is None or rules.tokens is None or not _variant(game).table.cut_chip:
            return None, f"{game.variant.name} gives no chip at the cut"
        cutter = next_seat(deal.dealer, lambda s: deal.status[s] == "playing", game.players, 1)
        if seat != cutter:
            who = game.seats[cutter].name if cutter is not None else "nobody"
            return None, f"{who} cut this deal: only the cutter may earn the extra chip"
        if deal.turn_count > 1:
            return None, "the extra chip is earned at the cut, before the first turn ends"
        book = book_of(state, rules)
        extra = book.extra or (0,) * game.players
        if extra[seat]:
            return None, f"{name} has had the extra chip already: {rules.tokens + 1} is the most a player holds"
        assert book.tokens is not None
        tokens = book.tokens[:seat] + (book.tokens[seat] + 1,) + book.tokens[seat + 1:]
        extra = extra[:seat] + (1,) + extra[seat + 1:]
        left = tokens[seat]
        text = f"{name} cut exactly: one more chip ({left} {'chip' if left == 1 else 'chips'})"
        return replace(state, claims=replace(book, tokens=tokens, extra=extra)), text

    def count_hand(self, game: Game, deal: DealState, seat: int, groups: Groups) -> tuple[str, Number, Ruling]:
        if seat in live.of(deal).floating and not any(groups):
            # a floating player holds no card when the deal ends without them going out
            return LOST, 0, Ruling(True, 0, (), "floating: no card in hand, nothing to pay")
        modes = type(game.variant).modes
        if "count" in modes and game.option("count", "arranged") == "arranged":
            ruling = game.variant.judge(self._request(game, deal, "count", groups))
        else:
            flat = (tuple(c for g in groups for c in g),)
            ruling = game.variant.judge(self._request(game, deal, "best", flat))
        return LOST, int(ruling.points), ruling

    def deal_scores(self, game: Game, deal: DealState, outcomes: Sequence[SeatOutcome],
                    readings: Mapping[int, Groups]) -> Mapping[int, Number]:
        """The game's :meth:`Scoring.deal_points` of the seats that played.

        A one-turn win (Kalooki 40's Hunt, the Caribbean family's bent table, which doubles
        the others' cards) is the declarer going out on their first turn of the deal:
        everything they melded went down in that turn. (A whole hand melded on a
        later turn looks the same to the camera as one melded over several; the table has no
        way yet to say so, so only the first-turn case is scored.)"""
        playing = [o for o in outcomes if o.outcome != SITTING_OUT]
        winner = next((o.seat for o in playing if o.outcome == WINNER), None)
        counts = {o.seat: (0 if o.outcome == WINNER else o.count) for o in playing}
        one_turn = winner is not None and deal.turns_begun[winner] == 1
        return _variant(game).scoring.deal_points(winner, counts, one_turn)

    def deals_total(self, game: Game) -> int | None:
        variant = game.variant
        contracts = getattr(variant, "contracts", None)
        if isinstance(contracts, Sequence) and contracts:
            return len(contracts)
        if isinstance(variant.deals, int):
            return variant.deals
        return None

    def standings(self, game: Game, deals: Sequence[Mapping[int, Number]],
                  deal_winners: Sequence[int | None] = ()) -> Standings:
        """Totals after ``deals``. With an elimination total (Kalooki 40: 150) a player whose
        total reaches it is out at once and the game ends when one player is left, who wins;
        otherwise it ends after the last deal and the lowest (Jo: highest) total wins."""
        scoring = _variant(game).scoring
        seats = range(game.players)
        running: list[list[Number]] = [[] for _ in seats]
        for d in deals:
            for s in seats:
                running[s].append((running[s][-1] if running[s] else 0) + d.get(s, 0))
        totals = tuple(r[-1] if r else 0 for r in running)
        eliminated = tuple(scoring.eliminated(running[s]) for s in seats)
        alive = [s for s in seats if not eliminated[s]]
        if scoring.eliminate_at is not None:
            over = bool(deals) and len(alive) <= 1
        else:
            total = self.deals_total(game)
            over = total is not None and len(deals) >= total
        winners: tuple[int, ...] = ()
        if over:
            if scoring.eliminate_at is not None and alive:
                winners = tuple(alive)
            else:
                pool = alive or list(seats)
                best = (min if scoring.lower_wins else max)(totals[s] for s in pool)
                winners = tuple(s for s in pool if totals[s] == best)
        return Standings(totals, eliminated, over, winners)


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

    def __init__(self, stock_out: StockOut = "ends-deal") -> None:
        super().__init__(stock_out)

    def deal_scores(self, game: Game, deal: DealState, outcomes: Sequence[SeatOutcome],
                    readings: Mapping[int, Groups]) -> Mapping[int, Number]:
        playing = [o for o in outcomes if o.outcome != SITTING_OUT]
        out_team = next((team_of(o.seat) for o in playing if o.outcome == WINNER), None)
        owed: dict[int, Number] = {}
        for o in playing:
            team = team_of(o.seat)
            owed[team] = owed.get(team, 0) + (0 if team == out_team else o.count)
        return {o.seat: owed[team_of(o.seat)] for o in playing}
