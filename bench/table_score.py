"""Scoring a reading of a rendered table against the scene's truth, card by card and meld by meld.

A rendered card counts as visible when at least one of its printed indices shows nearly
whole (``vision.synth.scene``). A card lying mostly under its neighbours, with only part of
an index showing, is still on the table: reading it right is no error, and missing it is no
miss. So a read that lies on such a card (an index centre of the read, or its box centre,
inside the card's outline) and names it is *optional*: it counts neither way in precision
and recall, and a meld is grouped exactly when one group holds the meld's visible cards and,
besides, only optional reads of that meld's own hidden cards. So is a ``??`` lying where
such a card is the top one: the contract (``see``) lists a card it cannot read with
confidence as ``??`` rather than guess it. ``strict`` figures count every read that is not a
visible card as wrong, and every ``??`` in a meld's group as breaking it, as the scoring did
before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
from scoring import compare

from vision.reading import DetectedCard, TableReading
from vision.synth import SceneCard, touching_melds


@dataclass
class TableScore:
    """Counts summed over tables: cards right, wrong and missed (optional reads left out, and
    ``strict_wrong`` with them in), tables read exactly, melds grouped exactly, and the printed
    jokers with an index showing (``jokers``) and those of them read as jokers where they lie
    (``jokers_read``)."""

    right: int = 0
    wrong: int = 0
    missed: int = 0
    strict_wrong: int = 0
    exact: int = 0
    melds: int = 0
    melds_hit: int = 0
    melds_strict: int = 0
    jokers: int = 0
    jokers_read: int = 0
    #: melds not grouped exactly, by first cause (``meld_misses``)
    why: Counter[str] = field(default_factory=Counter)

    def add(self, other: TableScore) -> None:
        for name in self.__dataclass_fields__:
            if name == "why":
                self.why.update(other.why)
            else:
                setattr(self, name, getattr(self, name) + getattr(other, name))


def _centres(card: DetectedCard) -> list[tuple[float, float]]:
    boxes = card.indices or (card.box,)
    return [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes]


def optional_reads(scene: Sequence[SceneCard], reading: TableReading) -> dict[int, SceneCard]:
    """The reads (by position) that name a card of the scene with no index showing whole and
    lie on it, and the unreadable reads (``??``) lying where such a card is the top one (the
    scene lists its cards bottom first); each such card excuses one read at most, a read
    naming it before a ``??``."""
    outlines = [c.quad.astype(np.float32).reshape(-1, 1, 2) for c in scene]

    def on(k: int, point: tuple[float, float]) -> bool:
        return cv2.pointPolygonTest(outlines[k], point, False) >= 0

    def on_top(k: int, point: tuple[float, float]) -> bool:
        return on(k, point) and not any(on(j, point) for j in range(k + 1, len(scene)))

    hidden = [k for k, c in enumerate(scene) if not c.visible_indices]
    claimed: set[int] = set()
    out: dict[int, SceneCard] = {}
    # the reads naming a card first, so a ``??`` never takes the excuse of a card read right
    order = sorted(range(len(reading.cards)), key=lambda i: not reading.cards[i].readable)
    for i in order:
        read = reading.cards[i]
        for k in hidden:
            if k in claimed:
                continue
            if read.readable:
                lies = scene[k].card == read.card and any(on(k, p) for p in _centres(read))
            else:
                lies = any(on_top(k, p) for p in _centres(read))
            if lies:
                claimed.add(k)
                out[i] = scene[k]
                break
    return out


def _top_card(scene: Sequence[SceneCard]):  # type: ignore[no-untyped-def]
    """A function giving the scene card on top at a point (``None`` off every card)."""
    outlines = [c.quad.astype(np.float32).reshape(-1, 1, 2) for c in scene]

    def top_at(point: tuple[float, float]) -> int | None:
        for k in range(len(scene) - 1, -1, -1):  # the scene lists its cards bottom first
            if cv2.pointPolygonTest(outlines[k], point, False) >= 0:
                return k
        return None

    return top_at


def jokers_read(scene: Sequence[SceneCard], reading: TableReading) -> tuple[int, int]:
    """The scene's printed jokers with an index showing whole, and how many of them a read
    naming a joker lies on: a read lies on the card on top where an index centre of it (or
    its box centre) falls; a read counts for one joker, and each joker is counted once."""
    top_at = _top_card(scene)
    shown = {k for k, c in enumerate(scene) if c.card == "PJ" and c.visible_indices}
    found: set[int] = set()
    for read in (r for r in reading.cards if r.card == "PJ"):  # each read names one joker
        under = [k for k in map(top_at, _centres(read)) if k in shown and k not in found]
        found.update(under[:1])
    return len(shown), len(found)


def meld_misses(scene: Sequence[SceneCard], reading: TableReading,
                melds: Sequence[int]) -> Counter[str]:
    """Each meld of ``melds`` (not grouped exactly) put down to its first cause: ``not found``
    (a visible card of it has no read lying on it: an index centre, or the box centre, on the
    card on top there), ``misread`` (every card has a read on it, one names another card or
    is ``??``), ``split`` (its cards' reads lie in two or more groups), ``merged`` (their group
    holds a read lying on another meld's card), else ``extra read`` (their group holds a read
    more, on the meld's own cards or off every card: a card counted twice, a hidden card
    misread, a read of nothing)."""
    top_at = _top_card(scene)
    on: dict[int, list[int]] = {}  # scene card -> the reads lying on it
    for i, read in enumerate(reading.cards):
        for k in {top_at(p) for p in _centres(read)} - {None}:
            on.setdefault(k, []).append(i)
    group_of = {i: g for g, members in enumerate(reading.groups) for i in members}
    out: Counter[str] = Counter()
    for meld in melds:
        members = [k for k, c in enumerate(scene) if c.group == meld and c.visible_indices]
        if any(k not in on for k in members):
            out["not found"] += 1
        elif any(all(reading.cards[i].card != scene[k].card for i in on[k]) for k in members):
            out["misread"] += 1
        elif len({group_of.get(i) for k in members for i in on[k]
                  if reading.cards[i].card == scene[k].card}) > 1:
            out["split"] += 1
        else:
            holding = {group_of.get(i) for k in members for i in on[k]}
            own = {i for k in members for i in on[k]}
            others = [i for g in holding if g is not None for i in reading.groups[g] if i not in own]
            lies = {top_at(p) for i in others for p in _centres(reading.cards[i])}
            if any(k is not None and scene[k].group != meld for k in lies):
                out["merged"] += 1
            else:
                out["extra read"] += 1
    return out


def score_table(scene: Sequence[SceneCard], reading: TableReading) -> TableScore:
    """One table's counts (see ``TableScore``)."""
    want = Counter(c.card for c in scene if c.visible_indices)
    got = Counter(c.card for c in reading.cards if c.readable)
    optional = optional_reads(scene, reading)
    excused = Counter(reading.cards[i].card for i in optional)
    right, strict_wrong, missed = compare(want, got)
    wrong = sum((got - want - excused).values())
    score = TableScore(right, wrong, missed, strict_wrong, int(missed == 0 and wrong == 0))
    score.jokers, score.jokers_read = jokers_read(scene, reading)
    truth: dict[int, Counter[str]] = {}
    for c in scene:
        if c.visible_indices:
            truth.setdefault(c.group, Counter())[c.card] += 1
    touching = {g for pair in touching_melds(list(scene)) for g in pair}
    strict = [Counter(reading.cards[i].card for i in g) for g in reading.groups]
    lenient = list(range(len(reading.groups)))
    missed_melds = []
    for group, meld in truth.items():
        if group in touching:
            continue  # melds whose cards touch are one group by the contract
        score.melds += 1
        if meld in strict:
            strict.remove(meld)
            score.melds_strict += 1
        for k in lenient:
            kept = Counter(reading.cards[i].card for i in reading.groups[k]
                           if not (i in optional and optional[i].group == group))
            if kept == meld:
                lenient.remove(k)
                score.melds_hit += 1
                break
        else:
            missed_melds.append(group)
    score.why = meld_misses(scene, reading, missed_melds)
    return score
