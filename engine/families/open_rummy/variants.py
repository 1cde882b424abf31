"""Open Rummy (Marwari partnership rummy): the six table variants and their judge answers.

Every variant is data: players, decks (each deck of 52 cards plus three printed jokers),
cards dealt, the stock left after the deal and the turned-up card, the complete sets a show
needs and how many of them pure, and the target score. Melds are read by
:mod:`engine.families.open_rummy.melds`, scored by :mod:`engine.families.open_rummy.scoring`; turns are checked
by :mod:`engine.families.open_rummy.turn_checks` on :mod:`engine.table` states.

Judge answers:

- ``meld``: each group is judged as laid whole in one turn; points are the cards' values plus
  every bonus (kinds: ``pure-sequence``, ``sequence``, ``complete-set`` — pure or mixed, the
  reason and the bonus tell which — ``suited-group``, ``set`` for a value group, ``invalid``).
- ``count``: the cards left in a hand score for the opponents whatever their arrangement, so
  ``points`` is the value of every card given; ``valid`` is always true.
- ``contract``: the game has no first-meld minimum, so the requirement is met exactly when
  every group is a valid meld; ``points`` is their melding value.
- ``declare``: the groups are the declaring team's table; valid when every group is a meld and
  the team has the complete sets the variant needs. The game has no penalty for the declarer,
  so ``points`` is 0; ``show_points`` in the answer is what the table earns with the 20 show
  points (0 on a wrong show, when the team scores nothing).
- ``turn``: was the change between two table states a legal turn by ``--seat``?

Option (``--option first_turn=true|false``): say whether the turn is the first of the deal, for
the first-turn joker exception; by default a lone joker on the pile marks the first turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar

from engine.cards import Card, full_deck
from engine.errors import TableStateError
from engine.families.open_rummy.melds import classify_open
from engine.families.open_rummy.policy import OpenRummyPolicy
from engine.families.open_rummy.scoring import SHOW_POINTS, cards_value, check_show, score_meld
from engine.families.open_rummy.turn_checks import TurnRules, check_turn
from engine.options import SWITCH, OptionKind
from engine.ruling import GroupRuling, Ruling, plain_number
from engine.table import TableState
from engine.variants.base import Item, JudgeRequest, Variant

JOKERS_PER_DECK = 3
#: How every Open Rummy table is played out: two teams, turns checked, first to the target.
OPEN_RUMMY_POLICY = OpenRummyPolicy()


def public_kind(kind: str) -> str:
    """The judge's kind names: a pure complete set is a ``complete-set`` (the spec's name)."""
    return "complete-set" if kind == "pure-complete-set" else kind


@lru_cache(maxsize=8)
def _deck_counts(decks: int) -> Counter[Item]:
    """How many of each card ``decks`` decks hold (each with three printed jokers)."""
    return Counter[Item](full_deck(decks, JOKERS_PER_DECK * decks))


def _cards(items: Sequence[Item]) -> list[Card]:
    out = []
    for i in items:
        if not isinstance(i, Card):
            raise TableStateError(f"{i} is a tile, not a card")
        out.append(i)
    return out


@dataclass(frozen=True)
class OpenRummyVariant(Variant):
    """One Open Rummy table: the numbers that change between the six forms of the game."""

    stock: int = 39
    sets_for_show: int = 5
    pure_for_show: int = 1
    target: int = 1500
    family: ClassVar[str] = "open-rummy"
    #: ``turn_checks=false``: turns are not checked against the camera's reading of the table;
    #: ``first_turn``: the judge's, for one turn (is it the deal's first?), never a table's
    house_options: ClassVar[Mapping[str, OptionKind]] = {"turn_checks": SWITCH, "first_turn": SWITCH}
    modes: ClassVar[tuple[str, ...]] = ("declare", "count", "contract", "meld", "turn")

    def table_options(self) -> Mapping[str, OptionKind]:
        """A table's house rules: ``first_turn`` is the judge's (a table knows its first turn)."""
        return {k: v for k, v in self.house_options.items() if k != "first_turn"}

    @property
    def policy(self) -> OpenRummyPolicy:
        return OPEN_RUMMY_POLICY

    @property
    def partnerships(self) -> bool:
        return True

    def jokers_for(self, request: JudgeRequest) -> int:
        return JOKERS_PER_DECK * self.decks_for(request)

    def copies_allowed(self, request: JudgeRequest) -> Counter[Item]:
        return _deck_counts(self.decks_for(request))

    def players_for(self, request: JudgeRequest) -> int:
        players = request.players or self.min_players
        if players < 4 or players % 2:
            raise TableStateError(f"Open Rummy is played by two equal teams of 2 or 3: {players} players cannot sit")
        return players

    # --- modes -------------------------------------------------------------------------

    def _groups(self, request: JudgeRequest) -> tuple[GroupRuling, ...]:
        out = []
        for g in request.groups:
            cards = _cards(g)
            s = score_meld(cards)
            out.append(GroupRuling(tuple(cards), public_kind(s.meld.kind), s.points, s.bonus, s.meld.reason))
        return tuple(out)

    def judge_meld(self, request: JudgeRequest) -> Ruling:
        groups = self._groups(request)
        bad = [g for g in groups if not g.valid]
        points = sum((Fraction(g.points) + Fraction(g.bonus) for g in groups), Fraction(0))
        if bad:
            reason = f"{len(bad)} group(s) are not melds: " + "; ".join(
                f"{' '.join(map(str, g.cards))}: {g.reason}" for g in bad)
        else:
            reason = "every group is a valid meld"
        return Ruling(not bad, points, groups, reason)

    def judge_count(self, request: JudgeRequest) -> Ruling:
        groups = tuple(GroupRuling(tuple(g), public_kind(classify_open(_cards(g)).kind), cards_value(_cards(g)), 0)
                       for g in request.groups)
        total = cards_value(_cards(request.items))
        return Ruling(True, total, groups,
                      "every card left in a hand scores for the opponents, melded or not")

    def judge_contract(self, request: JudgeRequest) -> Ruling:
        ruling = self.judge_meld(request)
        if ruling.valid:
            reason = "Open Rummy has no first-meld minimum: any valid melds may be laid down"
        else:
            reason = "Open Rummy has no first-meld minimum, but " + ruling.reason
        return Ruling(ruling.valid, ruling.points, ruling.groups, reason)

    def judge_declare(self, request: JudgeRequest) -> Ruling:
        groups = self._groups(request)
        decks = self.decks_for(request)
        sets_needed, pure_needed = self.show_needs(decks)
        show = check_show([_cards(g) for g in request.groups], sets_needed, pure_needed)
        problems = [f"{' '.join(map(str, g.cards))} is not a meld: {g.reason}" for g in groups if not g.valid]
        if not show.met:
            problems.insert(0, show.reason)
        if problems:
            return Ruling(False, 0, groups, "wrong show: the team scores nothing this deal; " + "; ".join(problems),
                          extra={"show_points": 0})
        points = sum((Fraction(g.points) + Fraction(g.bonus) for g in groups), Fraction(SHOW_POINTS))
        return Ruling(True, 0, groups,
                      f"valid show: {show.reason}; the team's table with {SHOW_POINTS} show points scores "
                      f"{plain_number(points)}", extra={"show_points": plain_number(points)})

    def _check_stock(self, state: TableState, request: JudgeRequest, name: str) -> None:
        """A stock count the decks cannot hold beside the visible cards is an impossible state."""
        if state.stock is None:
            return
        decks = self.decks_for(request)
        total = (52 + JOKERS_PER_DECK) * decks
        seen = state.card_count()
        if state.stock + seen > total:
            raise TableStateError(f"{name}: a stock of {state.stock} beside {seen} cards on the table is more "
                                  f"than the {total} cards of {decks} decks")

    def show_needs(self, decks: int) -> tuple[int, int]:
        if decks == self.decks:
            return self.sets_for_show, self.pure_for_show
        return (5, 1) if decks >= 4 else (3, 0) if decks == 3 else (2, 0)

    def judge_turn(self, request: JudgeRequest) -> Ruling:
        if request.seat is None:
            raise TableStateError("a turn check needs the seat whose turn it was (--seat)")
        if request.before is None or request.after is None:
            raise TableStateError("a turn check needs the table before and after the turn")
        players = self.players_for(request)
        decks = self.decks_for(request)
        before = TableState.from_json(request.before, players, "before")
        after = TableState.from_json(request.after, players, "after")
        for name, state in (("before", before), ("after", after)):
            state.check_copies(lambda c: JOKERS_PER_DECK * decks if c.is_joker else decks, name)
            self._check_stock(state, request, name)
        if request.seat >= players:
            raise TableStateError(f"seat {request.seat} does not exist: a {players}-player game has seats 0-{players - 1}")
        first_turn: Any = request.options.get("first_turn")
        rules = TurnRules(players=players, first_turn=first_turn if isinstance(first_turn, bool) else None)
        verdict = check_turn(before, after, request.seat, rules)
        return Ruling(verdict.valid, 0, (), verdict.reason, verdict.violations,
                      {"turn": verdict.summary()})


def _variant(**kw: Any) -> OpenRummyVariant:
    decks = kw["decks"]
    base: dict[str, Any] = dict(jokers=JOKERS_PER_DECK * decks, deals="until a team reaches the target")
    base.update(kw)
    return OpenRummyVariant(**base)


OPEN_RUMMY = _variant(
    id="open-rummy", name="Open Rummy (4 players, 4 decks)", min_players=4, max_players=4, decks=4,
    cards_dealt=45, stock=39, sets_for_show=5, pure_for_show=1, target=1500,
    summary="partnership rummy, 45 cards each; a show needs 5 complete sets, one pure; 1500 wins")
OPEN_RUMMY_3DECK = _variant(
    id="open-rummy-3deck", name="Open Rummy, 3 decks", min_players=4, max_players=4, decks=3,
    cards_dealt=31, stock=40, sets_for_show=3, pure_for_show=0, target=1000,
    summary="4 players, 3 decks, 31 cards each; a show needs 3 complete sets; 1000 wins")
OPEN_RUMMY_3DECK_SLOW = _variant(
    id="open-rummy-3deck-slow", name="Open Rummy, 3 decks (slower game)", min_players=4, max_players=4,
    decks=3, cards_dealt=27, stock=56, sets_for_show=3, pure_for_show=0, target=1000,
    summary="4 players, 3 decks, 27 cards each; a show needs 3 complete sets; 1000 wins")
OPEN_RUMMY_6P = _variant(
    id="open-rummy-6p", name="Open Rummy, 6 players", min_players=6, max_players=6, decks=4,
    cards_dealt=31, stock=33, sets_for_show=5, pure_for_show=1, target=1500,
    summary="6 players in two teams, 4 decks, 31 cards each; 5 complete sets, one pure; 1500 wins")
OPEN_RUMMY_6P_3DECK = _variant(
    id="open-rummy-6p-3deck", name="Open Rummy, 6 players, 3 decks", min_players=6, max_players=6,
    decks=3, cards_dealt=21, stock=38, sets_for_show=3, pure_for_show=0, target=1000,
    summary="6 players in two teams, 3 decks, 21 cards each; 3 complete sets; 1000 wins")
OPEN_RUMMY_2DECK = _variant(
    id="open-rummy-2deck", name="Open Rummy, 2 decks", min_players=4, max_players=4, decks=2,
    cards_dealt=21, stock=25, sets_for_show=2, pure_for_show=0, target=500,
    summary="4 players, 2 decks, 21 cards each; a show needs 2 complete sets; 500 wins")

VARIANTS = (OPEN_RUMMY, OPEN_RUMMY_3DECK, OPEN_RUMMY_3DECK_SLOW, OPEN_RUMMY_6P,
            OPEN_RUMMY_6P_3DECK, OPEN_RUMMY_2DECK)
