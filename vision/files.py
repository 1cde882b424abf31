"""Files the vision part writes (a calibration, an enrolled deck) written whole or not at all.

A power cut while re-calibrating must not leave the table with half a file where a good one
was: the bytes go to a temporary name beside the file, are flushed to the disk, and only then
take the real name (a rename is atomic on the same file system).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from vision.errors import VisionError


def write_atomically(path: Path, data: bytes) -> None:
    """``data`` as the whole of ``path``, the old file kept until the new one is on disk. A
    path that is there but no plain file (a device, a pipe) is refused: the rename would put
    a file in its place."""
    if path.exists() and not path.is_file():
        raise VisionError(f"{path} is not a plain file (a folder, a device or a pipe); name a "
                          "file to write")
    part = path.with_name(f".{path.name}.part")
    try:
        with open(part, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # the rename itself made durable, where the OS allows
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
