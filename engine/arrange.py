"""The best arrangement: the lowest penalty a hand can be arranged to, and that arrangement.

The search is exact. It enumerates every meld the hand could form (sequences with wild cards
in gaps and at the ends, sets with or without wilds, wild-rank cards standing as themselves),
then runs a memoised depth-first search over the multiset of cards left: the first remaining
card is either deadwood or part of one of the melds that contain it. A credit condition (for
Indian rummy: two sequences, one pure) is tracked in the memo key, so the search returns the
cheapest arrangement that earns credit; a hand that cannot earn it counts in full.

Cost bound. The search takes at most :data:`MAX_ITEMS` (14) cards, what a 13-card game deals
plus a draw; a longer hand is refused (:class:`~engine.errors.DeckError`) before any work is
done. For ``n <= 14`` cards, with ``L`` the longest meld the search builds (5 under Indian
rules: jokers cost nothing there, so a run of 6 or more cards splits into two runs that are
melds too; sets hold at most 4), and ``C(a, b)`` the binomial coefficient:

1. Memo states are sub-multisets of the hand, so there are at most ``prod(c + 1)`` of them
   over the copies ``c`` of each distinct card, and ``c + 1 <= 2**c`` makes that at most
   ``2**n = 16,384``. Each state keeps a table of at most ``(min_sequences + 1) *
   (min_pure + 1)`` entries (6 for Indian rummy): the memo stays within a few megabytes.
2. In a state of ``m`` cards the first card is either deadwood (one child) or part of a meld
   taking ``k`` cards (``3 <= k <= L``) that include it: at most ``C(m - 1, k - 1)`` card
   multisets, each read as at most 3 kinds (set, sequence, pure sequence). The search merges
   each distinct (cards taken, kind) child once, so over all states at most
   ``sum_m C(n, m) * (1 + 3 * sum_k C(m - 1, k - 1))`` merges: 3,914,748 for ``n = 14``,
   ``L = 5``.
3. Candidate melds are deduplicated by (cards used, jokers, kind), so the pairs (meld, wild
   cards filling its jokers) that fit a state split each such child's ``k`` cards into
   naturals and fillers: at most ``2**k`` pairs per child, 82,395,063 in all for ``n = 14``,
   ``L = 5``. The candidate list itself is built once per hand from at most 4 suits x 14
   lowest ranks x ``L`` lengths of runs and 13 ranks of sets.

These are ceilings, not estimates: the worst hands ``bench/bench_arrange.py`` can construct
(ten wild cards, doubled runs, overlapping runs, aces at both ends) visit about a thousand
states and twenty thousand pairs, and take well under a second.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations, product
from typing import Any

from engine.cards import Card
from engine.errors import DeckError
from engine.melds import MeldRules, Piece, WildRule, _wild_limits, _window, to_piece
from engine.tiles import Tile

Item = Card | Tile
Number = int | float | Fraction

#: The most cards the search takes: a 13-card hand plus a draw. The cost bound in the module
#: docstring holds up to here; a longer hand is an input error.
MAX_ITEMS = 14


@dataclass(frozen=True, slots=True)
class Credit:
    """What a hand's melds must include before they reduce its count."""

    min_sequences: int = 0
    min_pure: int = 0


@dataclass(frozen=True, slots=True)
class Arrangement:
    melds: tuple[tuple[Item, ...], ...]
    kinds: tuple[str, ...]
    deadwood: tuple[Item, ...]
    points: Number
    credited: bool


@dataclass(frozen=True, slots=True)
class _Candidate:
    uses: tuple[int, ...]  # per identity slot: how many copies this meld consumes
    jokers: int  # generic wild slots, filled from any wild identity
    kind: str  # "pure-sequence" | "sequence" | "set"
    order: tuple[int, ...]  # identity per position, -1 for a generic wild
    suit: str = ""  # sequences: their suit and lowest rank value, for joining runs afterwards
    lo: int = 0


def best_arrangement(
    items: Sequence[Item],
    rules: MeldRules,
    is_wild: Callable[[Item], bool],
    value: Callable[[Item], Number],
    credit: Credit = Credit(),
    cap: Number | None = None,
    stats: dict[str, int] | None = None,
) -> Arrangement:
    """Return the arrangement of ``items`` with the lowest penalty under ``rules``.

    Raise :class:`DeckError` for more than :data:`MAX_ITEMS` cards (see the cost bound above).
    ``stats``, if given, receives the work done: ``states`` (memo entries), ``children``
    (distinct children merged) and ``pairs`` (meld and joker fill pairs that fit a state).
    """
    if len(items) > MAX_ITEMS:
        raise DeckError(f"a hand for the best arrangement holds at most {MAX_ITEMS} cards, got {len(items)}")
    pieces = [_pool_key(to_piece(i, is_wild), i, items, is_wild, value, rules) for i in items]
    ids: list[tuple[Piece, Item]] = []
    index: dict[Piece, int] = {}
    for piece, item in zip(pieces, items, strict=True):
        if piece not in index:
            index[piece] = len(ids)
            ids.append((piece, item))
    # a fixed order (naturals by suit and rank, then wild cards) makes the work independent of
    # the order the cards were given in; wild identities last lets a meld's first card be natural
    order = sorted(range(len(ids)), key=lambda k: (ids[k][0].wild, ids[k][0].printed_joker,
                                                   ids[k][0].suit, ids[k][0].rank, k))
    ids = [ids[k] for k in order]
    index = {p: k for k, (p, _) in enumerate(ids)}
    members: dict[int, list[Item]] = {}
    for piece, item in zip(pieces, items, strict=True):
        members.setdefault(index[piece], []).append(item)
    counts = Counter(index[p] for p in pieces)
    start = tuple(counts[k] for k in range(len(ids)))
    values = [value(item) for _, item in ids]
    wild_ids = [k for k, (p, _) in enumerate(ids) if p.wild]
    free_jokers = all(values[k] == 0 for k in wild_ids)
    cands = _unique(_candidates([p for p, _ in ids], start, rules, free_jokers))
    by_first: dict[int, list[tuple[_Candidate, tuple[tuple[int, int], ...]]]] = {}
    for c in cands:
        sparse = tuple((k, n) for k, n in enumerate(c.uses) if n)
        for k, _ in sparse:
            by_first.setdefault(k, []).append((c, sparse))

    @cache
    def fills(avail: tuple[tuple[int, int], ...], n: int) -> list[tuple[int, ...]]:
        return _joker_fills(avail, n)
    need_seq, need_pure = credit.min_sequences, credit.min_pure

    Key = tuple[int, int]
    Step = tuple[Number, Any]
    work = {"states": 0, "children": 0, "pairs": 0}

    @cache
    def solve(state: tuple[int, ...]) -> dict[Key, Step]:
        """For the cards in ``state``: the cheapest way to reach each (sequences, pure) count
        (capped at what the credit needs), with the first step of that way."""
        work["states"] += 1
        first = next((k for k, n in enumerate(state) if n), None)
        if first is None:
            return {(0, 0): (0, None)}
        table: dict[Key, Step] = {}
        seen: set[tuple[tuple[int, ...], bool, bool]] = set()
        rest = state[:first] + (state[first] - 1,) + state[first + 1:]
        for key, (cost, _) in solve(rest).items():
            table[key] = (cost + values[first], ("dead", rest, key))
        for cand, sparse in by_first.get(first, ()):
            if any(state[k] < u for k, u in sparse):
                continue
            after = list(state)
            for k, u in sparse:
                after[k] -= u
            avail = tuple((k, after[k]) for k in wild_ids if after[k]) if cand.jokers else ()
            add_s = cand.kind != "set"
            add_p = cand.kind == "pure-sequence"
            for fill in fills(avail, cand.jokers):
                work["pairs"] += 1
                left = list(after)
                for k in fill:
                    left[k] -= 1
                child = tuple(left)
                if (child, add_s, add_p) in seen:
                    continue  # the same cards taken as the same kind: the same outcome
                seen.add((child, add_s, add_p))
                work["children"] += 1
                for (ks, kp), (cost, _) in solve(child).items():
                    key = (min(need_seq, ks + add_s), min(need_pure, kp + add_p))
                    held = table.get(key)
                    if held is None or cost < held[0]:
                        table[key] = (cost, ("meld", cand, fill, child, (ks, kp)))
        return table

    total = sum(values[k] * n for k, n in enumerate(start))
    root = solve(start).get((need_seq, need_pure))
    found: tuple[Number, tuple[tuple[_Candidate, tuple[int, ...]], ...]] | None = None
    if root is not None:
        plan: list[tuple[_Candidate, tuple[int, ...]]] = []
        step = root[1]
        while step is not None:
            if step[0] == "meld":
                _, cand, fill, child, key = step
                plan.append((cand, fill))
            else:
                _, child, key = step
            step = solve(child)[key][1]
        found = (root[0], tuple(plan))
    solve.cache_clear()
    fills.cache_clear()
    if stats is not None:
        stats.update(work)
    if found is None:
        return Arrangement((), (), tuple(items), _capped(total, cap), False)
    return _build(found, ids, members, items, cap, credit, rules)


def _unique(cands: list[_Candidate]) -> list[_Candidate]:
    """One candidate per (cards used, jokers, kind): two windows that read the same cards the
    same way (5-6 with a joker below or above) lead to the same states."""
    out: dict[tuple[tuple[int, ...], int, str], _Candidate] = {}
    for c in cands:
        out.setdefault((c.uses, c.jokers, c.kind), c)
    return list(out.values())


def _capped(points: Number, cap: Number | None) -> Number:
    return points if cap is None else min(points, cap)


def _pool_key(piece: Piece, item: Item, items: Sequence[Item], is_wild: Callable[[Item], bool],
              value: Callable[[Item], Number], rules: MeldRules) -> Piece:
    """Wild cards that can only ever act as jokers are interchangeable: give them one identity."""
    if not piece.wild or piece.printed_joker:
        return Piece(0, "", True) if piece.wild else piece
    # a wild-rank card may stand as itself only beside natural cards of its suit or rank
    others = [to_piece(o, is_wild) for o in items if o is not item]
    spare = sum(1 for o in others if o.wild)
    if any(_could_pair(piece, o, spare) for o in others):
        return piece
    return Piece(0, "", True) if value(item) == value(Card(0, "")) else piece


def _could_pair(piece: Piece, other: Piece, spare_wilds: int) -> bool:
    if other.wild or other.rank == piece.rank:
        return True
    if other.suit == piece.suit:
        gap = min(abs(other.rank - piece.rank), abs((other.rank or 14) - piece.rank),
                  abs(other.rank - (14 if piece.rank == 1 else piece.rank)))
        return gap - 1 <= spare_wilds
    return False


def _build(found: tuple[Number, tuple[tuple[_Candidate, tuple[int, ...]], ...]],
           ids: list[tuple[Piece, Item]], members: dict[int, list[Item]], items: Sequence[Item],
           cap: Number | None, credit: Credit, rules: MeldRules) -> Arrangement:
    given = {id(item): i for i, item in reversed(list(enumerate(items)))}
    pools = {k: list(v) for k, v in members.items()}
    runs = _join_runs([c for c, _ in found[1]], [f for _, f in found[1]], credit, rules)
    melds: list[tuple[Item, ...]] = []
    kinds: list[str] = []
    for kind, parts in runs:
        cards: list[Item] = []
        for cand, fill in parts:
            jokers = list(fill)
            for k in cand.order:
                if k < 0:
                    k = jokers.pop(0)
                cards.append(pools[k].pop())
        melds.append(tuple(cards))
        kinds.append(kind)
    # melds and deadwood in the order the hand was given (the search's own order is canonical)
    placed = sorted(range(len(melds)), key=lambda j: min(given[id(c)] for c in melds[j]))
    dead = tuple(sorted((item for k in range(len(ids)) for item in pools[k]), key=lambda c: given[id(c)]))
    return Arrangement(tuple(melds[j] for j in placed), tuple(kinds[j] for j in placed), dead,
                       _capped(found[0], cap), True)


def _join_runs(cands: list[_Candidate], fills: list[tuple[int, ...]], credit: Credit,
               rules: MeldRules) -> list[tuple[str, list[tuple[_Candidate, tuple[int, ...]]]]]:
    """Join runs of one suit that continue each other (the search splits long runs) while the
    credit condition still holds and the joined run is still a meld."""
    groups: list[tuple[str, list[tuple[_Candidate, tuple[int, ...]]]]] = [
        (c.kind, [(c, f)]) for c, f in zip(cands, fills, strict=True)]
    seq = rules.sequence
    limit = seq.max_len if seq is not None and seq.max_len else 99
    joined = True
    while joined:
        joined = False
        seqs = sum(k != "set" for k, _ in groups)
        pure = sum(k == "pure-sequence" for k, _ in groups)
        for i, (ki, pi) in enumerate(groups):
            for j, (kj, pj) in enumerate(groups):
                if i == j or ki == "set" or kj == "set":
                    continue
                a, b = pi[-1][0], pj[0][0]
                if a.suit != b.suit or a.lo + len(a.order) != b.lo:
                    continue
                if sum(len(c.order) for c, _ in pi + pj) > limit:
                    continue
                kind = "pure-sequence" if ki == kj == "pure-sequence" else "sequence"
                lost_pure = (ki == "pure-sequence") + (kj == "pure-sequence") - (kind == "pure-sequence")
                if seqs - 1 < credit.min_sequences or pure - lost_pure < credit.min_pure:
                    continue
                groups[i] = (kind, pi + pj)
                del groups[j]
                joined = True
                break
            if joined:
                break
    return groups


def _joker_fills(avail: tuple[tuple[int, int], ...], n: int) -> list[tuple[int, ...]]:
    """Every distinct multiset of ``n`` wild identities from ``avail`` (identity, copies)."""
    if n == 0:
        return [()]
    out: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: tuple[int, ...]) -> None:
        if left == 0:
            out.append(acc)
            return
        if i == len(avail):
            return
        k, c = avail[i]
        for take in range(min(c, left), -1, -1):
            rec(i + 1, left - take, acc + (k,) * take)

    rec(0, n, ())
    return out


def _candidates(ids: list[Piece], start: tuple[int, ...], rules: MeldRules,
                free_jokers: bool) -> list[_Candidate]:
    """Every meld the hand could form. With jokers that cost nothing, a meld padded with more
    jokers than its minimum size needs is never better than the same meld without them."""
    n_wild = sum(start[k] for k, p in enumerate(ids) if p.wild)
    out: list[_Candidate] = []
    if rules.sequence is not None:
        out += _sequence_candidates(ids, start, rules, n_wild, free_jokers)
    if rules.group is not None:
        out += _set_candidates(ids, start, rules, n_wild, free_jokers)
    return out


def _sequence_candidates(ids: list[Piece], start: tuple[int, ...], rules: MeldRules,
                         n_wild: int, free_jokers: bool) -> list[_Candidate]:
    seq = rules.sequence
    assert seq is not None
    wild = rules.wild
    lo_w, hi_w = _window(seq)
    out: list[_Candidate] = []
    suits = sorted({p.suit for p in ids if not p.printed_joker})
    longest = min(seq.max_len or 99, seq.exact_len or 99, hi_w - lo_w + 1)
    shortest = seq.exact_len or seq.min_len
    if free_jokers and wild.max_per_meld is None and wild.max_ratio is None and wild.min_natural <= 1:
        # A run of 2*shortest cards or more splits into two runs that are melds too (each
        # keeps a natural end card), covering the same cards: longer windows add nothing.
        longest = min(longest, 2 * shortest - 1)
    for suit in suits:
        # sources per rank value: natural identity, flex identity (wild-rank card as itself)
        sources: dict[int, list[int]] = {}
        for k, p in enumerate(ids):
            if p.suit != suit or p.printed_joker or p.rank < 1:
                continue
            if p.rank != 1 and p.rank < seq.lowest:
                continue
            for v in ([14, 1] if p.rank == 1 else [p.rank]):
                sources.setdefault(v, []).append(k)
            if seq.wrap and 2 <= p.rank <= 13:
                sources.setdefault(p.rank + 13, []).append(k)  # past the ace: K-A-2 (a house rule)
        for lo in range(lo_w, hi_w + 1):
            missing = 0
            top = hi_w if not seq.wrap else min(lo + 12, 26)  # wrapped: 13 cards at most
            for hi in range(lo, min(top, lo + longest - 1) + 1):
                if hi not in sources:
                    missing += 1
                    if missing > n_wild:
                        break
                if hi - lo + 1 < shortest:
                    continue
                positions = range(lo, hi + 1)
                padded = free_jokers and hi - lo + 1 > shortest
                if padded and (lo not in sources or hi not in sources):
                    continue
                out += _runs_in_window(ids, positions, sources, n_wild, padded, wild,
                                       reuse=lo == 1 and hi == 14, suit=suit)
    return out


def _runs_in_window(ids: list[Piece], positions: range, sources: dict[int, list[int]], n_wild: int,
                    padded: bool, wild: WildRule, reuse: bool, suit: str) -> list[_Candidate]:
    """Every way to fill one window of ranks: each position by a natural, a wild-rank card
    standing as itself, or a joker (also where a natural exists, in case it is needed elsewhere)."""
    out: list[_Candidate] = []
    pos = list(positions)
    optional = [i for i, v in enumerate(pos) if v in sources]
    mandatory = len(pos) - len(optional)
    inner = optional[1:-1] if padded else optional
    for extra in range(0, n_wild - mandatory + 1):
        for jokered in combinations(inner, extra):
            jset = set(jokered)
            slots = [[-1] if (v not in sources or i in jset) else sources[v] for i, v in enumerate(pos)]
            for choice in product(*slots):
                jokers = mandatory + extra
                naturals = len(choice) - jokers
                if _wild_limits(wild, jokers, naturals):
                    continue
                if wild.no_adjacent and any(a == -1 and b == -1 for a, b in zip(choice, choice[1:], strict=False)):
                    continue
                uses = [0] * len(ids)
                for k in choice:
                    if k >= 0:
                        uses[k] += 1
                if reuse and any(u > 1 for u in uses):
                    continue  # both aces of A-…-K-A are one card here; the state check decides
                flexed = any(k >= 0 and ids[k].wild for k in choice)
                pure = jokers == 0 and (not flexed or wild.natural_if_in_place)
                out.append(_Candidate(tuple(uses), jokers, "pure-sequence" if pure else "sequence", choice,
                                      suit, pos[0]))
    return out


def _set_candidates(ids: list[Piece], start: tuple[int, ...], rules: MeldRules,
                    n_wild: int, free_jokers: bool) -> list[_Candidate]:
    grp = rules.group
    assert grp is not None
    wild = rules.wild
    out: list[_Candidate] = []
    ranks = sorted({p.rank for p in ids if not p.printed_joker})
    size_min = grp.exact_size or grp.min_size
    size_max = grp.exact_size or grp.max_size or 99
    for rank in ranks:
        if grp.ranks is not None and rank not in grp.ranks:
            continue
        members = [k for k, p in enumerate(ids) if p.rank == rank and not p.printed_joker]
        # copies available per member identity (a suit may appear twice across decks)
        pool: list[int] = []
        for k in members:
            pool += [k] * start[k]
        seen: set[tuple[tuple[int, ...], int]] = set()
        for size in range(1, min(len(pool), size_max) + 1):
            for chosen in combinations(pool, size):
                suits = [ids[k].suit for k in chosen]
                if grp.distinct_suits and len(set(suits)) < len(suits):
                    continue
                if grp.same_suit and len(set(suits)) > 1:
                    continue
                for jokers in range(0, min(n_wild, size_max - size) + 1):
                    total = size + jokers
                    if total < size_min or (free_jokers and jokers and total > size_min):
                        continue
                    if grp.distinct_suits and total > 4:
                        continue
                    if _wild_limits(wild, jokers, size):
                        continue
                    key = (tuple(sorted(chosen)), jokers)
                    if key in seen:
                        continue
                    seen.add(key)
                    uses = [0] * len(ids)
                    for k in chosen:
                        uses[k] += 1
                    out.append(_Candidate(tuple(uses), jokers, "set", tuple(chosen) + (-1,) * jokers))
    return out
