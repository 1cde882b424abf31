"""Evidence for disputes: the photo each camera ruling was read from, and a game told again.

Every ruling made from a camera reading keeps the photo it was read from: a JPEG of the zone
(cropped to it when the mat is calibrated, else the whole frame downscaled), with the read
card boxes drawn. :func:`zone_photo` makes it, :class:`tablekit.cameras.FrameCamera` keeps
the frame it read for each zone, and the table stores the photo with the ``TableRead`` event
it journals (:func:`keep_photo`: right after the event, in its own transaction, so a photo
lost to a power cut never loses the event). Photos never enter engine events.

The photos are bounded: ``$TABLEKIT_PHOTO_BUDGET_MB`` (default 200 MB) is the most they may
take in the journal; past it the oldest photos of finished games are pruned first, and the
game being played keeps all of its own (:meth:`tablekit.journal.Journal.prune_photos`).

For ``tablekit history``: :func:`rulings` lists a game's rulings (each deal's shows and hands
counted, with whether a photo is kept), and :func:`replay_views` folds a game's journal step
by step into the screens the table showed, with the photo beside a verdict read from one.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from display.viewmodel import SHOW_CONFIRM, ShowView, ViewModel
from engine.game import (
    DealStarted,
    Event,
    GameState,
    HandEntered,
    TableRead,
    TableSeen,
    apply,
    new_game,
)
from engine.ruling import plain_number
from tablekit.journal import Journal, JournalError
from tablekit.present import present

if TYPE_CHECKING:
    import numpy as np

    from vision.calibration import Calibration
    from vision.reading import TableReading

log = logging.getLogger(__name__)

#: The environment setting: the most the photos may take in the journal, in MB.
BUDGET_ENV = "TABLEKIT_PHOTO_BUDGET_MB"
DEFAULT_BUDGET_MB = 200.0
#: A photo of the whole frame is downscaled to at most this wide.
MAX_WIDTH = 1280
JPEG_QUALITY = 80
#: Room kept around a zone's crop (of the zone's size), so cards on its edge show whole.
CROP_MARGIN = 0.06
UNREADABLE_PHOTO = "photo unreadable"


def photo_budget(env: dict[str, str] | None = None) -> int:
    """The photo budget in bytes: ``$TABLEKIT_PHOTO_BUDGET_MB`` (a number of MB, 0 keeps no
    photo of a finished game), else 200 MB. A value that is no number is warned about."""
    text = (os.environ if env is None else env).get(BUDGET_ENV, "").strip()
    mb = DEFAULT_BUDGET_MB
    if text:
        try:
            mb = float(text)
            if not mb >= 0 or mb == float("inf"):
                raise ValueError(text)
        except ValueError:
            log.warning("%s=%r is no size in MB: the photos keep %g MB", BUDGET_ENV, text,
                        DEFAULT_BUDGET_MB)
            mb = DEFAULT_BUDGET_MB
    return int(mb * 1024 * 1024)


# --- making a photo -------------------------------------------------------------------------


def zone_box(frame_size: tuple[int, int], calibration: Calibration, zone: str) -> tuple[int, int, int, int] | None:
    """The part of a ``(width, height)`` frame that shows the mat zone ``zone`` (x0, y0, x1,
    y1, a little margin around it), or None (no such zone, or it lies off the frame)."""
    import cv2
    import numpy as np

    width, height = frame_size
    found = next((z for z in calibration.zones if z.name == zone), None)
    if found is None:
        return None
    cal = calibration.for_size(width, height)
    x0, y0, x1, y1 = found.rect
    mx, my = (x1 - x0) * CROP_MARGIN, (y1 - y0) * CROP_MARGIN
    corners = np.array([[x0 - mx, y0 - my], [x1 + mx, y0 - my], [x1 + mx, y1 + my], [x0 - mx, y1 + my]],
                       np.float64).reshape(-1, 1, 2)
    pts = cv2.perspectiveTransform(corners, np.linalg.inv(cal.homography)).reshape(-1, 2)
    left, top = max(0, int(pts[:, 0].min())), max(0, int(pts[:, 1].min()))
    right, bottom = min(width, int(np.ceil(pts[:, 0].max()))), min(height, int(np.ceil(pts[:, 1].max())))
    if right - left < 8 or bottom - top < 8:
        return None
    return left, top, right, bottom


def zone_photo(frame: np.ndarray, reading: TableReading, calibration: Calibration | None = None,
               zone: str | None = None, *, max_width: int = MAX_WIDTH,
               quality: int = JPEG_QUALITY) -> bytes:
    """The JPEG kept as evidence: ``frame`` with ``reading``'s card boxes drawn, cropped to
    ``zone`` when ``calibration`` places it, and no wider than ``max_width`` pixels."""
    import cv2

    from vision.annotate import annotate

    image = annotate(frame, reading)
    if calibration is not None and zone is not None:
        try:
            box = zone_box((frame.shape[1], frame.shape[0]), calibration, zone)
        except Exception as exc:  # a calibration for another camera shape: the whole frame
            log.warning("the photo shows the whole frame: %s", exc)
            box = None
        if box is not None:
            x0, y0, x1, y1 = box
            image = image[y0:y1, x0:x1]
    if image.shape[1] > max_width:
        scale = max_width / image.shape[1]
        image = cv2.resize(image, (max_width, max(1, round(image.shape[0] * scale))),
                           interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError("the photo could not be encoded as a JPEG")
    return bytes(data.tobytes())


def decode(jpeg: bytes | None) -> np.ndarray | None:
    """The photo's pixels (BGR), or None when it is missing or unreadable."""
    if not jpeg:
        return None
    import cv2
    import numpy as np

    try:
        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:
        return None
    return image if image is not None and image.size else None


def keep_photo(journal: Journal, game_id: int, seq: int, jpeg: bytes, budget: int | None = None) -> bool:
    """Store the photo of event ``seq`` (already journaled) and prune the photos to the
    budget, never the game's own. False when it could not be kept: the event stands anyway."""
    try:
        journal.add_photo(game_id, seq, jpeg)
        journal.prune_photos(photo_budget() if budget is None else budget, keep_game=game_id)
    except Exception as exc:  # a photo never stops the game (a bad row, no memory for it)
        log.warning("the photo of event %d was not kept: %s", seq,
                    exc if isinstance(exc, JournalError) else f"{type(exc).__name__}: {exc}")
        return False
    return True


# --- a game's rulings ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RulingLine:
    """One ruling of a game: a show judged or a hand counted, from the event ``seq``."""

    seq: int
    deal: int
    seat: int  # -1: the cut card (no seat's)
    player: str
    kind: str  # "show", "hand", "cut" (the cut card read) or "turn" (the table read after a turn)
    valid: bool | None  # None: the reading could not be judged
    reason: str
    points: int | float | None
    entered: bool  # the players entered it (no camera reading)
    photo: bool  # a photo is kept for it

    @property
    def verdict(self) -> str:
        if self.kind == "cut":
            return "read"
        if self.kind == "turn":
            return "seen" if self.valid is None else "legal" if self.valid else "illegal"
        if self.valid is None:
            return "not judged"
        if self.kind == "hand":
            return "counted"
        return "valid" if self.valid else "wrong"

    def to_json(self) -> dict[str, object]:
        return {"seq": self.seq, "deal": self.deal, "seat": self.seat, "player": self.player,
                "kind": self.kind, "verdict": self.verdict, "valid": self.valid,
                "reason": self.reason, "points": self.points, "entered": self.entered,
                "photo": self.photo}


def _deal_number(state: GameState) -> int:
    return state.deal.number if state.deal is not None else len(state.history) + 1


def rulings(journal: Journal, game_id: int) -> list[RulingLine]:
    """Every reading the game judged (a ``TableRead``, or a hand the players entered), in
    order, with its verdict as the engine gave it then; and, where the camera read them (their
    photo is kept), the cut cards and the table read after a turn (``TableSeen``: the turn
    found legal, illegal, or the table only seen as the turn began)."""
    game = journal.game(game_id)
    events = journal.events(game_id)
    photos = journal.photo_seqs(game_id)
    names = [s.name for s in game.seats]
    state = new_game(game)
    out: list[RulingLine] = []
    for seq, event in enumerate(events, 1):
        deal = _deal_number(state)
        due = _turn_due(state)
        state, _ = apply(state, event)
        if isinstance(event, DealStarted) and event.wild and seq in photos:
            out.append(RulingLine(seq, _deal_number(state), -1, "", "cut", None,
                                  f"cut card {event.wild}", None, False, True))
            continue
        if isinstance(event, TableSeen):
            if seq in photos:
                out.append(_turn_line(seq, deal, due, state, names))
            continue
        if not isinstance(event, TableRead | HandEntered):
            continue
        seat = getattr(event, "zone", getattr(event, "seat", -1))
        reading = None
        kind = "hand"
        show = state.show
        if show is not None and show.declaration is not None and show.declaration.seat == seat \
                and show.stage == "verdict":
            reading, kind = show.declaration, "show"
        elif show is not None and show.current is not None and show.current.seat == seat:
            reading = show.current
        elif show is not None:
            reading = next((h for h in reversed(show.hands) if h.seat == seat), None)
        if reading is None and state.history:  # the reading ended the deal
            record = state.history[-1]
            if record.number == deal and 0 <= seat < len(record.counts):
                out.append(RulingLine(seq, deal, seat, names[seat], "hand", True, "",
                                      plain_number(record.counts[seat]),
                                      isinstance(event, HandEntered), seq in photos))
            continue
        if reading is None:
            continue
        ruling = reading.ruling
        valid = None if ruling is None else ruling.valid
        reason = reading.problem if ruling is None else ruling.reason
        points = reading.points if kind == "hand" else (None if ruling is None else ruling.points)
        out.append(RulingLine(seq, deal, seat, names[seat] if 0 <= seat < len(names) else "?",
                              kind, valid, reason, None if points is None else plain_number(points),
                              reading.entered or isinstance(event, HandEntered), seq in photos))
    return out


def _turn_due(state: GameState) -> int | None:
    """The seat whose ended turn the next whole-table reading checks (None: none)."""
    deal = state.deal
    watch = deal.watch if deal is not None else None
    return watch.due if watch is not None else None


def _turn_line(seq: int, deal: int, due: int | None, state: GameState, names: list[str]) -> RulingLine:
    """The ruling a whole-table reading made: the turn of ``due`` legal or not."""
    if due is None or not 0 <= due < len(names):
        return RulingLine(seq, deal, -1, "", "turn", None, "the table as the turn began", None,
                          False, True)
    watch = state.deal.watch if state.deal is not None else None
    check = watch.check if watch is not None else None
    broke = check is not None and check.seat == due
    return RulingLine(seq, deal, due, names[due], "turn", not broke,
                      check.reason if check is not None and broke else "", None, False, True)


# --- a game told again, step by step --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One step of a replay: the event (its ``seq``) and the screen the table showed after it."""

    seq: int
    event: Event
    view: ViewModel


def replay_views(journal: Journal, game_id: int) -> Iterator[ReplayStep]:
    """The game's journal folded one event at a time, each with the table's screen after it;
    a show's verdict read by the camera carries the photo it was read from (an unreadable
    one as it is: the screen says so)."""
    game = journal.game(game_id)
    events = journal.events(game_id)
    photos = journal.photo_seqs(game_id)
    state = new_game(game)
    read_by: dict[int, int] = {}  # seat -> the seq of the reading of it in this deal
    for seq, event in enumerate(events, 1):
        before = _deal_number(state)
        state, _ = apply(state, event)
        if _deal_number(state) != before:
            read_by = {}
        if isinstance(event, TableRead):
            read_by[event.zone] = seq
        elif isinstance(event, HandEntered):
            read_by.pop(event.seat, None)
        t_ms = int(getattr(event, "t_ms", 0) or 0)
        view = present(state, t_ms)
        if isinstance(view, ShowView) and view.stage == SHOW_CONFIRM and state.show is not None:
            show = state.show
            reading = show.declaration if show.stage == "verdict" else show.current
            source = read_by.get(reading.seat) if reading is not None else None
            if source is not None and source in photos:
                view = dataclasses.replace(view, photo=journal.photo(game_id, source) or b"")
        yield ReplayStep(seq, event, view)


__all__ = ["BUDGET_ENV", "DEFAULT_BUDGET_MB", "UNREADABLE_PHOTO", "ReplayStep", "RulingLine",
           "decode", "keep_photo", "photo_budget", "replay_views", "rulings", "zone_box",
           "zone_photo"]
