"""Pairing corner indices into physical cards and grouping cards into melds (synthetic fans)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engine.cards import UNREADABLE
from vision.assemble import AssemblyParams, assemble, merge_peaks, pair_indices
from vision.detector import Detection
from vision.grouping import connected, group_cards
from vision.labels import INDEX_CLASSES
from vision.synth import read_perfectly, scene


def _index(card: str, x: float, y: float, size: float = 20.0, p: float = 0.97) -> Detection:
    probs = np.full(len(INDEX_CLASSES), (1 - p) / (len(INDEX_CLASSES) - 1))
    probs[INDEX_CLASSES.index(card)] = p
    box = (x - size / 3, y - size / 2, x + size / 3, y + size / 2)
    return Detection("index", x, y, box, 0.9, probs)


def test_pairs_join_through_others_and_the_rest_stay_alone() -> None:
    # 4 joins 0 through 2; 1 and 5 join nothing; groups ascend and come by their first member
    assert connected(6, [(2, 4), (0, 2), (3, 3)]) == [[0, 2, 4], [1], [3], [5]]
    assert connected(3, iter([(2, 1), (1, 0)])) == [[0, 1, 2]]
    assert connected(0, []) == []


def test_two_corners_of_one_card_are_one_card() -> None:
    # a card's two index centres lie about 3.7 index sizes apart
    cards = assemble([_index("QH", 100, 100), _index("QH", 145, 160)])
    assert [c.card for c in cards] == ["QH"]
    # far more than a card's diagonal apart they are two cards
    assert [c.card for c in assemble([_index("QH", 100, 100), _index("QH", 250, 300)])] == ["QH", "QH"]


def test_of_two_alike_indices_the_one_a_cards_diagonal_away_is_the_other_corner() -> None:
    stray = _index("QH", -10, 100)   # the same card from another deck, 5.5 sizes away
    top, bottom = _index("QH", 100, 100), _index("QH", 145, 160)
    groups = pair_indices([stray, top, bottom], AssemblyParams())
    assert sorted(len(g) for g in groups) == [1, 2]
    assert [stray] in groups


def test_identical_cards_from_two_decks_in_a_fan_are_two_cards() -> None:
    cards = assemble([_index("7C", 100, 100), _index("7C", 124, 104)])
    assert [c.card for c in cards] == ["7C", "7C"]


def test_a_doubtful_read_is_reported_as_unreadable() -> None:
    cards = assemble([_index("5D", 100, 100, p=0.3)])
    assert cards[0].card == UNREADABLE


def test_two_sure_reads_of_different_cards_do_not_pair_with_pair_sure() -> None:
    # a five of spades and a five of clubs a card's diagonal apart: their reads share a
    # little rank, but each is sure of its own card; with the rule (shipped off since the box
    # network: it paid on one source) they stay two cards, as shipped they pair as one
    spades = _mixed("5S", 0.9, "5C", 0.05, 100, 100)
    clubs = _mixed("5C", 0.65, "5S", 0.3, 145, 160)
    assert len(pair_indices([spades, clubs], AssemblyParams(pair_sure=0.6))) == 2
    assert AssemblyParams().pair_sure > 1
    assert len(pair_indices([spades, clubs], AssemblyParams())) == 1


def test_pairing_keeps_each_index_once() -> None:
    found = [_index("KS", 100, 100, 60), _index("KS", 250, 300, 60), _index("KS", 400, 100, 60),
             _index("KS", 550, 300, 60)]
    groups = pair_indices(found, AssemblyParams())
    assert sorted(len(g) for g in groups) == [2, 2]


@pytest.mark.parametrize("seed", range(8))
def test_fans_and_rows_group_as_laid_out(seed: int) -> None:
    rng = np.random.default_rng(seed)
    melds = [["5H", "6H", "7H", "8H"], ["QS", "QD", "QC"], ["2C", "3C", "4C"]]
    _, cards = scene(rng, (1500, 520), melds)
    found, truth = read_perfectly(cards)
    got = group_cards(found)
    as_sets = sorted(sorted(truth[i] for i in g) for g in got)
    # every predicted group holds one meld only, and every meld is one group
    assert all(len(set(g)) == 1 for g in as_sets)
    assert len(got) == len({t for t in truth})


def _whole(rank_probs: dict[str, float], box: tuple[float, float, float, float]) -> Detection:
    from vision.labels import CARD_CLASSES

    probs = np.full(len(CARD_CLASSES), 1e-3)
    for rank, p in rank_probs.items():
        probs[CARD_CLASSES.index(rank)] = p
    probs /= probs.sum()
    x0, y0, x1, y1 = box
    return Detection("card", (x0 + x1) / 2, (y0 + y1) / 2, box, 0.9, probs)


def _mixed(first: str, p_first: float, second: str, p_second: float, x: float, y: float) -> Detection:
    probs = np.full(len(INDEX_CLASSES), 1e-3)
    probs[INDEX_CLASSES.index(first)] = p_first
    probs[INDEX_CLASSES.index(second)] = p_second
    probs /= probs.sum()
    return Detection("index", x, y, (x - 7, y - 10, x + 7, y + 10), 0.8, probs)


#: The rules that ship switched off (they paid on fewer than two held-out sources in
#: ``bench/bench_ablation.py``), switched on: their mechanisms are still tested.
RULES_ON = AssemblyParams(corner_reach=0.55, interior=0.3, ghost=1.5, weak_rank=True)
#: Merging nearby index peaks ships off too; switched on at its former reach.
MERGE_ON = AssemblyParams(merge=0.7)


def test_the_rules_that_paid_on_too_few_sources_ship_switched_off() -> None:
    shipped = AssemblyParams()
    assert (shipped.corner_reach, shipped.interior, shipped.ghost, shipped.weak_rank) == (0.0, 0.0, 0.0, False)
    assert shipped.merge == 0.0


def test_opposite_corners_of_one_card_are_one_card_even_when_their_reads_disagree() -> None:
    whole = _whole({"K": 0.9}, (80, 80, 230, 290))
    sure = _index("KD", 95, 100)
    doubtful = _mixed("KH", 0.55, "KD", 0.01, 215, 270)
    cards = assemble([whole, sure, doubtful], RULES_ON)
    assert [c.card for c in cards] == ["KD"]
    off = assemble([whole, sure, doubtful], replace(RULES_ON, corner_reach=0.0))
    assert sorted(c.card for c in off) == ["KD", "KH"]


def test_a_pip_read_as_an_index_inside_a_card_is_not_another_card() -> None:
    whole = _whole({"3": 0.9}, (80, 80, 230, 290))
    corner = _index("3D", 95, 100)
    pip = _mixed("AD", 0.55, "AH", 0.4, 148, 178)   # an ace, doubtful of its suit
    cards = assemble([whole, corner, pip], RULES_ON)
    assert [c.card for c in cards] == ["3D"]
    off = assemble([whole, corner, pip], replace(RULES_ON, interior=0.0))
    assert sorted(c.card for c in off) == ["3D", "AD"]


def test_a_clear_index_inside_a_fanned_cards_box_is_another_card() -> None:
    # the top card's box spans the fan; the queen under it shows her index inside that box
    whole = _whole({"10": 0.9}, (80, 80, 230, 290))
    corner = _index("10S", 95, 100)
    under = _index("QH", 148, 178, p=0.8)
    assert sorted(c.card for c in assemble([whole, corner, under], RULES_ON)) == ["10S", "QH"]
    strict = replace(RULES_ON, interior_below=1.01)
    assert [c.card for c in assemble([whole, corner, under], strict)] == ["10S"]


def test_a_second_card_beside_a_whole_card_is_kept() -> None:
    whole = _whole({"3": 0.9}, (80, 80, 230, 290))
    cards = assemble([whole, _index("3D", 95, 100), _index("9S", 330, 100)])
    assert sorted(c.card for c in cards) == ["3D", "9S"]


def test_a_neighbour_in_a_fan_under_a_whole_card_stays_another_card_unless_the_reads_agree() -> None:
    # the top card's box covers the index of the card under it, whose read leans a little
    # towards the top card's (a queen of hearts read with some doubt about a king)
    whole = _whole({"K": 0.9}, (80, 80, 230, 290))
    top = _index("KH", 95, 100)
    under = _mixed("QH", 0.6, "KH", 0.15, 125, 100)
    cards = assemble([whole, top, under])
    assert sorted(c.card for c in cards) == ["KH", "QH"]
    loose = assemble([whole, top, under], AssemblyParams(card_agreement=0.02))
    assert [c.card for c in loose] == ["KH"]


def _peak(card: str, x: float, y: float, score: float, p: float = 0.9) -> Detection:
    d = _index(card, x, y, p=p)
    return Detection("index", x, y, d.box, score, d.probs)


def test_two_peaks_on_one_index_are_one_read() -> None:
    # two peaks 4 px apart on the same printed index: one says 6H, the weaker one 6D
    strong, weak = _peak("6H", 100, 100, 0.6), _peak("6D", 103, 102, 0.4)
    merged = merge_peaks([weak, strong], 0.8)
    assert len(merged) == 1
    assert merged[0].score == pytest.approx(1 - 0.4 * 0.6)  # two pieces of evidence
    assert INDEX_CLASSES[int(np.argmax(merged[0].probs))] == "6H"
    assert [c.card for c in assemble([weak, strong], MERGE_ON)] == ["6H"]
    assert sorted(c.card for c in assemble([weak, strong])) == ["6D", "6H"]


def test_neighbours_in_a_tight_fan_are_not_merged() -> None:
    # indices 20 px tall, 13 px wide: fan neighbours one index width apart stay two cards
    found = [_peak("7C", 100, 100, 0.8), _peak("7C", 114, 101, 0.7), _peak("8C", 128, 102, 0.7)]
    assert len(merge_peaks(found, MERGE_ON.merge)) == 3
    assert sorted(c.card for c in assemble(found, MERGE_ON)) == ["7C", "7C", "8C"]
    # tighter still: three quarters of a width apart (boxes of fanned indices come out wide)
    tight = [_peak("7C", 100, 100, 0.8), _peak("8C", 110, 101, 0.7), _peak("9C", 120, 102, 0.7)]
    assert sorted(c.card for c in assemble(tight, MERGE_ON)) == ["7C", "8C", "9C"]
    assert len(merge_peaks(tight, 0.8)) < 3


def test_an_unreadable_second_peak_on_a_read_card_is_dropped() -> None:
    card = _whole({"10": 0.9}, (100, 100, 460, 570))
    ghost = _whole({"9": 0.3, "10": 0.3, "A": 0.3}, (70, 65, 320, 430))
    found = [card, _index("10S", 135, 200), _index("10S", 415, 515), ghost]
    assert [c.card for c in assemble(found)] == ["10S"]
    kept = assemble(found, AssemblyParams(duplicate=1.1))
    assert sorted(c.card for c in kept) == ["10S", UNREADABLE]


def test_a_second_whole_card_peak_does_not_read_a_neighbours_index_as_the_same_card() -> None:
    # two whole-card peaks on one two of diamonds; the second also covers a doubtful index of
    # the card beside it, which must not become a second two of diamonds
    first = _whole({"2": 0.95}, (80, 80, 230, 290))
    second = replace(_whole({"2": 0.9}, (70, 90, 225, 300)), score=0.85)
    corners = [_index("2D", 95, 100), _index("2D", 215, 270)]
    beside = _mixed("8S", 0.4, "8C", 0.3, 100, 200)
    found = assemble([first, second, *corners, beside])
    assert sorted(c.card for c in found) == ["2D", "8S"]
    loose = assemble([first, second, *corners, beside], AssemblyParams(duplicate=1.1))
    assert sorted(c.card for c in loose) == ["2D", UNREADABLE]   # the eight is lost


def test_an_unreadable_box_reaching_far_around_a_card_already_read_is_a_ghost() -> None:
    card = _whole({"6": 0.95}, (100, 100, 260, 320))
    corners = [_index("6S", 115, 120), _index("6S", 245, 300)]
    ghost = _whole({"10": 0.12, "9": 0.1, "8": 0.1}, (20, 20, 400, 460))
    assert [c.card for c in assemble([card, *corners, ghost], RULES_ON)] == ["6S"]
    kept = assemble([card, *corners, ghost], replace(RULES_ON, ghost=0.0))
    assert sorted(c.card for c in kept) == ["6S", UNREADABLE]


def test_weak_peaks_that_agree_on_one_index_add_up_to_a_card() -> None:
    # four weak peaks on each corner of a queen: none alone passes the index threshold
    corner = [_peak("QC", 100 + dx, 100 + dy, 0.15) for dx, dy in ((0, 0), (4, 0), (0, 4), (4, 4))]
    other = [_peak("QC", 150 + dx, 170 + dy, 0.15) for dx, dy in ((0, 0), (4, 0), (0, 4), (4, 4))]
    assert [c.card for c in assemble(corner + other, MERGE_ON)] == ["QC"]
    assert assemble(corner + other) == []


def test_a_second_peak_inside_a_read_card_is_not_another_card_whatever_it_reads() -> None:
    card = _whole({"10": 0.9}, (100, 100, 460, 570))
    inner = _whole({"10": 0.95}, (160, 250, 450, 560))
    corners = [_index("10S", 135, 200), _index("10S", 415, 515)]
    assert [c.card for c in assemble([card, inner, *corners], AssemblyParams(guess_suit=True))] == ["10S"]
    # the court art or pips of the card read as another rank: still the same card
    art = _whole({"K": 0.95}, (160, 250, 450, 560))
    assert [c.card for c in assemble([card, art, *corners], AssemblyParams(guess_suit=True))] == ["10S"]
    # a card lying over it (and over its lower corner) whose own index shows is another card
    ten = replace(corners[0], score=0.95)
    four = [_whole({"4": 0.95}, (160, 250, 450, 560)), _index("4H", 185, 290)]
    found = assemble([card, *four, ten], AssemblyParams(guess_suit=True))
    assert sorted(c.card for c in found) == ["10S", "4H"]


#: The weak-whole-card hint, which ships switched off, switched on.
HINTS = AssemblyParams(hint_score=0.2)


def test_a_weak_whole_card_settles_the_rank_of_a_doubtful_lone_index() -> None:
    probs = np.full(len(INDEX_CLASSES), 1e-3)
    for card, p in (("8D", 0.35), ("10D", 0.3), ("6D", 0.25)):
        probs[INDEX_CLASSES.index(card)] = p
    index = replace(_mixed("8D", 0.5, "10D", 0.5, 110, 120), probs=probs / probs.sum())
    hint = replace(_whole({"10": 0.9, "8": 0.05}, (95, 100, 245, 310)), score=0.3)
    assert [c.card for c in assemble([index, hint], HINTS)] == ["10D"]
    # the rule ships switched off (bench/bench_ablation.py): then the hint is not taken
    assert [c.card for c in assemble([index, hint])] == [UNREADABLE]
    # without the hint the index alone is too unsure to name
    assert [c.card for c in assemble([index], HINTS)] == [UNREADABLE]
    # a hint too weak to count, or lying elsewhere, changes nothing
    assert [c.card for c in assemble([index, replace(hint, score=0.1)], HINTS)] == [UNREADABLE]
    far = replace(hint, box=(400, 400, 550, 610), x=475, y=505)
    assert [c.card for c in assemble([index, far], HINTS)] == [UNREADABLE]
    # a weak whole card alone is not reported as a card
    assert assemble([hint], HINTS) == []


def test_weak_whole_cards_around_an_index_read_well_leave_its_read_alone() -> None:
    # in a fan the weak boxes of the neighbouring cards (two peaks on an 8) overlap a clear 3C
    index = _index("3C", 110, 120, p=0.85)
    around = [replace(_whole({"8": 0.95}, (60, 90, 260, 330)), score=0.49),
              replace(_whole({"8": 0.93}, (90, 100, 280, 300)), score=0.36)]
    assert [c.card for c in assemble([index, *around], HINTS)] == ["3C"]
    everywhere = AssemblyParams(hint_score=0.2, hint_below=1.01)
    assert [c.card for c in assemble([index, *around], everywhere)] == [UNREADABLE]


def test_faint_indices_inside_a_whole_card_weigh_in_on_its_rank() -> None:
    # a jack held up to a dark webcam: its art reads as a king, its two small indices faintly
    whole = _whole({"K": 0.63, "J": 0.3}, (60, 150, 240, 370))
    faint = [replace(_index("JD", 90, 170, p=0.6), score=0.27), replace(_index("JD", 210, 340, p=0.55), score=0.1)]
    assert [c.card for c in assemble([whole, *faint], RULES_ON)] == ["JD"]
    assert [c.card for c in assemble([whole, *faint], replace(RULES_ON, weak_rank=False))] == ["KD"]
    # a faint peak counts in proportion to its score: one barely found cannot overturn the art
    barely = [replace(d, score=0.02) for d in faint]
    assert [c.card for c in assemble([whole, *barely], RULES_ON)] == ["KD"]


def test_a_whole_card_takes_the_index_that_agrees_with_it_not_the_surest_in_its_box() -> None:
    # the top card of a fan, a queen: its box also holds the six beside it, found more surely
    queen = _whole({"Q": 0.92}, (540, 300, 750, 560))
    own = [replace(_index("QC", 646, 326, size=50, p=0.7), score=0.62),
           replace(_index("QC", 646, 539, size=50, p=0.8), score=0.68)]
    six = replace(_index("6S", 566, 313, size=50, p=0.7), score=0.74)
    found = assemble([queen, *own, six])
    assert sorted(c.card for c in found) == ["6S", "QC"]
    assert next(c for c in found if c.card == "QC").box[2] == 750   # read with the whole card
    # by score alone the queen's box takes the six, and the queen is read twice
    by_score = assemble([queen, *own, six], AssemblyParams(own_floor=1e6))
    assert sorted(c.card for c in by_score) != ["6S", "QC"]
