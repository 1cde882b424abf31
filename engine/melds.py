"""The one meld grammar: sequences, groups and wild-card rules that every variant configures.

A variant never re-implements "is this a meld"; it fills in :class:`MeldRules` and calls
:func:`classify`. Cards and tiles both reduce to :class:`Piece` (rank/number, suit/colour,
wild or not), so the same grammar serves playing cards and rummy tiles.

Rulings are written for players: ``reason`` says in plain words why a group is not a meld.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Final, Literal

from engine.cards import SUIT_NAMES, Card, rank_name, rank_text
from engine.tiles import Tile

AceRule = Literal["low", "high", "either", "both"]
Kind = Literal["pure-sequence", "sequence", "set", "invalid"]
Item = Card | Tile


#: Why a run whose wild cards lie side by side is no meld where the rules forbid it.
ADJACENT_WILDS: Final = "wild cards may not lie next to each other"


@dataclass(frozen=True, slots=True)
class SequenceRule:
    """What a run of consecutive cards must look like.

    ``ace``: ``low`` (A-2-3 only), ``high`` (Q-K-A only), ``either`` (one or the other, never
    both in one run) or ``both`` (A-2-…-K-A allowed). ``wrap`` allows K-A-2.
    ``lowest`` is the lowest natural rank allowed (3 in Open Rummy, where an ace is never low).
    """

    min_len: int = 3
    max_len: int | None = None
    ace: AceRule = "either"
    wrap: bool = False
    same_suit: bool = True
    lowest: int = 1
    exact_len: int | None = None
    ordered: bool = False  # the order on the table fixes what each wild stands for


@dataclass(frozen=True, slots=True)
class GroupRule:
    """Cards of one rank (a set or group).

    ``distinct_suits``: no two cards of the same suit. ``same_suit``: every card of one suit
    (a suited group). ``ranks``: only these ranks may form a group (None: any).
    """

    min_size: int = 3
    max_size: int | None = 4
    distinct_suits: bool = True
    same_suit: bool = False
    ranks: frozenset[int] | None = None
    exact_size: int | None = None


@dataclass(frozen=True, slots=True)
class WildRule:
    """Limits on wild cards inside one meld.

    ``max_ratio``: at most this many wilds per natural card (tile rummy: 0.5).
    ``natural_if_in_place``: a wild-rank card standing as itself counts as natural (keeps a
    sequence pure).
    """

    max_per_meld: int | None = None
    min_natural: int = 1
    max_ratio: float | None = None
    no_adjacent: bool = False
    natural_if_in_place: bool = True
    allowed: bool = True


@dataclass(frozen=True, slots=True)
class MeldRules:
    sequence: SequenceRule | None = field(default_factory=SequenceRule)
    group: GroupRule | None = field(default_factory=GroupRule)
    wild: WildRule = field(default_factory=WildRule)


@dataclass(frozen=True, slots=True)
class Piece:
    """A card or tile reduced to what the grammar needs. A printed joker/Joly has rank 0."""

    rank: int
    suit: str
    wild: bool

    @property
    def printed_joker(self) -> bool:
        return self.rank == 0


@dataclass(frozen=True, slots=True)
class MeldCheck:
    """The grammar's answer for one group.

    ``stands_for`` lists, position by position in table order (ascending for an unordered
    sequence), the (rank, suit) each piece represents; rank 14 is a high ace.
    """

    kind: Kind
    reason: str
    wilds: int = 0
    naturals: int = 0
    stands_for: tuple[tuple[int, str], ...] = ()

    @property
    def valid(self) -> bool:
        return self.kind != "invalid"

    @property
    def is_sequence(self) -> bool:
        return self.kind in ("pure-sequence", "sequence")


WildTest = Callable[[Item], bool]


def no_wilds(_: Item) -> bool:
    return False


def printed_jokers_wild(item: Item) -> bool:
    return item.is_joker


def to_piece(item: Item, is_wild: WildTest) -> Piece:
    if isinstance(item, Card):
        return Piece(item.rank, item.suit, item.is_joker or is_wild(item))
    return Piece(item.number, item.colour, item.is_joker or is_wild(item))


def _card_word(rank: int) -> str:
    return rank_name(1 if rank == 14 else rank)


_PLURALS = {1: "aces", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens",
            8: "eights", 9: "nines", 10: "tens", 11: "jacks", 12: "queens", 13: "kings", 14: "aces"}


def _plural(rank: int) -> str:
    return _PLURALS.get(rank, f"{rank}s")


def _invalid(reason: str) -> MeldCheck:
    return MeldCheck("invalid", reason)


def _wild_limits(rules: WildRule, wilds: int, naturals: int) -> str | None:
    if wilds and not rules.allowed:
        return "no wild cards may be used in a meld here"
    if naturals < rules.min_natural:
        if rules.min_natural == 1:
            return "a meld needs at least one natural card, not only jokers"
        return f"a meld needs at least {rules.min_natural} natural cards"
    if rules.max_per_meld is not None and wilds > rules.max_per_meld:
        n = rules.max_per_meld
        return f"too many wild cards: at most {n} in one meld" if n else "no wild cards may be used here"
    if rules.max_ratio is not None and wilds > rules.max_ratio * naturals:
        need = int(round(1 / rules.max_ratio)) if rules.max_ratio else 0
        cards = "natural card" if need == 1 else "natural cards"
        return f"too many wild cards: each needs at least {need} {cards} beside it"
    return None


# --- groups -------------------------------------------------------------------------------


def check_group(pieces: Sequence[Piece], rules: GroupRule, wild: WildRule) -> MeldCheck:
    """Is this a group (set) of one rank? Wild-rank cards of the group's own rank stand as themselves."""
    n = len(pieces)
    hard = [p for p in pieces if not p.wild]
    if hard:
        ranks = {p.rank for p in hard}
        if len(ranks) > 1:
            return _invalid("a set must be cards of one rank")
    else:
        # Only wilds: they may still be natural cards of one rank (e.g. three wild fives),
        # each counted once, as it stands (below), never as a natural and a wild at once.
        ranks = {p.rank for p in pieces if not p.printed_joker}
        if not (len(ranks) == 1 and wild.natural_if_in_place):
            if wild.min_natural == 0 and rules.min_size <= n <= (rules.max_size or n):
                return MeldCheck("set", "a set made only of jokers", n, 0, ())
            return _invalid(_wild_limits(wild, n, 0) or "a group needs natural cards")
    rank = ranks.pop()
    if rules.ranks is not None and rank not in rules.ranks:
        allowed = " and ".join(_plural(r) for r in sorted(rules.ranks))
        return _invalid(f"only {allowed} may form a group here, not {_plural(rank)}")
    # wild cards of the same rank may stand as themselves
    naturals = list(hard)
    flex = [p for p in pieces if p.wild and not p.printed_joker and p.rank == rank]
    size_min = rules.exact_size or rules.min_size
    size_max = rules.exact_size or rules.max_size
    if n < size_min:
        return _invalid(f"a set needs at least {size_min} cards")
    if size_max is not None and n > size_max:
        return _invalid(f"a set holds at most {size_max} cards")
    # choose how many flex cards stand as themselves: as many as suits allow; a refusal
    # names the wild-card limit of the choice with the most naturals, else the suits
    suit_problem = limit_problem = None
    for k in range(len(flex), -1, -1):
        for chosen in combinations(range(len(flex)), k):
            nat = naturals + [flex[i] for i in chosen]
            wilds = n - len(nat)
            problem = _group_suits(nat, rules, rank)
            if problem:
                suit_problem = suit_problem or problem
                continue
            limit = _wild_limits(wild, wilds, len(nat))
            if limit:
                limit_problem = limit_problem or limit
                continue
            if rules.distinct_suits and n > 4:
                return _invalid("a set holds at most one card of each suit")
            return MeldCheck("set", f"a set of {_plural(rank)}", wilds, len(nat),
                             tuple((rank, p.suit) for p in nat) + ((rank, ""),) * wilds)
    return _invalid(limit_problem or suit_problem or "not a set")


def _group_suits(nat: Sequence[Piece], rules: GroupRule, rank: int) -> str | None:
    suits = [p.suit for p in nat]
    if rules.distinct_suits and len(set(suits)) < len(suits):
        dup = next(s for s in suits if suits.count(s) > 1)
        return f"a set cannot hold two {_plural(rank)} of {SUIT_NAMES.get(dup, dup)}"
    if rules.same_suit and len(set(suits)) > 1:
        return "every card of this group must be of one suit"
    return None


# --- sequences ----------------------------------------------------------------------------


def _ace_values(rule: SequenceRule) -> tuple[int, ...]:
    if rule.lowest > 1:
        return (14,)
    return {"low": (1,), "high": (14,), "either": (1, 14), "both": (1, 14)}[rule.ace]


def _window(rule: SequenceRule) -> tuple[int, int]:
    lo = 1 if rule.ace in ("low", "either", "both") and rule.lowest <= 1 else max(2, rule.lowest)
    hi = 14 if rule.ace in ("high", "either", "both") or rule.lowest > 1 else 13
    return lo, hi


def check_sequence(pieces: Sequence[Piece], rule: SequenceRule, wild: WildRule) -> MeldCheck:
    """Is this a run of consecutive cards? Tries every reading of aces and of wild-rank cards."""
    n = len(pieces)
    need = rule.exact_len or rule.min_len
    if n < need:
        return _invalid(f"a sequence needs at least {need} cards" if not rule.exact_len
                        else f"this sequence must be exactly {need} cards")
    if rule.exact_len and n != rule.exact_len:
        return _invalid(f"this sequence must be exactly {rule.exact_len} cards")
    if rule.max_len is not None and n > rule.max_len:
        return _invalid(f"a sequence holds at most {rule.max_len} cards")
    flex_idx = [i for i, p in enumerate(pieces) if p.wild and not p.printed_joker]
    first_problem: str | None = None
    results: list[MeldCheck] = []
    # Prefer readings where more wild-rank cards stand as themselves (pure first).
    for k in range(len(flex_idx), -1, -1):
        for chosen in combinations(flex_idx, k):
            natural = [(i, p) for i, p in enumerate(pieces) if not p.wild or i in chosen]
            got = _place_run(pieces, natural, rule, wild)
            if isinstance(got, str):
                first_problem = first_problem or got
                continue
            pure_ok = got.wilds == 0 and (k == 0 or wild.natural_if_in_place)
            kind: Kind = "pure-sequence" if pure_ok else "sequence"
            results.append(MeldCheck(kind, got.reason, got.wilds, got.naturals, got.stands_for))
        if any(r.kind == "pure-sequence" for r in results):
            break
    if results:
        results.sort(key=lambda r: (r.kind != "pure-sequence", r.wilds))
        return results[0]
    return _invalid(first_problem or "not a sequence")


def _place_run(pieces: Sequence[Piece], natural: list[tuple[int, Piece]], rule: SequenceRule,
               wild: WildRule) -> MeldCheck | str:
    n = len(pieces)
    wilds = n - len(natural)
    limit = _wild_limits(wild, wilds, len(natural))
    if limit:
        return limit
    if not natural:
        if wild.min_natural == 0:
            return MeldCheck("sequence", "a run made only of jokers", wilds, 0, ())
        return "a meld needs at least one natural card, not only jokers"
    suits = {p.suit for _, p in natural}
    if rule.same_suit and len(suits) > 1:
        return "a sequence must be all one suit"
    suit = next(iter(suits)) if len(suits) == 1 else ""
    for _, p in natural:
        if p.rank != 1 and p.rank < rule.lowest:
            return f"a {_card_word(p.rank)} cannot be part of a sequence here"
    lo_w, hi_w = _window(rule)
    aces = [i for i, p in natural if p.rank == 1]
    ace_options = _ace_values(rule)
    problem = "these cards are not consecutive"
    # each ace independently low or high (two aces may be A…A only under "both")
    for assignment in _ace_assignments(len(aces), ace_options):
        if rule.ace == "either" and 1 in assignment and 14 in assignment:
            continue  # one run holds its ace low or high, not both (A-2-…-K-A)
        values = {i: p.rank for i, p in natural}
        for i, v in zip(aces, assignment, strict=True):
            values[i] = v
        if rule.ordered:
            got = _ordered_run(pieces, values, lo_w, hi_w, rule, wild, suit)
        else:
            got = _unordered_run(n, values, lo_w, hi_w, rule, wild, suit)
        if isinstance(got, str):
            problem = got if problem.startswith("these") else problem
            continue
        return got
    if len(aces) and rule.ace == "either" and not rule.wrap:
        ranks = {p.rank for _, p in natural}
        if 1 in ranks and 13 in ranks and 2 in ranks:
            return "an ace is either low (A-2-3) or high (Q-K-A), never both (no K-A-2)"
    return problem


def _ace_assignments(count: int, options: tuple[int, ...]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for _ in range(count):
        out = [a + (o,) for a in out for o in options]
    return out


def _unordered_run(n: int, values: dict[int, int], lo_w: int, hi_w: int, rule: SequenceRule,
                   wild: WildRule, suit: str) -> MeldCheck | str:
    vals = sorted(values.values())
    if len(set(vals)) < len(vals):
        dup = next(v for v in vals if vals.count(v) > 1)
        return f"a sequence cannot hold two {_plural(dup)}"
    wilds = n - len(vals)
    if rule.wrap:
        return _wrapped_run(n, vals, wild, suit)
    span_lo, span_hi = vals[0], vals[-1]
    if span_lo < lo_w or span_hi > hi_w:
        return "an ace is either low (A-2-3) or high (Q-K-A), never both (no K-A-2)"
    gaps = (span_hi - span_lo + 1) - len(vals)
    if gaps > wilds:
        return "these cards are not consecutive" + (" even with the jokers" if wilds else "")
    extra = wilds - gaps
    room = (span_lo - lo_w) + (hi_w - span_hi)
    if extra > room:
        return "the sequence would run past the ace"
    # place extra wilds: high end first (they count for more), but obey no-adjacent if asked
    for below in range(0, extra + 1):
        above = extra - below
        if below > span_lo - lo_w or above > hi_w - span_hi:
            continue
        start = span_lo - below
        positions = list(range(start, span_hi + above + 1))
        present = set(vals)
        mask = [v not in present for v in positions]
        if wild.no_adjacent and any(a and b for a, b in zip(mask, mask[1:], strict=False)):
            continue
        stands = tuple((v, suit) for v in positions)
        return MeldCheck("sequence", _run_words(positions, suit), wilds, len(vals), stands)
    return ADJACENT_WILDS


def _wrapped_run(n: int, vals: list[int], wild: WildRule, suit: str) -> MeldCheck | str:
    ranks = sorted({v if v != 14 else 1 for v in vals})
    if len(ranks) < len(vals):
        return "a sequence cannot hold the same card twice"
    wilds = n - len(vals)
    if n > 13:
        return "a sequence holds at most 13 cards"
    for start in range(1, 14):
        positions = [((start - 1 + k) % 13) + 1 for k in range(n)]
        if set(ranks) <= set(positions):
            mask = [p not in ranks for p in positions]
            if wild.no_adjacent and any(a and b for a, b in zip(mask, mask[1:], strict=False)):
                continue
            stands = tuple((p, suit) for p in positions)
            return MeldCheck("sequence", _run_words(positions, suit), wilds, len(vals), stands)
    return "these cards are not consecutive"


def _ordered_run(pieces: Sequence[Piece], values: dict[int, int], lo_w: int, hi_w: int,
                 rule: SequenceRule, wild: WildRule, suit: str) -> MeldCheck | str:
    n = len(pieces)
    idx = sorted(values)
    for step in (1, -1):
        base = values[idx[0]] - step * idx[0]
        positions = [base + step * k for k in range(n)]
        if any(values[i] != positions[i] for i in idx):
            continue
        if min(positions) < lo_w or max(positions) > hi_w:
            continue
        mask = [i not in values for i in range(n)]
        if wild.no_adjacent and any(a and b for a, b in zip(mask, mask[1:], strict=False)):
            return ADJACENT_WILDS
        asc = sorted(positions)
        stands = tuple((v, suit) for v in positions)
        return MeldCheck("sequence", _run_words(asc, suit), n - len(values), len(values), stands)
    return "in the order laid, these cards are not consecutive"


def _run_words(positions: Sequence[int], suit: str) -> str:
    lo, hi = positions[0], positions[-1]
    where = f" of {SUIT_NAMES[suit]}" if suit in SUIT_NAMES else ""
    return f"a run {rank_text(1 if lo == 14 else lo)} to {rank_text(1 if hi == 14 else hi)}{where}"


# --- either -------------------------------------------------------------------------------


def classify_pieces(pieces: Sequence[Piece], rules: MeldRules) -> MeldCheck:
    """Classify one group as the best meld it can be, or say why it is none."""
    if not pieces:
        return _invalid("an empty group")
    seq = check_sequence(pieces, rules.sequence, rules.wild) if rules.sequence else None
    if seq is not None and seq.kind == "pure-sequence":
        return seq
    grp = check_group(pieces, rules.group, rules.wild) if rules.group else None
    if grp is not None and grp.valid:
        return grp
    if seq is not None and seq.valid:
        return seq
    return _invalid(_explain(pieces, seq, grp))


def _explain(pieces: Sequence[Piece], seq: MeldCheck | None, grp: MeldCheck | None) -> str:
    hard = [p for p in pieces if not p.wild]
    same_rank = len({p.rank for p in hard}) <= 1 and hard
    if same_rank and grp is not None:
        return grp.reason
    if seq is not None:
        return seq.reason
    if grp is not None:
        return grp.reason
    return "not a meld"


def classify(items: Sequence[Item], rules: MeldRules, is_wild: WildTest = printed_jokers_wild) -> MeldCheck:
    """Classify a group of cards or tiles under ``rules``; ``is_wild`` marks the wild cards."""
    return classify_pieces([to_piece(i, is_wild) for i in items], rules)
