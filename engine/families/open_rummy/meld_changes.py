"""How the melds on an Open Rummy table changed in one turn, and which meld rules the change broke.

Every meld before the turn must be found again after it, in the same seat's area: unchanged,
grown at its ends, with jokers replaced by the natural cards they stand for, or joined with
other sequences of the same seat. Every meld after the turn is either such a meld or one the
player on turn opened in front of themselves. The search tries every way of matching the
changed melds and keeps the reading that breaks the fewest rules (none, when the turn is legal).

What is checked, in our words: opponents' melds are never touched; partners' melds may grow
and have their jokers replaced, but new melds go only in front of the player on turn; melds
never split, merge across seats, or trade cards; only sequences of one seat join, and only
when they never held more than three jokers between them; a joker is replaced only by the
natural card it stands for; a printed joker so replaced goes back to a hand, while a sliding
joker stays and slides to an end of its sequence (for a partner's sequence the slide may be
left to the opener, the two lying beside the opener's melds meanwhile); no joker is added
beyond the ends of a complete set; groups of Threes or Aces take only more of their rank, and a
suited group that grows loses its bonus.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from engine.cards import Card
from engine.families.open_rummy.melds import (
    ACE,
    LOWEST,
    MAX_JOKERS,
    OpenMeld,
    classify_open,
    is_joker,
    is_printed,
    is_sliding,
    natural_rank,
    position_text,
)
from engine.table import TableMeld, TableState

SEARCH_LIMIT: Final = 4000  # matchings tried per seat before settling for the best so far
RETRY_LIMIT: Final = 600  # the same, when every meld of the seat is put back in play


def _text(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _list(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in sorted(cards, key=lambda c: (c.suit, natural_rank(c))))


def _jokers(cards: Sequence[Card]) -> int:
    return sum(1 for c in cards if is_joker(c))


def _team(seat: int) -> int:
    return seat % 2


@dataclass(frozen=True, slots=True)
class _Fit:
    """A meld from before the turn found inside a meld after it, under one reading of each."""

    b: int
    a: int
    ra: int  # reading of the after meld (-1: a group, or an invalid meld that merely contains it)
    covered: frozenset[int]
    replaced: tuple[tuple[int, Card, Card], ...]  # (position, joker, natural card)


@dataclass
class MeldChanges:
    """The melds' side of a turn: what was played, what went back to the hand, what broke."""

    violations: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    played: Counter[Card] = field(default_factory=Counter)
    returned: Counter[Card] = field(default_factory=Counter)
    carried: dict[int, tuple[TableMeld, ...]] = field(default_factory=dict)


def _fit(bi: int, b: Sequence[Card], bm: OpenMeld, ai: int, a: Sequence[Card], am: OpenMeld
         ) -> tuple[list[_Fit], str]:
    """Every way the before meld ``b`` sits inside the after meld ``a``; else a reason, or ''."""
    if not am.valid:
        if not Counter(b) - Counter(a):
            return [_Fit(bi, ai, -1, frozenset(), ())], ""
        return [], ""
    if bm.is_group or am.is_group:
        if bm.is_group and am.is_group and bm.rank == am.rank and not Counter(b) - Counter(a):
            return [_Fit(bi, ai, -1, frozenset(), ())], ""
        return [], ""
    if not bm.valid:
        return [], ""
    fits: list[_Fit] = []
    reason = ""
    for ri, ra in enumerate(am.readings):
        at = dict(zip(ra.positions, a, strict=True))
        for rb in bm.readings:
            if rb.suit != ra.suit:
                break
            replaced: list[tuple[int, Card, Card]] = []
            ok = True
            for p, c in zip(rb.positions, b, strict=True):
                now = at.get(p)
                if now is None:
                    ok = False
                    break
                if now == c:
                    continue
                if is_joker(c) and not is_joker(now) and natural_rank(now) == p and now.suit == ra.suit:
                    replaced.append((p, c, now))
                    continue
                if is_joker(c) and is_joker(now):
                    reason = "a joker on the table can only be replaced by the natural card it stands for, never by another joker"
                elif not reason:
                    reason = "cards of a meld were moved or swapped: melds are never rearranged"
                ok = False
                break
            if ok:
                fits.append(_Fit(bi, ai, ri, frozenset(rb.positions), tuple(replaced)))
    return fits, reason


class _SeatMatch:
    """Match one team seat's changed melds before the turn to its melds after it."""

    def __init__(self, seat: int, mover: int, before: list[TableMeld], after: list[TableMeld],
                 pending_before: list[Card]) -> None:
        self.seat = seat
        self.mover = mover
        self.before = before
        self.after = after
        self.pending_before = pending_before
        self.bm = [classify_open(m.cards) for m in before]
        self.am = [classify_open(m.cards) for m in after]
        self.fits: list[list[_Fit]] = []
        self.fail_reason: list[str] = []
        for bi, b in enumerate(before):
            options: list[_Fit] = []
            why = ""
            for ai, a in enumerate(after):
                got, reason = _fit(bi, b.cards, self.bm[bi], ai, a.cards, self.am[ai])
                options += got
                why = why or reason
            self.fits.append(options)
            self.fail_reason.append(why)

    def solve(self, limit: int = SEARCH_LIMIT) -> tuple[list[str], MeldChanges, list[int]]:
        """The matching that breaks the fewest rules: (violations, details, unplaced before melds)."""
        order = sorted(range(len(self.before)), key=lambda i: len(self.fits[i]))
        best: list[tuple[int, list[str], MeldChanges, list[int]]] = []
        tried = 0
        misses = 0
        choice: dict[int, _Fit | None] = {}
        reading: dict[int, int] = {}
        used: dict[int, set[int]] = {}
        group_used: set[int] = set()

        def leaf() -> None:
            nonlocal tried
            tried += 1
            changes = MeldChanges()
            unplaced = [i for i in range(len(self.before)) if choice.get(i) is None]
            self._evaluate(choice, changes)
            score = len(changes.violations) + 2 * len(unplaced)
            if not best or score < best[0][0]:
                best[:] = [(score, changes.violations, changes, unplaced)]

        def go(k: int) -> bool:
            nonlocal misses
            if tried >= limit:
                return True
            if k == len(order):
                leaf()
                return bool(best) and best[0][0] == 0
            i = order[k]
            for f in self.fits[i]:
                if f.ra < 0:
                    if f.a in group_used or f.a in reading:
                        continue
                    group_used.add(f.a)
                    choice[i] = f
                    if go(k + 1):
                        return True
                    group_used.discard(f.a)
                    continue
                if f.a in group_used or reading.get(f.a, f.ra) != f.ra:
                    continue
                taken = used.setdefault(f.a, set())
                if taken & f.covered:
                    continue
                fresh = f.a not in reading
                reading[f.a] = f.ra
                taken |= f.covered
                choice[i] = f
                if go(k + 1):
                    return True
                taken -= f.covered
                if fresh:
                    del reading[f.a]
            choice[i] = None
            if best and 2 * (misses + 1) >= best[0][0]:
                return False  # leaving one more meld unplaced cannot beat the best found
            misses += 1
            done = go(k + 1)
            misses -= 1
            return done

        go(0)
        _, violations, changes, unplaced = best[0]
        return violations, changes, unplaced

    def _evaluate(self, choice: dict[int, _Fit | None], out: MeldChanges) -> None:
        seat, mover = self.seat, self.mover
        pending = Counter(self.pending_before) if mover == seat else Counter()
        by_after: dict[int, list[_Fit]] = {}
        for f in choice.values():
            if f is not None:
                by_after.setdefault(f.a, []).append(f)
        leftover: list[tuple[Card, str]] = []
        slid_inside: Counter[Card] = Counter()  # replaced twos read as slid to a real card's place
        lone: list[int] = []
        carried: list[TableMeld] = []
        for ai, meta in enumerate(self.after):
            cards, am = meta.cards, self.am[ai]
            fits = by_after.get(ai, [])
            if not fits:
                if len(cards) == 1 and is_sliding(cards[0]) and seat != mover:
                    lone.append(ai)
                    continue
                if seat != mover:
                    out.violations.append(f"laid {_text(cards)} in front of seat {seat}: new melds go only in front of the player who lays them")
                elif not am.valid:
                    out.violations.append(f"{_text(cards)} is not a valid meld: {am.reason}")
                elif (outside := _joker_beyond_ends(cards, am)) is not None:
                    out.violations.append(f"opened {_text(cards)} with {outside} beyond the end of a complete set: "
                                          "a joker there could stand for no card (only a slid joker gets there)")
                else:
                    out.actions.append(f"opened {_text(cards)}")
                carried.append(TableMeld(cards, True, _jokers(cards)))
                continue
            bs = [self.before[f.b] for f in fits]
            b_texts = [str(b) for b in bs]
            if not am.valid:
                out.violations.append(f"{_text(cards)} is not a valid meld: {am.reason}")
                carried.append(TableMeld(cards, False, _jokers(cards)))
                continue
            if am.is_group:
                if len(fits) > 1:
                    out.violations.append(f"groups {' and '.join(b_texts)} were merged: melds are never joined except sequences")
                added = Counter(cards) - Counter(bs[0].cards)
                if added:
                    out.actions.append(f"added {_list(list(added.elements()))} to {b_texts[0]}")
                    if self.bm[fits[0].b].kind == "suited-group":
                        out.notes.append(f"{b_texts[0]} grew, so it no longer earns the suited-group bonus")
                carried.append(TableMeld(cards, bs[0].laid_whole and not added, None))
                continue
            ra = am.readings[fits[0].ra]
            peaks = sum(max(b.peak_jokers or 0, _jokers(b.cards)) for b in bs)
            if len(fits) > 1:
                if peaks > MAX_JOKERS:
                    out.violations.append(
                        f"{' and '.join(b_texts)} have held more than {MAX_JOKERS} jokers between them, so they can never be joined")
                else:
                    out.actions.append(f"joined {' and '.join(b_texts)}")
            covered: set[int] = set()
            slid: Counter[Card] = Counter()
            for f in fits:
                covered |= f.covered
                for _p, joker, natural in f.replaced:
                    where = str(self.before[f.b])
                    if is_printed(joker):
                        out.returned[joker] += 1
                        out.actions.append(f"replaced the joker standing for {natural} in {where} with the real card, taking the joker into the hand")
                    else:
                        slid[joker] += 1
                        out.actions.append(f"replaced the sliding joker {joker} standing for {natural} in {where} with the real card")
            added_cards: list[Card] = []
            for p, c in zip(ra.positions, cards, strict=True):
                if p in covered:
                    continue
                if is_sliding(c) and slid[c] > 0:
                    slid[c] -= 1
                    if LOWEST <= p <= ACE:
                        slid_inside[c] += 1
                    out.actions.append(f"slid {c} to {position_text(p, ra.suit)}")
                    continue
                if is_sliding(c) and pending[c] > 0:
                    pending[c] -= 1
                    out.actions.append(f"placed the joker {c} left to them at {position_text(p, ra.suit)}")
                    continue
                if is_joker(c) and (p < LOWEST or p > ACE):
                    out.violations.append(f"{c} was added beyond the end of a complete set: a joker there could stand for no card")
                added_cards.append(c)
            if added_cards:
                out.actions.append(f"added {_list(added_cards)} to {' + '.join(b_texts)}")
            leftover += [(c, " + ".join(b_texts)) for c in slid.elements()]
            carried.append(TableMeld(cards, False, max(peaks, _jokers(cards))))
        spare = [self.after[i].cards[0] for i in lone]
        for c, where in leftover:
            if seat != mover and c in spare:
                spare.remove(c)
                out.notes.append(f"the slide of {c} from {where} is left to its opener, seat {seat}")
                carried.append(TableMeld((c,), False, 1))
                continue
            out.violations.append(f"the sliding joker {c} replaced in {where} must stay in that sequence, slid to one of its ends")
        for c in spare:
            carried.append(TableMeld((c,), False, 1))
            if seat != mover and slid_inside[c] > 0:
                # the same two from the hand went to the end; the replaced one waits for the opener
                slid_inside[c] -= 1
                out.notes.append(f"the slide of a replaced {c} is left to its opener, seat {seat}")
                continue
            out.violations.append(f"laid {c} alone in front of seat {seat}: a lone joker is not a meld")
        for c in pending.elements():
            out.violations.append(f"the sliding joker {c} left aside for seat {seat} vanished: it must be slid to an end of its sequence")
        out.carried[seat] = tuple(carried)


def _lone_two(meld: TableMeld) -> bool:
    """A sliding joker lying alone: replaced in a partner's sequence, its slide left to the opener."""
    return len(meld.cards) == 1 and is_sliding(meld.cards[0])


def _pair_unchanged(before: Sequence[TableMeld], after: Sequence[TableMeld]
                    ) -> tuple[list[TableMeld], list[TableMeld], list[TableMeld]]:
    """Pair melds that did not change; return (kept with their history, changed before, changed after).

    A meld seen from the other end (the same cards in reverse order) has not changed either.
    """
    waiting: dict[tuple[Card, ...], list[TableMeld]] = {}
    for m in before:
        waiting.setdefault(m.cards, []).append(m)
    kept: list[TableMeld] = []
    rest_after: list[TableMeld] = []
    for m in after:
        same = waiting.get(m.cards) or waiting.get(m.cards[::-1])
        if same:
            kept.append(same.pop())
        else:
            rest_after.append(m)
    rest_before = [m for ms in waiting.values() for m in ms]
    return kept, rest_before, rest_after


def _opponent(seat: int, before: list[TableMeld], after: list[TableMeld], out: MeldChanges) -> None:
    left = list(before)
    for a in after:
        share = [(sum((Counter(a.cards) & Counter(b.cards)).values()), k) for k, b in enumerate(left)]
        share.sort(reverse=True)
        if share and share[0][0]:
            b = left.pop(share[0][1])
            extra = Counter(a.cards) - Counter(b.cards)
            if not Counter(b.cards) - Counter(a.cards):
                out.violations.append(f"added {_list(list(extra.elements()))} to {b}, a meld of seat {seat}: "
                                      "nobody may add to or touch an opponent's melds")
            else:
                out.violations.append(f"changed {b}, a meld of seat {seat}, into {a}: "
                                      "nobody may add to, replace jokers in or touch an opponent's melds")
        else:
            out.violations.append(f"laid {a} in front of seat {seat}, an opponent: new melds go only in front of the player who lays them")
    for b in left:
        out.violations.append(f"{b}, a meld of seat {seat}, was taken away: nobody may touch an opponent's melds")


def _explain_unplaced(b: TableMeld, seat: int, why: str, after: TableState, mover: int) -> str:
    have = Counter(b.cards)
    for other, ms in after.melds.items():
        if other == seat:
            continue
        for a in ms:
            if not have - Counter(a.cards):
                if _team(other) == _team(seat):
                    return (f"{b} of seat {seat} was joined to or moved into {a} of seat {other}: "
                            "melds of different partners never join")
                return f"{b} of seat {seat} was moved into an opponent's meld {a}"
    if why:
        return f"{b}: {why}"
    holders = sum(1 for a in after.seat_melds(seat) if Counter(a.cards) & have)
    if holders > 1:
        return f"{b} was split apart: melds are never split and cards never move from one meld to another"
    return f"{b} was taken off the table: cards laid down stay on the table"


def compare_melds(before: TableState, after: TableState, mover: int, players: int) -> MeldChanges:
    """Everything the melds say about a turn by seat ``mover``."""
    out = MeldChanges()
    replaced_pj = 0
    unplaced_count = 0
    before_cards: Counter[Card] = Counter()  # cards of the changed melds only: the rest cancel out
    after_cards: Counter[Card] = Counter()
    for seat in range(players):
        kept, rest_b, rest_a = _pair_unchanged(before.seat_melds(seat), after.seat_melds(seat))
        for m in rest_b:
            before_cards.update(m.cards)
        for m in rest_a:
            after_cards.update(m.cards)
        if not rest_b and not rest_a:
            if kept:
                out.carried[seat] = tuple(kept)
            continue
        if _team(seat) != _team(mover):
            _opponent(seat, rest_b, rest_a, out)
            out.carried[seat] = tuple(kept) + tuple(rest_a)
            continue
        pending = [m.cards[0] for m in rest_b if _lone_two(m)]
        movable = [m for m in rest_b if not _lone_two(m)]
        if pending and mover != seat:
            for c in pending:
                out.violations.append(f"the sliding joker {c} left aside for seat {seat} may only be placed by that seat")
        match = _SeatMatch(seat, mover, movable, rest_a, pending)
        violations, changes, unplaced = match.solve()
        if (violations or unplaced) and kept:
            # Pairing equal melds first can hide the legal reading (a meld opened this turn equal
            # to one already there, with the old one grown): try again with every meld in play.
            every = list(before.seat_melds(seat))
            retry = _SeatMatch(seat, mover, [m for m in every if not _lone_two(m)],
                               list(after.seat_melds(seat)), [m.cards[0] for m in every if _lone_two(m)])
            again = retry.solve(RETRY_LIMIT)
            if len(again[0]) + 2 * len(again[2]) < len(violations) + 2 * len(unplaced):
                match, (violations, changes, unplaced), kept = retry, again, []
                movable = [m for m in every if not _lone_two(m)]
        out.violations += violations
        out.actions += changes.actions
        out.notes += changes.notes
        out.returned += changes.returned
        replaced_pj += sum(changes.returned.values())
        out.carried[seat] = tuple(kept) + changes.carried.get(seat, ())
        for i in unplaced:
            unplaced_count += 1
            out.violations.append(_explain_unplaced(movable[i], seat, match.fail_reason[i], after, mover))
    out.played = after_cards - before_cards
    lost = before_cards - after_cards
    back = Counter({c: min(n, out.returned[c]) for c, n in lost.items() if is_printed(c)})
    out.returned = back
    gone = lost - back
    if gone and not unplaced_count:
        out.violations.append(f"{_list(list(gone.elements()))} left the table: cards laid down never go back to a hand")
    return out


def _joker_beyond_ends(cards: Sequence[Card], meld: OpenMeld) -> Card | None:
    """A joker that every reading of a newly laid sequence puts below the 3 or above the ace."""
    if not meld.readings:
        return None
    found: Card | None = None
    for reading in meld.readings:
        outside = [c for p, c in zip(reading.positions, cards, strict=True)
                   if is_joker(c) and (p < LOWEST or p > ACE)]
        if not outside:
            return None
        found = found or outside[0]
    return found
