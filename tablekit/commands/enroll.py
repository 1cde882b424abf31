"""``tablekit enroll``: photograph each card of a club's deck once to improve recognition.

The kit reads each photo as it reads the table and fits a small head over its index
classifier to that deck (``vision.enroll``), and keeps the clearest indices as templates.
Where the training extra is installed it first trains the detector and the index classifier
on to the deck for up to ``--minutes`` together (drawn tables of the deck's own faces, cut
from the photos); ``--minutes 0`` skips that.

From photos: each file's name starts with the card it shows (``QH.jpg``, ``10C-2.png``,
``PJ.jpg``). From a camera: ``--source 0 --cards all`` asks for each card in turn and takes
the first still frame.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tablekit.values import ValueRefused, text_arg

if TYPE_CHECKING:
    import numpy as np

NAME = "enroll"
HELP = "enrol a deck: photos of each card once, from which the kit learns to read that deck"
log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deck", type=text_arg, required=True, metavar="FILE", help="templates to write (.npz)")
    parser.add_argument("--source", help="a camera to photograph the cards with")
    parser.add_argument("--cards", default="all", help="comma-separated cards, or 'all' (camera)")
    parser.add_argument("--minutes", type=_minutes, default=20.0,
                        help="fine-tune the detector and the index classifier to the deck for at "
                             "most so long together (default 20; 0: fit the head only)")
    parser.add_argument("photos", nargs="*", metavar="PHOTO_OR_DIR")


_CARD_NAME = re.compile(r"^(10|[2-9AJQKT])([SHDC])|^(PJ|JK)", re.IGNORECASE)


def _minutes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of minutes: {text!r}") from None
    if not 0 <= value <= 120:
        raise argparse.ArgumentTypeError(f"minutes must be from 0 to 120, not {text}")
    return value


def card_from_name(path: Path) -> str | None:
    """The card a photo's file name starts with, or None."""
    m = _CARD_NAME.match(path.stem)
    if not m:
        return None
    return (m.group(3) or (m.group(1) + m.group(2))).upper()


def run(args: argparse.Namespace) -> int:
    from engine.cards import full_deck, parse_card
    from tablekit.values import output_file
    from vision.enroll import enroll
    from vision.errors import VisionError
    from vision.images import read_image
    from vision.sources import open_source
    from vision.stillness import StillnessGate

    output_file(Path(args.deck), "--deck")  # a deck that cannot be written is said before any work
    photos: list[tuple[str, np.ndarray]] = []
    for arg in args.photos:
        p = Path(arg)
        if not p.exists():
            log.warning("skipping %s: no such file or folder", p)
            continue
        files = sorted(p.iterdir()) if p.is_dir() else [p]
        for f in files:
            card = card_from_name(f)
            if card is None:
                log.warning("skipping %s: its name names no card", f)
                continue
            try:
                photos.append((card, read_image(f)))
            except VisionError as exc:
                log.warning("skipping %s: %s", f, exc)
    if args.source:
        wanted = ([str(c) for c in full_deck(jokers=1)] if args.cards == "all"
                  else [str(parse_card(c)) for c in args.cards.split(",") if c.strip()])
        if not wanted:
            raise ValueRefused(f"--cards {args.cards!r} names no card")
        source = open_source(args.source)
        frames = source.frames()
        try:
            for card in wanted:
                print(f"show {card} to the camera and hold still", file=sys.stderr, flush=True)
                gate = StillnessGate()
                for frame in frames:
                    if gate.push(frame):
                        photos.append((card, frame))
                        break
        finally:
            source.close()
    try:
        deck = enroll(photos, tune_minutes=args.minutes,
                      log=lambda line: print(f"enroll: {line}", file=sys.stderr, flush=True))
    except VisionError as exc:
        print(f"enroll: {exc}", file=sys.stderr)
        return 1
    deck.save(Path(args.deck))
    learnt = "a detector trained on to the deck, " if deck.detector_onnx is not None else ""
    learnt += "an index classifier trained on to it, " if deck.index_onnx is not None else ""
    learnt += "a head fitted to its reads and " if deck.head is not None else ""
    print(f"wrote {args.deck}: {learnt}{len(deck.cards)} index templates of {len(set(deck.cards))} cards")
    return 0
