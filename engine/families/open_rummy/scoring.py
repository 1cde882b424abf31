"""Open Rummy scoring: card values, meld bonuses, shows, partnership totals and the target.

Card values (exact fractions): 3–6 half a point, 7–K one, A one and a half, a two 2, a printed
joker 4. Bonuses on top of the cards: complete set 15, pure complete set 20, suited group of
three Threes 25, of four Threes 75, of three Aces 50, of four Aces 75. A suited group only
earns its bonus when one player laid it whole in one turn and nobody added to it.

A deal ends in a show (the team's table meets the show requirement: 20 show points), a wrong
show (the showing team scores nothing; the other team scores as usual) or a ground show (the
stock ran out: no show points). Each team scores its own table plus the cards left in the
opponents' hands. Scores only ever grow; the first team at the target wins, and both teams
reaching it on the same show is a draw.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal

from engine.cards import Card
from engine.families.open_rummy.melds import ACE, LOWEST, OpenMeld, classify_open
from engine.table import TableState

SHOW_POINTS: Final = 20
COMPLETE_SET_BONUS: Final = 15
PURE_COMPLETE_SET_BONUS: Final = 20
SUITED_GROUP_BONUS: Final = {(LOWEST, 3): 25, (LOWEST, 4): 75, (ACE, 3): 50, (ACE, 4): 75}

Ending = Literal["show", "wrong-show", "ground-show"]


def card_value(card: Card) -> Fraction:
    """What one card is worth on the table or left in a hand."""
    if card.rank == 0:
        return Fraction(4)
    if card.rank == 2:
        return Fraction(2)
    if card.rank == 1:
        return Fraction(3, 2)
    if card.rank <= 6:
        return Fraction(1, 2)
    return Fraction(1)


def cards_value(cards: Iterable[Card]) -> Fraction:
    return sum((card_value(c) for c in cards), Fraction(0))


@dataclass(frozen=True, slots=True)
class MeldScore:
    meld: OpenMeld
    points: Fraction  # the cards
    bonus: Fraction

    @property
    def total(self) -> Fraction:
        return self.points + self.bonus


def meld_bonus(meld: OpenMeld, size: int, laid_whole: bool = True) -> Fraction:
    """The bonus a valid meld earns on top of its cards."""
    if meld.kind == "pure-complete-set":
        return Fraction(PURE_COMPLETE_SET_BONUS)
    if meld.kind == "complete-set":
        return Fraction(COMPLETE_SET_BONUS)
    if meld.kind == "suited-group" and laid_whole:
        return Fraction(SUITED_GROUP_BONUS.get((meld.rank, size), 0))
    return Fraction(0)


def score_meld(cards: Sequence[Card], laid_whole: bool = True) -> MeldScore:
    """Points of one group laid on the table; an invalid group scores nothing."""
    meld = classify_open(cards)
    if not meld.valid:
        return MeldScore(meld, Fraction(0), Fraction(0))
    return MeldScore(meld, cards_value(cards), meld_bonus(meld, len(cards), laid_whole))


@dataclass(frozen=True, slots=True)
class ShowCheck:
    met: bool
    complete_sets: int
    pure_sets: int
    reason: str


def check_show(melds: Iterable[Sequence[Card]], sets_needed: int, pure_needed: int) -> ShowCheck:
    """Has a team's table the complete sets a show needs? Groups never count towards it."""
    kinds = [classify_open(m).kind for m in melds]
    complete = sum(k in ("complete-set", "pure-complete-set") for k in kinds)
    pure = kinds.count("pure-complete-set")
    short = []
    if complete < sets_needed:
        short.append(f"{complete} complete set{'s' if complete != 1 else ''} on the table, "
                     f"a show needs at least {sets_needed}")
    if pure < pure_needed:
        short.append(f"{pure} pure complete set{'s' if pure != 1 else ''}, a show needs at least {pure_needed}")
    if short:
        return ShowCheck(False, complete, pure, "; ".join(short))
    return ShowCheck(True, complete, pure, f"{complete} complete sets, {pure} of them pure: enough for a show")


@dataclass(frozen=True, slots=True)
class TeamTable:
    """One team at the end of a deal: its melds (with whether each was laid whole) and its hands."""

    melds: tuple[tuple[tuple[Card, ...], bool], ...]
    hands: tuple[Card, ...] = ()

    @classmethod
    def of(cls, melds: Iterable[Sequence[Card]], hands: Iterable[Card] = ()) -> TeamTable:
        return cls(tuple((tuple(m), True) for m in melds), tuple(hands))

    @classmethod
    def from_state(cls, state: TableState, team: int, hands: Iterable[Card] = ()) -> TeamTable:
        """A team's melds as the table history knows them (a grown suited group earns nothing)."""
        melds = tuple((m.cards, m.laid_whole) for seat, ms in sorted(state.melds.items())
                      if team_of(seat) == team for m in ms)
        return cls(melds, tuple(hands))

    def table_points(self) -> Fraction:
        return sum((score_meld(m, whole).total for m, whole in self.melds), Fraction(0))


def score_deal(teams: Sequence[TeamTable], ending: Ending, ender: int | None,
               sets_needed: int, pure_needed: int) -> tuple[Fraction, ...]:
    """Points each team scores in one deal.

    ``ender`` is the team whose player emptied their hand (show or wrong show). A show whose
    team lacks the complete sets is scored as a wrong show.
    """
    if ending != "ground-show" and ender is None:
        raise ValueError("a show needs the team that declared it")
    if ending == "show" and ender is not None:
        met = check_show((m for m, _ in teams[ender].melds), sets_needed, pure_needed).met
        if not met:
            ending = "wrong-show"
    out = []
    for t, team in enumerate(teams):
        if ending == "wrong-show" and t == ender:
            out.append(Fraction(0))
            continue
        pts = team.table_points()
        pts += sum((cards_value(o.hands) for u, o in enumerate(teams) if u != t), Fraction(0))
        if ending == "show" and t == ender:
            pts += SHOW_POINTS
        out.append(pts)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Standing:
    totals: tuple[Fraction, ...]
    over: bool
    winner: int | None  # None with over=True is a draw

    @property
    def draw(self) -> bool:
        return self.over and self.winner is None


def add_deal(totals: Sequence[Fraction], deal: Sequence[Fraction], target: int) -> Standing:
    """Add one deal's points; the game ends when a team reaches the target (both at once: a draw)."""
    new = tuple(a + b for a, b in zip(totals, deal, strict=True))
    reached = [t for t, v in enumerate(new) if v >= target]
    if not reached:
        return Standing(new, False, None)
    if len(reached) > 1:
        return Standing(new, True, None)
    return Standing(new, True, reached[0])


def team_of(seat: int) -> int:
    """Partners sit alternately: seats 0, 2, … are team 0 and seats 1, 3, … team 1."""
    return seat % 2


def team_melds(melds: Mapping[int, Sequence[Sequence[Card]]], team: int) -> list[Sequence[Card]]:
    return [m for seat, ms in melds.items() if team_of(seat) == team for m in ms]
