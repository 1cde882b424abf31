"""Values given on the command line, checked where they enter: a window size, a house rule, a
file or folder to write; and text going back out kept to one line. Each bad value raises :class:`ValueRefused` (a ``TablekitError``), so the
command line prints one ``error:`` line naming the option and what was wrong with it.
"""

from __future__ import annotations

import math
import os
import re
from argparse import ArgumentTypeError
from collections.abc import Sequence
from pathlib import Path

from engine.errors import TablekitError
from engine.options import OptionValue

#: The screens the kit is drawn for run from 320×240 (a tiny panel) to 7680×4320 (8K).
MIN_SIZE = (320, 240)
MAX_SIZE = (7680, 4320)
_SIZE = re.compile(r"(\d{1,5})[xX](\d{1,5})")


class ValueRefused(TablekitError, ValueError):
    """A command-line value that cannot be used."""


def check_seconds(value: float | None, option: str = "--seconds", *, zero: str = "") -> None:
    """Refuse a duration that is not a finite number of seconds above 0 (``nan`` would never
    end a run); 0 too, unless ``zero`` says what it means there."""
    if value is None or (zero and value == 0):
        return
    if not 0 < value < math.inf:
        also = f" (or 0: {zero})" if zero else ""
        raise ValueRefused(f"bad {option} {value}: a number of seconds above 0{also}")


def parse_size(text: str, option: str = "--size", example: str = "1280x720", *,
               low: tuple[int, int] = MIN_SIZE, high: tuple[int, int] = MAX_SIZE) -> tuple[int, int]:
    """``"1280x720"`` as ``(1280, 720)``; anything else, or a size outside ``low``..``high``
    (by default: a size no screen has), is refused."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise ValueRefused(f"bad {option} {text!r}: expected WIDTHxHEIGHT, e.g. {example}")
    width, height = int(match[1]), int(match[2])
    (low_w, low_h), (high_w, high_h) = low, high
    if not (low_w <= width <= high_w and low_h <= height <= high_h):
        raise ValueRefused(f"bad {option} {text!r}: from {low_w}x{low_h} "
                           f"to {high_w}x{high_h} pixels, e.g. {example}")
    return width, height


def parse_option(text: str) -> tuple[str, OptionValue]:
    """``KEY=VALUE`` as a house rule: ``true``/``false`` (also yes/no, on/off) are switches,
    whole numbers are numbers, anything else stays text. Whether the key exists and the value
    suits it is for :func:`engine.game.house_options.check_options` to say."""
    key, sep, value = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ValueRefused(f"bad --option {text!r}: expected KEY=VALUE")
    low = value.strip().lower()
    if low in ("true", "yes", "on"):
        return key, True
    if low in ("false", "no", "off"):
        return key, False
    if re.fullmatch(r"[+-]?\d{1,9}", low):
        return key, int(low)
    return key, value.strip()


def path_arg(text: str) -> Path:
    """An option's path, refused when it is empty or blank (it would mean the current folder,
    where a command would read or write what nobody asked for)."""
    if not text.strip():
        raise ArgumentTypeError("names no file or folder (it is empty)")
    return Path(text)


def text_arg(text: str) -> str:
    """An option's text that must say something: refused when empty or blank."""
    if not text.strip():
        raise ArgumentTypeError("is empty")
    return text


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (the same path, or two links to one file)."""
    try:
        if a.resolve() == b.resolve():
            return True
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except (OSError, RuntimeError):  # a link loop, a name the OS refuses
        return False


def check_plain_target(path: Path, option: str = "") -> None:
    """Refuse ``path`` when it is there but no plain file (a folder, a device, a pipe, a
    socket): a file written beside it and renamed into place would replace it."""
    if path.exists() and not path.is_file():
        said = f"{option} {path}" if option else str(path)
        raise ValueRefused(f"{said} is not a plain file (a folder, a device, a pipe or a socket); "
                           "name a file to write")


def output_file(path: Path, option: str, keep: Sequence[tuple[Path, str]] = ()) -> Path:
    """A file the command will write: refused up front when it is a folder, a device or a pipe
    (the file is written beside it and renamed into place, which would put a plain file where
    the device was), one of ``keep`` (each a file the command reads or writes besides, and what
    it is: "the journal"), or its folder cannot be made, so a whole game is not played only to
    fail at the end, and nothing is written over."""
    if path.is_dir():
        raise ValueRefused(f"{option} {path} is a folder; name a file to write")
    check_plain_target(path, option)
    for other, what in keep:
        if same_file(path, other):
            raise ValueRefused(f"{option} {path} is {what}: name another file to write")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueRefused(f"{option} {path}: cannot make its folder ({exc.strerror or exc})") from None
    return path


def output_folder(path: Path, option: str) -> Path:
    """A folder the command will write files into (made if missing)."""
    if path.exists() and not path.is_dir():
        raise ValueRefused(f"{option} {path} is a file; name a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueRefused(f"{option} {path}: cannot make the folder ({exc.strerror or exc})") from None
    return path


def one_line(text: str) -> str:
    """``text`` with its line breaks and other control characters written as escapes, so an
    error naming a path with a newline in it stays one line."""
    return "".join(ch if ch.isprintable() or ch == " " else ascii(ch)[1:-1] for ch in text)
