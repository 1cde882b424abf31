"""``tablekit see --calibration``: read the mat's top-down view, report boxes in the photo's
own pixels and the zone each card lies in; a broken calibration is one ``error:`` line.

The scene is the A3 mat with card backs (solid blue) placed at known millimetre positions,
photographed under a known perspective and colour cast. Geometry is checked with a stand-in
recognizer that finds the blue cards in whatever image it is handed, so these tests do not
depend on the card recognizer's weights; one test runs the real recognizer for the contract.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.recognize
from tablekit.cli import main
from vision.calibration import Calibration, calibrate
from vision.mat import layout, render
from vision.reading import DetectedCard, TableReading
from vision.synth import CARD_H, CARD_W, draw_face

MAT = layout("A3")
FLAT_PX_PER_MM = 4.0  # the printed mat, before the camera sees it
VIEW_SIZE = (1240, 820)
#: Where the mat's corners land in the photo: the far edge is shorter (a tilted camera).
MAT_CORNERS_IN_VIEW = np.float32([[250, 110], [1000, 90], [1180, 770], [50, 740]])
TINT = (0.8, 0.95, 1.0)  # a warm light: less blue
CARD_MM = (63.0, 88.0)
#: (zone, centre in mat mm, rotation in degrees); no two cards touch.
PLACED = [("seat1", (110.0, 215.0), 0.0), ("seat3", (200.0, 80.0), 90.0),
          ("centre", (215.0, 165.0), 12.0), ("seat4", (335.0, 150.0), -5.0)]
BACK_BGR = (170, 60, 20)


def _card_quad(centre: tuple[float, float], degrees: float) -> np.ndarray:
    w, h = CARD_MM
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    a = math.radians(degrees)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return corners @ rot.T + np.array(centre)


def _mat_to_view() -> np.ndarray:
    """The true homography from mat millimetres to photo pixels."""
    w, h = MAT.width * FLAT_PX_PER_MM, MAT.height * FLAT_PX_PER_MM
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    return cv2.getPerspectiveTransform(src, MAT_CORNERS_IN_VIEW) @ np.diag(
        [FLAT_PX_PER_MM, FLAT_PX_PER_MM, 1.0])


def _photo(faces: bool = False) -> np.ndarray:
    """The mat with the ``PLACED`` cards, seen by the camera: blue backs, or drawn faces."""
    flat = render(MAT, FLAT_PX_PER_MM)
    rng = np.random.default_rng(7)
    for (_zone, centre, degrees), card in zip(PLACED, ("7H", "KS", "4D", "QC"), strict=True):
        quad = (_card_quad(centre, degrees) * FLAT_PX_PER_MM).astype(np.float32)
        mask = np.zeros(flat.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, quad.round().astype(np.int32), 255)
        if faces:
            src = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])
            warped = cv2.warpPerspective(draw_face(card, rng).image,
                                         cv2.getPerspectiveTransform(src, quad),
                                         (flat.shape[1], flat.shape[0]), flags=cv2.INTER_AREA)
            flat[mask > 0] = warped[mask > 0]
        else:
            flat[mask > 0] = BACK_BGR
    m = _mat_to_view() @ np.diag([1 / FLAT_PX_PER_MM, 1 / FLAT_PX_PER_MM, 1.0])
    view = cv2.warpPerspective(flat, m, VIEW_SIZE, flags=cv2.INTER_AREA, borderValue=(60, 90, 40))
    return np.clip(view.astype(np.float32) * np.float32(TINT), 0, 255).astype(np.uint8)


def _project(points_mm: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(points_mm.reshape(-1, 1, 2).astype(np.float64),
                                    matrix).reshape(-1, 2)


def _bbox(points: np.ndarray) -> np.ndarray:
    return np.array([*points.min(axis=0), *points.max(axis=0)])


def _true_boxes() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per zone: the card's own extent in the photo, and the box the contract reports for it
    (the card's top-down bounding box, its corners taken back into the photo)."""
    out = {}
    for zone, centre, degrees in PLACED:
        quad = _card_quad(centre, degrees)
        x0, y0, x1, y1 = _bbox(quad)
        top_box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
        to_view = _mat_to_view()
        out[zone] = (_bbox(_project(quad, to_view)), _bbox(_project(top_box, to_view)))
    return out


class BlueCardReader:
    """A stand-in for ``read_table``: each blue blob is a card; records the images it read."""

    def __init__(self) -> None:
        self.images: list[np.ndarray] = []
        self.pieces: list[object] = []  # what each call was asked to read

    def __call__(self, image: np.ndarray, **kwargs: object) -> TableReading:
        self.images.append(image)
        self.pieces.append(kwargs.get("pieces", "auto"))
        hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
        mask = ((hsv[..., 0] > 95) & (hsv[..., 0] < 130) & (hsv[..., 1] > 120)).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        cards = []
        for x, y, w, h, area in stats[1:n]:
            if area >= 300:
                box = (float(x), float(y), float(x + w), float(y + h))
                cards.append(DetectedCard("??", box, 0.0, (box,)))
        return TableReading(tuple(cards), tuple((i,) for i in range(len(cards))))


@pytest.fixture
def blue_reader(monkeypatch: pytest.MonkeyPatch) -> BlueCardReader:
    reader = BlueCardReader()
    monkeypatch.setattr(vision.recognize, "read_table", reader)
    monkeypatch.setattr(vision.recognize, "warm_up", lambda *a, **k: None)
    return reader


def _empty_photo() -> np.ndarray:
    m = _mat_to_view() @ np.diag([1 / FLAT_PX_PER_MM, 1 / FLAT_PX_PER_MM, 1.0])
    view = cv2.warpPerspective(render(MAT, FLAT_PX_PER_MM), m, VIEW_SIZE, flags=cv2.INTER_AREA,
                               borderValue=(60, 90, 40))
    return np.clip(view.astype(np.float32) * np.float32(TINT), 0, 255).astype(np.uint8)


@pytest.fixture
def calibration(tmp_path: Path) -> Path:
    """The calibration file made from a photo of the empty mat."""
    path = tmp_path / "cal.json"
    calibrate(_empty_photo(), MAT).save(path)
    return path


def _see(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict], str]:
    code = main(["see", "--json", *args])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def _by_zone(cards: list[dict]) -> dict[str, np.ndarray]:
    return {c["zone"]: np.array(c["box"]) for c in cards}


def test_boxes_come_back_in_the_photo_pixels_near_the_cards(
        tmp_path: Path, calibration: Path, blue_reader: BlueCardReader,
        capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), _photo())
    code, lines, _ = _see(capsys, "--calibration", str(calibration), str(photo))
    assert code == 0 and len(lines) == 1
    line = lines[0]
    assert list(line) == ["image", "cards", "groups", "ms"] and line["image"] == str(photo)
    assert all(set(c) == {"card", "box", "confidence", "zone"} for c in line["cards"])
    assert len(line["groups"]) == len(line["cards"]) == len(PLACED)
    found = _by_zone(line["cards"])
    assert sorted(found) == sorted(zone for zone, _, _ in PLACED)
    for zone, (extent, reported) in _true_boxes().items():
        assert np.abs(found[zone] - reported).max() < 4, zone
        # the box holds the whole card, and for an unrotated card it is the card
        box = found[zone]
        assert (box[:2] <= extent[:2] + 4).all() and (box[2:] >= extent[2:] - 4).all()
    assert np.abs(found["seat1"] - _true_boxes()["seat1"][0]).max() < 4


def test_the_recognizer_reads_the_white_balanced_top_down_view(
        tmp_path: Path, calibration: Path, blue_reader: BlueCardReader,
        capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), _photo())
    code, _, _ = _see(capsys, "--calibration", str(calibration), str(photo))
    assert code == 0
    (seen,) = blue_reader.images
    cal = Calibration.load(calibration)
    assert seen.shape[:2] == (round(MAT.height * cal.px_per_mm), round(MAT.width * cal.px_per_mm))
    # the mat, straight on: the empty parts match the printed mat, and its white is white
    printed = render(MAT, cal.px_per_mm)
    blank = np.ones(printed.shape[:2], bool)
    for _, centre, degrees in PLACED:
        quad = _card_quad(centre, degrees) * cal.px_per_mm
        cv2.fillConvexPoly(blank.view(np.uint8), quad.round().astype(np.int32), 0)
    blank = cv2.erode(blank.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
    diff = np.abs(seen.astype(int) - printed.astype(int)).max(axis=2)[blank]
    assert np.median(diff) < 10 and np.mean(diff > 60) < 0.02
    paper = seen[round(130 * cal.px_per_mm), round(80 * cal.px_per_mm)].astype(float)
    assert paper.min() > 235 and np.ptp(paper) < 12


def test_a_smaller_photo_of_the_same_shape_is_scaled(
        tmp_path: Path, calibration: Path, blue_reader: BlueCardReader,
        capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "half.png"
    half = (VIEW_SIZE[0] // 2, VIEW_SIZE[1] // 2)
    cv2.imwrite(str(photo), cv2.resize(_photo(), half, interpolation=cv2.INTER_AREA))
    code, (line,), _ = _see(capsys, "--calibration", str(calibration), str(photo))
    assert code == 0
    found = _by_zone(line["cards"])
    for zone, (_, reported) in _true_boxes().items():
        want = (reported + 0.5) * 0.5 - 0.5
        assert np.abs(found[zone] - want).max() < 3, zone
    assert blue_reader.images[0].shape[:2] == (594, 840)


def test_a_photo_of_another_shape_is_an_error_line_and_the_run_goes_on(
        tmp_path: Path, calibration: Path, blue_reader: BlueCardReader,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "shots"
    folder.mkdir()
    cv2.imwrite(str(folder / "a-cropped.png"), _photo()[:, :900])
    cv2.imwrite(str(folder / "b-whole.png"), _photo())
    code, lines, err = _see(capsys, "--calibration", str(calibration), str(folder))
    assert code == 1 and [Path(x["image"]).name for x in lines] == ["a-cropped.png", "b-whole.png"]
    assert set(lines[0]) == {"image", "error"}
    assert "900x820" in lines[0]["error"] and "1240x820" in lines[0]["error"]
    assert len(lines[1]["cards"]) == len(PLACED)
    assert "1 image(s) could not be read" in err


def test_without_a_calibration_there_is_no_zone(
        tmp_path: Path, blue_reader: BlueCardReader, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), _photo())
    code, (line,), _ = _see(capsys, str(photo))
    assert code == 0 and blue_reader.images[0].shape[:2] == (VIEW_SIZE[1], VIEW_SIZE[0])
    assert line["cards"] and all(set(c) == {"card", "box", "confidence"} for c in line["cards"])


BROKEN = {
    "not-json.json": ("{ this is not json", "not valid JSON"),
    "list.json": ("[1, 2, 3]", "expected a JSON object"),
    "no-homography.json": ('{"mat": "A3", "image_size": [640, 480]}', "missing field 'homography'"),
    "short.json": ('{"mat": "A3", "image_size": [640, 480], "homography": [[1, 0], [0, 1]]}',
                   "'homography' must be 3x3 numbers"),
    "flat.json": ('{"mat": "A3", "image_size": [640, 480], '
                  '"homography": [[1, 0, 0], [1, 0, 0], [0, 0, 1]]}', "singular"),
    "words.json": ('{"mat": "A3", "image_size": [640, 480], '
                   '"homography": [["a", 0, 0], [0, 1, 0], [0, 0, 1]]}', "'homography' must be"),
    "size.json": ('{"mat": "A3", "image_size": [640, -480], '
                  '"homography": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}', "'image_size'"),
    "paper.json": ('{"mat": "A9", "image_size": [640, 480], '
                   '"homography": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}', "unknown mat size"),
    "seats.json": ('{"mat": "A3", "seats": 12, "image_size": [640, 480], '
                   '"homography": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}', "2 to 8 seats"),
    "game.json": ('{"mat": "A3", "game": 7, "image_size": [640, 480], '
                  '"homography": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}', "'game' must be a variant id"),
}


@pytest.mark.parametrize("name", [*BROKEN, "missing.json"])
def test_a_broken_calibration_is_one_error_line(
        name: str, tmp_path: Path, blue_reader: BlueCardReader,
        capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((48, 64, 3), 200, np.uint8))
    path = tmp_path / name
    text, reason = BROKEN.get(name, (None, "no such file"))
    if text is not None:
        path.write_text(text)
    code, lines, err = _see(capsys, "--calibration", str(path), str(photo))
    assert code == 2 and lines == [] and not blue_reader.images
    assert err.count("\n") == 1 and err.startswith(f"error: calibration {path}: ")
    assert reason in err


def test_the_real_recognizer_on_the_top_down_view_keeps_the_contract(
        tmp_path: Path, calibration: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Readings are not checked (the recognizer is trained elsewhere); the shape of the answer is.
    photo = tmp_path / "faces.png"
    cv2.imwrite(str(photo), _photo(faces=True))
    code, (line,), _ = _see(capsys, "--calibration", str(calibration), str(photo))
    assert code == 0 and list(line) == ["image", "cards", "groups", "ms"]
    zones = {z.name for z in MAT.zones()}
    for card in line["cards"]:
        assert {"card", "box", "confidence"} <= set(card) <= {"card", "box", "confidence", "zone"}
        x0, y0, x1, y1 = card["box"]
        assert 0 <= x0 <= x1 <= VIEW_SIZE[0] and 0 <= y0 <= y1 <= VIEW_SIZE[1]
        assert card.get("zone", "centre") in zones
    assert sum(len(g) for g in line["groups"]) == len(line["cards"])
    assert line["ms"] >= 0


def test_the_text_output_names_each_meld_zone(
        tmp_path: Path, calibration: Path, blue_reader: BlueCardReader,
        capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), _photo())
    assert main(["see", "--calibration", str(calibration), str(photo)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{photo}: ") and out.count("\n") == 1
    assert sorted(part.split("@")[1].split()[0] for part in out.split("|")) == sorted(
        zone for zone, _, _ in PLACED)


@pytest.mark.parametrize(("game", "variant", "pieces"), [
    ("tile-rummy", None, "tiles"), ("indian-points", None, "cards"), (None, None, "auto"),
    ("tile-rummy", "indian-points", "cards")])  # --variant names the game over the calibration
def test_the_calibration_s_game_says_whether_cards_or_tiles_are_read(
        game: str | None, variant: str | None, pieces: str, tmp_path: Path, calibration: Path,
        blue_reader: BlueCardReader, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), _photo())
    data = json.loads(calibration.read_text())
    data.pop("game", None)
    calibration.write_text(json.dumps(data | ({"game": game} if game else {})))
    assert Calibration.load(calibration).game == game
    code, lines, _ = _see(capsys, "--calibration", str(calibration), *(["--variant", variant] if variant else []),
                          str(photo))
    assert code == 0 and len(lines) == 1 and blue_reader.pieces == [pieces]


def test_a_calibration_naming_an_unknown_game_is_one_error_line(
        tmp_path: Path, calibration: Path, blue_reader: BlueCardReader,
        capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), _photo())
    calibration.write_text(json.dumps(json.loads(calibration.read_text()) | {"game": "snap"}))
    code, lines, err = _see(capsys, "--calibration", str(calibration), str(photo))
    assert code == 2 and lines == [] and not blue_reader.images
    assert err.count("\n") == 1 and "snap" in err


def test_a_photo_that_waits_for_its_run_is_read_on_the_top_down_view_in_its_place(
        tmp_path: Path, calibration: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The first photo leaves a choice open (a stand-in reader raises ``Unsettled`` when asked
    to defer); the two after it settle "turned over": the first is read last, on its top-down
    view, with the run's choice and its own looks, and its line still comes first, its boxes
    in its own pixels with their zones."""
    from vision.runs import RunChoice, Told, Unsettled

    blue = BlueCardReader()
    calls: list[tuple[bool, RunChoice, object]] = []

    def reader(image: np.ndarray, **kwargs: object) -> TableReading:
        waits = len(calls) == 0
        calls.append((bool(kwargs.get("defer")), kwargs["run"], kwargs.get("resume")))  # type: ignore[arg-type]
        if waits:
            raise Unsettled(None, {}, "open")
        told = kwargs.get("told")
        if told is not None:
            told(Told("cards", True))  # type: ignore[operator]
        return blue(image)

    monkeypatch.setattr(vision.recognize, "read_table", reader)
    monkeypatch.setattr(vision.recognize, "warm_up", lambda *a, **k: None)
    for name in ("a.png", "b.png", "c.png"):
        cv2.imwrite(str(tmp_path / name), _photo())
    code, lines, _ = _see(capsys, "--calibration", str(calibration), str(tmp_path / "a.png"),
                          str(tmp_path / "b.png"), str(tmp_path / "c.png"))
    assert code == 0 and [Path(line["image"]).name for line in lines] == ["a.png", "b.png", "c.png"]
    # the first reads make what does not wait as the photos so far say (b.png settled "turned")
    assert [(defer, run) for defer, run, _ in calls] == [(True, RunChoice()), (True, RunChoice()),
                                                         (True, RunChoice("cards", True)),
                                                         (False, RunChoice("cards", True))]
    assert isinstance(calls[3][2], Unsettled)  # read on from its own looks
    assert lines[0]["cards"] == lines[1]["cards"] and sorted(c["zone"] for c in lines[0]["cards"]) == sorted(
        zone for zone, _, _ in PLACED)


class _Photos:
    """A camera that sees ``frames`` in turn, the last for ever."""

    name = "photos"

    def __init__(self, *frames: np.ndarray) -> None:
        self.shown = frames

    def frames(self):  # type: ignore[no-untyped-def]
        yield from self.shown
        while True:
            yield self.shown[-1]


def test_the_live_camera_reads_the_calibrated_mat_from_above_as_see_does(
        calibration: Path, blue_reader: BlueCardReader) -> None:
    """The table's camera and ``see --calibration`` read a calibrated frame alike: the
    recognizer is handed the white-balanced top-down view at the calibration's scale, and
    each seat's melds and the pile are told by the zone they lie in."""
    from tablekit.cameras import FrameCamera, SeenTable, TableRequest, ZoneRequest

    cal = Calibration.load(calibration)
    camera = FrameCamera(_Photos(_photo()), cal)
    seen = camera.read_table(TableRequest(4, 1))
    assert seen == SeenTable(((("??",),), (), (("??",),), (("??",),)), ("??",))
    view = blue_reader.images[-1]
    assert view.shape[:2] == (round(MAT.height * cal.px_per_mm), round(MAT.width * cal.px_per_mm))
    assert camera.read_zone(ZoneRequest(2, 1)) == (("??",),)  # seat 3's one card
    frame, reading = camera.seen["seat3"]
    extent, reported = _true_boxes()["seat3"]
    (card,) = [c for c in reading.cards if c.zone == "seat3"]
    assert np.abs(np.array(card.box) - reported).max() < 4  # its box in the frame's own pixels
    # a frame of another shape (another camera set-up) is read as it lies, not refused
    square = cv2.resize(_photo(), (820, 820), interpolation=cv2.INTER_AREA)
    FrameCamera(_Photos(square), cal).read_zone(ZoneRequest(0, 1))
    assert blue_reader.images[-1].shape[:2] == (820, 820)


def test_the_live_camera_reads_a_tile_table_at_the_calibration_s_scale(
        calibration: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tablekit.cameras import FrameCamera, ZoneRequest

    asked: list[tuple[object, object, tuple[int, ...]]] = []

    def spy(image: np.ndarray, **kwargs: object) -> TableReading:
        asked.append((kwargs["pieces"], kwargs.get("px_per_mm"), image.shape[:2]))
        return TableReading((), ())

    monkeypatch.setattr(vision.recognize, "read_table", spy)
    cal = Calibration.load(calibration)
    for pieces in ("tiles", "cards"):
        FrameCamera(_Photos(_photo()), cal).read_zone(ZoneRequest(0, 1, pieces=pieces))
    view = (round(MAT.height * cal.px_per_mm), round(MAT.width * cal.px_per_mm))
    assert asked == [("tiles", cal.px_per_mm, view), ("cards", cal.px_per_mm, view)]


def test_the_camera_preview_reads_the_calibrated_mat_from_above_too(
        tmp_path: Path, calibration: Path, blue_reader: BlueCardReader,
        capsys: pytest.CaptureFixture[str]) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "table.png"), _photo())
    out = tmp_path / "out"
    assert main(["camera", "--source", str(frames), "--calibration", str(calibration), "--out", str(out)]) == 0
    (line,) = [json.loads(s) for s in capsys.readouterr().out.splitlines()]
    assert sorted(line["zones"]) == sorted(zone for zone, _, _ in PLACED)
    cal = Calibration.load(calibration)
    (seen,) = blue_reader.images
    assert seen.shape[:2] == (round(MAT.height * cal.px_per_mm), round(MAT.width * cal.px_per_mm))
    found = {c["zone"]: np.array(c["box"]) for c in line["cards"]}
    for zone, (_, reported) in _true_boxes().items():
        assert np.abs(found[zone] - reported).max() < 4, zone  # boxes in the frame's pixels
    assert len(list(out.glob("frame-*.jpg"))) == 1
