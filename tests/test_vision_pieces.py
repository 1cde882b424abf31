"""Cards or tiles, told from the photo (``vision.pieces``): the count on made-up peaks, then
both shipped networks on real card photos and on rendered tile tables of held-out plastics,
and ``tablekit see`` without a game never running the card pipeline on a tile table."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.recognize
from tablekit.cli import main
from vision.detector import Detection
from vision.lightness import lightness_negative
from vision.pieces import MIN_TILES, OVER_MARKS, PiecesSeen, tell, tell_pieces
from vision.recognize import read_table
from vision.runs import RunChoice, Told, run_choice
from vision.tile_reader import TILE_CLASSES, TileLooks, TilePeak
from vision.tile_synth import tile_scene

PHOTOS = Path(__file__).resolve().parent / "data" / "photos"
#: The numeral font bundled in pygame's package (the Debian fonts may be missing on CI).
BUNDLED = (Path(__import__("pygame").__file__).parent / "freesansbold.ttf",)


def test_only_sure_tiles_read_surely_outnumbering_the_card_marks_make_a_tile_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.pieces

    def mark(score: float, kind: str = "index") -> Detection:
        return Detection(kind, 10.0, 10.0, (0.0, 0.0, 20.0, 30.0), score, np.ones(3) / 3)

    def tile(score: float, sure: float) -> TilePeak:
        probs = np.full(len(TILE_CLASSES), (1 - sure) / (len(TILE_CLASSES) - 1))
        probs[3] = sure
        return TilePeak(50.0, 50.0, (40.0, 35.0, 60.0, 65.0), score, probs, (0.0, -1.0))

    looks: list[list[TilePeak]] = []  # what the tile reader's first and second looks find
    monkeypatch.setattr(vision.pieces, "look_first", lambda image, w: TileLooks((384,), looks[0]))
    monkeypatch.setattr(vision.pieces, "look_again",
                        lambda image, w, made: TileLooks((384, 768), looks[1]) if len(looks) > 1 else None)
    blank = np.zeros((8, 8, 3), np.uint8)
    marks = [mark(0.9), mark(0.4, "card"), mark(0.2)]  # the last too weak to count
    sure = [tile(0.8, 0.9) for _ in range(MIN_TILES)]
    looks[:] = [sure]
    seen = tell(blank, marks, Path("w"))
    assert (seen.pieces, seen.card_marks, seen.tiles, seen.looks.sizes) == ("tiles", 2, MIN_TILES, (384,))
    assert tell(blank, marks + [mark(0.5)] * (MIN_TILES - 2), Path("w")).pieces == "cards"  # as many marks
    looks[:] = [sure[:-1]]
    assert tell(blank, [], Path("w"), over_marks=None).pieces == "cards"  # too few to be a table of tiles
    assert tell(blank, [], Path("w"), min_tiles=MIN_TILES - 1, over_marks=None).pieces == "tiles"  # as swept
    # tile-shaped peaks read unsurely (tiles too small at 384): the second look reads them
    shaped = [tile(0.8, 0.3)] * (MIN_TILES + 1)
    looks[:] = [shaped, sure]
    seen = tell(blank, marks, Path("w"))
    assert (seen.pieces, seen.looks.sizes) == ("tiles", (384, 768))
    assert tell(blank, marks, Path("w"), second_look=False).pieces == "cards"
    looks[:] = [shaped, shaped]
    assert tell(blank, marks, Path("w")).pieces == "cards"  # unread there too: not tiles
    looks[:] = [shaped, sure]
    many = [mark(0.5)] * (MIN_TILES + 2)
    assert tell(blank, many, Path("w")).looks.sizes == (384,)  # fewer than the card marks
    # a close-up of a few tiles: OVER_MARKS more sure tiles than card marks, read at their size
    few = sure[:OVER_MARKS]
    looks[:] = [few]  # near the size the reader learnt already: no second look
    assert tell(blank, [], Path("w")).pieces == "tiles"
    assert tell(blank, [mark(0.9)], Path("w")).pieces == "cards"  # one more card mark
    assert tell(blank, [], Path("w"), over_marks=None).pieces == "cards"  # without the rule
    looks[:] = [sure[:1]]
    assert tell(blank, [], Path("w")).pieces == "cards"  # a single tile, alone: cards (a run of tile photos, or a named game, reads it as a tile)
    looks[:] = [[tile(0.8, 0.3)] * (OVER_MARKS + 1), sure[:OVER_MARKS + 1]]  # too big to read at 384
    seen = tell(blank, [mark(0.9)], Path("w"))
    assert (seen.pieces, seen.tiles, seen.looks.sizes) == ("tiles", OVER_MARKS + 1, (384, 768))
    looks[:] = [[tile(0.8, 0.3)] * (OVER_MARKS + 1), sure[:OVER_MARKS]]
    assert tell(blank, [mark(0.9)], Path("w")).pieces == "cards"


def test_real_card_photos_are_cards() -> None:
    paths = sorted(PHOTOS.glob("*/images/*.jpg"))
    assert len(paths) >= 10
    for path in paths:
        image = cv2.imread(str(path))
        assert tell_pieces(image).pieces == "cards", path.name


def test_rendered_tile_tables_of_held_out_plastics_are_tiles() -> None:
    rng = np.random.default_rng(21)
    for layout in ("rows", "rack", "scattered", "rows"):
        image, tiles = tile_scene(rng, (960, 720), (60.0, 110.0), layout, None, True, 0.05, fonts=BUNDLED)
        assert len(tiles) >= 3
        seen = tell_pieces(image)
        assert seen.pieces == "tiles", (layout, seen)


def test_a_close_up_of_five_tiles_is_tiles() -> None:
    """Five tiles seen near, 150–260 pixels high: the close-ups a six-tile count took for cards."""
    for seed in (37, 47):
        image, tiles = tile_scene(np.random.default_rng(seed), (960, 720), (150.0, 260.0), "rows", None, True,
                                  0.0, fonts=BUNDLED)
        assert len(tiles) == MIN_TILES == 5
        seen = tell_pieces(image)
        assert seen.pieces == "tiles", seen
        assert tell_pieces(image, min_tiles=6, over_marks=None).pieces == "cards"  # the count before


def test_a_close_up_of_two_to_four_tiles_is_tiles() -> None:
    """Tiles seen near, 200–320 pixels high, in rows and scattered, in a typeface no tile
    network saw: fewer than MIN_TILES, read as cards before OVER_MARKS."""
    for seed, layout, count in ((31, "rows", 4), (37, "rows", 3), (33, "scattered", 2)):
        image, tiles = tile_scene(np.random.default_rng(seed), (960, 720), (200.0, 320.0), layout, None, True,
                                  0.0, fonts=BUNDLED)
        assert len(tiles) == count
        seen = tell_pieces(image)
        assert (seen.pieces, seen.card_marks) == ("tiles", 0), seen
        assert tell_pieces(image, over_marks=None).pieces == "cards"  # the rule is what tells them


def test_without_a_game_a_tile_table_never_reaches_the_card_pipeline(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(4)
    image, tiles = tile_scene(rng, (960, 720), (70.0, 100.0), "rows", None, True, 0.0, fonts=BUNDLED)
    photo = tmp_path / "tiles.png"
    cv2.imwrite(str(photo), image)
    # a phone photo of the two of diamonds, which tells cards on its own (a webcam photo
    # that leaves it open would be read as the run's other photo is: tiles)
    card = PHOTOS / "cards-corners" / "images" / "cc-2d-c2639cd5-3991-11ed-91d6-ec2e98cc7ff6.jpg"
    (tmp_path / "z-card.jpg").write_bytes(card.read_bytes())

    crops_read = []
    real = vision.recognize.refine_indices

    def spy(*args: object, **kwargs: object) -> object:
        crops_read.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(vision.recognize, "refine_indices", spy)
    reading = read_table(image)
    assert not crops_read  # the card pipeline never ran
    tile_names = {t.tile for t in tiles}
    assert sum(c.card in tile_names for c in reading.cards) >= 0.8 * len(tiles)

    assert main(["see", "--json", str(tmp_path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [Path(line["image"]).name for line in lines] == ["tiles.png", "z-card.jpg"]
    assert lines[0]["cards"] and all(c["card"] in TILE_CLASSES or c["card"] == "??" for c in lines[0]["cards"])
    assert lines[1]["cards"] and not any(c["card"] in TILE_CLASSES for c in lines[1]["cards"])
    assert len(crops_read) >= 1  # the card photo was read as cards


def test_a_choice_is_unsettled_where_the_card_marks_do_not_outnumber_the_tile_shapes() -> None:
    looks = TileLooks((384,), [])
    assert PiecesSeen("cards", 0, 0, looks, 1).unsettled  # a close-up of a single tile
    assert PiecesSeen("cards", 0, 0, looks, 0).unsettled  # nothing seen by either network
    assert PiecesSeen("cards", 3, 1, looks, 3).unsettled
    assert not PiecesSeen("cards", 4, 1, looks, 3).unsettled  # more card marks: cards
    assert PiecesSeen("cards", 76, 10, looks, 74).unsettled  # many tile shapes: not settled by the marks
    assert not PiecesSeen("tiles", 0, 5, looks, 5).unsettled  # a tile table is settled
    # a run reads its unsettled photos as most of its settled ones are; a tie, or none, cards
    # (and as it lies)
    assert run_choice([]) == RunChoice("cards", False)
    assert run_choice([Told("tiles"), Told("cards"), Told(None)]).pieces == "cards"
    assert run_choice([Told("tiles"), Told("tiles"), Told("cards")]).pieces == "tiles"
    assert run_choice([Told("cards", True), Told("cards", None), Told("cards", False)]) == RunChoice("cards", False)
    assert run_choice([Told("cards", True), Told(None, True), Told("cards", False)]) == RunChoice("cards", True)


def test_a_run_gives_results_in_order_the_waiting_ones_read_with_the_runs_last_choice() -> None:
    from vision.runs import Unsettled, read_run

    told: list[Told] = []
    calls: list[tuple[str, str, bool]] = []

    def read(item: str, run: RunChoice, resume: Unsettled | None) -> str:
        calls.append((item, run.pieces, resume is not None))
        if item.startswith("?") and resume is None:
            raise Unsettled(None, {})
        if resume is None:
            told.append(Told(item))
        return f"{item}:{run.pieces}" if item.startswith("?") else item

    out = read_run(["cards", "?a", "tiles", "tiles", "?b"], read, told)
    assert next(out) == "cards"  # given at once: nothing before it waits
    assert calls == [("cards", "cards", False)]
    assert list(out) == ["?a:tiles", "tiles", "tiles", "?b:tiles"]
    # each photo read once with the choice so far, then the waiting ones with the last choice
    assert calls[1:] == [("?a", "cards", False), ("tiles", "cards", False), ("tiles", "cards", False),
                         ("?b", "tiles", False), ("?a", "tiles", True), ("?b", "tiles", True)]


def _single_tile_run(tmp_path: Path) -> None:
    """A close-up of a single tile (R13, unsettled alone), then two tile tables (settled)."""
    image, tiles = tile_scene(np.random.default_rng(32), (960, 720), (280.0, 420.0), "scattered", None, True,
                              0.0, fonts=BUNDLED)
    assert [t.tile for t in tiles] == ["R13"]
    cv2.imwrite(str(tmp_path / "a-single.png"), image)
    rng = np.random.default_rng(4)
    for i, layout in enumerate(("rows", "rack")):
        cv2.imwrite(str(tmp_path / f"b-table{i}.png"),
                    tile_scene(rng, (960, 720), (70.0, 100.0), layout, None, True, 0.0, fonts=BUNDLED)[0])


def test_a_single_tile_among_tile_photos_is_read_as_a_tile(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    _single_tile_run(tmp_path)
    seen = tell_pieces(cv2.imread(str(tmp_path / "a-single.png")))
    assert (seen.pieces, seen.unsettled) == ("cards", True)
    assert main(["see", "--json", str(tmp_path / "a-single.png")]) == 0  # alone: read as cards
    alone = json.loads(capsys.readouterr().out)
    assert alone["cards"] == []
    # in a run of tile photos it is a tile; its line, which waited for the others, comes first
    assert main(["see", "--json", str(tmp_path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [Path(line["image"]).name for line in lines] == ["a-single.png", "b-table0.png", "b-table1.png"]
    assert [c["card"] for c in lines[0]["cards"]] == ["R13"]
    assert lines[0]["ms"] > 0 and all(len(line["cards"]) >= 20 for line in lines[1:])
    # and so in the plain output, and with a photo that cannot be read among them
    (tmp_path / "c-broken.png").write_bytes(b"not a photo")
    assert main(["see", str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out] == [str(tmp_path / n) for n in
                                                    ("a-single.png", "b-table0.png", "b-table1.png", "c-broken.png")]
    assert out[0].startswith(f"{tmp_path / 'a-single.png'}: R13  (") and "error" in out[3]


def test_card_photos_read_in_a_run_as_each_alone(capsys: pytest.CaptureFixture[str]) -> None:
    """Real card photos as printed: a run of them settles every choice as each photo alone."""
    paths = sorted(PHOTOS.glob("cards-corners/images/*.jpg"))[:5]
    assert main(["see", "--json", *map(str, paths)]) == 0
    together = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in together] == [str(p) for p in paths]
    for path, line in zip(paths, together, strict=True):
        assert main(["see", "--json", str(path)]) == 0
        alone = json.loads(capsys.readouterr().out)
        assert alone["cards"] == line["cards"], path.name


def test_a_run_of_a_dark_deck_reads_its_open_photos_turned_over(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Real card photos turned to the other lightness (light ink on dark cards, whose pips the
    tile reader takes for tile shapes): the run is cards, so the photos that leave cards or
    tiles open are read as cards; and it is a dark deck's, so the photos whose lightness is
    open (dark index boxes that read no surer turned over) are read turned over."""
    names = ("cc-8h-e6ecc271-3990-11ed-989c-ec2e98cc7ff6.jpg", "cc-IMG_20220921_194205.jpg",
             "cc-IMG_20220921_201156.jpg", "cc-IMG_20220921_194213.jpg")
    paths = []
    for name in names:
        paths.append(tmp_path / name.replace(".jpg", ".png"))
        cv2.imwrite(str(paths[-1]), lightness_negative(cv2.imread(str(PHOTOS / "cards-corners" / "images" / name))))
    paths.sort()
    images = [cv2.imread(str(p)) for p in paths]
    assert [tell_pieces(image).unsettled for image in images] == [True, False, False, True]
    told: list[Told] = []
    for image in images:
        read_table(image, told=told.append)
    assert [t.turned for t in told] == [True, None, True, None]  # two open: the run is a dark deck's
    assert run_choice(told) == RunChoice("cards", True)
    assert main(["see", "--json", str(tmp_path)]) == 0
    together = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in together] == [str(p) for p in paths]
    for image, line in zip(images, together, strict=True):
        assert line["cards"] == read_table(image, run=RunChoice("cards", True)).to_json()["cards"]
        assert line["cards"] and not any(c["card"] in TILE_CLASSES for c in line["cards"])
    assert [c["card"] for c in together[0]["cards"]] == ["8H"]


def test_a_waiting_photo_gone_by_its_turn_gets_its_error_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The single-tile close-up waits for the run; if its file cannot be read again by then,
    it gets its error line in its place and the run goes on."""
    import vision.images

    _single_tile_run(tmp_path)
    real, calls = vision.images.read_photo, []

    def once(path: str) -> object:
        calls.append(Path(path).name)
        if calls.count("a-single.png") > 1:
            (tmp_path / "a-single.png").unlink()
        return real(path)

    monkeypatch.setattr(vision.images, "read_photo", once)
    assert main(["see", "--json", str(tmp_path)]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [Path(line["image"]).name for line in lines] == ["a-single.png", "b-table0.png", "b-table1.png"]
    assert "error" in lines[0] and "cards" not in lines[0]
    assert all(len(line["cards"]) >= 20 for line in lines[1:])
