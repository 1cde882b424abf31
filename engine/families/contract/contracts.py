"""Contracts of the contract-rummy family: what a game's melds look like, what each deal asks for
as a first meld, and the check that a player's groups meet it (with their melding value).

A game definition writes each deal's contract in a short text, read by :func:`contract`:

``"G3 S4"``   one group (set) of at least 3 cards of one rank and one sequence of at least 4
``"2G3"``     two groups of 3 (the same as ``"G3 G3"``)
``"=S4"``     a sequence of exactly 4 cards (no more)
``"M3"``      one meld of either kind, at least 3 cards
``"P3"``      a pure group of exactly 3: distinct suits, no wild card (Telefunken's limpio)
``"*"``       any melds at all (a whole-hand deal, or a points threshold)

Keyword switches on :func:`contract` add what text alone cannot say: a points threshold, a
card count, going out in one turn, a cap on wild cards across the whole first meld.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import permutations
from typing import Literal

from engine.cards import Card
from engine.melds import (
    ADJACENT_WILDS,
    GroupRule,
    MeldCheck,
    Piece,
    SequenceRule,
    WildRule,
    check_group,
    check_sequence,
    to_piece,
)

NeedKind = Literal["group", "sequence", "either"]
GoingOut = Literal["discard-required", "discard-or-meld", "no-discard"]
WildTest = Callable[[Card], bool]
RankValue = Callable[[int, str], int]  # a natural card's value by rank and suit

_NEED_TOKEN = re.compile(r"^(\d*)(=?)([GSMP])(\d+)$")
_WORDS = {"group": ("group", "groups"), "sequence": ("sequence", "sequences"), "either": ("meld", "melds")}
_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four"}


@dataclass(frozen=True, slots=True)
class Need:
    """One meld a contract asks for."""

    kind: NeedKind
    size: int
    exact: bool = False
    pure: bool = False

    def words(self, style: MeldStyle | None = None) -> str:
        noun = style.noun(self.kind) if style else _WORDS[self.kind][0]
        size = f"exactly {self.size}" if self.exact else str(self.size)
        return f"{'pure ' if self.pure else ''}{noun} of {size}"


@dataclass(frozen=True, slots=True)
class Contract:
    """A deal's first-meld requirement.

    ``extra_melds``: melds beyond the required ones may go down with it (else the first meld is
    exactly the required melds). ``min_points``: the melding value must reach this.
    ``min_cards``/``exact_cards``: how many cards the first meld must hold in all.
    ``max_wilds``: wild cards allowed in the whole first meld. ``one_turn``: the player must go
    out on the turn the contract goes down. ``going_out``: whether the last card must be a
    discard. ``no_wilds``: no wild card anywhere in the first meld.
    """

    needs: tuple[Need, ...] = ()
    any_melds: bool = False
    extra_melds: bool = False
    min_points: int | None = None
    min_cards: int | None = None
    exact_cards: int | None = None
    max_wilds: int | None = None
    no_wilds: bool = False
    one_turn: bool = False
    going_out: GoingOut = "discard-or-meld"
    text: str = ""

    def words(self, style: MeldStyle | None = None) -> str:
        parts: list[str] = []
        counted: dict[Need, int] = {}
        for need in self.needs:
            counted[need] = counted.get(need, 0) + 1
        for need, n in counted.items():
            phrase = need.words(style)
            if n > 1:
                noun = style.noun(need.kind, plural=True) if style else _WORDS[need.kind][1]
                phrase = phrase.replace(style.noun(need.kind) if style else _WORDS[need.kind][0], noun, 1)
            parts.append(f"{_NUMBERS.get(n, str(n))} {phrase}")
        text = " and ".join(parts)
        if self.any_melds and not parts:
            text = "any valid melds"
        elif self.any_melds or self.extra_melds:
            text += ", and any other valid melds"
        if self.min_points is not None:
            text += f" worth at least {self.min_points} points"
        if self.exact_cards is not None:
            text += f", exactly {self.exact_cards} cards in all"
        elif self.min_cards is not None:
            text += f", at least {self.min_cards} cards in all"
        if self.no_wilds:
            text += ", with no wild card"
        elif self.max_wilds is not None:
            text += f", at most {self.max_wilds} wild card{'s' if self.max_wilds != 1 else ''} in all"
        if self.one_turn:
            text += "; the whole hand goes down in one turn"
        return text.strip(", ")


def parse_needs(text: str) -> tuple[Need, ...]:
    """Read the compact contract text (see the module docstring) into needs."""
    needs: list[Need] = []
    for token in text.split():
        if token == "*":
            continue
        m = _NEED_TOKEN.match(token.upper())
        if not m:
            raise ValueError(f"bad contract token {token!r}")
        count = int(m.group(1) or 1)
        letter = m.group(3)
        kind: NeedKind = {"G": "group", "S": "sequence", "M": "either", "P": "group"}[letter]  # type: ignore[assignment]
        pure = letter == "P"
        need = Need(kind, int(m.group(4)), exact=bool(m.group(2)) or pure, pure=pure)
        needs.extend([need] * count)
    return tuple(needs)


def contract(text: str, **switches: object) -> Contract:
    """A contract from its compact text plus keyword switches (fields of :class:`Contract`)."""
    return Contract(needs=parse_needs(text), any_melds="*" in text.split(), text=text, **switches)  # type: ignore[arg-type]


# --- what melds look like -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MeldStyle:
    """A game's meld grammar: the shared :mod:`engine.melds` rules plus a few family extras.

    ``more_naturals``: every meld holds more natural cards than wild cards.
    ``one_per_rank_and_suit``: a player may not lay two groups of one rank or two sequences
    of one suit in a deal (Caribbean Kalooki). ``ordered_runs``: the order on the table fixes
    what a wild card in a sequence stands for (when the order given is a run; a run laid with
    its wild cards side by side, where the rules forbid that, is not read another way).
    ``initial_wilds``: wild cards allowed in one meld of the first meld, as one number or by
    (kind, size) of the required meld (Shanghai's chart). ``split_runs``: one long run laid in a
    row may count as two runs of the contract, each of the minimum length (Shanghai).
    """

    sequence: SequenceRule | None
    group: GroupRule | None
    sequence_wild: WildRule = field(default_factory=WildRule)
    group_wild: WildRule = field(default_factory=WildRule)
    more_naturals: bool = False
    one_per_rank_and_suit: bool = False
    ordered_runs: bool = False
    initial_wilds: int | tuple[tuple[str, int, int], ...] | None = None
    names: tuple[str, str] = ("group", "sequence")
    split_runs: bool = False

    def noun(self, kind: str, plural: bool = False) -> str:
        word = {"group": self.names[0], "sequence": self.names[1]}.get(kind, "meld")
        return word + ("s" if plural and not word.endswith("s") else "")

    def initial_cap(self, need: Need) -> int | None:
        if self.initial_wilds is None or isinstance(self.initial_wilds, int):
            return self.initial_wilds
        kind = "sequence" if need.kind == "sequence" else "group"
        best: int | None = None
        for k, size, cap in self.initial_wilds:
            if k == kind and size <= need.size:
                best = cap
        return best


@dataclass(frozen=True, slots=True)
class Reading:
    """One group read as a meld: ``kind`` is ``set``, ``sequence`` or ``invalid``."""

    kind: str
    reason: str
    check: MeldCheck | None = None

    @property
    def valid(self) -> bool:
        return self.kind != "invalid"

    @property
    def wilds(self) -> int:
        return self.check.wilds if self.check else 0


def _cap(wild: WildRule, cap: int | None) -> WildRule:
    if cap is None:
        return wild
    if cap == 0:
        return replace(wild, allowed=False)
    current = wild.max_per_meld
    return replace(wild, max_per_meld=cap if current is None else min(cap, current))


def read_as(pieces: Sequence[Piece], kind: str, style: MeldStyle, need: Need | None = None,
            cap: int | None = None) -> Reading:
    """Read ``pieces`` as a meld of ``kind`` (``group``/``sequence``), sized for ``need`` if given."""
    check: MeldCheck
    if kind == "group":
        if style.group is None:
            return Reading("invalid", f"{style.noun('group', True)} are not melds in this game")
        rule, wild = style.group, style.group_wild
        if need is not None:
            if need.exact:
                rule = replace(rule, exact_size=need.size)
            elif need.size > rule.min_size:
                rule = replace(rule, min_size=need.size)
            if need.pure:
                rule = replace(rule, distinct_suits=True)
                wild = replace(wild, allowed=False)
        check = check_group(pieces, rule, _cap(wild, cap))
        if not check.valid and need is not None and need.pure and "wild" in check.reason:
            check = MeldCheck("invalid", "a pure group may hold no wild card")
    else:
        if style.sequence is None:
            return Reading("invalid", f"{style.noun('sequence', True)} are not melds in this game")
        seq, wild = style.sequence, style.sequence_wild
        if need is not None:
            if need.exact:
                seq = replace(seq, exact_len=need.size)
            elif need.size > seq.min_len:
                seq = replace(seq, min_len=need.size)
        uncapped, wild = wild, _cap(wild, cap)
        check = check_sequence(pieces, replace(seq, ordered=True), wild) if style.ordered_runs else check_sequence(pieces, seq, wild)
        if style.ordered_runs and not check.valid and check.reason != ADJACENT_WILDS:
            # the order given is no run: the wild cards stand where they make one; but a run
            # laid with its wild cards side by side is that run, and no other
            check = check_sequence(pieces, seq, wild)
        if not check.valid and wild != uncapped and check_sequence(pieces, seq, uncapped).valid:
            # a run only with more wild cards than the cap: say that, not what the capped
            # reading stumbled on (a wild two read as a natural one of another suit)
            check = MeldCheck("invalid", "no wild cards may be used in a meld here" if cap == 0
                              else f"too many wild cards: at most {cap} in one meld")
    if not check.valid:
        return Reading("invalid", check.reason)
    if style.more_naturals and check.wilds >= check.naturals:
        return Reading("invalid", "a meld must hold more natural cards than wild cards", check)
    out_kind = "set" if kind == "group" else "sequence"
    noun = style.noun(kind)
    reason = check.reason if noun in ("group", "sequence") else f"{noun}: {check.reason}"
    return Reading(out_kind, reason, check)


def on_the_table(style: MeldStyle) -> MeldStyle:
    """``style`` for melds as they may lie on the table later in a deal: a size fixed only for
    going down (Loba's trios of exactly 3 and escaleras of exactly 4) grows with lay-offs, so
    it is a least size there."""
    seq, group = style.sequence, style.group
    if seq is not None and seq.exact_len:
        seq = replace(seq, exact_len=None, min_len=max(seq.min_len, seq.exact_len))
    if group is not None and group.exact_size:
        group = replace(group, exact_size=None, min_size=max(group.min_size, group.exact_size))
    return replace(style, sequence=seq, group=group)


def read_meld(pieces: Sequence[Piece], style: MeldStyle, need: Need | None = None, cap: int | None = None) -> Reading:
    """The best reading of one group as any meld the style allows (or as ``need`` asks)."""
    kinds = ("group", "sequence") if need is None or need.kind == "either" else (need.kind,)
    readings = [read_as(pieces, k, style, need, cap) for k in kinds]
    good = [r for r in readings if r.valid]
    if good:
        return min(good, key=lambda r: r.wilds)
    if len(readings) == 1:
        return readings[0]
    hard = [p for p in pieces if not p.wild]
    same_rank = len({p.rank for p in hard}) <= 1
    return readings[0] if same_rank else readings[1]


def pieces_of(group: Sequence[Card], is_wild: WildTest) -> list[Piece]:
    return [to_piece(c, lambda item: isinstance(item, Card) and is_wild(item)) for c in group]


def melding_value(reading: Reading, rank_value: RankValue) -> int:
    """Sum of the values of the cards a meld stands for (a wild counts as the card it replaces)."""
    if reading.check is None or not reading.valid:
        return 0
    return sum(rank_value(1 if rank == 14 else rank, suit) for rank, suit in reading.check.stands_for)


# --- meeting a contract ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether groups meet a contract: one reading per group, the melding value, the problems."""

    valid: bool
    points: int
    readings: tuple[Reading, ...]
    problems: tuple[str, ...]
    met: str
    groups: tuple[tuple[Card, ...], ...] = ()  # as judged (a long run may have been split)


def meet(groups: Sequence[Sequence[Card]], terms: Contract, style: MeldStyle, is_wild: WildTest,
         rank_value: RankValue) -> Verdict:
    """Do ``groups`` (laid together as a first meld) meet ``terms``?"""
    verdict = _meet(groups, terms, style, is_wild, rank_value)
    if verdict.valid or not style.split_runs or style.sequence is None or len(groups) >= len(terms.needs):
        return verdict
    def is_run(cards: Sequence[Card]) -> bool:
        return read_as(pieces_of(cards, is_wild), "sequence", style, None, None).valid

    for split in _run_splits(groups, style.sequence.min_len, is_run):
        again = meet(split, terms, style, is_wild, rank_value)
        if again.valid:
            note = " (a long run split in two)"
            return replace(again, problems=(), met=again.met if again.met.endswith(note) else again.met + note)
    return verdict


def _run_splits(groups: Sequence[Sequence[Card]], shortest: int,
                is_run: Callable[[Sequence[Card]], bool]) -> list[list[list[Card]]]:
    """Every way to cut one long run (``is_run``), in the order given or sorted by rank, into
    two runs of at least ``shortest`` cards: only a run may be split, and only into runs."""
    out: list[list[list[Card]]] = []
    for i, group in enumerate(groups):
        if len(group) < 2 * shortest or not is_run(group):
            continue
        orders = [list(group)]
        if not any(c.is_joker for c in group):
            orders.append(sorted(group, key=lambda c: c.rank))
        for order in orders:
            for k in range(shortest, len(order) - shortest + 1):
                if is_run(order[:k]) and is_run(order[k:]):
                    out.append([*map(list, groups[:i]), order[:k], order[k:], *map(list, groups[i + 1:])])
    return out


def _meet(groups: Sequence[Sequence[Card]], terms: Contract, style: MeldStyle, is_wild: WildTest,
          rank_value: RankValue) -> Verdict:
    pieces = [pieces_of(g, is_wild) for g in groups]
    general = [read_meld(p, style, cap=0 if terms.no_wilds else None) for p in pieces]
    problems: list[str] = []
    readings = list(general)
    needs = terms.needs
    if not needs:
        for g, r in zip(groups, readings, strict=True):
            if not r.valid:
                problems.append(f"{' '.join(map(str, g))} is not a meld: {r.reason}")
    elif len(groups) < len(needs):
        problems.append(f"the contract asks for {len(needs)} melds ({terms.words(style)}); only {len(groups)} given")
    else:
        readings, problem = _assign(pieces, needs, terms, style, general)
        if problem:
            problems.append(problem)
    total_wilds = sum(r.wilds for r in readings if r.valid)
    if terms.max_wilds is not None and total_wilds > terms.max_wilds and not problems:
        problems.append(f"at most {terms.max_wilds} wild card(s) may go into the first meld, not {total_wilds}")
    cards = sum(len(g) for g in groups)
    if terms.exact_cards is not None and cards != terms.exact_cards:
        problems.append(f"the first meld must hold exactly {terms.exact_cards} cards, not {cards}")
    if terms.min_cards is not None and cards < terms.min_cards:
        problems.append(f"the whole hand must go down: at least {terms.min_cards} cards, not {cards}")
    if style.one_per_rank_and_suit and not problems:
        clash = repeats(readings)
        if clash:
            problems.append(clash)
    points = sum(melding_value(r, rank_value) for r in readings)
    if terms.min_points is not None and points < terms.min_points:
        problems.append(f"the first meld is worth {points} points; it needs at least {terms.min_points}")
    return Verdict(not problems, points, tuple(readings), tuple(problems), terms.words(style),
                   tuple(tuple(g) for g in groups))


def _assign(pieces: Sequence[Sequence[Piece]], needs: tuple[Need, ...], terms: Contract, style: MeldStyle,
            general: Sequence[Reading]) -> tuple[list[Reading], str]:
    """Give every need its own group: the readings and "" on success, else the closest
    assignment's readings and why it fails."""
    n = len(pieces)
    if n > len(needs) and not (terms.extra_melds or terms.any_melds):
        return list(general), (f"the first meld must be exactly the contract ({terms.words(style)}): "
                               f"{n} melds given, {len(needs)} asked for")
    cache: dict[tuple[int, int], Reading] = {}

    def fit(i: int, j: int) -> Reading:
        if (i, j) not in cache:
            cap = 0 if terms.no_wilds else style.initial_cap(needs[j])
            cache[i, j] = read_meld(pieces[i], style, needs[j], cap)
        return cache[i, j]

    base = [read_meld(p, style, cap=0) for p in pieces] if terms.no_wilds else list(general)
    best: tuple[int, list[Reading], str] = (-1, list(general), f"these groups do not make {terms.words(style)}")
    for chosen in permutations(range(n), len(needs)):
        got = [fit(i, j) for j, i in enumerate(chosen)]
        out = list(base)
        for j, i in enumerate(chosen):
            out[i] = got[j]
        filled = sum(r.valid for r in got)
        if filled < len(needs):
            if filled > best[0]:
                j = next(j for j, r in enumerate(got) if not r.valid)
                best = (filled, out, f"{_cards(pieces[chosen[j]])} is not the {needs[j].words(style)} "
                                     f"the contract asks for: {got[j].reason}")
            continue
        # every need is filled: the other groups must be melds and the whole must obey the limits
        bad = [i for i in range(n) if i not in chosen and not out[i].valid]
        problem = (f"{_cards(pieces[bad[0]])} is not a meld: {out[bad[0]].reason}" if bad
                   else (repeats(out) if style.one_per_rank_and_suit else None)
                   or _too_wild(out, terms))
        if not problem:
            return out, ""
        if best[0] <= len(needs):
            best = (len(needs) + 1, out, problem)
    return best[1], best[2]


def _too_wild(readings: Sequence[Reading], terms: Contract) -> str:
    if terms.max_wilds is not None and sum(r.wilds for r in readings if r.valid) > terms.max_wilds:
        return f"at most {terms.max_wilds} wild card(s) may go into the first meld"
    return ""


def _cards(pieces: Sequence[Piece]) -> str:
    out = []
    for p in pieces:
        out.append("PJ" if p.printed_joker else str(Card(p.rank, p.suit)))
    return " ".join(out)


def repeats(readings: Sequence[Reading]) -> str | None:
    """Why a player's melds break the one-group-a-rank, one-sequence-a-suit rule (None: they
    do not)."""
    seen_ranks: set[int] = set()
    seen_suits: set[str] = set()
    for r in readings:
        if not r.valid or r.check is None or not r.check.stands_for:
            continue
        if r.kind == "set":
            rank = r.check.stands_for[0][0]
            if rank in seen_ranks:
                return "a player may not lay down two groups of the same rank in one deal"
            seen_ranks.add(rank)
        else:
            suit = r.check.stands_for[0][1]
            if suit and suit in seen_suits:
                return "a player may not lay down two sequences of the same suit in one deal"
            seen_suits.add(suit)
    return None
