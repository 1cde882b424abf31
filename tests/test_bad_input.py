"""Bad values on the command line and bad files: each gets one ``error:`` line naming what was
wrong (exit 2), before any game is played — never a traceback, never a silent success."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.game.house_options import OptionError, check_options, options_for
from engine.variants import find
from tablekit.cli import main
from tablekit.commands.demo import DEMO_DIR
from tablekit.values import ValueRefused, one_line, parse_option, parse_size
from vision.enroll import PATCH, DeckTemplates
from vision.errors import VisionError
from vision.images import decode_image, header_size, read_image
from vision.recognize import read_table
from vision.sources import FolderSource

Capture = pytest.CaptureFixture[str]


def _error(capsys: Capture) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert err, "no error line"
    assert err[-1].startswith("error: "), err
    assert "Traceback" not in "\n".join(err)
    return err[-1]


# --- sizes and house rules -----------------------------------------------------------------


@pytest.mark.parametrize("text", ["abc", "-5x10", "5x-10", "0x0", "1280x", "x720", "99999x99999",
                                  "1280*720", "12.5x7", ""])
def test_a_size_no_screen_has_is_refused(text: str) -> None:
    with pytest.raises(ValueRefused, match="--size"):
        parse_size(text)


def test_sizes_screens_have_are_read() -> None:
    assert parse_size("800x480") == (800, 480)
    assert parse_size(" 1920X1080 ") == (1920, 1080)


@pytest.mark.parametrize("argv", [
    ["run", "--size", "abc"], ["run", "--size=-5x10"],
    ["run", "--variant", "indian-deals", "--option", "deals=abc"],
    ["run", "--variant", "indian-deals", "--option", "deals=0"],
    ["run", "--variant", "indian-deals", "--option", "deals=4"],  # best of 2 or of 3 only
    ["run", "--variant", "indian-deals", "--option", "deals=1"],
    ["run", "--variant", "indian-pool-101", "--option", "deals=3"],
    ["run", "--variant", "indian-pool-101", "--option", "wrapp=true"],
    ["run", "--variant", "indian-pool-101", "--option", "wrap=maybe"],
    ["run", "--variant", "indian-pool-101", "--option", "=1"],
    ["run", "--variant", "indian-pool-101", "--players", "A,,B"],
    ["run", "--variant", "indian-pool-101", "--players", "Ravi,ravi ,B"],
    ["run", "--variant", "indian-pool-101", "--players", "A,B," + "x" * 25],
    ["run", "--variant", "indian-pool-101", "--players", "A, ,B"],
    ["run", "--variant", "indian-pool-101", "--dealer", "0"],
    ["run", "--variant", "indian-pool-101", "--photo-budget-mb", "-1"],
    ["run", "--variant", "indian-pool-101", "--photo-budget-mb", "nan"],
    ["demo", "--size", "abc"],
])
def test_run_and_demo_refuse_bad_values_before_opening_anything(
        argv: list[str], tmp_path: Path, capsys: Capture) -> None:
    journal = tmp_path / "j.sqlite"
    code = main([*argv, "--headless", "--seconds", "0.1", "--journal", str(journal)]
                if argv[0] == "run" else [*argv, "--no-screen", "--box", "keys"])
    assert code == 2
    line = _error(capsys)
    assert any(word in line for word in ("--size", "house rule", "--option", "--players", "--dealer",
                                         "--photo-budget-mb"))
    assert not journal.exists()  # refused before the journal was opened


def test_house_rules_are_checked_against_the_game() -> None:
    deals = find("indian-deals")
    assert check_options(deals, {"deals": 3, "wrap": True, "count": "arranged"}) == {
        "deals": 3, "wrap": True, "count": "arranged"}
    assert "deals" not in options_for(find("indian-points"))
    assert "turn_checks" in options_for(find("open-rummy"))
    with pytest.raises(OptionError, match="no house rule 'deal'.*deals"):
        check_options(deals, {"deal": 3})
    with pytest.raises(OptionError, match="best or arranged"):
        check_options(deals, {"count": "fast"})
    with pytest.raises(OptionError, match="from 2 to 3"):
        check_options(deals, {"deals": True})
    with pytest.raises(OptionError, match="from 2 to 3, not 4"):  # best of 2 or of 3 (howto)
        check_options(deals, {"deals": 4})
    # every card left in hand counts in a contract game: no "best arrangement" to choose
    with pytest.raises(OptionError, match="must be arranged, not 'best'"):
        check_options(find("contract-rummy"), {"count": "best"})
    assert check_options(find("contract-rummy"), {"count": "arranged"}) == {"count": "arranged"}


def test_option_values_are_typed() -> None:
    assert parse_option("wrap=yes") == ("wrap", True)
    assert parse_option("deals= 3 ") == ("deals", 3)
    assert parse_option("count=best") == ("count", "best")
    assert parse_option("deals=99999999999999999999") == ("deals", "99999999999999999999")


# --- demo scripts and outputs ----------------------------------------------------------------


def _script(tmp_path: Path, change: object) -> Path:
    base = json.loads((DEMO_DIR / "indian-pool-101.json").read_text(encoding="utf-8"))
    data = change(base) if callable(change) else change
    path = tmp_path / "script.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _with(key: str, value: object):  # type: ignore[no-untyped-def]
    def change(base: dict) -> dict:  # type: ignore[type-arg]
        base[key] = value
        return base
    return change


def _step(step: dict) -> object:  # type: ignore[type-arg]
    def change(base: dict) -> dict:  # type: ignore[type-arg]
        base["steps"].append(step)
        return base
    return change


@pytest.mark.parametrize(("change", "said"), [
    ([], "must be a JSON object"),
    ({}, "names no game"),
    ("text", "must be a JSON object"),
    (_step({"after": 10, "press": 7}), "presses seat 7"),
    (_step({"after": 10, "press": -1}), "\"press\""),
    (_step({"after": "x", "ok": True}), "\"after\""),
    (_step({"after": 10, "press": 0, "hold": 0}), "\"hold\""),
    (_step({"after": 10, "correct": {"zone": "a"}}), "correction zone"),
    (_step(["not", "a", "step"]), "step 39"),
    (_with("cuts", {"x": "5D"}), "a cut's deal 'x'"),
    (_with("cuts", {"1": "ZZ"}), "unknown card 'ZZ'"),
    (_with("readings", {"1": {"9": "5D 6D 7D"}}), "a reading's seat '9'"),
    (_with("steps", {"after": 1}), "\"steps\" must be a list"),
    (_with("game", {"variant": "indian-pool-101", "seats": [{"name": "A"}, {"name": "B"}],
                    "options": {"wrap": "maybe"}}), "house rule wrap"),
    (_with("game", {"variant": "indian-pool-101", "seats": 3}), "not a game description"),
    (_with("game", {"variant": "indian-pool-101", "seats": [{"name": "Asha"}, {"name": "asha"}]}),
     "sits at seats 1 and 2"),
])
def test_a_demo_script_that_cannot_be_played_is_named(
        change: object, said: str, tmp_path: Path, capsys: Capture) -> None:
    script = _script(tmp_path, change)
    assert main(["demo", "--no-screen", "--box", "keys", "--script", str(script)]) == 2
    line = _error(capsys)
    assert said in line
    assert str(script) in line


def test_deeply_nested_script_is_an_error_line(tmp_path: Path, capsys: Capture) -> None:
    script = tmp_path / "deep.json"
    script.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert main(["demo", "--no-screen", "--box", "keys", "--script", str(script)]) == 2
    assert "cannot read demo script" in _error(capsys)


def test_demo_outputs_are_checked_before_the_game(tmp_path: Path, capsys: Capture) -> None:
    file = tmp_path / "a-file"
    file.write_text("x", encoding="utf-8")
    assert main(["demo", "--no-screen", "--box", "keys", "--report", str(tmp_path)]) == 2
    assert "is a folder" in _error(capsys)
    assert main(["demo", "--no-screen", "--box", "keys", "--screenshots", str(file)]) == 2
    assert "is a file" in _error(capsys)
    assert main(["demo", "--no-screen", "--box", "keys", "--report", str(file / "r.json")]) == 2
    assert "cannot make its folder" in _error(capsys)


# --- error lines stay one line -----------------------------------------------------------------


def test_an_error_naming_a_path_with_a_newline_is_one_line(tmp_path: Path, capsys: Capture) -> None:
    odd = tmp_path / "two\nlines.json"
    assert main(["demo", "--no-screen", "--box", "keys", "--script", str(odd)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "two\\nlines" in err
    assert one_line("a\rb\tc\x1b") == "a\\rb\\tc\\x1b"


def test_an_unexpected_failure_is_one_error_line(monkeypatch: pytest.MonkeyPatch, capsys: Capture) -> None:
    import tablekit.commands.variants as variants

    def boom(args: object) -> int:
        raise RuntimeError("wires\ncrossed")

    monkeypatch.setattr(variants, "run", boom)
    assert main(["variants"]) == 1
    err = capsys.readouterr().err
    assert err == "error: unexpected RuntimeError: wires\\ncrossed (run with -vv for the details)\n"


# --- photos too big to decode, files that are not photos -------------------------------------------


def _png_header(width: int, height: int) -> bytes:
    """A PNG that declares ``width``×``height``, with a little real image data after it."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    body = zlib.compress(b"\0" * 1024)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def test_a_huge_png_is_refused_from_its_header(tmp_path: Path, capsys: Capture) -> None:
    huge = tmp_path / "huge.png"
    huge.write_bytes(_png_header(20000, 20000))
    assert header_size(huge.read_bytes()) == (20000, 20000)
    with pytest.raises(VisionError, match="too large: 20000x20000"):
        read_image(huge)
    assert main(["see", "--json", str(huge)]) == 1
    line = json.loads(capsys.readouterr().out)
    assert line["image"] == str(huge) and "too large" in line["error"]


def test_a_large_jpeg_is_read_smaller_and_sizes_come_from_headers() -> None:
    image = np.full((120, 200, 3), 200, np.uint8)
    for ext in (".png", ".jpg", ".bmp", ".webp", ".ppm"):
        ok, data = cv2.imencode(ext, image)
        assert ok and header_size(data.tobytes()) == (200, 120), ext
    jpeg = cv2.imencode(".jpg", image)[1].tobytes()
    assert decode_image(jpeg, max_pixels=3000).shape == (30, 50, 3)  # an eighth would be 15x25
    with pytest.raises(VisionError, match="too large"):
        decode_image(cv2.imencode(".png", image)[1].tobytes(), max_pixels=3000)
    with pytest.raises(VisionError, match="not a readable image"):
        decode_image(b"GIF89a")
    with pytest.raises(VisionError, match="cut short"):
        decode_image(jpeg[:40])
    with pytest.raises(VisionError, match="its data is damaged"):
        decode_image(_png_header(10, 10).replace(b"IDAT", b"IDAT\xff\xff"))


def test_a_gif_reads_where_opencv_decodes_gifs_and_is_named_where_it_cannot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from vision import images
    gif = images._ONE_PIXEL_GIF
    if images.gif_decodes():
        assert decode_image(gif)[0, 0].tolist() == [0, 0, 255]  # the pixel is red
    # an OpenCV without a GIF decoder (a Pi's system one) names the format, not damage
    monkeypatch.setattr(images.cv2, "imdecode", lambda *a: None)
    images.gif_decodes.cache_clear()
    try:
        with pytest.raises(VisionError, match="a GIF, which OpenCV .* cannot decode"):
            decode_image(gif)
        with pytest.raises(VisionError, match="its data is damaged"):
            decode_image(_png_header(10, 10))
    finally:
        images.gif_decodes.cache_clear()


def test_a_photo_too_small_to_show_a_table_is_named(tmp_path: Path, capsys: Capture) -> None:
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.zeros((1, 5, 3), np.uint8))
    assert main(["see", "--json", str(tiny)]) == 1
    line = json.loads(capsys.readouterr().out)
    assert line == {"image": str(tiny), "error": "image too small: 5x1 pixels (at least 8 on each side)"}
    for pieces in ("cards", "tiles", "auto"):
        with pytest.raises(VisionError, match="too small: 5x1"):
            read_table(np.zeros((1, 5, 3), np.uint8), pieces=pieces)
    with pytest.raises(VisionError, match="expected a colour"):
        read_table(np.zeros((40, 60), np.uint8))


def test_a_photo_folder_skips_what_it_cannot_read(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((40, 60, 3), np.uint8))
    (tmp_path / "b.png").write_bytes(_png_header(30000, 30000))
    (tmp_path / "c.jpg").write_bytes(b"not a photo")
    frames = list(FolderSource(tmp_path).frames())
    assert [f.shape for f in frames] == [(40, 60, 3)]


def test_see_on_an_empty_folder_says_so(tmp_path: Path, capsys: Capture) -> None:
    assert main(["see", str(tmp_path)]) == 2
    assert "no photos to read" in _error(capsys)


# --- enrolled decks ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("arrays", "said"), [
    ({"cards": np.array(["AS", "ZZ"]), "patches": np.zeros((2, PATCH, PATCH))}, "unknown card"),
    ({"cards": np.array(["AS"]), "patches": np.zeros((1, 8, 8))}, "1x32x32"),
    ({"cards": np.array(["AS", "2S"]), "patches": np.zeros((3, PATCH, PATCH))}, "2x32x32"),
    ({"cards": np.array(["AS"]), "patches": np.full((1, PATCH, PATCH), np.nan)}, "not numbers"),
    ({"cards": np.array([1, 2]), "patches": np.zeros((2, PATCH, PATCH))}, "card names"),
    ({"patches": np.zeros((1, PATCH, PATCH))}, "cards"),
])
def test_a_broken_deck_file_is_named(arrays: dict, said: str, tmp_path: Path) -> None:  # type: ignore[type-arg]
    path = tmp_path / "deck.npz"
    np.savez(path, **arrays)
    with pytest.raises(VisionError, match=said):
        DeckTemplates.load(path)


def test_a_deck_file_that_is_not_an_archive_is_named(tmp_path: Path) -> None:
    for content in (b"not a zip", b"PK\x03\x04broken"):
        path = tmp_path / "deck.npz"
        path.write_bytes(content)
        with pytest.raises(VisionError, match="cannot load deck templates"):
            DeckTemplates.load(path)
    np.save(tmp_path / "plain.npy", np.zeros(3))
    with pytest.raises(VisionError, match="not an .npz"):
        DeckTemplates.load(tmp_path / "plain.npy")


def test_see_with_a_calibration_naming_a_broken_deck_is_an_error_line(tmp_path: Path,
                                                                      capsys: Capture) -> None:
    deck = tmp_path / "deck.npz"
    np.savez(deck, cards=np.array(["QQ"]), patches=np.zeros((1, PATCH, PATCH)))
    cal = tmp_path / "cal.json"
    cal.write_text(json.dumps({"mat": "A3", "seats": 4, "homography": np.eye(3).tolist(),
                               "image_size": [640, 480], "white_gains": [1, 1, 1],
                               "px_per_mm": 2.0, "deck": "deck.npz"}), encoding="utf-8")
    cv2.imwrite(str(tmp_path / "photo.png"), np.zeros((480, 640, 3), np.uint8))
    assert main(["see", "--calibration", str(cal), str(tmp_path)]) == 2
    assert "unknown card" in _error(capsys)


# --- a damaged journal at the table ------------------------------------------------------------


def test_a_table_on_a_damaged_journal_keeps_it_aside_says_so_and_plays(tmp_path: Path,
                                                                        capsys: Capture) -> None:
    journal = tmp_path / "journal.sqlite"
    journal.write_bytes(bytes(range(256)) * 64)  # not SQLite at all
    report = tmp_path / "report.json"
    assert main(["demo", "--headless", "--box", "keys", "--journal", str(journal),
                 "--report", str(report), "--screenshots", str(tmp_path / "shots")]) == 0
    err = capsys.readouterr().err
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("journal.sqlite.corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes() == bytes(range(256)) * 64  # nothing lost
    assert f"kept as {aside[0].name}" in err
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["over"] and data["winners"]
    first = " ".join(data["screenshots"][0]["texts"])
    assert "the journal was damaged" in first  # the players are told on the screen


# --- the calibration's enrolled deck reaches the table's camera -----------------------------------


def test_run_reads_with_the_calibration_s_enrolled_deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    import argparse

    import vision.recognize
    from tablekit.cameras import FrameCamera, ZoneRequest
    from tablekit.commands.run import open_camera

    patches = np.random.default_rng(0).normal(size=(2, PATCH, PATCH)).astype(np.float32)
    DeckTemplates(("AS", "KH"), patches).save(tmp_path / "deck.npz")
    cal = tmp_path / "cal.json"
    cal.write_text(json.dumps({"mat": "A3", "seats": 4, "homography": np.eye(3).tolist(),
                               "image_size": [640, 480], "white_gains": [1, 1, 1],
                               "px_per_mm": 2.0, "deck": "deck.npz"}), encoding="utf-8")
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "a.png"), np.zeros((480, 640, 3), np.uint8))
    args = argparse.Namespace(calibration=cal, camera=str(tmp_path / "no-such-camera"), photos=photos)
    camera = open_camera(args)
    assert isinstance(camera, FrameCamera) and camera.deck is not None
    assert camera.deck.cards == ("AS", "KH")
    used: list[object] = []
    real = vision.recognize.read_table

    def spy(image: np.ndarray, **kwargs: object):  # type: ignore[no-untyped-def]
        used.append(kwargs.get("deck"))
        return real(image, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(vision.recognize, "read_table", spy)
    camera.read_zone(ZoneRequest(0, 1, 0))
    assert used == [camera.deck]  # the recognizer was handed the club's deck
    # a deck file that cannot be used is said, and the camera reads without it
    (tmp_path / "deck.npz").write_bytes(b"not a deck")
    camera = open_camera(args)
    assert isinstance(camera, FrameCamera) and camera.deck is None
    assert "reading without the enrolled deck" in caplog.text


@pytest.mark.parametrize("token", ["R²", "R٣", "R" + "9" * 5000, "B0", "Y14", "K"])
def test_a_tile_that_is_no_tile_is_a_notation_error(token: str) -> None:
    from engine.errors import NotationError
    from engine.tiles import parse_tile

    with pytest.raises(NotationError, match="unknown tile"):
        parse_tile(token)


@pytest.mark.parametrize("key", ["²", "٣", "9" * 5000, "-1", True])
def test_a_seat_key_that_is_no_seat_number_is_a_table_state_error(key: object) -> None:
    from engine.table import TableStateError, _seat

    with pytest.raises(TableStateError, match="not a seat number"):
        _seat(key, 4, "melds")


# --- a frame the recognizer cannot read: the table goes on ----------------------------------------


def test_a_garbled_camera_frame_reads_as_nothing_and_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    from tablekit.cameras import FrameCamera, TableRequest, ZoneRequest
    from tablekit.commands.run import EvidenceCamera

    class Frames:
        name = "cam0"

        def frames(self):  # type: ignore[no-untyped-def]
            while True:  # a camera that hands out a sliver of a frame, then a grey one
                yield np.zeros((4, 4, 3), np.uint8)
                yield np.zeros((480, 640), np.uint8)

    class Mat:  # a calibration whose top-down view is the frame itself
        px_per_mm = 2.0

        def for_size(self, width, height):  # type: ignore[no-untyped-def]
            return self

        def read_top_down(self, frame, reader):  # type: ignore[no-untyped-def]
            return reader(frame)

        def group_zones(self, reading):  # type: ignore[no-untyped-def]
            return ["seat1"] * len(reading.groups)

    camera = FrameCamera(Frames())
    with caplog.at_level("WARNING", logger="tablekit.cameras"):
        assert camera.read_zone(ZoneRequest(0, 1)) is None
        assert camera.read_cut(0) is None
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2 and all(m.startswith("camera cam0: a frame could not be read") for m in said)
    assert "too small" in said[0] and "expected a colour (BGR) image" in said[1]
    evidence = EvidenceCamera(Frames(), Mat())  # type: ignore[arg-type]
    assert evidence.read_table(TableRequest(4, 1)) is None
    assert evidence.table_photo(TableRequest(4, 1)) is None
    # a real calibration's white balance names a frame that is no colour photo too
    from vision.calibration import Calibration
    from vision.mat import layout

    calibrated = FrameCamera(Frames(), Calibration(layout("A3"), np.eye(3), (640, 480)))
    caplog.clear()
    with caplog.at_level("WARNING", logger="tablekit.cameras"):
        assert calibrated.read_zone(ZoneRequest(0, 1, pieces="tiles")) is None
        assert calibrated.read_zone(ZoneRequest(0, 1)) is None
    assert ["too small" in r.getMessage() or "colour (BGR)" in r.getMessage() for r in caplog.records] == [True] * 2


def test_the_camera_preview_gives_a_garbled_frame_its_error_line_and_goes_on(tmp_path: Path,
                                                                            capsys: Capture) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "a.png"), np.zeros((4, 4, 3), np.uint8))  # a sliver of a frame
    cv2.imwrite(str(frames / "b.png"), np.full((240, 320, 3), 90, np.uint8))
    code = main(["camera", "--source", str(frames), "--out", str(tmp_path / "out"), "--max-frames", "2"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0 and [line["frame"] for line in lines] == [0, 1]
    assert "too small" in lines[0]["error"] and lines[1]["cards"] == []
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["frame-000001.jpg"]


def test_see_gives_a_folder_it_cannot_list_its_error_line_and_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: Capture) -> None:
    locked, empty_photo = tmp_path / "locked", tmp_path / "empty.jpg"
    locked.mkdir()
    empty_photo.write_bytes(b"")
    real_iterdir = Path.iterdir

    def iterdir(self: Path):  # type: ignore[no-untyped-def]
        if self == locked:  # as root no permission keeps a folder shut: say so for it
            raise PermissionError(13, "Permission denied")
        return real_iterdir(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    assert main(["see", "--json", str(locked), str(empty_photo)]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines == [{"image": str(locked), "error": "cannot list the folder: Permission denied"},
                     {"image": str(empty_photo), "error": "empty file, not an image"}]


def test_a_jpeg_decoded_smaller_says_exactly_how_much_smaller() -> None:
    from vision.images import decode_photo

    ok, data = cv2.imencode(".jpg", np.full((11, 21, 3), 128, np.uint8))
    image, scale = decode_photo(data.tobytes(), max_pixels=100)  # 231 pixels: read at a half
    h, w = image.shape[:2]
    assert (w, h) == (11, 6) and scale == (21 / 11, 11 / 6)  # the last column ends at 21, not 22
    whole, same = decode_photo(data.tobytes())
    assert whole.shape[:2] == (11, 21) and same == (1.0, 1.0)


def test_a_pipe_is_never_waited_on(tmp_path: Path, capsys: Capture) -> None:
    import os

    pipe = tmp_path / "photo.jpg"
    os.mkfifo(pipe)  # nothing ever writes to it: reading it would wait for ever
    assert main(["see", "--json", str(pipe)]) == 1  # its error line, and a status saying so
    line = json.loads(capsys.readouterr().out)
    assert line["image"] == str(pipe) and "not a regular file" in line["error"]
    assert main(["judge", "--variant", "open-rummy", "--mode", "turn", "--seat", "0",
                 "--before", str(pipe), "--after", str(pipe)]) == 2
    err = capsys.readouterr().err
    assert "not a regular file" in err and "not valid JSON" not in err  # said as it is


def test_the_judge_refuses_a_house_rule_the_game_does_not_have(capsys: Capture) -> None:
    hand = "4H 5H 6H 7H | KC QC PJ | QD QS QC | 7S 7D 7C"
    assert main(["judge", "--variant", "indian-points", "--mode", "declare", "--wild", "3S",
                 "--option", "wrapp=true", "--", hand]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "no house rule 'wrapp'" in captured.err and "wrap" in captured.err
    assert main(["judge", "--variant", "indian-points", "--mode", "declare", "--wild", "3S",
                 "--option", "wrap=true", "--", hand]) == 0


def test_a_misspelt_table_state_key_is_named(tmp_path: Path, capsys: Capture) -> None:
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    before.write_text(json.dumps({"melds": {}, "discard": "5H", "stock": 30}))
    after.write_text(json.dumps({"melds": {"0": ["3H 4H 5H"]}, "discrad": "KS", "stock": 29}))
    args = ["judge", "--variant", "open-rummy", "--mode", "turn", "--seat", "0",
            "--before", str(before), "--after", str(after)]
    assert main(args) == 2
    assert "unknown key 'discrad'" in capsys.readouterr().err
    after.write_text(json.dumps({"melds": {"0": ["3H 4H 5H"]}, "discard": "5H KS", "stock": 29}))
    assert main(args) == 0 and json.loads(capsys.readouterr().out)["mode"] == "turn"


def test_a_judge_question_of_the_wrong_type_names_the_type(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    lines = [{"variant": "indian-points", "mode": "count", "hand": 12345},
             {"variant": ["indian-points"], "mode": "count", "hand": "4H"},
             {"mode": "count", "hand": "4H"}, {"variant": "indian-points", "mode": "count"}]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(json.dumps(q) + "\n" for q in lines)))
    assert main(["judge", "--batch"]) == 0
    errors = [json.loads(line)["error"] for line in capsys.readouterr().out.splitlines()]
    assert errors == ["hand must be cards in the judge notation (a string), got 12345",
                      "variant must be a game's id (a string), got ['indian-points']",
                      "missing variant", "missing hand"]


def test_run_without_a_camera_enters_hands_until_one_is_plugged_in(tmp_path: Path) -> None:
    """No camera and no photo folder at start: the hands are entered (the camera is absent,
    so no reading pauses the game), the screen says so, and the camera plugged in later is
    found at the next reading and read from then on."""
    import argparse

    from tablekit.cameras import FrameCamera, ZoneRequest
    from tablekit.commands.run import open_camera
    from tablekit.table import Devices

    clip = tmp_path / "camera.avi"
    devices = Devices()
    camera = open_camera(argparse.Namespace(camera=str(clip), calibration=None, photos=None), devices)
    assert isinstance(camera, FrameCamera) and camera.absent
    assert devices.camera.message == "hands entered until a camera is found"
    assert camera.read_zone(ZoneRequest(0, 1, 0)) is None  # nothing yet, and no error
    writer = cv2.VideoWriter(str(clip), cv2.VideoWriter_fourcc(*"MJPG"), 5, (320, 240))
    assert writer.isOpened()
    for _ in range(30):  # a still table, long enough for the stillness gate
        writer.write(np.full((240, 320, 3), 90, np.uint8))
    writer.release()
    camera.source.every = 0.0  # type: ignore[attr-defined]  # the next look is due now
    assert camera.read_zone(ZoneRequest(0, 1, 0)) == ()  # read: an empty table
    assert not camera.absent and devices.camera == type(devices.camera)()


@pytest.mark.parametrize("argv", [
    ["run", "--headless", "--no-box", "--mute", "--variant", "indian-points", "--seconds", "nan"],
    ["run", "--headless", "--no-box", "--mute", "--variant", "indian-points", "--seconds", "-1"],
    ["buttons", "--port", "loop://", "--seconds", "nan"],
    ["buttons", "--port", "loop://", "--seconds", "inf"],
])
def test_a_duration_that_would_never_end_is_refused(argv: list[str], tmp_path: Path, capsys: Capture) -> None:
    """``--seconds nan`` ran the table (or the box listener) for ever: refused up front."""
    if argv[0] == "run":
        argv = [*argv, "--journal", str(tmp_path / "j.sqlite")]
    assert main(argv) == 2
    error = _error(capsys)
    assert "bad --seconds" in error and "a number of seconds above 0" in error


def test_export_refuses_two_outputs_named_the_same_file(tmp_path: Path, capsys: Capture) -> None:
    target = tmp_path / "a.pdf"
    assert main(["export", "1", "--journal", str(tmp_path / "j.sqlite"), "--pdf", str(target),
                 "--chart", str(target)]) == 2
    assert "--pdf and --chart name the same file" in _error(capsys) and not target.exists()


def test_a_calibration_or_deck_is_written_whole_under_the_name_given(tmp_path: Path) -> None:
    """Written to a temporary name and renamed: a cut mid-write leaves the old file; a deck
    named without .npz is written under that very name (the message names it)."""
    from vision.calibration import Calibration

    deck = tmp_path / "clubdeck"
    DeckTemplates(("AS",), np.zeros((1, PATCH, PATCH), np.float32)).save(deck)
    assert deck.is_file() and not (tmp_path / "clubdeck.npz").exists()
    assert DeckTemplates.load(deck).cards == ("AS",)
    cal = tmp_path / "cal.json"
    data = {"mat": "A3", "seats": 4, "homography": np.eye(3).tolist(), "image_size": [640, 480],
            "white_gains": [1, 1, 1], "px_per_mm": 2.0}
    Calibration.from_json(data).save(cal)
    assert Calibration.load(cal).px_per_mm == 2.0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cal.json", "clubdeck"]  # no part left


def test_a_calibration_nested_past_reading_is_named(tmp_path: Path) -> None:
    from vision.calibration import Calibration
    from vision.errors import CalibrationError

    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    with pytest.raises(CalibrationError, match="deep.json: not a calibration"):
        Calibration.load(deep)


def test_a_deck_file_that_is_no_archive_says_so(tmp_path: Path) -> None:
    junk = tmp_path / "deck.npz"
    junk.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(VisionError, match="not an .npz archive"):
        DeckTemplates.load(junk)


def test_enroll_refuses_a_deck_it_could_not_write_before_any_work(tmp_path: Path, capsys: Capture) -> None:
    (tmp_path / "deck").mkdir()
    assert main(["enroll", "--deck", str(tmp_path / "deck"), "--minutes", "0", str(tmp_path)]) == 2
    error = _error(capsys)
    assert "--deck" in error and "is a folder" in error


@pytest.mark.parametrize(("argv", "said"), [
    (["run", "--headless", "--no-box", "--mute", "--variant", "indian-points", "--players", "A,B,C",
      "--dealer", "9"], "bad --dealer 9: the seats are numbered 1 to 3"),
    (["run", "--headless", "--no-box", "--mute", "--resume"], "to resume a game from"),
    (["demo", "--no-screen", "--box", "keys", "--resume"], "to resume the demo from"),
])
def test_the_table_says_what_is_wrong_with_its_arguments(argv: list[str], said: str, tmp_path: Path,
                                                        capsys: Capture) -> None:
    journal = tmp_path / "none" / "j.sqlite"
    assert main([*argv, "--journal", str(journal)]) == 2
    assert said in _error(capsys)
    assert not journal.parent.exists()  # a journal to resume from is never made empty


def test_camera_says_when_no_frame_came_to_rest(tmp_path: Path, capsys: Capture) -> None:
    photo = tmp_path / "one.jpg"
    cv2.imwrite(str(photo), np.full((240, 320, 3), 90, np.uint8))
    assert main(["camera", "--source", str(photo), "--out", str(tmp_path / "out")]) == 1
    assert "no still frame came from" in capsys.readouterr().err
    assert main(["camera", "--source", str(photo), "--max-frames", "-5"]) == 2
    assert "bad --max-frames -5" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "said"), [
    (["--rulings"], "--rulings goes with --game N"),
    (["--game", "1", "--players"], "two views"),
    (["--replay", "1", "--game", "1"], "--replay shows one game"),
])
def test_history_says_which_flags_do_not_go_together(argv: list[str], said: str, tmp_path: Path,
                                                     capsys: Capture) -> None:
    assert main(["history", "--journal", str(tmp_path / "j.sqlite"), *argv]) == 2
    assert said in _error(capsys)


def test_a_photo_name_that_is_not_utf8_never_ends_a_run_in_a_strict_locale(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    folder = tmp_path / "photos"
    folder.mkdir()
    ok, data = cv2.imencode(".png", np.full((40, 60, 3), 200, np.uint8))
    assert ok
    (folder / os.fsdecode(b"caf\xe9.png")).write_bytes(data.tobytes())
    (folder / "z.png").write_bytes(data.tobytes())
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    p = subprocess.run([sys.executable, "-m", "tablekit", "-q", "see", str(folder)], capture_output=True,
                       timeout=300, env=env, cwd=Path(__file__).resolve().parents[1])
    lines = p.stdout.decode("utf-8").splitlines()
    assert p.returncode == 0, p.stderr
    assert len(lines) == 2 and "caf\\udce9.png" in lines[0] and lines[1].startswith(str(folder / "z.png"))


def test_a_png_cut_short_or_with_a_damaged_chunk_is_said_without_libpngs_own_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    from vision.images import png_whole

    ok, data = cv2.imencode(".png", np.random.default_rng(1).integers(0, 255, (300, 400, 3), np.uint8))
    assert ok and png_whole(data.tobytes())
    whole = data.tobytes()
    flipped = bytearray(whole)
    flipped[len(whole) // 2] ^= 0x10
    assert not png_whole(whole[: len(whole) // 2]) and not png_whole(bytes(flipped))
    cut = tmp_path / "cut.png"
    cut.write_bytes(whole[: len(whole) // 2])
    (tmp_path / "flipped.png").write_bytes(bytes(flipped))
    p = subprocess.run([sys.executable, "-m", "tablekit", "-q", "see", "--json", str(cut),
                        str(tmp_path / "flipped.png")], capture_output=True, text=True, timeout=300,
                       cwd=Path(__file__).resolve().parents[1])
    assert p.returncode == 1 and p.stderr == ""  # nothing from libpng on the terminal
    lines = [json.loads(line) for line in p.stdout.splitlines()]
    assert [line.get("error") for line in lines] == ["not a readable image (its data is damaged)"] * 2


def test_a_folders_photo_name_that_is_no_file_gets_its_line(tmp_path: Path, capsys: Capture) -> None:
    ok, data = cv2.imencode(".png", np.full((40, 60, 3), 200, np.uint8))
    (tmp_path / "a.png").write_bytes(data.tobytes())
    (tmp_path / "b.jpg").symlink_to(tmp_path / "gone.jpg")  # a link to nothing
    (tmp_path / "c.jpg").mkdir()  # a folder named like a photo: passed over
    assert main(["see", "--json", str(tmp_path)]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in lines] == [str(tmp_path / "a.png"), str(tmp_path / "b.jpg")]
    assert "cards" in lines[0] and "No such file" in lines[1]["error"]


def test_see_names_a_calibrations_unknown_game_and_refuses_an_empty_variant(tmp_path: Path,
                                                                             capsys: Capture) -> None:
    from vision.calibration import Calibration
    from vision.mat import layout

    cal = tmp_path / "mat.json"
    Calibration(layout("A3"), np.eye(3), (640, 480), game="no-such-game").save(cal)
    assert main(["see", "--calibration", str(cal), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert str(cal) in err and "no-such-game" in err
    assert main(["see", "--variant", " ", str(tmp_path)]) == 2
    assert "--variant names no game" in capsys.readouterr().err


def test_a_png_whose_optional_chunk_is_damaged_is_read_as_libpng_reads_it() -> None:
    from vision.images import png_whole

    ok, data = cv2.imencode(".png", np.full((30, 40, 3), 90, np.uint8))
    whole = data.tobytes()
    # a comment chunk (tEXt) with a wrong CRC, after the header: libpng warns and reads on
    text = b"tEXt" + b"Comment\x00hello"
    chunk = struct.pack(">I", len(text) - 4) + text + struct.pack(">I", (zlib.crc32(text) + 1) & 0xFFFFFFFF)
    header_end = 8 + 25  # the signature, then IHDR (length, type, 13 bytes, CRC)
    spoilt = whole[:header_end] + chunk + whole[header_end:]
    assert png_whole(spoilt)
    assert decode_image(spoilt).shape == (30, 40, 3)
