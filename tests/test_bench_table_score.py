"""The benchmarks' scoring: on rendered tables (``bench/table_score.py``) a right read of a
card with no index showing whole is optional, anything else read is right or wrong as
before; on the photos' close-ups (``bench/bench_ablation.py``) the photo's cards not wanted
are optional; candidate networks, the percentile of times and labelled boxes in pixels."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from table_score import score_table  # noqa: E402

from vision.reading import DetectedCard, TableReading  # noqa: E402
from vision.synth import SceneCard  # noqa: E402


def _card(name: str, group: int, x: float, shown: bool) -> SceneCard:
    quad = np.array([[x, 100], [x + 70, 100], [x + 70, 200], [x, 200]], np.float32)
    index = ((x + 2, 102, x + 14, 122),) if shown else ()
    return SceneCard(name, group, quad, index)


def _read(name: str, x: float) -> DetectedCard:
    return DetectedCard(name, (x, 100, x + 14, 122), 0.9, ((x + 2, 102, x + 14, 122),))


# one meld: 5H and 6H show their indices, 7H lies under them with none showing whole;
# a second meld far off: KS alone
SCENE = [_card("7H", 0, 100, False), _card("5H", 0, 120, True), _card("6H", 0, 140, True),
         _card("KS", 1, 600, True)]


def test_a_right_read_of_a_hidden_card_is_neither_right_nor_wrong() -> None:
    cards = (_read("5H", 120), _read("6H", 140), _read("7H", 100), _read("KS", 600))
    score = score_table(SCENE, TableReading(cards, ((2, 0, 1), (3,))))
    assert (score.right, score.wrong, score.missed) == (3, 0, 0)
    assert score.strict_wrong == 1  # the strict count calls it wrong, as before
    assert (score.melds_hit, score.melds_strict, score.melds) == (2, 1, 2)
    assert score.exact == 1


def test_a_read_off_its_card_or_naming_another_is_wrong() -> None:
    # 7H read where KS lies, and 8H read on the hidden card: both wrong
    cards = (_read("5H", 120), _read("6H", 140), _read("7H", 600), _read("8H", 100), _read("KS", 600))
    score = score_table(SCENE, TableReading(cards, ((3, 0, 1), (2, 4))))
    assert (score.right, score.wrong, score.missed) == (3, 2, 0)
    assert (score.melds_hit, score.melds) == (0, 2)
    assert score.exact == 0


def test_a_hidden_card_excuses_one_read_only() -> None:
    cards = (_read("5H", 120), _read("6H", 140), _read("7H", 100), _read("7H", 102), _read("KS", 600))
    score = score_table(SCENE, TableReading(cards, ((2, 3, 0, 1), (4,))))
    assert score.wrong == 1
    assert score.melds_hit == 1  # KS only: the meld holds a second 7H


def _unread(x: float) -> DetectedCard:
    return DetectedCard("??", (x, 110, x + 60, 190), 0.2, ())


def test_an_unreadable_read_where_a_hidden_card_is_on_top_is_optional() -> None:
    # a card whose indices are both covered, its middle on top: ?? is what the contract asks
    scene = [_card("5H", 0, 120, True), _card("6H", 0, 140, True), _card("9H", 0, 400, False),
             _card("KS", 1, 600, True)]
    cards = (_read("5H", 120), _read("6H", 140), _unread(400), _read("KS", 600))
    score = score_table(scene, TableReading(cards, ((2, 0, 1), (3,))))
    assert (score.right, score.wrong, score.missed) == (3, 0, 0)
    assert (score.melds_hit, score.melds_strict) == (2, 1)


def test_an_unreadable_read_on_a_card_shown_on_top_breaks_its_meld() -> None:
    # the ?? lies on the hidden 7H, but where 6H (indices showing) covers it: a ghost
    cards = (_read("5H", 120), _read("6H", 140), _unread(120), _read("KS", 600))
    score = score_table(SCENE, TableReading(cards, ((2, 0, 1), (3,))))
    assert score.melds_hit == 1  # KS only


def test_a_hidden_card_read_right_keeps_its_excuse_from_an_unreadable_read() -> None:
    scene = [_card("5H", 0, 120, True), _card("9H", 0, 400, False), _card("KS", 1, 600, True)]
    # the ?? is listed first, yet the 9H read takes the hidden card's excuse
    cards = (_unread(400), _read("9H", 400), _read("5H", 120), _read("KS", 600))
    score = score_table(scene, TableReading(cards, ((0, 1, 2), (3,))))
    assert score.wrong == 0
    assert score.melds_hit == 1  # the ?? beside the excused 9H still breaks the meld


def test_a_printed_joker_counts_as_read_only_where_a_joker_read_lies_on_it() -> None:
    scene = [*SCENE, _card("PJ", 2, 300, True), _card("PJ", 2, 380, True), _card("PJ", 2, 460, False)]
    cards = (_read("5H", 120), _read("6H", 140), _read("KS", 600), _read("PJ", 300), _read("PJ", 600))
    score = score_table(scene, TableReading(cards, ((0, 1), (2,), (3,), (4,))))
    # two jokers show an index; one joker read lies on the first, the other lies on KS
    assert (score.jokers, score.jokers_read) == (2, 1)
    twice = (*cards, _read("PJ", 302))
    # two reads on one joker count it once, and the joker beside it stays unread
    assert score_table(scene, TableReading(twice, ())).jokers_read == 1


def test_a_joker_read_goes_to_the_joker_lying_on_top_where_it_is_read() -> None:
    # the second joker lies over the right half of the first; one read on each
    scene = [_card("PJ", 0, 300, True), _card("PJ", 0, 330, True)]
    cards = (_read("PJ", 335), _read("PJ", 300))
    assert score_table(scene, TableReading(cards, ((0, 1),))).jokers_read == 2


def test_a_candidate_folder_replaces_only_the_networks_it_holds(tmp_path: Path) -> None:
    from bench_tables import NETWORKS, networks

    assert networks(None) == NETWORKS
    (tmp_path / "cardnet.onnx").write_bytes(b"candidate")
    chosen = networks(tmp_path)
    assert chosen["weights"] == tmp_path / "cardnet.onnx"
    assert {k: v for k, v in chosen.items() if k != "weights"} == \
        {k: v for k, v in NETWORKS.items() if k != "weights"}


def test_the_benchmarks_percentile_is_numpys_and_never_a_rank_below() -> None:
    from scoring import p95, percentile

    times = [float(t) for t in range(1, 9)]
    assert abs(p95(times) - 7.65) < 1e-9  # not 7.0, the nearest rank below
    assert percentile([42.0], 0.95) == 42.0
    values = list(np.random.default_rng(3).uniform(0, 500, 37))
    for q in (0.0, 0.5, 0.95, 0.99, 1.0):
        assert abs(percentile(values, q) - float(np.percentile(values, 100 * q))) < 1e-9


def test_a_close_up_wants_only_corners_wholly_inside_and_excuses_the_photos_other_cards() -> None:
    from bench_ablation import close_ups

    image = np.zeros((100, 100, 3), np.uint8)
    labels = {"p.jpg": [
        {"label": "7S", "cx": 0.5, "cy": 0.5, "w": 0.1, "h": 0.1},  # wholly in the middle
        {"label": "KC", "cx": 0.2, "cy": 0.5, "w": 0.1, "h": 0.1},  # centre inside, box cut by the edge
        {"label": "2H", "cx": 0.05, "cy": 0.05, "w": 0.05, "h": 0.05},  # outside the middle
    ]}
    [(zoomed, kind, want, optional)] = close_ups([(image, "card", {"7S", "KC", "2H"}, set())], labels)
    assert zoomed.shape == image.shape and kind == "card"
    assert want == {"7S"} and optional == {"KC", "2H"}


def test_a_photo_read_scores_an_optional_card_neither_way(monkeypatch: pytest.MonkeyPatch) -> None:
    import bench_ablation

    reads = TableReading((_read("7S", 10), _read("KC", 90), _read("9D", 170)), ((0, 1, 2),))
    monkeypatch.setattr(bench_ablation, "read_table", lambda image, **kw: reads)
    image = np.zeros((10, 10, 3), np.uint8)
    f1, _ = bench_ablation.photo_f1([(image, "card", {"7S"}, {"KC"})], {})
    assert abs(f1 - 2 * 0.5 * 1.0 / 1.5) < 1e-9  # 7S right, 9D wrong, KC neither


def test_a_labels_box_turns_from_shares_of_the_photo_into_its_pixel_corners() -> None:
    from scoring import label_box

    entry = {"label": "QH", "cx": 0.5, "cy": 0.25, "w": 0.1, "h": 0.2}
    assert label_box(entry, 640, 480) == pytest.approx((288.0, 72.0, 352.0, 168.0))
    # not square: the width scales by the photo's width, the height by its height
    assert label_box(entry, 480, 640) == pytest.approx((216.0, 96.0, 264.0, 224.0))


def test_each_meld_missed_is_put_down_to_its_first_cause() -> None:
    scene = [_card("5H", 0, 120, True), _card("6H", 0, 140, True), _card("KS", 1, 600, True),
             _card("QS", 1, 620, True)]
    right = [_read("5H", 120), _read("6H", 140), _read("KS", 600), _read("QS", 620)]

    def why(cards: list[DetectedCard], groups: tuple[tuple[int, ...], ...]) -> dict[str, int]:
        return dict(score_table(scene, TableReading(tuple(cards), groups)).why)

    assert why(right, ((0, 1), (2, 3))) == {}  # both grouped exactly: no cause listed
    assert why(right[1:], ((0,), (1, 2))) == {"not found": 1}  # 5H unread; KS QS whole
    assert why([_read("5D", 120), *right[1:]], ((0, 1), (2, 3))) == {"misread": 1}
    assert why(right, ((0,), (1,), (2, 3))) == {"split": 1}
    assert why(right, ((0, 1, 2, 3),)) == {"merged": 2}
    assert why([*right, _read("6H", 142)], ((0, 1, 4), (2, 3))) == {"extra read": 1}
    assert why([*right, _unread(130)], ((0, 1, 4), (2, 3))) == {"extra read": 1}


def test_a_tile_meld_missed_is_put_down_to_its_first_cause() -> None:
    from bench_tiles_learnt import melds_grouped

    from vision.tile_synth import SceneTile

    names = ["R1", "R2", "R3", "K7", "B7", "Y7"]
    xs = [100, 150, 200, 300, 350, 400]  # two melds of a row, tiles 45 wide, 60 high

    def tile(k: int) -> SceneTile:
        x = xs[k]
        quad = np.array([[x, 100], [x + 45, 100], [x + 45, 160], [x, 160]], np.float32)
        return SceneTile(names[k], quad, quad, k // 3)

    tiles = [tile(k) for k in range(6)]

    def read(name: str, x: float) -> DetectedCard:
        return DetectedCard(name, (x + 5, 105, x + 40, 155), 0.9)

    whole = [read(n, x) for n, x in zip(names, xs, strict=True)]
    rows = ((0, 1, 2), (3, 4, 5))

    def why(cards: list[DetectedCard], groups: tuple[tuple[int, ...], ...]) -> tuple[int, dict[str, int]]:
        hit, laid, causes = melds_grouped(tiles, TableReading(tuple(cards), groups))
        assert laid == 2
        return hit, dict(causes)

    assert why(whole, rows) == (2, {})
    assert why(whole[:2] + whole[3:], ((0, 1), (2, 3, 4))) == (1, {"not found": 1})
    assert why([*whole, read("R2", 152)], ((0, 1, 2, 6), (3, 4, 5))) == (1, {"twice": 1})
    assert why([read("??", 100), *whole[1:]], rows) == (1, {"misread": 1})
    assert why(whole, ((0, 1), (2,), (3, 4, 5))) == (1, {"split": 1})
    assert why(whole, ((0, 1, 2, 3, 4, 5),)) == (0, {"merged": 2})
    assert why([*whole, read("Y9", 600)], ((0, 1, 2, 6), (3, 4, 5))) == (1, {"extra read": 1})


def test_a_tile_the_photos_edge_cuts_is_counted_by_how_it_was_read() -> None:
    from bench_tiles_learnt import cut_reads

    from vision.tile_synth import SceneTile

    def tile(name: str, x: float, y: float) -> SceneTile:  # 45 wide, 60 high, its numeral the top half
        quad = np.array([[x, y], [x + 45, y], [x + 45, y + 60], [x, y + 60]], np.float32)
        numeral = np.array([[x + 10, y + 5], [x + 35, y + 5], [x + 35, y + 30], [x + 10, y + 30]], np.float32)
        return SceneTile(name, quad, numeral)

    # a photo 300 pixels wide: the tiles at 270 show their numerals' left halves, the one at 100 all of it
    tiles = [tile("R5", 100, 100), tile("B9", 270, 100), tile("K4", 270, 200), tile("Y1", 270, 300)]

    def read(name: str, x: float, y: float) -> DetectedCard:
        return DetectedCard(name, (x + 5, y + 5, min(x + 40, 300), y + 55), 0.9)

    reading = TableReading((read("R5", 100, 100), read("B9", 270, 100), read("??", 270, 200), read("B3", 270, 300)),
                           ((0,), (1,), (2,), (3,)))
    assert cut_reads(tiles, reading, (300, 400)) == {"right": 1, "??": 1, "misnamed": 1}
    # read right beside a ??: right; not read at all: not found; a wider photo cuts none
    beside = TableReading((read("B9", 270, 100), read("??", 272, 100)), ((0, 1),))
    assert cut_reads(tiles, beside, (300, 400)) == {"right": 1, "not found": 2}
    assert cut_reads(tiles, reading, (400, 400)) == {}
