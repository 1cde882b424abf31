"""Photos read from files, with their size checked before a single pixel is decoded.

A compressed image can be small on disk and enormous decoded (a 1 MB PNG of 20000×20000
pixels is 1.2 GB of BGR, and the recognizer's copies multiply that). So the width and height
are read from the file's header first (PNG, JPEG, BMP, GIF, WebP, PNM) and a photo beyond
:data:`MAX_PIXELS` is refused with its size named. A JPEG beyond it is decoded at a half,
quarter or eighth of its size instead (the JPEG decoder does that cheaply), since the recognizer
scales every photo down anyway. A file whose header names no size is not decoded at all.
"""

from __future__ import annotations

import stat
import struct
import zlib
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.errors import VisionError

#: The largest photo decoded at full size: 48 megapixels (a Pi HQ camera takes 12, a phone's
#: default photo 12 to 50). About 140 MB as BGR.
MAX_PIXELS = 48_000_000
#: A photo file larger than this is not read at all.
MAX_FILE_BYTES = 200 * 1024 * 1024
_REDUCED = ((2, cv2.IMREAD_REDUCED_COLOR_2), (4, cv2.IMREAD_REDUCED_COLOR_4),
            (8, cv2.IMREAD_REDUCED_COLOR_8))


#: A photo narrower or lower than this many pixels shows no table to read.
MIN_SIDE = 8


def check_photo(image: np.ndarray) -> None:
    """Refuse, naming what is wrong, an array that is no colour photo (height × width × 3)
    or one too small to show a table."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise VisionError(f"expected a colour (BGR) image, got an array of shape {image.shape}")
    h, w = image.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise VisionError(f"image too small: {w}x{h} pixels (at least {MIN_SIDE} on each side)")


_MAGICS = (b"\x89PNG", b"\xff\xd8", b"BM", b"GIF8", b"RIFF")


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30:
        w, h = struct.unpack("<HH", data[26:30])
        return w & 0x3FFF, h & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 30:
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


def _pnm_size(data: bytes) -> tuple[int, int] | None:
    fields: list[int] = []
    for line in data[2:512].split(b"\n"):
        for word in line.split(b"#", 1)[0].split():
            if not word.isdigit():
                return None
            fields.append(int(word))
            if len(fields) == 2:
                return fields[0], fields[1]
    return None


def header_size(data: bytes) -> tuple[int, int] | None:
    """The ``(width, height)`` an image file's header declares, or ``None`` when the file is
    not one of the formats read here (or its header is cut short)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    if data.startswith(b"\xff\xd8"):
        return _jpeg_size(data)
    if data.startswith(b"BM") and len(data) >= 26:
        w, h = struct.unpack("<ii", data[18:26])
        return abs(w), abs(h)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        return w, h
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return _webp_size(data)
    if len(data) >= 3 and data[0:1] == b"P" and data[1:2] in b"123456" and data[2:3].isspace():
        return _pnm_size(data)
    return None


#: The smallest GIF: one red pixel.
_ONE_PIXEL_GIF = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\x00\x00\x00\x00\x00"
                  b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")


@lru_cache(maxsize=1)
def gif_decodes() -> bool:
    """Whether this OpenCV decodes GIFs (from release 4.11 or so; a Pi's system OpenCV does not)."""
    return cv2.imdecode(np.frombuffer(_ONE_PIXEL_GIF, np.uint8), cv2.IMREAD_COLOR) is not None


_PNG = b"\x89PNG\r\n\x1a\n"


def png_whole(data: bytes) -> bool:
    """Whether a PNG's chunks are all there, up to its IEND chunk, each critical one (its type
    begins with a capital: the header, palette, image data) with its CRC right (a file cut
    short or with damaged image data is not; libpng would say so on stderr itself, and reads
    on past a damaged optional chunk, a comment or a colour profile)."""
    at = len(_PNG)
    while at + 12 <= len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        end = at + 12 + length
        if end > len(data):
            return False
        kind = data[at + 4:at + 8]
        critical = kind[:1].isupper()
        if critical and zlib.crc32(data[at + 4:end - 4]) != int.from_bytes(data[end - 4:end], "big"):
            return False
        if kind == b"IEND":
            return True
        at = end
    return False


def decode_image(data: bytes, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """Encoded image bytes as a BGR array; :class:`VisionError` says why when they cannot be."""
    return decode_photo(data, max_pixels)[0]


def decode_photo(data: bytes, max_pixels: int = MAX_PIXELS) -> tuple[np.ndarray, tuple[float, float]]:
    """Encoded image bytes as a BGR array, and how many of the file's pixels each of its
    pixels spans across and down: (1, 1), or about 2, 4 or 8 for a JPEG over ``max_pixels``
    decoded that much smaller (exactly the file's width and height over the array's, the
    file turned as its EXIF orientation turns the array, so that a position found in the
    array times these is the same position in the file's own pixels); :class:`VisionError`
    says why when they cannot be decoded."""
    if not data:
        raise VisionError("empty file, not an image")
    size = header_size(data)
    if size is None:
        if any(data.startswith(magic) for magic in _MAGICS):
            raise VisionError("not a readable image (its header is cut short or damaged)")
        raise VisionError("not a readable image (not a JPEG, PNG, BMP, GIF, WebP or PNM file)")
    width, height = size
    if width <= 0 or height <= 0:
        raise VisionError(f"not a readable image (its header says {width}x{height} pixels)")
    flag, factor = cv2.IMREAD_COLOR, 1
    if width * height > max_pixels:
        factor, flag = next(((k, f) for k, f in _REDUCED if width * height <= max_pixels * k * k), (0, 0))
        if not data.startswith(b"\xff\xd8") or not factor:
            raise VisionError(f"image too large: {width}x{height} pixels "
                              f"(at most {max_pixels / 1e6:.0f} megapixels are read)")
    if data.startswith(_PNG) and not png_whole(data):
        # found here, before libpng prints its own error line on the terminal
        raise VisionError("not a readable image (its data is damaged)")
    quiet = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)  # a damaged file is said below
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    finally:
        cv2.utils.logging.setLogLevel(quiet)
    if image is None:
        if data.startswith(b"GIF8") and not gif_decodes():
            raise VisionError(f"a GIF, which OpenCV {cv2.__version__} here cannot decode "
                              "(save the photo as JPEG or PNG)")
        raise VisionError("not a readable image (its data is damaged)")
    if factor == 1:
        return image, (1.0, 1.0)
    h, w = image.shape[:2]
    if (w > h) != (width > height):  # the EXIF orientation turned it a quarter
        width, height = height, width
    return image, (width / w, height / h)


def read_image(path: str | Path, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """The photo at ``path`` as BGR; :class:`VisionError` when it cannot be read or decoded."""
    return read_photo(path, max_pixels)[0]


def read_photo(path: str | Path, max_pixels: int = MAX_PIXELS) -> tuple[np.ndarray, tuple[float, float]]:
    """The photo at ``path`` as BGR, and the file pixels each of its pixels spans across and
    down (``decode_photo``); :class:`VisionError` when it cannot be read or decoded."""
    try:
        info = Path(path).stat()
        if not stat.S_ISREG(info.st_mode):  # a pipe or a device would be waited on for ever
            raise VisionError("not a regular file (a folder, a pipe or a device)")
        size = info.st_size
        if size > MAX_FILE_BYTES:
            raise VisionError(f"file too large for a photo: {size / 2**20:.0f} MB")
        data = Path(path).read_bytes()
    except OSError as exc:
        raise VisionError(f"cannot read file: {exc.strerror or exc}") from None
    return decode_photo(data, max_pixels)
