"""Table calibration: find the mat's markers, map the camera image onto the mat, fix white balance.

The homography maps image pixels to mat millimetres; ``top_down`` warps a frame to a fixed
scale (``px_per_mm``) view of the mat. White balance gains come from the white paper inside
and around the markers. A calibration is saved to and loaded from a small JSON file.

``read_top_down`` reads the cards on that rectified view and maps every box back to the
frame's own pixels, with the mat zone (``seat1``…, ``centre``) each card lies in. Every
calibrated reading in the kit goes that way, through ``read_calibrated``: the live
camera's, ``tablekit camera``'s and ``tablekit see --calibration``'s (there a photo of another
shape is an error line). A frame of another resolution with the same shape is handled
by scaling the homography.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import cv2
import numpy as np

from vision.errors import CalibrationError, VisionError
from vision.files import write_atomically
from vision.images import check_photo
from vision.mat import ARUCO_DICT, MatLayout, Zone, layout
from vision.reading import Box, DetectedCard, TableReading

#: How far (relative) a frame's aspect ratio may differ from the calibrated one.
ASPECT_TOLERANCE = 0.01
#: The scale (pixels a millimetre) the mat is seen from above at, unless a calibration says.
TOP_DOWN_PX_PER_MM = 2.0


@dataclass(frozen=True)
class Calibration:
    """A camera-to-mat mapping for one camera position."""

    mat: MatLayout
    homography: np.ndarray  # image pixels -> mat mm, 3x3
    image_size: tuple[int, int]
    white_gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    px_per_mm: float = TOP_DOWN_PX_PER_MM
    zones: tuple[Zone, ...] = field(default=())
    deck: Path | None = None  # enrolled deck templates (``tablekit enroll``), if any
    #: The game played on this mat (a variant id, ``tablekit variants``), if one was named:
    #: it tells ``tablekit see`` whether to read cards or tiles.
    game: str | None = None

    def to_mat(self, points: np.ndarray) -> np.ndarray:
        """Image points (N, 2) in mat millimetres."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def zone_of(self, x: float, y: float) -> str | None:
        """The name of the zone under an image point, if any."""
        mx, my = self.to_mat(np.array([[x, y]]))[0]
        return next((z.name for z in self.zones if z.contains(mx, my)), None)

    def white_balance(self, image: np.ndarray) -> np.ndarray:
        """``image`` with the calibration's white gains applied; an array that is no colour
        photo is an error naming its shape (``vision.images.check_photo``)."""
        check_photo(image)
        gains = np.array(self.white_gains, np.float32)
        balanced: np.ndarray = np.clip(image.astype(np.float32) * gains, 0, 255).astype(np.uint8)
        return balanced

    def for_size(self, width: int, height: int) -> Calibration:
        """This calibration for frames of ``width`` x ``height`` pixels.

        The same camera at another resolution sees the same mat, so the homography is scaled
        (pixel centres kept aligned, as ``cv2.resize`` does). A frame of another shape is a
        different camera set-up: ``CalibrationError``.
        """
        cw, ch = self.image_size
        if (width, height) == (cw, ch):
            return self
        if width <= 0 or height <= 0 or abs((width / height) / (cw / ch) - 1) > ASPECT_TOLERANCE:
            raise CalibrationError(
                f"the image is {width}x{height} pixels but the calibration was made on {cw}x{ch} "
                "images (a different shape); calibrate again with this camera setting")
        sx, sy = cw / width, ch / height
        to_calibrated = np.array([[sx, 0, (sx - 1) / 2], [0, sy, (sy - 1) / 2], [0, 0, 1]])
        return replace(self, homography=self.homography @ to_calibrated, image_size=(width, height))

    def top_down_size(self) -> tuple[int, int]:
        """The (width, height) in pixels of the top-down view."""
        return (round(self.mat.width * self.px_per_mm), round(self.mat.height * self.px_per_mm))

    def top_down_matrix(self) -> np.ndarray:
        """The homography from image pixels to top-down view pixels."""
        scale = np.diag([self.px_per_mm, self.px_per_mm, 1.0])
        return np.asarray(scale @ self.homography, np.float64)

    def top_down(self, image: np.ndarray) -> np.ndarray:
        """The mat seen from straight above at ``px_per_mm``, white-balanced."""
        cal = self.for_size(image.shape[1], image.shape[0])
        return cv2.warpPerspective(cal.white_balance(image), cal.top_down_matrix(),
                                   cal.top_down_size())

    def read(self, image: np.ndarray, reader: Callable[[np.ndarray], TableReading]) -> TableReading:
        """Read a frame with ``reader`` after white balance (card boxes stay in image pixels)."""
        return reader(self.white_balance(image))

    def read_top_down(self, image: np.ndarray,
                      reader: Callable[[np.ndarray], TableReading]) -> TableReading:
        """Read a frame with ``reader`` on its white-balanced top-down view.

        Every box (card and corner index) is mapped back to ``image``'s pixel coordinates: the
        box's corners through the inverse homography, then their bounding box, clipped to the
        image. Each card gets the name of the mat zone its centre lies in (or ``None``).
        Cards off the mat are not seen.
        """
        height, width = image.shape[:2]
        cal = self.for_size(width, height)
        reading = reader(cal.top_down(image))
        back = np.linalg.inv(cal.top_down_matrix())
        size = (width, height)
        cards = []
        for c in reading.cards:
            mx = (c.box[0] + c.box[2]) / 2 / cal.px_per_mm
            my = (c.box[1] + c.box[3]) / 2 / cal.px_per_mm
            zone = next((z.name for z in cal.zones if z.contains(mx, my)), None)
            cards.append(replace(c, box=_map_box(c.box, back, size),
                                 indices=tuple(_map_box(b, back, size) for b in c.indices),
                                 zone=zone))
        return TableReading(tuple(cards), reading.groups)

    def group_zones(self, reading: TableReading) -> list[str | None]:
        """The zone of each group of a reading (where its first card's centre lies)."""
        out: list[str | None] = []
        for g in reading.groups:
            c: DetectedCard = reading.cards[g[0]]
            if c.zone is not None:
                out.append(c.zone)
                continue
            out.append(self.zone_of((c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2))
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "mat": self.mat.name, "seats": self.mat.seats,
            "homography": self.homography.tolist(), "image_size": list(self.image_size),
            "white_gains": list(self.white_gains), "px_per_mm": self.px_per_mm,
            **({"deck": str(self.deck)} if self.deck else {}),
            **({"game": self.game} if self.game else {}),
        }

    def save(self, path: Path) -> None:
        write_atomically(path, (json.dumps(self.to_json(), indent=1) + "\n").encode("utf-8"))

    @classmethod
    def load(cls, path: Path) -> Calibration:
        """The calibration saved at ``path``; ``CalibrationError`` names the file and the fault."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CalibrationError(f"calibration {path}: no such file") from None
        except IsADirectoryError:
            raise CalibrationError(f"calibration {path}: is a directory, not a file") from None
        except (OSError, UnicodeDecodeError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            raise CalibrationError(f"calibration {path}: cannot read it ({reason})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"calibration {path}: not valid JSON ({exc.msg} at line "
                                   f"{exc.lineno} column {exc.colno})") from None
        except RecursionError:
            raise CalibrationError(f"calibration {path}: not a calibration (its JSON is nested "
                                   "too deeply to read)") from None
        try:
            return cls.from_json(data, path.parent)
        except CalibrationError as exc:
            raise CalibrationError(f"calibration {path}: {exc}") from None

    @classmethod
    def from_json(cls, data: object, base: Path = Path(".")) -> Calibration:
        """A calibration from its JSON form (``to_json``); a relative ``deck`` is under ``base``."""
        if not isinstance(data, dict):
            raise CalibrationError(f"expected a JSON object, found {type(data).__name__}")
        for key in ("mat", "homography", "image_size"):
            if key not in data:
                raise CalibrationError(f"missing field {key!r}")
        seats = data.get("seats", 4)
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise CalibrationError(f"'seats' must be a whole number, not {seats!r}")
        try:
            mat = layout(str(data["mat"]), seats)
            zones = tuple(mat.zones())
        except VisionError as exc:
            raise CalibrationError(str(exc)) from None
        h = _numbers(data["homography"], "homography", (3, 3))
        if not np.isfinite(np.linalg.cond(h)) or np.linalg.cond(h) > 1e12:
            raise CalibrationError("'homography' is singular (it maps the image onto a line)")
        size = _numbers(data["image_size"], "image_size", (2,))
        if not all(v > 0 and v == int(v) for v in size):
            raise CalibrationError("'image_size' must be two positive whole numbers, "
                                   f"not {size.tolist()}")
        gains = _numbers(data.get("white_gains", [1.0, 1.0, 1.0]), "white_gains", (3,))
        if not all(g > 0 for g in gains):
            raise CalibrationError(f"'white_gains' must be positive, not {gains.tolist()}")
        px_per_mm = _numbers([data.get("px_per_mm", TOP_DOWN_PX_PER_MM)], "px_per_mm", (1,))[0]
        if not 0.1 <= px_per_mm <= 20:
            raise CalibrationError(f"'px_per_mm' must be between 0.1 and 20, not {px_per_mm}")
        deck = data.get("deck")
        if deck is not None and not isinstance(deck, str):
            raise CalibrationError(f"'deck' must be a path, not {deck!r}")
        game = data.get("game")
        if game is not None and (not isinstance(game, str) or not game.strip()):
            raise CalibrationError(f"'game' must be a variant id (see `tablekit variants`), not {game!r}")
        return cls(mat, h, (int(size[0]), int(size[1])),
                   (float(gains[0]), float(gains[1]), float(gains[2])), float(px_per_mm), zones,
                   base / deck if deck else None, game.strip() if game else None)


def _numbers(value: object, name: str, shape: tuple[int, ...]) -> np.ndarray:
    """``value`` as finite floats of ``shape``, or a ``CalibrationError`` naming the field."""
    wanted = "x".join(str(n) for n in shape)
    try:
        arr = np.array(value, np.float64)
    except (TypeError, ValueError):
        raise CalibrationError(f"{name!r} must be {wanted} numbers") from None
    if arr.shape != shape:
        raise CalibrationError(f"{name!r} must be {wanted} numbers, found shape "
                               f"{'x'.join(map(str, arr.shape)) or 'scalar'}")
    if not np.isfinite(arr).all():
        raise CalibrationError(f"{name!r} must be finite numbers")
    return arr


def _map_box(box: Box, matrix: np.ndarray, size: tuple[int, int]) -> Box:
    """The bounding box, clipped to ``size`` (width, height), of ``box``'s corners through
    ``matrix``."""
    x0, y0, x1, y1 = box
    corners = np.array([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]], np.float64)
    pts = cv2.perspectiveTransform(corners, matrix).reshape(-1, 2)
    w, h = size
    xs, ys = np.clip(pts[:, 0], 0, w), np.clip(pts[:, 1], 0, h)
    return (float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max()))


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Marker id → its four image corners, for every mat marker found."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT),
                                       cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).astype(np.float64)
            for i, c in zip(ids.ravel(), corners, strict=True) if 0 <= int(i) <= 3}


def _white_gains(image: np.ndarray, markers: dict[int, np.ndarray]) -> tuple[float, float, float]:
    samples = []
    for quad in markers.values():
        centre = quad.mean(axis=0)
        ring = (quad - centre) * 1.25 + centre
        mask = np.zeros(image.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, ring.round().astype(np.int32), 255)
        cv2.fillConvexPoly(mask, quad.round().astype(np.int32), 0)
        samples.append(image[mask > 0].reshape(-1, 3))
    pixels = np.concatenate(samples).astype(np.float64)
    if len(pixels) == 0:
        return (1.0, 1.0, 1.0)
    bright = pixels[pixels.sum(axis=1) >= np.percentile(pixels.sum(axis=1), 50)]
    means = bright.mean(axis=0)
    target = means.max()
    return tuple(float(target / max(m, 1.0)) for m in means)  # type: ignore[return-value]


def calibrate(image: np.ndarray, mat: MatLayout, px_per_mm: float = TOP_DOWN_PX_PER_MM) -> Calibration:
    """Calibrate from one frame showing the mat (at least two of its four markers)."""
    found = find_markers(image)
    if len(found) < 2:
        raise CalibrationError(f"found {len(found)} of the mat's 4 markers; need at least 2")
    ref = mat.marker_corners()
    src = np.concatenate([found[k] for k in sorted(found)])
    dst = np.concatenate([ref[k] for k in sorted(found)])
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        raise CalibrationError("the markers give no usable homography")
    gains = _white_gains(image, found)
    return Calibration(mat, h, (image.shape[1], image.shape[0]), gains, px_per_mm,
                       tuple(mat.zones()))


def read_calibrated(calibration: Calibration | None, frame: np.ndarray,
                    reader: Callable[..., TableReading], other_shape: bool = True) -> TableReading:
    """A camera's frame read as the kit reads a calibrated mat: its white-balanced top-down
    view at the calibration's scale (``Calibration.read_top_down``, which ``reader`` is handed
    with ``px_per_mm``), every box back in the frame's pixels with its zone. The view undoes
    the camera's slant, which the recognizers read far better (``vision/HISTORY.md``, "A
    calibrated mat read from above by the live camera too"). Without a calibration, or for a
    frame of another shape than it was made on (another camera set-up), the frame is read as it
    lies (white-balanced when calibrated); with ``other_shape`` False such a frame is a
    ``CalibrationError`` (``tablekit see``: its error line)."""
    if calibration is None:
        return reader(frame)
    try:
        calibration.for_size(frame.shape[1], frame.shape[0])
    except CalibrationError:
        if not other_shape:
            raise
        return calibration.read(frame, reader)
    return calibration.read_top_down(frame, partial(reader, px_per_mm=calibration.px_per_mm))
