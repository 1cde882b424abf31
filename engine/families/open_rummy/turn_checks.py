"""Turn checks: was the change between two table states a legal Open Rummy turn by one seat?

A turn is: draw one card from the stock, or take any number of cards from the top of the
discard pile (then at least one natural card taken must be played at once — the first player
may take a joker the dealer turned up without playing it); lay down or add to melds; end with
exactly one discard. A discarded joker kills the pile: it and the pile under it leave the
game, so the table shows an empty pile. When the stock is empty the player may instead end
the deal at once with a ground show, leaving the table as it was.

The camera cannot see hands, so the checker reads the change: it tries every split of the
discard pile into "taken" and "discarded" that fits the two states and the stock count,
combines each with the meld changes from :mod:`engine.families.open_rummy.meld_changes`, and keeps a reading
that breaks no rule, saying which it assumed when more than one would do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.families.open_rummy.meld_changes import MeldChanges, compare_melds
from engine.families.open_rummy.melds import is_joker
from engine.families.open_rummy.rules import pile_take_problem
from engine.ruling import join_reasons
from engine.table import TableHistory, TableState, TurnVerdict, require_seat


@dataclass(frozen=True, slots=True)
class TurnRules:
    """The facts of the game a turn check needs."""

    players: int = 4
    first_turn: bool | None = None  # force (True) or deny (False) the first-turn joker exception


@dataclass(frozen=True, slots=True)
class PileReading:
    """One way the discard pile and stock changed: what was drawn and what was discarded."""

    taken: int  # cards taken from the top of the discard pile (0: drew from the stock)
    discards: tuple[Card, ...]  # cards newly on the pile (one in a legal turn)
    killed: bool = False  # the pile is empty because a joker was discarded on it
    mismatch: bool = False  # the pile under the taken cards changed
    pulled: tuple[Card, ...] = ()  # cards pulled out from under the top (never legal)

    def taken_cards(self, before: Sequence[Card]) -> tuple[Card, ...]:
        if self.pulled:
            return self.pulled
        return tuple(before[len(before) - self.taken:]) if self.taken else ()


def pile_readings(before: Sequence[Card], after: Sequence[Card]) -> list[PileReading]:
    """Every split of the change to the discard pile into cards taken and cards discarded."""
    out: list[PileReading] = []
    n = len(before)
    if not after:
        out.append(PileReading(0, (), killed=True))
        out += [PileReading(k, (), killed=True) for k in range(1, n + 1)]
        return out
    for k in range(n + 1):
        keep = n - k
        if keep <= len(after) and tuple(after[:keep]) == tuple(before[:keep]):
            out.append(PileReading(k, tuple(after[keep:])))
    if after and not any(len(r.discards) == 1 for r in out):
        pulled = _pulled_from(before, after[:-1])
        if pulled:
            out.insert(0, PileReading(len(pulled), (after[-1],), mismatch=True, pulled=pulled))
    if not out:
        same = 0
        while same < min(n, len(after)) and after[same] == before[same]:
            same += 1
        out.append(PileReading(n - same, tuple(after[same:]), mismatch=True))
    return out


def _pulled_from(before: Sequence[Card], kept: Sequence[Card]) -> tuple[Card, ...]:
    """The cards missing from ``before`` if ``kept`` is it with some cards pulled out, else ()."""
    pulled: list[Card] = []
    k = 0
    for c in before:
        if k < len(kept) and kept[k] == c:
            k += 1
        else:
            pulled.append(c)
    return tuple(pulled) if k == len(kept) and pulled else ()


def _first_turn(before: TableState, rules: TurnRules) -> bool:
    if rules.first_turn is not None:
        return rules.first_turn
    # A lone joker on the pile can only be the dealer's turned-up card: a discarded joker
    # kills the pile, and after the first turn the pile holds that player's discard too.
    return len(before.discard) == 1 and is_joker(before.discard[0]) and not any(before.laid_cards())


def _card_list(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _check_reading(r: PileReading, before: TableState, after: TableState, changes: MeldChanges,
                   rules: TurnRules) -> tuple[list[str], list[str]]:
    """Violations and actions of one reading of the pile."""
    bad: list[str] = []
    did: list[str] = []
    delta = None if before.stock is None or after.stock is None else before.stock - after.stock
    taken = r.taken_cards(before.discard)
    if r.mismatch:
        bad.append("cards under the top of the discard pile changed: cards may only be taken from the top, together with every card above the deepest one taken")
    if r.taken == 0:
        if delta is not None and delta != 1:
            if delta == 0:
                bad.append("no card was drawn: a turn starts by drawing from the stock or taking from the discard pile")
            elif delta > 1:
                bad.append(f"{delta} cards left the stock: only one card may be drawn from it")
            else:
                bad.append("the stock grew: cards never go back to the stock")
        elif before.stock == 0:
            bad.append("drew from an empty stock")
        else:
            did.append("drew from the stock")
    else:
        if delta is not None and delta != 0:
            bad.append("took from the discard pile and also drew from the stock: a turn has one draw")
        did.append(f"took {_card_list(taken)} from the discard pile")
        first = _first_turn(before, rules)
        problem = pile_take_problem(taken, len(taken), changes.played.elements(), first_turn=first)
        if problem:
            bad.append(problem)
        elif first and len(taken) == 1 and is_joker(taken[0]):
            did.append("(the first player may keep the dealer's joker without playing it)")
    if r.killed:
        did.append("discarded a joker, which killed the discard pile")
    elif not r.discards:
        bad.append("no discard: a turn always ends with exactly one card on the discard pile, so a hand is never emptied without one")
    elif len(r.discards) > 1:
        bad.append(f"discarded {len(r.discards)} cards ({_card_list(r.discards)}): a turn ends with exactly one discard")
    else:
        card = r.discards[0]
        if is_joker(card):
            bad.append(f"discarded the joker {card} but the pile was not killed: a discarded joker and the whole pile under it are set aside")
        did.append(f"discarded {card}")
    return bad, did


def check_turn(before: TableState, after: TableState, seat: int, rules: TurnRules) -> TurnVerdict:
    """Check the change from ``before`` to ``after`` as one turn by ``seat``."""
    require_seat(seat, rules.players)
    if before.stock == 0 and before.same_table(after):
        return TurnVerdict(True, "ground show: the stock is empty and the player ended the play without a turn",
                           (), "ground show", after=before)
    changes = compare_melds(before, after, seat, rules.players)
    readings = pile_readings(before.discard, after.discard)
    scored = []
    for r in readings:
        bad, did = _check_reading(r, before, after, changes, rules)
        scored.append((len(bad), r, bad, did))
    fewest = min(s[0] for s in scored)
    legal = [s for s in scored if s[0] == fewest]
    _, reading, bad, did = legal[0]
    notes = list(changes.notes)
    if fewest == 0 and len(legal) > 1:
        other = legal[1][3][0] if legal[1][3] else ""
        notes.append(f"assumed the player {did[0]}" + (f" (another legal reading: {other})" if other else ""))
    elif fewest == 0 and before.stock is None and reading.taken == 0:
        notes.append("assumed a draw from the stock, as no stock count was given")
    violations = tuple(changes.violations + bad)
    taken = reading.taken_cards(before.discard)
    discard = reading.discards[0] if len(reading.discards) == 1 else None
    steps = [did[0]] + changes.actions + did[1:] if did else changes.actions
    if violations:
        reason = "illegal turn: " + join_reasons(violations)
    else:
        reason = join_reasons(steps)
        if notes:
            reason += ". " + "; ".join(notes)
    carried = TableState(changes.carried, after.discard, after.stock)
    return TurnVerdict(
        valid=not violations, reason=reason, violations=violations,
        draw="discard pile" if reading.taken else "stock", taken=taken, discard=discard,
        killed=reading.killed, played=tuple(sorted(changes.played.elements())),
        returned=tuple(sorted(changes.returned.elements())), actions=tuple(changes.actions),
        notes=tuple(notes), after=carried)


def record_turn(history: TableHistory, seat: int, after: TableState, rules: TurnRules
              ) -> tuple[TurnVerdict, TableHistory]:
    """Check a turn against the deal so far; a legal turn joins the history with what it knows."""
    verdict = check_turn(history.current, after, seat, rules)
    if not verdict.valid or verdict.after is None:
        return verdict, history
    return verdict, history.record(seat, verdict.after)


def hand_change(verdict: TurnVerdict) -> int:
    """How many cards the player's hand grew (negative: shrank) in a legal turn."""
    drawn = len(verdict.taken) if verdict.draw == "discard pile" else (1 if verdict.draw == "stock" else 0)
    return drawn + len(verdict.returned) - len(verdict.played) - (0 if verdict.draw == "ground show" else 1)


def played_counter(verdict: TurnVerdict) -> Counter[Card]:
    return Counter(verdict.played)
