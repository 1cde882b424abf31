"""Choices a photo alone leaves open, made by the run of photos it is read in.

``tablekit see`` over a folder (and ``see-eval``, which reads a folder in one run) reads the
photos of one table, one set of tiles or one deck. Two choices ``read_table`` makes from a
photo's first looks can be left open by the photo itself:

- **cards or tiles** (``vision.pieces.PiecesSeen.unsettled``): a close-up of a single tile,
  or a tile photo the tile reader reads poorly, shows no more card marks than tile shapes;
- **the lightness to read cards in** (``vision.polarity.lightness_choice``, ``open``): the
  index boxes show light ink on dark card, but the index classifier reads them no surer
  turned over (real photos of a light-on-dark deck, read unsurely both ways, often do).

Alone, such a photo is read as it always was (cards; as it lies). In a run, it waits
(``read_table(defer=True)`` raises ``Unsettled``) until every photo has been looked at, and is
then read as most of the run's photos that settled the choice themselves are
(``run_choice``): tiles in a run of tile photos, turned over in a run of photos of a dark
deck. A named game settles cards or tiles for every photo. In a dark deck's run, a photo
whose index boxes look pale (a dim photo's few boxes often do) is read both ways and the
surer reading kept (``vision.recognize.surety``); that needs no waiting, so the first read
of each photo makes it as the run's photos so far say.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from vision.detector import Detection
from vision.pieces import PiecesSeen


@dataclass(frozen=True, slots=True)
class Told:
    """What one photo settled by itself: its pieces (``cards`` or ``tiles``), and, for cards,
    whether it is read turned over; None where it left that open (or never came to it)."""

    pieces: str | None = None
    turned: bool | None = None


@dataclass(frozen=True, slots=True)
class RunChoice:
    """How a photo's open choices are made: its pieces, and whether it is read turned over."""

    pieces: str = "cards"
    turned: bool = False


#: A photo read alone: open choices are read as cards, as it lies.
ALONE = RunChoice()


def run_choice(told: Sequence[Told]) -> RunChoice:
    """The choices of a run, from what its photos settled by themselves: tiles where more of
    them settled tiles than cards, turned over where more settled that than as it lies (a
    tie, or none: cards, as it lies)."""
    pieces = [t.pieces for t in told if t.pieces is not None]
    turned = [t.turned for t in told if t.turned is not None]
    tiles, dark = sum(p == "tiles" for p in pieces), sum(turned)
    return RunChoice("tiles" if tiles > len(pieces) - tiles else "cards", dark > len(turned) - dark)


class Unsettled(Exception):  # noqa: N818 (a request, not a failure: the run chooses later)
    """A photo with a choice left open, raised by ``read_table(defer=True)``, with the looks
    made at it so far: the pieces seen (None where they were not told: a card game's photo),
    the card detector's peaks by look (``read_table``'s own cache), and the lightness choice
    where it came to it; ``read_table(resume=...)`` takes them up rather than looking anew."""

    def __init__(self, seen: PiecesSeen | None, peaks: dict[tuple[bool, int, float, int], list[Detection]],
                 lightness: str | None = None) -> None:
        super().__init__("a choice left open by this photo alone")
        self.seen = seen
        self.peaks = peaks
        self.lightness = lightness
        #: the time its looks took, in ms (set by whoever timed them: ``read_run``'s reader)
        self.ms = 0.0


Item = TypeVar("Item")
Result = TypeVar("Result")


def read_run(items: Iterable[Item], read: Callable[[Item, RunChoice, Unsettled | None], Result],
             told: Sequence[Told]) -> Iterator[Result]:
    """Each item's result, in the items' order, as a run reads them: ``read(item, run,
    resume)`` reads an item with the run's choice so far (``run_choice(told)``; ``read`` adds
    what each photo settled to ``told``, ``read_table``'s ``told``) and, on its first read
    (``resume`` None), may raise ``Unsettled``. Such an item waits, and the results after it
    wait with it, until every item has been read once; then each waiting item is read again
    with the run's last choice and what it raised (``resume``). Results are given as soon as
    every item before them has one."""
    waiting: list[tuple[int, Item, Unsettled]] = []
    held: list[tuple[int, Result]] = []
    for place, item in enumerate(items):
        try:
            got = read(item, run_choice(told), None)
        except Unsettled as unsure:
            waiting.append((place, item, unsure))
            continue
        if waiting:
            held.append((place, got))
        else:
            yield got
    if waiting:
        run = run_choice(told)
        held += [(place, read(item, run, unsure)) for place, item, unsure in waiting]
        for _, got in sorted(held, key=lambda h: h[0]):
            yield got
