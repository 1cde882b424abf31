"""Frame sources and stillness detection."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import FrameSourceError
from vision.sources import CaptureSource, FolderSource, open_source, rgb_to_bgr
from vision.stillness import StillnessGate, motion, still_frames


def _frame(x: int | None) -> np.ndarray:
    img = np.full((240, 320, 3), 120, np.uint8)
    if x is not None:
        cv2.circle(img, (x, 120), 30, (20, 20, 200), -1)  # a hand passing over
    return img


def test_folder_source_yields_images_in_name_order(tmp_path: Path) -> None:
    for name, value in (("b.png", 200), ("a.jpg", 10)):
        cv2.imwrite(str(tmp_path / name), np.full((20, 30, 3), value, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    frames = list(open_source(str(tmp_path)).frames())
    assert [int(f[0, 0, 0]) for f in frames] == [10, 200]
    assert isinstance(open_source(str(tmp_path)), FolderSource)


def test_video_file_source(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for i in range(4):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    source = open_source(str(path))
    assert isinstance(source, CaptureSource)
    assert len(list(source.frames())) == 4
    source.close()


def test_unknown_source_is_an_error() -> None:
    with pytest.raises(FrameSourceError):
        open_source("no-such-camera-or-file")
    with pytest.raises(OSError):
        FolderSource(Path("/nonexistent-folder"))


def test_picamera_rgb_becomes_bgr() -> None:
    rgb = np.zeros((2, 2, 3), np.uint8)
    rgb[..., 0] = 255  # red in RGB
    assert rgb_to_bgr(rgb)[0, 0].tolist() == [0, 0, 255]


def test_motion_measures_changed_share() -> None:
    assert motion(_frame(None), _frame(None)) == 0.0
    assert motion(_frame(None), _frame(100)) > 0.01


def test_gate_reads_once_after_the_hand_leaves() -> None:
    xs = [50, 90, 130, 170, None, None, None, None, None, None, None, None, 200, None, None,
          None, None, None, None]
    frames = [_frame(x) for x in xs]
    fired = [i for i, f in enumerate(frames) if StillnessGate(still_frames=4).push(f)]
    assert fired == []  # a fresh gate per frame never fires
    gate = StillnessGate(still_frames=4)
    fired = [i for i, f in enumerate(frames) if gate.push(f)]
    assert fired == [8, 17]
    assert len(list(still_frames(frames, StillnessGate(still_frames=4)))) == 2


class _FakePicamera2:
    """Stands in for picamera2's camera: hands out one RGB frame, red on the left."""

    def __init__(self) -> None:
        self.started = False

    def create_still_configuration(self, main: dict[str, object]) -> dict[str, object]:
        return {"main": main}

    def configure(self, config: dict[str, object]) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.started = False

    def capture_array(self) -> np.ndarray:
        frame = np.zeros((4, 6, 3), np.uint8)
        frame[:, :3, 0] = 255  # red in RGB
        return frame


def test_auto_picks_the_pi_camera_first(monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    fake = types.ModuleType("picamera2")
    fake.Picamera2 = _FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", fake)
    source = open_source("auto")
    assert source.name == "picamera"
    frame = next(iter(source.frames()))
    assert frame[0, 0].tolist() == [0, 0, 255]  # BGR: red is last
    source.close()


def test_auto_without_any_camera_names_both_it_tried(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.sources as sources

    def no_device(target: object) -> None:
        raise FrameSourceError(f"cannot open video source {target!r}")

    monkeypatch.setitem(sys.modules, "picamera2", None)  # import picamera2 raises ImportError
    monkeypatch.setattr(sources, "CaptureSource", no_device)
    with pytest.raises(FrameSourceError, match="no camera found: picamera2 is not installed.*video source 0"):
        open_source("auto")


def test_a_pi_camera_that_will_not_open_is_a_frame_source_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    class Absent:
        def __init__(self) -> None:
            raise IndexError("list index out of range")

    fake = types.ModuleType("picamera2")
    fake.Picamera2 = Absent  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", fake)
    with pytest.raises(FrameSourceError, match="no Pi camera could be opened"):
        open_source("picamera")


class _Capture:
    """A stand-in ``cv2.VideoCapture``: each one made reads the frames its maker hands it,
    then fails (a USB camera pulled out)."""

    made: list[_Capture] = []
    plans: list[int] = []

    def __init__(self, target: object) -> None:
        self.left = _Capture.plans.pop(0) if _Capture.plans else 0
        _Capture.made.append(self)

    def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.left <= 0:
            return False, None
        self.left -= 1
        return True, _frame(None)

    def release(self) -> None:
        self.left = 0


def test_a_camera_device_pulled_out_and_back_is_opened_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cv2, "VideoCapture", _Capture)
    assert CaptureSource(0).reopens and not CaptureSource("clip.mp4").reopens
    _Capture.made, _Capture.plans = [], [2, 0, 3]  # 2 frames; pulled out (none); back (3)
    source = CaptureSource(0)
    assert len(list(source.frames())) == 2  # then it failed, and opened anew still failed
    assert len(_Capture.made) == 2
    assert len(list(source.frames())) == 3  # a later call opens it anew: the camera is back
    # a video file that ends is at its end: it is not opened again
    _Capture.made, _Capture.plans = [], [1]
    assert len(list(CaptureSource("clip.mp4").frames())) == 1 and len(_Capture.made) == 1


def test_a_live_camera_that_fails_reads_nothing_once_and_then_again(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.recognize
    from tablekit.cameras import FrameCamera, ZoneRequest
    from vision.reading import TableReading

    class Flaky:
        name = "usb0"
        reopens = True
        calls = 0

        def frames(self):  # type: ignore[no-untyped-def]
            self.calls += 1
            if self.calls == 1:
                yield _frame(None)  # one frame, then the cable comes out
                return
            while True:
                yield _frame(None)

    monkeypatch.setattr(vision.recognize, "read_table", lambda image, **kw: TableReading((), ()))
    camera = FrameCamera(Flaky(), live=True, max_wait_frames=20)  # type: ignore[arg-type]
    assert camera.read_zone(ZoneRequest(0, 1)) is None  # no still frame before the camera failed
    assert camera.read_zone(ZoneRequest(0, 1)) == ()  # asked again from the start: it reads
    # a folder of photos read live is read once: its end is no camera to ask again
    folder = FrameCamera(Flaky(), live=True, max_wait_frames=20)  # type: ignore[arg-type]
    folder.source.reopens = False  # type: ignore[attr-defined]
    assert folder.read_zone(ZoneRequest(0, 1)) is None
    assert folder.read_zone(ZoneRequest(0, 1)) is None


def test_a_camera_not_there_at_start_is_looked_for_again_and_taken_once_found(tmp_path: Path) -> None:
    """A camera plugged in after the table started (or not yet there at boot): each reading
    looks for it again, no more often than ``every`` seconds, and the one found is kept."""
    from vision.sources import SearchingSource

    now = [0.0]
    tries: list[str] = []
    found: list[str] = []
    present = [False]

    def opener(spec: str) -> FolderSource:
        tries.append(spec)
        if not present[0]:
            raise FrameSourceError(f"no camera {spec!r}")
        return FolderSource(tmp_path)

    cv2.imwrite(str(tmp_path / "a.png"), np.full((20, 30, 3), 77, np.uint8))
    source = SearchingSource("0", opener=opener, clock=lambda: now[0], every=5.0,
                             on_found=lambda s: found.append(s.name))
    assert list(source.frames()) == [] and not source.found and tries == ["0"]
    present[0] = True
    now[0] = 3.0
    assert list(source.frames()) == [] and tries == ["0"]  # too soon to look again
    now[0] = 5.5
    frames = list(source.frames())
    assert [int(f[0, 0, 0]) for f in frames] == [77] and source.found
    assert found == [str(tmp_path)] and source.name == str(tmp_path)
    now[0] = 6.0
    assert len(list(source.frames())) == 1 and tries == ["0", "0"]  # kept: no more looking
