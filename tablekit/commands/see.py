"""``tablekit see``: read the cards on photos, one line (or JSON line) per image.

The contract is ``../shared/spec/see.md``: a directory means its ``.jpg``/``.jpeg``/``.png``
files sorted, each named under the directory as given; an unreadable file (or a directory
that cannot be listed, or any failure on one photo) yields an ``error`` line and the run goes
on; ``ms`` is the recognition time only. Boxes are in the file's own pixels, a JPEG too large
to decode whole included (it is decoded at a half, a quarter or an eighth, and its boxes
scaled back). ``--variant`` (else the calibration's game) names the game on the
table: a tile game's photos are read as tiles only (the card pipeline never runs on them), a
card game's as cards only. Without either, each photo's first looks tell which it holds
(``vision.pieces``), and only that reader runs. A photo that leaves a choice open (cards or
tiles: a close-up of a single tile; the lightness to read a dark deck in) is read as most of
the run's photos that settled it are (``vision.runs``): its line waits for the run's last
photo, and the lines after it wait with it, so that the lines keep the photos' order.

With ``--calibration`` each image is white-balanced and warped to the mat's top-down view,
read there, and every box mapped back to the image's own pixels; each card also carries the
mat ``zone`` it lies in (``seat1``…, ``centre``) when it lies in one. An image of another
resolution than the calibration's is handled by scaling; one of another shape gets an
``error`` line. A missing or broken calibration file stops the run with one ``error:`` line.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

NAME = "see"
HELP = "read the cards (or tiles) on photos of the table"
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object per image")
    parser.add_argument("--calibration", metavar="FILE",
                        help="table calibration from `tablekit camera --calibrate`: read the "
                             "mat's top-down view and report each card's zone")
    parser.add_argument("--variant", help="the game on the table (see `tablekit variants`): a tile "
                                           "game's photos are read as tiles, a card game's as cards")
    parser.add_argument("paths", nargs="+", metavar="IMAGE_OR_DIR")


def image_paths(args: list[str]) -> Iterator[tuple[str, str | None]]:
    """Each argument as given, or a directory's images sorted by name, each with None; a
    directory that cannot be listed with why (its error line, and the run goes on). A
    directory holding none is said (a warning); when nothing at all is left to read, that is
    an error."""
    from vision.errors import VisionError

    found = 0
    for arg in args:
        p = Path(arg)
        if p.is_dir():
            try:
                children = sorted(p.iterdir())
            except OSError as exc:
                found += 1
                yield arg, f"cannot list the folder: {exc.strerror or exc}"
                continue
            # a photo's name that is no readable file (a link to nothing, a pipe) still gets
            # its line, saying why; only folders named like photos are passed over
            images = [c for c in children if c.suffix.lower() in IMAGE_SUFFIXES and not c.is_dir()]
            if not images:
                log.warning("no photos (%s) in the folder %s", ", ".join(IMAGE_SUFFIXES), arg)
            for child in images:
                found += 1
                yield os.path.join(arg, child.name), None  # the folder as given, not normalised
        else:
            found += 1
            yield arg, None
    if not found:
        raise VisionError(f"no photos to read in {', '.join(args)}")


def run(args: argparse.Namespace) -> int:
    from vision.calibration import Calibration, read_calibrated
    from vision.enroll import DeckTemplates
    from vision.errors import VisionError
    from vision.images import read_photo
    from vision.reading import TableReading
    from vision.recognize import read_table, warm_up
    from vision.runs import RunChoice, Told, Unsettled, read_run

    calibration = Calibration.load(Path(args.calibration)) if args.calibration else None
    pieces = "auto"  # told from each photo (vision.pieces)
    if getattr(args, "variant", None) is not None and not args.variant.strip():
        raise VisionError("--variant names no game (see `tablekit variants`)")
    game = getattr(args, "variant", None) or (calibration.game if calibration else None)
    if game:
        from engine.errors import UnknownVariantError
        from engine.variants import find

        try:
            pieces = find(game).pieces
        except UnknownVariantError as exc:
            if args.variant:
                raise
            raise VisionError(f"the calibration {args.calibration} names its game {game!r}, "
                              f"which is no variant of this kit (see `tablekit variants`)") from exc
    deck = DeckTemplates.load(calibration.deck) if calibration and calibration.deck else None
    warm_up(pieces=pieces)
    # A photo that leaves a choice open (cards or tiles; the lightness of a dark deck) waits
    # for the run's other photos to say (vision.runs.read_run); the lines after it wait with
    # it, so that every line still comes out in the order of the photos.
    settled: list[Told] = []  # what each photo settled by itself
    failures = 0

    def read(path: str, run: RunChoice, resume: Unsettled | None = None) -> tuple[TableReading, float]:
        """The photo's reading in the file's pixels and its recognition time in ms (with the
        looks it made before it waited), its open choices made as ``run`` says; on its first
        read (``resume`` None) it raises ``Unsettled`` where it leaves a choice open, the run's
        photos so far making only what does not wait (a dark deck's photo whose boxes look
        pale, read both ways)."""
        image, reduced = read_photo(path)
        reader = partial(read_table, pieces=pieces, run=run, defer=resume is None,
                         told=settled.append if resume is None else None, resume=resume)
        if calibration is not None:  # the mat read from above; a photo of another shape refused
            reader = partial(read_calibrated, calibration, reader=partial(reader, deck=deck), other_shape=False)
        start = time.perf_counter()
        try:
            reading = reader(image)
        except Unsettled as unsure:
            unsure.ms = (time.perf_counter() - start) * 1000
            raise
        before = resume.ms if resume is not None else 0.0
        # a huge JPEG was decoded smaller: the boxes in the file's pixels
        return reading.scaled(*reduced), before + (time.perf_counter() - start) * 1000

    def line_of(path: str, reading: TableReading, ms: float) -> str:
        if args.json:
            return json.dumps({"image": path, **reading.to_json(), "ms": round(ms, 1)})
        names = [" ".join(g) for g in reading.group_cards()]
        if calibration is not None:  # where each meld lies: its first card's zone
            zones = calibration.group_zones(reading)
            names = [f"{n} @{z}" if z else n for n, z in zip(names, zones, strict=True)]
        groups = " | ".join(names) or ("(no cards or tiles)" if pieces == "auto" else f"(no {pieces})")
        return f"{path}: {groups}  ({ms:.0f} ms)"

    def error_line(path: str, exc: Exception) -> str:
        said = str(exc) if isinstance(exc, VisionError) else f"unexpected {type(exc).__name__}: {exc}"
        if not isinstance(exc, VisionError):
            log.debug("unexpected failure on %s", path, exc_info=exc)
        return json.dumps({"image": path, "error": said}) if args.json else f"{path}: error: {said}"

    def line(listed: tuple[str, str | None], run: RunChoice, resume: Unsettled | None) -> str:
        """The photo's line: its reading, or its error (the file unreadable, or gone by the
        time a waiting photo is read again), and the run goes on."""
        nonlocal failures
        path, unlisted = listed
        try:
            if unlisted is not None:
                raise VisionError(unlisted)
            return line_of(path, *read(path, run, resume))
        except Unsettled:
            raise
        except Exception as exc:
            failures += 1
            return error_line(path, exc)

    for text in read_run(image_paths(args.paths), line, settled):
        print(text, flush=True)
    if failures:
        log.warning("%d image(s) could not be read", failures)
    return 1 if failures else 0
