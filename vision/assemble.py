"""Turning detector peaks into physical cards: pairing corner indices, fusing whole-card reads.

A card shows its index in two opposite corners, so two indices with the same reading that lie
about a card's diagonal apart are one card; closer ones (a fan of two identical cards from two
decks) or farther ones stay separate. A whole-card detection adds its rank evidence to the
indices inside it, or stands alone when no index inside it was found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

import numpy as np

from engine.cards import UNREADABLE
from vision.detector import Detection
from vision.labels import CARD_CLASSES, INDEX_CLASSES, RANKS, SUITS
from vision.reading import (
    Box,
    DetectedCard,
    box_area,
    inside,
    intersection_area,
    long_side,
)
from vision.table_regions import CardRegions


@dataclass(frozen=True, slots=True)
class AssemblyParams:
    """Thresholds of the assembly stage (fractions, or multiples of an index's size)."""

    index_score: float = 0.35
    card_score: float = 0.5
    min_confidence: float = 0.45
    #: Two indices of one card lie this many index sizes apart (centre to centre) at the
    #: least and the most (on labelled photos: 2.9 at the 10th percentile, 4.4 at the 90th)...
    pair_min: float = 2.5
    pair_max: float = 6.0
    #: ...and typically this many; among pairs that agree alike, the one nearer it is taken
    #: first, by this much agreement per unit of log distance ratio (two identical cards from
    #: two decks lying near each other would otherwise pair across the two).
    pair_typical: float = 3.7
    pair_distance_weight: float = 0.5
    min_agreement: float = 0.02
    #: Two indices each read at least this surely, as different cards, never pair (a five of
    #: spades and a five of clubs fanned a card's diagonal apart agree a little on the rank).
    #: Shipped off (above 1) since the box network: at 0.6 it paid on one source at one seed
    #: and cost two (vision/HISTORY.md, "The rules after the networks measured again with the
    #: box network").
    pair_sure: float = 1.01
    #: A card prints its two corner indices facing opposite ways, and the same corner of two
    #: alike cards (two decks in one fan or row) faces the same way: two indices whose turns
    #: (``Detection.upright``) are each read at least this surely, in boxes the same way
    #: round, pair only when they face opposite ways (above 1, turns are never looked at).
    turn_sure: float = 0.9
    #: ...and, with a turn network of more directions (``Detection.up``), two indices pointing
    #: a quarter turn apart (60 to 120 degrees: neighbours in a fan) never pair either. It
    #: paid on hands held in a fan (+0.005 to +0.020 F1 at three draws) and on light-on-dark
    #: and jumbo tables at one draw of three (+0.002 each), and cost nothing anywhere.
    across: bool = True
    #: ...and two indices read surely facing opposite ways pair from this many index sizes
    #: apart (a jumbo index is a third of its card, its corners nearer than ``pair_min``);
    #: at ``pair_min`` or more, no nearer than other pairs.
    turned_pair_min: float = 2.5
    #: Of the index groups inside a whole card, the card's own is the surest weighed by how
    #: well its rank agrees with the card's read, plus this (so that a read the card rules out
    #: can still be its own when nothing agrees). In a fan the top card's box holds the
    #: indices of the cards beside it, some found more surely than its own.
    own_floor: float = 0.05
    #: A second index group inside a whole card joins the card's first only when their reads
    #: agree at least this much: in a fan the top card's box covers the indices of the cards
    #: under it, which are other cards however alike their reads.
    card_agreement: float = 0.3
    #: A detection this sure is listed as ``??`` when unreadable; weaker unreadable ones are dropped.
    unsure_score: float = 0.35
    #: Whether a card read whole (no index found) is named with the suit its ink colour suggests
    #: (red → H, black → S); otherwise such a card is ``??`` because its suit is unknown.
    guess_suit: bool = False
    #: A lone index this share of a whole card's diagonal away from the card's first index is
    #: its other corner even when the two reads disagree (0 turns this off).
    #: Off (``bench/bench_ablation.py``): it paid on fewer than two held-out sources.
    corner_reach: float = 0.0
    #: Index reads within this share of a whole card's size from its centre, whose rank the
    #: card's read rules out, are pips or art and are dropped (0 turns this off).
    #: Off (``bench/bench_ablation.py``): it paid on fewer than two held-out sources.
    interior: float = 0.0
    #: ...when read less surely than this (a clear index there is another card's, showing
    #: inside the top card's box in a fan).
    interior_below: float = 0.6
    #: Index peaks closer to a stronger peak than this share of its short side (its width, for
    #: an upright index) are the same printed index seen twice; their reads are averaged
    #: (weighted by score) into the stronger one. Under one width, so the neighbours in a fan,
    #: which show at least their index's width, stay apart; 0.8 still merged the neighbours of
    #: tight fans, whose boxes come out wider than the index (0 turns this off).
    #: Off (``bench/bench_ablation.py``): with the detector trained from scratch, switching it
    #: off raised F1 on five of six held-out sources (webcam photos, ranks photos, and three
    #: kinds of drawn table) and cost one card on the sixth (phone photos).
    merge: float = 0.0
    #: Two peaks read alike (the same top class, each at least ``twin_sure``) closer than
    #: this share of the stronger one's short side are one printed index found twice: the
    #: weaker is dropped (0 turns this off). Unlike ``merge`` it never raises a score, so
    #: faint lettering found twice does not become an index.
    twin: float = 0.5
    twin_sure: float = 0.6
    #: A whole card with no index of its own that lies this much inside a card already read
    #: is a second peak on that card, whatever it reads (the cards of a fan under the top
    #: one show their indices; a box with none, lying mostly on a card read, is that card
    #: seen again, its court art or pips read as another rank).
    duplicate: float = 0.6
    #: An unreadable whole card with no index of its own, around a card already read and at
    #: least this many times its area, is a ghost of it and dropped (0 turns this off): on
    #: the labelled photos every such `??` was one, beside cards all read.
    #: Off (``bench/bench_ablation.py``): it paid on fewer than two held-out sources.
    ghost: float = 0.0
    #: A whole card scored at least this (but under ``card_score``) does not stand alone, but
    #: its rank read, trusted in proportion to its score, helps read the lone indices inside it
    #: (1 turns this off). Off: with the index classifier trained on many designs it paid on
    #: no held-out source and cost F1 on two (``bench/bench_ablation.py``: rendered tables of
    #: held-out typefaces −0.011, four-corner tables −0.004; held-out photos unchanged).
    hint_score: float = 1.0
    #: ...but only to indices read less surely than this: in a fan the weak boxes of the cards
    #: around overlap an index read well, and their reads would drown it.
    hint_below: float = 0.6
    #: Decks with an index in all four corners: two cards read alike whose indices together
    #: (four at most) lie as one card's corners are one card (0 turns this off). Corners of
    #: one card lie at least this many index sizes apart (the short side between index
    #: centres is about 2)...
    corner_side: float = 1.5
    #: ...except two read surely facing opposite ways (``facing``), which may lie this near:
    #: the ends of a card's long side (a jumbo or large index seen down the uncovered strip of
    #: a row) are nearer than ``corner_side``, and the same corner of two alike cards faces
    #: the same way. At ``corner_side`` or more the turns change nothing here.
    turned_side: float = 1.0
    #: ...and the diagonals of four (or the sides of three) agree within this share.
    corner_square: float = 0.2
    #: Four indices lying as a rectangle this true (diagonals equal, and sharing their
    #: midpoint, within this share) may have sides down to ``four_side`` index sizes: two
    #: alike cards side by side make a slanted parallelogram, its diagonals unequal by more
    #: the farther apart they lie (at ``corner_side`` or more, nothing changes).
    four_square: float = 0.1
    four_side: float = 1.0
    #: Whether the index peaks too weak to stand (under ``index_score``) inside a whole card
    #: that took no index weigh in on its rank, each in proportion to its score, as they do
    #: on its suit (a jack whose art reads as a king, with both its small indices faint).
    #: Off (``bench/bench_ablation.py``): it paid on fewer than two held-out sources.
    weak_rank: bool = False
    #: Whether a ``??`` left after the second looks whose indices lie with a read card's as
    #: one card's corners (``one_card_corners``, with their turns) is that card's other corner
    #: read unsurely, taken into it rather than counted as a card of its own
    #: (``absorb_unread``; applied by ``vision.recognize.read_table``). A ``??`` is an
    #: abstention, so no F1 moves; on the drawn tables at two seeds every one of the 69
    #: taken lay on a card read elsewhere, and the melds grouped exactly rose on seven of
    #: eight sources (+12 in all, none fewer: vision/HISTORY.md, "A card's other corner left
    #: ``??``").
    absorb_unread: bool = True


DEFAULT_PARAMS = AssemblyParams()
#: A whole card's faint index peaks (those under ``index_score``) are the ones within this
#: share of its box's width and height of it: they tell its suit when it took no index.
NEAR: Final = 0.05
_RANK_OF_INDEX = np.array([RANKS.index(c[:-1]) if c != "PJ" else len(RANKS) for c in INDEX_CLASSES])
_SUIT_OF_INDEX = np.array([SUITS.index(c[-1]) if c != "PJ" else -1 for c in INDEX_CLASSES])


def _union(boxes: list[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def _covered(box: Box, by: Box) -> float:
    """The share of ``box``'s area that lies inside ``by``."""
    area = box_area(box)
    return intersection_area(box, by) / area if area > 0 else 0.0


def agreement(a: Detection, b: Detection) -> float:
    """How likely two index reads are of the same card: the overlap of their distributions."""
    return float(np.dot(a.probs, b.probs))


def merge_peaks(indices: list[Detection], reach: float) -> list[Detection]:
    """One detection per printed index: each peak, strongest first, absorbs the weaker peaks
    within ``reach`` times its short side, and takes their score-weighted mean reading. The
    peaks are separate pieces of evidence for the index, so its score is their noisy-or
    (``1 - prod(1 - score)``): several weak peaks on one index add up."""
    if reach <= 0:
        return indices
    order = sorted(indices, key=lambda d: -d.score)
    used = [False] * len(order)
    out = []
    for i, d in enumerate(order):
        if used[i]:
            continue
        limit = reach * min(d.box[2] - d.box[0], d.box[3] - d.box[1])
        same = [d]
        for j in range(i + 1, len(order)):
            if not used[j] and np.hypot(order[j].x - d.x, order[j].y - d.y) <= limit:
                used[j] = True
                same.append(order[j])
        if len(same) > 1:
            weights = np.array([e.score for e in same])
            probs = np.sum([w * e.probs for w, e in zip(weights, same, strict=True)], axis=0)
            d = replace(d, probs=probs / probs.sum(), score=float(1.0 - np.prod(1.0 - weights)))
        out.append(d)
    return out


def drop_twins(indices: list[Detection], reach: float, sure: float) -> list[Detection]:
    """``indices`` (in their order) less each peak lying within ``reach`` times a stronger
    peak's short side and read as the same class, both at least ``sure``: the same printed
    index found twice."""
    if reach <= 0 or not indices:
        return indices
    sure_ones = [i for i, d in enumerate(indices) if d.confidence >= sure]
    # strongest first (ties in the order given); only sure peaks drop or are dropped
    order = sorted(sure_ones, key=lambda i: -indices[i].score)
    xs = np.array([indices[i].x for i in order])
    ys = np.array([indices[i].y for i in order])
    labels = np.array([int(np.argmax(indices[i].probs)) for i in order])
    limits = reach * np.array([min(b[2] - b[0], b[3] - b[1]) for b in (indices[i].box for i in order)])
    kept = np.zeros(len(order), bool)  # the stronger sure peaks not dropped so far
    dropped: set[int] = set()
    for n, i in enumerate(order):
        twin = kept[:n] & (labels[:n] == labels[n]) & (np.hypot(xs[:n] - xs[n], ys[:n] - ys[n]) <= limits[:n])
        if twin.any():
            dropped.add(i)
        else:
            kept[n] = True
    return [d for i, d in enumerate(indices) if i not in dropped]  # in the order given


def pair_indices(indices: list[Detection], params: AssemblyParams,
                 regions: CardRegions | None = None) -> list[list[Detection]]:
    """Group index detections into physical cards (one or two indices each).

    Two indices pair when they lie a card's diagonal apart (relative to their size) and their
    readings agree; the pairs that agree most, at about a card's typical diagonal, are taken
    first and each index is used once.
    """
    patches = [regions.index_patch(d.box) if regions is not None else 0 for d in indices]
    candidates = []
    for a in range(len(indices)):
        for b in range(a + 1, len(indices)):
            if patches[a] and patches[b] and patches[a] != patches[b]:
                continue  # table shows between them: two cards
            da, db = indices[a], indices[b]
            s = (long_side(da.box) + long_side(db.box)) / 2
            d = float(np.hypot(da.x - db.x, da.y - db.y))
            ways = facing(da, db, params.turn_sure)
            if ways == "same" or (ways == "across" and params.across):
                continue  # the same corner of two cards, or two cards' corners turned apart
            least = min(params.pair_min, params.turned_pair_min) if ways == "opposite" else params.pair_min
            if not least * s <= d <= params.pair_max * s:
                continue
            if min(da.confidence, db.confidence) >= params.pair_sure and da.label != db.label:
                continue
            agree = agreement(da, db)
            if agree >= params.min_agreement:
                off = abs(float(np.log(d / (params.pair_typical * s))))
                candidates.append((-(agree - params.pair_distance_weight * off), a, b))
    used: set[int] = set()
    cards = []
    for _, a, b in sorted(candidates):
        if a in used or b in used:
            continue
        used |= {a, b}
        cards.append([indices[a], indices[b]])
    order = sorted(range(len(indices)), key=lambda i: -indices[i].score)
    cards += [[indices[i]] for i in order if i not in used]
    return cards


#: An index's turn as read: the probability that it stands upright in its crop
#: (``Detection.upright``), or the way it points in the image with its sureness
#: (``Detection.up``), or None.
Turn = float | tuple[float, float] | None


def turn_of(d: Detection) -> Turn:
    """The turn read of an index: the way it points where that was read, else whether it
    stands upright."""
    return d.up if d.up is not None else d.upright


def facing(a: Detection, b: Detection, sure: float) -> str | None:
    """``"same"`` or ``"opposite"``: which ways two indices face, when both turns were read at
    least ``sure`` either way in boxes the same way round (each crop is turned upright from
    its box's longer side); None when that is not known. With the ways they point read
    (``Detection.up``), in any boxes: ``"same"`` within 60 degrees, ``"opposite"`` within 60 of
    half a turn, and ``"across"`` between (neighbours in a fan, never one card's corners)."""
    return ways_of(a.box, turn_of(a), b.box, turn_of(b), sure)


def ways_of(a: Box, a_up: Turn, b: Box, b_up: Turn, sure: float) -> str | None:
    """``facing`` for two index boxes and their turns (``turn_of``)."""
    if isinstance(a_up, tuple) and isinstance(b_up, tuple):
        la, lb = float(np.hypot(*a_up)), float(np.hypot(*b_up))
        if min(la, lb) < 2 * sure - 1:  # as unsure as a turn read less than ``sure`` either way
            return None
        cos = (a_up[0] * b_up[0] + a_up[1] * b_up[1]) / (la * lb)
        return "same" if cos >= 0.5 else "opposite" if cos <= -0.5 else "across"
    if not isinstance(a_up, float) or not isinstance(b_up, float):
        return None
    if ((a[2] - a[0]) > (a[3] - a[1])) != ((b[2] - b[0]) > (b[3] - b[1])):
        return None
    if min(max(a_up, 1 - a_up), max(b_up, 1 - b_up)) < sure:
        return None
    return "same" if (a_up >= 0.5) == (b_up >= 0.5) else "opposite"


def _own_index_weight(group: list[Detection], read: np.ndarray, whole: Detection,
                      params: AssemblyParams) -> float:
    """How likely an index group (read as ``read``) inside a whole card is the card's own: its
    surest peak's score, weighed by how well its rank agrees with the card's read (plus
    ``own_floor``)."""
    agree = float(np.dot(_rank_marginal(read), whole.probs))
    return max(d.score for d in group) * (params.own_floor + agree)


def _other_corner(groups: list[list[Detection]], rest: list[int], same: list[int],
                  whole: Detection, params: AssemblyParams) -> list[int]:
    """The card's second corner index when its reading disagreed with the first: a lone index
    inside the same whole card, about the card's diagonal away from a lone first index."""
    if len(same) != 1 or len(groups[same[0]]) != 1 or params.corner_reach <= 0:
        return []
    first = groups[same[0]][0]
    x0, y0, x1, y1 = whole.box
    diagonal = float(np.hypot(x1 - x0, y1 - y0))
    far = [i for i in rest if len(groups[i]) == 1
           and np.hypot(groups[i][0].x - first.x, groups[i][0].y - first.y) >= params.corner_reach * diagonal]
    return [max(far, key=lambda i: groups[i][0].score)] if len(far) == 1 else []


def _interior_marks(groups: list[list[Detection]], reads: list[np.ndarray], rest: list[int],
                    whole: Detection, params: AssemblyParams) -> list[int]:
    """Unsure index reads in the middle of a whole card whose rank the card's own read rules
    out: pips or court art taken for an index, not another card."""
    x0, y0, x1, y1 = whole.box
    cx, cy, w, h = (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0
    out = []
    for i in rest:
        if not all(abs(d.x - cx) <= params.interior * w and abs(d.y - cy) <= params.interior * h
                   for d in groups[i]):
            continue
        probs = reads[i]
        if float(probs.max()) >= params.interior_below:
            continue
        if float(np.dot(_rank_marginal(probs), whole.probs)) < params.min_agreement:
            out.append(i)
    return out


def _index_probs(group: list[Detection]) -> np.ndarray:
    """The reading of a card's indices together (the normalised product of their reads)."""
    p = np.ones_like(group[0].probs)
    for d in group:
        p = p * (d.probs + 1e-4)
    out: np.ndarray = p / p.sum()
    return out


def _rank_marginal(index_probs: np.ndarray) -> np.ndarray:
    out = np.zeros(len(CARD_CLASSES))
    np.add.at(out, _RANK_OF_INDEX, index_probs)
    return out


def _read(index_probs: np.ndarray | None, card_probs: np.ndarray | None) -> tuple[str, float]:
    """The best card name and its confidence from index and/or whole-card class evidence."""
    if index_probs is not None and card_probs is None:
        k = int(np.argmax(index_probs))
        return INDEX_CLASSES[k], float(index_probs[k])
    if index_probs is None:
        assert card_probs is not None
        k = int(np.argmax(card_probs))
        # The rank alone: the suit is unknown, so such a card is reported only with a guess
        # marked by halved confidence (below the default threshold it becomes ``??``).
        return CARD_CLASSES[k], float(card_probs[k])
    assert card_probs is not None
    rank = _rank_marginal(index_probs) * (card_probs + 1e-3)
    rank /= rank.sum()
    r = int(np.argmax(rank))
    if r == len(RANKS):
        return "PJ", float(rank[r])
    within = np.where(_RANK_OF_INDEX == r, index_probs, 0.0)
    k = int(np.argmax(within))
    suit_conf = float(within[k] / max(within.sum(), 1e-9))
    return INDEX_CLASSES[k], float(rank[r]) * suit_conf


def _suit_from(image: np.ndarray | None, box: Box, weak: list[Detection]) -> tuple[str, float]:
    """A suit for a card whose indices were not found: from weak index peaks inside it, or
    (failing those) its ink colour, with a low confidence."""
    if weak:
        p = _index_probs(weak)
        suits = np.zeros(len(SUITS))
        mask = _SUIT_OF_INDEX >= 0
        np.add.at(suits, _SUIT_OF_INDEX[mask], p[mask])
        k = int(np.argmax(suits))
        return SUITS[k], float(suits[k] / max(suits.sum(), 1e-9))
    if image is None:
        return "S", 0.25
    h, w = image.shape[:2]
    x0, y0 = int(max(0, box[0])), int(max(0, box[1]))
    x1, y1 = int(min(w, box[2])), int(min(h, box[3]))
    crop = image[y0:y1, x0:x1].astype(np.int32)
    if crop.size == 0:
        return "S", 0.25
    b, g, r = crop[..., 0], crop[..., 1], crop[..., 2]
    red = np.count_nonzero((r > 120) & (r > g + 50) & (r > b + 50))
    dark = np.count_nonzero((r + g + b) < 200)
    return ("H", 0.3) if red > dark else ("S", 0.3)


def usable(detections: list[Detection], params: AssemblyParams = DEFAULT_PARAMS) -> list[Detection]:
    """The detections (in their order) that ``assemble`` can make anything of under
    ``params``, so that only they need the classifiers' reads: the classifiers never raise a
    score, so a whole card the detector scored under ``card_score`` (and under
    ``hint_score``) never stands or lends its rank, and an index peak under ``index_score``
    only weighs in on the suit (or rank) of a whole card it lies in (``NEAR``). With
    ``merge`` on, every index peak may join a stronger one, and all are kept."""
    least_card = min(params.card_score, params.hint_score)
    wholes = [d.box for d in detections if d.kind == "card" and d.score >= params.card_score]

    def used(d: Detection) -> bool:
        if d.kind == "card":
            return d.score >= least_card
        return (params.merge > 0 or d.score >= params.index_score
                or any(inside(d.x, d.y, box, NEAR) for box in wholes))

    return [d for d in detections if used(d)]


def assemble(detections: list[Detection], params: AssemblyParams = DEFAULT_PARAMS,
             image: np.ndarray | None = None,
             regions: CardRegions | None = None) -> list[DetectedCard]:
    """Physical cards from raw detections, each labelled or ``??`` below the threshold.
    With the image's card patches, two indices with table between them never pair."""
    peaks = merge_peaks([d for d in detections if d.kind == "index"], params.merge)
    indices = drop_twins([d for d in peaks if d.score >= params.index_score], params.twin,
                         params.twin_sure)
    weak = [d for d in peaks if d.score < params.index_score]
    wholes = [d for d in detections if d.kind == "card" and d.score >= params.card_score]
    groups = pair_indices(indices, params, regions)
    reads = [_index_probs(g) for g in groups]
    taken: set[int] = set()
    out: list[DetectedCard | None] = []
    placed: list[Detection] = []   # the whole cards that took indices
    for whole in sorted(wholes, key=lambda d: -d.score):
        if any(_covered(whole.box, p.box) >= params.duplicate
               and int(np.argmax(p.probs)) == int(np.argmax(whole.probs)) for p in placed):
            continue  # a second peak on a card already read: the indices in it are others'
        held = [i for i, g in enumerate(groups)
                  if i not in taken and any(inside(d.x, d.y, whole.box, 0.1) for d in g)]
        if held:
            placed.append(whole)
            best = max(held, key=lambda i: _own_index_weight(groups[i], reads[i], whole, params))
            first = reads[best]
            # the card's other corner, when it was not paired, agrees with the first reading
            same = [i for i in held
                    if i == best or float(np.dot(first, reads[i])) >= params.card_agreement]
            same += _other_corner(groups, [i for i in held if i not in same], same, whole, params)
            taken.update(same)
            taken.update(_interior_marks(groups, reads, [i for i in held if i not in same], whole, params))
            group = [d for i in same for d in groups[i]]
            name, conf = _read(_index_probs(group), whole.probs)
            boxes = tuple(d.box for d in group)
            score = max(whole.score, *(d.score for d in group))
            out.append(_card(name, _union([whole.box, *boxes]), conf, boxes, score, params))
            continue
        near = [d for d in weak if inside(d.x, d.y, whole.box, NEAR)]
        probs = whole.probs
        if params.weak_rank and near:
            probs = probs * _doubt_weighted([(d.score, _rank_marginal(d.probs)) for d in near])
            probs = probs / probs.sum()
        name, conf = _read(None, probs)
        if name != "PJ":
            suit, suit_conf = _suit_from(image, whole.box, near)
            name, conf = name + suit, conf * (1.0 if params.guess_suit else suit_conf)
        if any(c is not None and _covered(whole.box, c.box) >= params.duplicate for c in out):
            continue  # a second peak on a card already read
        if conf < params.min_confidence and params.ghost > 0 and any(
                c is not None and _covered(c.box, whole.box) >= 0.9
                and box_area(whole.box) >= params.ghost * box_area(c.box) for c in out):
            continue  # an unreadable box around a card already read, reaching well past it
        out.append(_card(name, whole.box, conf, (), whole.score, params))
    hints = [d for d in detections if d.kind == "card" and params.hint_score <= d.score < params.card_score]
    for i, group in enumerate(groups):
        if i in taken:
            continue
        probs = reads[i]
        hinted = _hinted_rank(group, hints) if float(probs.max()) < params.hint_below else None
        name, conf = _read(probs, hinted)
        boxes = tuple(d.box for d in group)
        score = max(d.score for d in group)
        out.append(_card(name, _union(list(boxes)), conf, boxes, score, params))
    return merge_corners([c for c in out if c is not None], params, regions,
                         {d.box: turn_of(d) for d in indices})


def _centre(box: Box) -> np.ndarray:
    return np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])


def one_card_corners(boxes: list[Box], params: AssemblyParams,
                     ups: Sequence[Turn] | None = None) -> bool:
    """Whether index boxes (two to four) lie as the corners of one card: each pair between
    ``corner_side`` and ``pair_max`` index sizes apart (from ``turned_side`` for a pair read
    surely facing opposite ways, from ``four_side`` among four), and three or four of them at
    the corners of a rectangle (a right angle at the middle one of three; two equal diagonals
    sharing their midpoint for four, within ``four_square`` where a side is under
    ``corner_side``). With the boxes' turns ``ups``, the ways they face must fit one card's
    corners too (``_turns_fit``)."""
    if not 2 <= len(boxes) <= 4:
        return False
    size = float(np.mean([long_side(b) for b in boxes]))
    pts = [_centre(b) for b in boxes]
    dist = {(i, j): float(np.linalg.norm(pts[i] - pts[j]))
            for i in range(len(pts)) for j in range(i + 1, len(pts))}

    side = min(params.corner_side, params.four_side) if len(boxes) == 4 else params.corner_side

    def least(i: int, j: int) -> float:
        if ups is not None and params.turned_side < side and ways_of(
                boxes[i], ups[i], boxes[j], ups[j], params.turn_sure) == "opposite":
            return params.turned_side
        return side

    if not all(least(*ij) * size <= d <= params.pair_max * size for ij, d in dist.items()):
        return False
    if ups is not None and not _turns_fit(boxes, ups, dist, params.pair_min * size, params.turn_sure,
                                          params.across):
        return False
    tol = params.corner_square
    if len(pts) == 3:
        (i, j), longest = max(dist.items(), key=lambda kv: kv[1])
        k = 3 - i - j
        a, b = pts[i] - pts[k], pts[j] - pts[k]
        cos = float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))
        return abs(cos) <= tol
    if len(pts) == 4:
        pairs = sorted(dist.items(), key=lambda kv: -kv[1])
        (a, b), d1 = pairs[0]
        (c, d), d2 = pairs[1]
        if {a, b} & {c, d}:
            return False
        middle = float(np.linalg.norm((pts[a] + pts[b]) / 2 - (pts[c] + pts[d]) / 2))
        if min(dist.values()) < params.corner_side * size:
            tol = params.four_square  # sides under corner_side: a true rectangle only
        return abs(d1 - d2) <= tol * d1 and middle <= tol * d1
    return True


def _turns_fit(boxes: list[Box], ups: Sequence[Turn], dist: dict[tuple[int, int], float],
               least_diagonal: float, sure: float, across: bool = False) -> bool:
    """Whether the ways index boxes face (``ways_of``) fit one card's corners: a card's two
    ends of a short side face the same way, and the ends of a long side or a diagonal face
    opposite ways. So no three face one way, no pair facing the same way lies farther apart
    than a pair facing opposite ways, and two alone facing the same way lie nearer than
    ``least_diagonal``. Pairs whose ways are unknown fit anything."""
    ways = {ij: ways_of(boxes[ij[0]], ups[ij[0]], boxes[ij[1]], ups[ij[1]], sure) for ij in dist}
    if across and "across" in ways.values():  # one card's corners point the same way or opposite ways
        return False
    same = [dist[ij] for ij, w in ways.items() if w == "same"]
    opposite = [dist[ij] for ij, w in ways.items() if w == "opposite"]
    if len(boxes) == 2:
        return not same or same[0] < least_diagonal
    if any(ways.get((i, j)) == ways.get((i, k)) == ways.get((j, k)) == "same"
           for i in range(len(boxes)) for j in range(i + 1, len(boxes)) for k in range(j + 1, len(boxes))):
        return False
    return not same or not opposite or max(same) < min(opposite)


def merge_corners(cards: list[DetectedCard], params: AssemblyParams,
                  regions: CardRegions | None = None,
                  ups: dict[Box, Turn] | None = None) -> list[DetectedCard]:
    """One entry per physical card of a deck printed with four corner indices: cards read
    alike whose indices together lie as one card's corners (``one_card_corners``, with each
    index box's turn from ``ups``), on one card patch, are merged, surest first. Two alike
    cards of two decks do not lie so (their indices come closer than a card's short side, off
    its rectangle, or face the same way a diagonal apart) and stay two."""
    if params.corner_side <= 0:
        return cards
    out = list(cards)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            a = out[i]
            if not a.readable or not a.indices:
                continue
            for j in range(i + 1, len(out)):
                b = out[j]
                if b.card != a.card or not b.indices:
                    continue
                boxes = list(a.indices) + list(b.indices)
                if regions is not None and len({regions.index_patch(x) for x in boxes} - {0}) > 1:
                    continue
                if one_card_corners(boxes, params, [ups.get(x) for x in boxes] if ups else None):
                    out[i] = DetectedCard(a.card, _union([a.box, b.box]), max(a.confidence, b.confidence),
                                          tuple(boxes))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def absorb_unread(cards: list[DetectedCard], params: AssemblyParams,
                  regions: CardRegions | None = None,
                  ups: dict[Box, Turn] | None = None) -> list[DetectedCard]:
    """``cards`` less each ``??`` whose indices lie with a read card's as one card's corners
    (``one_card_corners``, with each index box's turn from ``ups``), on one card patch: that
    card's other corner, found but read unsurely (a jumbo card's corners, nearer than a pair's
    least distance, or an index half in shadow). The card takes its boxes, surest card first."""
    out = list(cards)
    for u in [c for c in cards if not c.readable and c.indices]:
        for k in sorted(range(len(out)), key=lambda k: -out[k].confidence):
            a = out[k]
            if not a.readable or not a.indices:
                continue
            boxes = list(a.indices) + list(u.indices)
            if len(boxes) > 4 or (regions is not None
                                  and len({regions.index_patch(x) for x in boxes} - {0}) > 1):
                continue
            if one_card_corners(boxes, params, [ups.get(x) for x in boxes] if ups else None):
                out[k] = replace(a, box=_union([a.box, u.box]), indices=tuple(boxes))
                out.remove(u)
                break
    return out


def _hinted_rank(group: list[Detection], hints: list[Detection]) -> np.ndarray | None:
    """The rank evidence of weak whole cards around an index group: each card's read, mixed
    with a uniform guess in proportion to its doubt (``1 - score``), multiplied together."""
    mine = [w for w in hints if any(inside(d.x, d.y, w.box, 0.1) for d in group)]
    return _doubt_weighted([(w.score, w.probs) for w in mine]) if mine else None


def _doubt_weighted(reads: list[tuple[float, np.ndarray]]) -> np.ndarray:
    """Several weak reads of one thing together: each (score, probabilities) read mixed with
    a uniform guess in proportion to its doubt (``1 - score``), multiplied, normalised."""
    p = np.ones_like(reads[0][1])
    for score, probs in reads:
        p = p * (score * probs + (1.0 - score) / len(probs))
    out: np.ndarray = p / p.sum()
    return out


def _card(name: str, box: Box, conf: float, indices: tuple[Box, ...], score: float,
          params: AssemblyParams) -> DetectedCard | None:
    """The card, ``??`` when its reading is unsure, or None when it is not surely a card."""
    if conf < params.min_confidence:
        if score < params.unsure_score:
            return None
        name = UNREADABLE
    return DetectedCard(name, tuple(float(v) for v in box), float(conf), indices)  # type: ignore[arg-type]
