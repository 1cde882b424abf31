"""The vision commands end to end: ``tablekit mat``, ``camera`` (calibrate, preview), ``enroll``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablekit.cli import main
from vision.mat import layout, render

DATA = Path(__file__).resolve().parent / "data" / "photos"


def test_mat_writes_png_and_tiled_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mat", "--size", "A2", "--tile", "letter", "--dpi", "40",
                 "--out", str(tmp_path / "mat")]) == 0
    png = cv2.imread(str(tmp_path / "mat.png"))
    assert png is not None and png.shape[1] > png.shape[0]
    assert b"/Count 9" in (tmp_path / "mat.pdf").read_bytes()
    assert "9 page(s)" in capsys.readouterr().out


def test_camera_calibrates_from_a_photo_of_the_mat(tmp_path: Path) -> None:
    flat = render(layout("A3"), 2.0)
    h, w = flat.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[100, 80], [1000, 50], [1080, 700], [40, 660]])
    view = cv2.warpPerspective(flat, cv2.getPerspectiveTransform(src, dst), (1120, 760))
    shots = tmp_path / "shots"
    shots.mkdir()
    cv2.imwrite(str(shots / "frame.png"), view)
    cal = tmp_path / "cal.json"
    assert main(["camera", "--source", str(shots), "--calibrate", str(cal)]) == 0
    data = json.loads(cal.read_text())
    assert data["mat"] == "A3" and len(data["homography"]) == 3 and "game" not in data
    # the game played on the mat is kept with it, so that `see` knows tiles from cards
    assert main(["camera", "--source", str(shots), "--calibrate", str(cal), "--variant", "Tile-Rummy"]) == 0
    assert json.loads(cal.read_text())["game"] == "tile-rummy"
    cal.unlink()
    assert main(["camera", "--source", str(shots), "--calibrate", str(cal), "--variant", "snap"]) == 2
    assert not cal.exists()  # an unknown game is refused before anything is written


def test_camera_preview_writes_annotated_still_frames(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    shots = tmp_path / "shots"
    shots.mkdir()
    for i in range(2):
        cv2.imwrite(str(shots / f"{i}.png"), np.full((120, 160, 3), 90 + 40 * i, np.uint8))
    out = tmp_path / "out"
    assert main(["camera", "--source", str(shots), "--out", str(out)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines and all("cards" in x and "zones" in x for x in lines)
    assert sorted(p.suffix for p in out.iterdir()) == [".jpg"] * len(lines)


def test_camera_preview_reads_the_pieces_of_the_game_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    import vision.recognize
    from vision.reading import TableReading

    asked = []

    def spy(image: np.ndarray, **kwargs: object) -> TableReading:
        asked.append(kwargs.get("pieces"))
        return TableReading((), ())

    monkeypatch.setattr(vision.recognize, "read_table", spy)
    shots = tmp_path / "shots"
    shots.mkdir()
    cv2.imwrite(str(shots / "0.png"), np.full((120, 160, 3), 90, np.uint8))
    for variant, want in (("tile-rummy", "tiles"), ("indian-points", "cards"), (None, "auto")):
        extra = ["--variant", variant] if variant else []
        assert main(["camera", "--source", str(shots), "--out", str(tmp_path / "out"), *extra]) == 0
        assert asked.pop() == want
    capsys.readouterr()


def test_enroll_refuses_minutes_that_are_not_a_sane_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for bad, said in (("soon", "not a number of minutes"), ("-1", "from 0 to 120")):
        with pytest.raises(SystemExit) as stop:
            main(["enroll", "--deck", str(tmp_path / "deck.npz"), "--minutes", bad, str(tmp_path)])
        assert stop.value.code == 2
        assert said in capsys.readouterr().err
    assert not (tmp_path / "deck.npz").exists()


def test_enroll_from_photos_named_by_card(tmp_path: Path) -> None:
    src = DATA / "cards-corners" / "images" / "cc-IMG_20220921_195330.jpg"
    shutil.copy(src, tmp_path / "8H.jpg")
    deck = tmp_path / "deck.npz"
    assert main(["enroll", "--deck", str(deck), str(tmp_path)]) == 0
    with np.load(deck) as saved:
        assert set(saved["cards"].tolist()) == {"8H"}
