"""The table's cameras: one protocol, and the cameras that answer it.

The table asks a camera three things, each a request that says where the game is (which
deal, how many turns ended in it), so a camera answering from a script needs nothing else:

- ``read_zone(ZoneRequest)``: the melds lying in one seat's zone (a show, a hand counted);
- ``read_table(TableRequest)``: every seat's melds and the discard pile (turn checks);
- ``read_cut(deal)``: the cut card turned up for that deal.

None means no reading was possible: the table then asks the players for the hand (the
scorepad, :mod:`engine.game.scorepad`). ``table_unread`` says why a camera cannot read the whole
table ("" when it can), for the screen to show; ``fallback`` marks a stand-in for the real
camera, which the screen says is used, under its ``name``; ``absent`` says there is no camera
at all (nothing will ever be read: a hand is always entered, and a reading that does not
come is no camera lost).

The cameras: :class:`ScriptedCamera` (readings given per deal and seat: tests, the demo, and
"no camera at all"), :class:`FrameCamera` (frames from a live camera or a photo folder read by
the recognizer) and :class:`VisionCamera` (the demo's scripted cards drawn as synthetic photos
and read by the recognizer).
"""

from __future__ import annotations

import logging
import re
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Protocol

from engine.cards import UNREADABLE, Groups

if TYPE_CHECKING:
    import numpy as np

    from vision.calibration import Calibration
    from vision.enroll import DeckTemplates
    from vision.reading import TableReading
    from vision.runs import Told
    from vision.sources import FrameSource

log = logging.getLogger(__name__)

#: A camera's frames are one table's, one deck's: a choice a frame leaves open (the lightness
#: of a dark deck's frame whose indices read no surer turned over; cards or tiles, where no
#: game names them) is made as most of the last this many frames that settled it made it
#: (``vision.runs``), so that a deck changed between games is followed within a few reads.
RUN_FRAMES = 24
#: The mat's zone in the middle of the table: the stock, the discard pile, the cut card.
CENTRE = "centre"
_SEAT_ZONE = re.compile(r"seat([1-9][0-9]*)")


def seat_zone(seat: int) -> str:
    """The mat zone of ``seat`` (0-based): ``seat1`` for the first seat."""
    return f"seat{seat + 1}"


def zone_seat(zone: str | None) -> int | None:
    """The seat (0-based) whose zone ``zone`` is, or None (the centre, off the mat)."""
    found = _SEAT_ZONE.fullmatch(zone) if zone is not None else None
    return int(found.group(1)) - 1 if found else None


# --- what the table asks --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ZoneRequest:
    """Read the melds in ``seat``'s zone, in deal number ``deal`` after ``turns`` turns ended."""

    seat: int
    deal: int
    turns: int = 0
    #: What the game is played with (``cards`` or ``tiles``; ``auto``: tell from the photo).
    pieces: str = "auto"


@dataclass(frozen=True, slots=True)
class TableRequest:
    """Read the whole table of ``seats`` seats, in deal ``deal`` after ``turns`` turns ended.

    ``rereads``: how many times the players have asked for a fresh look at this turn's check
    (MENU on the turn-check screen, once they have put the table right).
    """

    seats: int
    deal: int
    turns: int = 0
    rereads: int = 0
    #: What the game is played with (``cards`` or ``tiles``; ``auto``: tell from the photo).
    pieces: str = "auto"


@dataclass(frozen=True)
class SeenTable:
    """The whole table as a camera reads it: each seat's melds (``melds[seat]``), the discard
    pile bottom to top, and the stock when it can be counted."""

    melds: tuple[Groups, ...]
    discard: tuple[str, ...] = ()
    stock: int | None = None


class Camera(Protocol):
    """What the table asks of a camera (see the module's text)."""

    @property
    def name(self) -> str: ...

    @property
    def fallback(self) -> bool: ...

    @property
    def table_unread(self) -> str: ...

    @property
    def absent(self) -> bool: ...

    def read_zone(self, request: ZoneRequest) -> Groups | None: ...

    def read_table(self, request: TableRequest) -> SeenTable | None: ...

    def read_cut(self, deal: int) -> str | None: ...


# --- answers from a script ------------------------------------------------------------------


class ScriptedCamera:
    """What a camera would read, given per deal and seat (tests, the demo without photos).

    Readings are keyed ``(deal, seat)`` and cut cards by deal, so the same question always gets
    the same answer, also after a resume. Whole tables (turn checks) are keyed ``(deal,
    turns)``: the table after that many turns of the deal. A key may hold a series of tables:
    the first is what the camera sees when the turn ends, and each fresh look the players ask
    for on the turn-check screen reads the next one, the last one repeating.

    With nothing scripted it is the table's camera when there is none at all (``name`` and
    ``no_tables`` then say so): with no readings and no whole tables it is ``absent`` unless
    told otherwise (cut cards alone read no hand).
    """

    def __init__(self, readings: Mapping[tuple[int, int], Groups] | None = None,
                 cuts: Mapping[int, str] | None = None,
                 tables: Mapping[tuple[int, int], SeenTable | Sequence[SeenTable]] | None = None,
                 *, name: str = "scripted readings",
                 no_tables: str = "no whole-table readings", absent: bool | None = None) -> None:
        self.readings = dict(readings or {})
        self.cuts = dict(cuts or {})
        self.tables: dict[tuple[int, int], SeenTable | Sequence[SeenTable]] = dict(tables or {})
        self.name = name
        self.fallback = True
        self.absent = (not self.readings and not self.tables) if absent is None else absent
        #: Why turns go unchecked when no whole tables are scripted.
        self.no_tables = no_tables

    @property
    def table_unread(self) -> str:
        return "" if self.tables else self.no_tables

    def read_zone(self, request: ZoneRequest) -> Groups | None:
        return self.readings.get((request.deal, request.seat))

    def read_table(self, request: TableRequest) -> SeenTable | None:
        seen = self.tables.get((request.deal, request.turns), ())
        series = (seen,) if isinstance(seen, SeenTable) else seen
        if not series:
            return None  # the camera cannot see the table now: the turn goes unchecked
        return series[min(request.rereads, len(series) - 1)]

    def read_cut(self, deal: int) -> str | None:
        return self.cuts.get(deal)


# --- answers from frames --------------------------------------------------------------------


class FrameCamera:
    """A vision frame source read by the recognizer: a live camera, or a photo folder.

    With a calibration, a seat's zone is the mat's ``seat<N>`` region and the cut card lies in
    the ``centre``; without one, each read takes the next frame and reads all of it (a photo
    folder holding one photo per reading). A live camera (``live``) waits for the table to
    be still (hands out of the way) for at most ``max_wait_frames`` frames.

    The last frame read for each zone is kept with its reading (``seen``): ``zone_photo``
    makes of it the evidence the table keeps with the ruling (:mod:`tablekit.evidence`).
    """

    def __init__(self, source: FrameSource, calibration: Calibration | None = None,
                 fallback: bool = False, live: bool = False, max_wait_frames: int = 90,
                 deck: DeckTemplates | None = None) -> None:
        self.source = source
        self.deck = deck  # the club's enrolled deck (``tablekit enroll``), when there is one
        self.name = source.name
        self.calibration = calibration
        self.fallback = fallback
        self.live = live
        self.max_wait_frames = max_wait_frames
        self._frames: Iterator[np.ndarray] = iter(source.frames())
        self._last: tuple[np.ndarray, TableReading] | None = None
        #: The last frame read for each zone, with its reading (the evidence of a ruling).
        self.seen: dict[str, tuple[np.ndarray, TableReading]] = {}
        #: What the last frames settled by themselves (``RUN_FRAMES``).
        self.told: deque[Told] = deque(maxlen=RUN_FRAMES)

    @property
    def absent(self) -> bool:
        """No camera at all yet: a source still looking for its camera has none (the hands
        are entered meanwhile, and the game does not pause for a camera lost)."""
        return not getattr(self.source, "found", True)

    @property
    def table_unread(self) -> str:
        if self.absent:
            return "no camera yet"
        return "" if self.calibration is not None else "no mat calibration"

    def _frame(self) -> np.ndarray | None:
        if not self.live:
            return next(self._frames, None)
        from vision.stillness import StillnessGate

        gate = StillnessGate()
        frame = None
        for _ in range(self.max_wait_frames):
            frame = next(self._frames, None)
            if frame is None:
                if getattr(self.source, "reopens", False):  # a camera that failed: asked anew next time
                    self._frames = iter(self.source.frames())
                break
            if gate.push(frame):
                break
        return frame

    def _reading(self, pieces: str = "auto") -> TableReading | None:
        """The recognizer's reading of the next frame (the next still one, live); None when
        there is no frame, or when the recognizer cannot read it (a garbled frame, broken
        weights): said in the log, and the table goes on as when the camera reads nothing."""
        from vision.calibration import read_calibrated
        from vision.errors import VisionError
        from vision.recognize import read_table
        from vision.runs import run_choice

        frame = self._frame()
        if frame is None:
            return None
        # the open choices made as the camera's last frames made them (RUN_FRAMES)
        reader = partial(read_table, deck=self.deck, pieces=pieces, run=run_choice(self.told),
                         told=self.told.append)
        try:  # a calibrated mat read from above, as `see --calibration` reads it
            reading = read_calibrated(self.calibration, frame, reader)
        except VisionError as exc:
            log.warning("camera %s: a frame could not be read: %s", self.name, exc)
            self._last = None
            return None
        self._last = (frame, reading)
        return reading

    def _groups_in(self, zone: str, pieces: str = "auto") -> Groups | None:
        reading = self._reading(pieces)
        if reading is None:
            return None
        if self._last is not None:
            self.seen[zone] = self._last
        groups = reading.group_cards()
        if self.calibration is not None:
            zones = self.calibration.group_zones(reading)
            groups = [g for g, z in zip(groups, zones, strict=True) if z == zone]
        return tuple(tuple(g) for g in groups)

    def read_zone(self, request: ZoneRequest) -> Groups | None:
        return self._groups_in(seat_zone(request.seat), request.pieces)

    def zone_photo(self, request: ZoneRequest) -> bytes | None:
        """The JPEG of the last frame read for ``request``'s zone, cropped to the zone when
        calibrated, with the read boxes drawn (:func:`tablekit.evidence.zone_photo`); None
        when that zone was never read."""
        from tablekit.evidence import zone_photo

        zone = seat_zone(request.seat)
        seen = self.seen.get(zone)
        if seen is None:
            return None
        frame, reading = seen
        return zone_photo(frame, reading, self.calibration, zone)

    def read_table(self, request: TableRequest) -> SeenTable | None:
        """Every seat's zone and the discard pile in the centre, from one frame (only with a
        calibration: without zones nothing says whose melds are whose). The pile's cards are
        taken in the order the recognizer groups them; the stock is not counted."""
        if self.calibration is None:
            return None
        reading = self._reading(request.pieces)
        if reading is None:
            return None
        zones = self.calibration.group_zones(reading)
        melds: list[list[tuple[str, ...]]] = [[] for _ in range(request.seats)]
        discard: list[str] = []
        for group, zone in zip(reading.group_cards(), zones, strict=True):
            seat = zone_seat(zone)
            if zone == CENTRE:
                discard += group
            elif seat is not None and seat < request.seats:
                melds[seat].append(tuple(group))
        return SeenTable(tuple(tuple(m) for m in melds), tuple(discard))

    def read_cut(self, deal: int) -> str | None:
        groups = self._groups_in(CENTRE)
        if not groups:
            return None
        card = groups[0][0]
        return None if card == UNREADABLE else card


class VisionCamera:
    """Draws a script's cards as a table photo and reads it with the vision package (the
    demo's ``--vision``); counts how well the recognizer did. Whole tables and cut cards stay
    the script's: synthetic photos are drawn one zone at a time."""

    fallback = True
    absent = False
    name = "synthetic table images read by vision"

    def __init__(self, scripted: ScriptedCamera, seed: int = 0,
                 size: tuple[int, int] = (1280, 960)) -> None:
        self.scripted = scripted
        self.seed = seed
        self.size = size
        self.reads = 0
        self.exact = 0
        self.cards = 0
        self.cards_right = 0

    @property
    def table_unread(self) -> str:
        return self.scripted.table_unread

    def truth(self, request: ZoneRequest) -> Groups | None:
        """What lies in the zone (the script), whatever the recognizer makes of it."""
        return self.scripted.read_zone(request)

    def read_zone(self, request: ZoneRequest) -> Groups | None:
        import numpy as np

        from vision.recognize import read_table
        from vision.synth import scene

        truth = self.scripted.read_zone(request)
        if truth is None:
            return None
        rng = np.random.default_rng([self.seed, request.deal, request.seat, self.reads])
        image, _ = scene(rng, self.size, [list(g) for g in truth])
        got = tuple(tuple(g) for g in read_table(image, pieces="cards").group_cards())
        self.reads += 1
        self.exact += got == truth
        flat_true = [c for g in truth for c in g]
        flat_got = [c for g in got for c in g]
        self.cards += len(flat_true)
        self.cards_right += sum(a == b for a, b in zip(flat_true, flat_got, strict=False))
        return got or ((UNREADABLE,),)

    def read_table(self, request: TableRequest) -> SeenTable | None:
        return self.scripted.read_table(request)

    def read_cut(self, deal: int) -> str | None:
        return self.scripted.read_cut(deal)
