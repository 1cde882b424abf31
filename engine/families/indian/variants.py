"""13-card Indian rummy (points, pool 101, pool 201, deals): melds, shows and hand counts.

Rulings taken from the project's rule notes: two decks and two printed jokers; the cut card's
whole rank is wild (a printed joker cut makes aces wild); a wild-rank card standing as itself
keeps a sequence pure; sets are 3 or 4 cards of one rank in distinct suits; an ace is low or
high but K-A-2 never counts; A K Q J 10 score 10, jokers 0; a losing hand scores at most 80.

House-rule options (``JudgeRequest.options`` / ``IndianRules``): ``wrap`` (K-A-2 allowed),
``wild_in_place_pure`` (default true), ``joker_only_melds`` (default false),
``min_show_groups`` (default 3: the texts reject a show laid out in only two groups).
Deal- and game-level scoring lives in :mod:`engine.families.indian.scoring`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from engine.arrange import Credit, best_arrangement
from engine.cards import Card
from engine.errors import DeckError, UnsupportedModeError
from engine.families.indian.policy import IndianPolicy
from engine.families.indian.scoring import (
    FULL_COUNT_CAP,
    HAND_SIZE,
    MISSED_TURNS_POINTS,
    WRONG_SHOW,
    check_hand_size,
)
from engine.melds import (
    GroupRule,
    MeldCheck,
    MeldRules,
    SequenceRule,
    WildRule,
    check_group,
    check_sequence,
    to_piece,
)
from engine.options import COUNT, SWITCH, OptionKind
from engine.ruling import GroupRuling, Ruling
from engine.variants.base import Item, JudgeRequest, Variant

#: How every Indian game is played out at the table.
INDIAN_POLICY = IndianPolicy()


@dataclass(frozen=True, slots=True)
class IndianRules:
    """House-rule switches for the disputed points."""

    wrap: bool = False
    wild_in_place_pure: bool = True
    joker_only_melds: bool = False
    min_show_groups: int = 3

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> IndianRules:
        known: dict[str, Any] = {k: bool(options[k]) for k in ("wrap", "wild_in_place_pure", "joker_only_melds")
                                 if k in options}
        if "min_show_groups" in options:
            value = options["min_show_groups"]
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= HAND_SIZE:
                shown = repr(value)[:24]
                raise UnsupportedModeError(f"option min_show_groups must be a number of groups from 1 to "
                                           f"{HAND_SIZE}, got {shown}")
            known["min_show_groups"] = value
        return cls(**known)

    def meld_rules(self) -> MeldRules:
        return MeldRules(
            sequence=SequenceRule(min_len=3, ace="either", wrap=self.wrap),
            group=GroupRule(min_size=3, max_size=4, distinct_suits=True),
            wild=WildRule(min_natural=0 if self.joker_only_melds else 1,
                          natural_if_in_place=self.wild_in_place_pure),
        )


def wild_test(cut: Card | None) -> Any:
    """Which cards are wild for a deal whose cut card is ``cut``."""
    wild_rank = None if cut is None else (1 if cut.is_joker else cut.rank)

    def is_wild(item: Item) -> bool:
        return isinstance(item, Card) and (item.is_joker or item.rank == wild_rank)

    return is_wild


def card_points(item: Item, is_wild: Any) -> int:
    """Penalty of one unmelded card: A K Q J 10 are 10, pips their face value, jokers 0."""
    assert isinstance(item, Card)
    if is_wild(item):
        return 0
    return 10 if item.rank in (1, 10, 11, 12, 13) else item.rank


@dataclass(frozen=True, slots=True)
class _Reading:
    group: tuple[Item, ...]
    pure: MeldCheck | None
    sequence: MeldCheck | None
    set: MeldCheck | None
    invalid_reason: str

    @property
    def valid(self) -> bool:
        return self.pure is not None or self.sequence is not None or self.set is not None

    @property
    def can_sequence(self) -> bool:
        return self.pure is not None or self.sequence is not None


@dataclass(frozen=True)
class IndianVariant(Variant):
    """One form of 13-card Indian rummy; scoring differences live in the fields."""

    pool_limit: int | None = None
    first_drop: int | None = 20
    middle_drop: int | None = 40
    #: What three missed turns in a row cost (a drop the table makes, not the player's).
    missed_turns: int = MISSED_TURNS_POINTS
    deal_count: int | None = None
    family: ClassVar[str] = "indian"
    house_options: ClassVar[Mapping[str, OptionKind]] = {
        "wrap": SWITCH, "wild_in_place_pure": SWITCH, "joker_only_melds": SWITCH,
        "min_show_groups": OptionKind("number", 1, 5), "count": COUNT}

    def table_options(self) -> Mapping[str, OptionKind]:
        """Deals rummy also takes how many deals the game runs to."""
        if self.deal_count is None:
            return self.house_options
        return {**self.house_options, "deals": OptionKind("number", 2, 3)}  # best of 2 or of 3
    modes: ClassVar[tuple[str, ...]] = ("declare", "count", "best", "meld")

    @property
    def policy(self) -> IndianPolicy:
        return INDIAN_POLICY

    def jokers_for(self, request: JudgeRequest) -> int:
        """Each pack brings one printed joker."""
        return self.decks_for(request)

    @property
    def drops_allowed(self) -> bool:
        return self.first_drop is not None

    # --- reading groups ----------------------------------------------------------------

    def read(self, groups: Sequence[Sequence[Item]], request: JudgeRequest) -> tuple[list[_Reading], Any, IndianRules]:
        house = IndianRules.from_options(request.options)
        rules = house.meld_rules()
        is_wild = wild_test(request.wild)
        out = []
        for group in groups:
            pieces = [to_piece(c, is_wild) for c in group]
            assert rules.sequence is not None and rules.group is not None
            seq = check_sequence(pieces, rules.sequence, rules.wild)
            grp = check_group(pieces, rules.group, rules.wild)
            reason = ""
            if not seq.valid and not grp.valid:
                hard = [p for p in pieces if not p.wild]
                same_rank = len({p.rank for p in hard}) <= 1
                reason = grp.reason if same_rank else seq.reason
            out.append(_Reading(
                tuple(group),
                seq if seq.kind == "pure-sequence" else None,
                seq if seq.kind == "sequence" else None,
                grp if grp.valid else None,
                reason,
            ))
        return out, is_wild, house

    @staticmethod
    def _kinds(readings: Sequence[_Reading]) -> tuple[list[str], bool, bool]:
        """Choose each group's kind to meet 'two sequences, one pure' when possible."""
        kinds: list[str] = []
        for r in readings:
            if r.pure is not None:
                kinds.append("pure-sequence")
            elif r.set is not None:
                kinds.append("set")
            elif r.sequence is not None:
                kinds.append("sequence")
            else:
                kinds.append("invalid")
        for i, r in enumerate(readings):
            if sum(k.endswith("sequence") for k in kinds) >= 2:
                break
            if kinds[i] == "set" and r.sequence is not None:
                kinds[i] = "sequence"
        has_pure = "pure-sequence" in kinds
        has_two = sum(k.endswith("sequence") for k in kinds) >= 2
        return kinds, has_pure, has_two

    @staticmethod
    def _group_reason(r: _Reading, kind: str) -> str:
        check = {"pure-sequence": r.pure, "sequence": r.sequence, "set": r.set}.get(kind)
        return check.reason if check is not None else r.invalid_reason

    # --- modes -------------------------------------------------------------------------

    def judge_meld(self, request: JudgeRequest) -> Ruling:
        readings, _, _ = self.read(request.groups, request)
        kinds, _, _ = self._kinds(readings)
        groups = tuple(GroupRuling(r.group, k, 0, 0, self._group_reason(r, k)) for r, k in zip(readings, kinds, strict=True))
        bad = [g for g in groups if not g.valid]
        reason = "every group is a valid meld" if not bad else f"{len(bad)} group(s) are not melds: " + "; ".join(g.reason for g in bad)
        return Ruling(not bad, 0, groups, reason)

    def judge_declare(self, request: JudgeRequest) -> Ruling:
        items = request.items
        readings, _, house = self.read(request.groups, request)
        kinds, has_pure, has_two = self._kinds(readings)
        groups = tuple(GroupRuling(r.group, k, 0, 0, self._group_reason(r, k)) for r, k in zip(readings, kinds, strict=True))
        problems = []
        if len(groups) < house.min_show_groups:
            problems.append(f"only {len(groups)} groups: a show is laid out in at least {house.min_show_groups}")
        if not has_pure:
            problems.append("no pure sequence")
        elif not has_two:
            problems.append("only one sequence: a show needs two, one of them pure")
        problems += [f"{' '.join(map(str, g.cards))} is not a meld: {g.reason}" for g in groups if not g.valid]
        if len(items) != HAND_SIZE:
            if not problems:
                # melds that would pass with the wrong number of cards: a miscount, not a show
                raise DeckError(f"a show must hold exactly {HAND_SIZE} cards, got {len(items)}")
            problems.append(f"{len(items)} cards shown, not {HAND_SIZE}")
        if problems:
            return Ruling(False, WRONG_SHOW, groups, "wrong show (80 points): " + "; ".join(problems))
        return Ruling(True, 0, groups, "valid show: every card is in a meld, with two sequences including a pure one")

    def judge_count(self, request: JudgeRequest) -> Ruling:
        readings, is_wild, _ = self.read(request.groups, request)
        kinds, has_pure, has_two = self._kinds(readings)
        credited = has_pure and has_two
        groups = []
        total = 0
        for r, k in zip(readings, kinds, strict=True):
            counts = not credited or k == "invalid"
            pts = sum(card_points(c, is_wild) for c in r.group) if counts else 0
            total += pts
            groups.append(GroupRuling(r.group, k, pts, 0, self._group_reason(r, k)))
        capped = min(total, FULL_COUNT_CAP)
        if credited:
            reason = "two sequences including a pure one; unmelded cards count"
        elif not has_pure:
            reason = "no pure sequence: every card counts"
        else:
            reason = "only one sequence: every card counts"
        if capped < total:
            reason += f" ({total}, capped at {FULL_COUNT_CAP})"
        return Ruling(credited, capped, tuple(groups), reason)

    def judge_best(self, request: JudgeRequest) -> Ruling:
        check_hand_size(request.items)
        house = IndianRules.from_options(request.options)
        is_wild = wild_test(request.wild)
        best = best_arrangement(request.items, house.meld_rules(), is_wild,
                                lambda c: card_points(c, is_wild), Credit(2, 1), FULL_COUNT_CAP)
        readings, _, _ = self.read(best.melds, request)
        groups = [GroupRuling(m, k, 0, 0, self._group_reason(r, k))
                  for m, k, r in zip(best.melds, best.kinds, readings, strict=True)]
        if best.deadwood:
            pts = sum(card_points(c, is_wild) for c in best.deadwood)
            groups.append(GroupRuling(best.deadwood, "invalid", pts, 0, "unmelded cards"))
        if best.credited:
            reason = "best arrangement: two sequences including a pure one"
            reason += "; unmelded cards count" if best.deadwood else "; nothing left to count"
        else:
            reason = "no arrangement has a pure sequence and a second sequence: every card counts"
        return Ruling(best.credited, best.points, tuple(groups), reason)


def _variant(**kw: Any) -> IndianVariant:
    base: dict[str, Any] = dict(min_players=2, max_players=6, decks=2, jokers=2, cards_dealt=HAND_SIZE)
    base.update(kw)
    return IndianVariant(**base)


INDIAN_POINTS = _variant(
    id="indian-points", name="Indian rummy (points)", deals=1,
    summary="13 cards; two sequences, one pure; losers pay their count, capped at 80")
INDIAN_POOL_101 = _variant(
    id="indian-pool-101", name="Indian rummy, pool 101", deals="until one player is left",
    pool_limit=101, summary="scores add up over deals; a player reaching 101 is out; drops 20/40")
INDIAN_POOL_201 = replace(
    INDIAN_POOL_101, id="indian-pool-201", name="Indian rummy, pool 201", pool_limit=201,
    first_drop=25, middle_drop=50,
    summary="scores add up over deals; a player reaching 201 is out; drops 25/50")
INDIAN_DEALS = _variant(
    id="indian-deals", name="Indian rummy, deals", deals="2 or 3", deal_count=2,
    first_drop=None, middle_drop=None,
    summary="a fixed number of deals (2 or 3); chips change hands; no drops")

VARIANTS = (INDIAN_POINTS, INDIAN_POOL_101, INDIAN_POOL_201, INDIAN_DEALS)
