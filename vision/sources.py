"""Frame sources behind one seam: a folder of photos, a video file, a cv2 capture device, the
Pi camera (picamera2, imported only when asked for). Every source yields BGR numpy frames.

``open_source("photos/")``, ``open_source("game.mp4")``, ``open_source("0")`` (device 0) and
``open_source("picamera")`` choose by the text alone, so configuration never needs code.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from vision.errors import FrameSourceError, VisionError
from vision.images import read_image

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


class FrameSource(Protocol):
    """Anything that yields BGR frames and can be closed."""

    name: str

    def frames(self) -> Iterator[np.ndarray]: ...

    def close(self) -> None: ...


class FolderSource:
    """The images of a folder, sorted by name, as frames (unreadable files are skipped)."""

    def __init__(self, folder: Path) -> None:
        if not folder.is_dir():
            raise FrameSourceError(f"no such folder: {folder}")
        self.name = str(folder)
        self.paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

    def frames(self) -> Iterator[np.ndarray]:
        for path in self.paths:
            try:
                yield read_image(path)
            except VisionError as exc:
                log.warning("skipping %s: %s", path, exc)

    def close(self) -> None:
        pass


class CaptureSource:
    """A video file or a cv2 capture device (a USB webcam by index)."""

    def __init__(self, target: str | int) -> None:
        self.name = str(target)
        self.target = target
        #: A camera device is asked again after it fails (``frames`` anew); a video file ends.
        self.reopens = isinstance(target, int)
        self.capture = self._capture()
        if not self.capture.isOpened():
            raise FrameSourceError(f"cannot open video source {target!r}")

    def _capture(self) -> cv2.VideoCapture:
        quiet = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)  # probing is not news
        try:
            return cv2.VideoCapture(self.target)
        finally:
            cv2.utils.logging.setLogLevel(quiet)

    def frames(self) -> Iterator[np.ndarray]:
        """The frames until the source fails: a video file at its end; a camera device
        (a number) when it cannot be read even after opening it anew (a USB camera pulled
        out and not yet back: each call of ``frames`` tries it again)."""
        reopened = False
        while True:
            ok, frame = self.capture.read()
            if ok:
                reopened = False
                yield frame
                continue
            if not isinstance(self.target, int) or reopened:
                return
            self.capture.release()
            self.capture = self._capture()
            reopened = True

    def close(self) -> None:
        self.capture.release()


class PiCameraSource:
    """The Raspberry Pi camera through picamera2 (Pi OS's ``python3-picamera2``)."""

    def __init__(self, size: tuple[int, int] = (1640, 1232)) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise FrameSourceError("picamera2 is not installed (it comes with Pi OS)") from None
        self.name = "picamera"
        self.reopens = True  # a capture that timed out is tried again on the next reading
        try:
            self.camera = Picamera2()
            config = self.camera.create_still_configuration(main={"size": size, "format": "RGB888"})
            self.camera.configure(config)
            self.camera.start()
        except Exception as exc:  # picamera2 raises IndexError, RuntimeError… when no camera is there
            raise FrameSourceError(f"no Pi camera could be opened ({exc})") from None

    def frames(self) -> Iterator[np.ndarray]:
        while True:
            yield rgb_to_bgr(self.camera.capture_array())

    def close(self) -> None:
        self.camera.stop()


class SearchingSource:
    """A camera that was not there when the table started (a USB camera plugged in later, or
    not yet enumerated at boot): each reading asked of it looks for the camera again, at most
    every ``every`` seconds, and once found it is the camera from then on (``on_found`` is
    told). Until then it gives no frame, and ``found`` is False."""

    def __init__(self, spec: str, opener: Callable[[str], FrameSource] | None = None,
                 clock: Callable[[], float] = time.monotonic, every: float = 5.0,
                 on_found: Callable[[FrameSource], None] | None = None) -> None:
        self.spec = spec
        self.name = f"camera {spec!r}, not found yet"
        self.reopens = True  # a reading that got no frame asks for frames anew next time
        self.inner: FrameSource | None = None
        self._open = opener or open_source
        self._clock = clock
        self.every = every
        self._last: float | None = None
        self._on_found = on_found

    @property
    def found(self) -> bool:
        return self.inner is not None

    def frames(self) -> Iterator[np.ndarray]:
        if self.inner is None and not self._look():
            return
        assert self.inner is not None
        yield from self.inner.frames()

    def _look(self) -> bool:
        now = self._clock()
        if self._last is not None and now - self._last < self.every:
            return False
        self._last = now
        try:
            self.inner = self._open(self.spec)
        except (FrameSourceError, OSError) as exc:
            log.info("still no camera: %s", exc)
            return False
        self.name = self.inner.name
        log.info("camera found: %s", self.name)
        if self._on_found is not None:
            self._on_found(self.inner)
        return True

    def close(self) -> None:
        if self.inner is not None:
            self.inner.close()


def rgb_to_bgr(frame: np.ndarray) -> np.ndarray:
    """picamera2 hands out RGB; OpenCV and the recognizer expect BGR."""
    return np.ascontiguousarray(frame[..., 2::-1])


def open_source(spec: str) -> FrameSource:
    """A frame source from its text: ``auto``, ``picamera``, a device number, a folder or a
    video file. ``auto`` is the Pi camera when picamera2 can open one (a libcamera module
    has no V4L2 device 0), else the first V4L2 camera."""
    if spec == "auto":
        try:
            return PiCameraSource()
        except FrameSourceError as pi_error:
            try:
                return CaptureSource(0)
            except FrameSourceError as usb_error:
                raise FrameSourceError(f"no camera found: {pi_error}; {usb_error}") from None
    if spec == "picamera":
        return PiCameraSource()
    if spec.isascii() and spec.isdigit():
        return CaptureSource(int(spec))
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path)
    if path.is_file():
        return CaptureSource(str(path))
    raise FrameSourceError(f"no camera, folder or video file {spec!r}")
