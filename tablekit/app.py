"""The app shell: events in from the box, keyboard, camera and clock; journal; engine; effects out.

``Table`` owns one game. ``post(event)`` runs the loop's one rule: ask the engine, write the
event to the journal if it changed anything, only then adopt the new state and perform the
effects (light LEDs, read a zone, draw the cut card...). Effects that produce events (a
camera reading) queue them, so one post never recurses. ``step()`` is one frame of the
loop: poll the inputs, let time pass, draw. Everything with a side effect — camera, box,
screen, clock, the chance of the cut card — is injected, so tests and the demo drive it all.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from display.viewmodel import HEALTH_FALLBACK, DeviceHealth, ViewModel
from engine.cards import SUITS, parse_card, rank_text
from engine.errors import TablekitError
from engine.game import (
    LONG_PRESS_MS,
    ButtonPressed,
    ButtonReleased,
    Buzz,
    CameraLost,
    CameraRestored,
    Confirm,
    Correction,
    DealStarted,
    Effect,
    Event,
    Game,
    GameOver,
    GameState,
    LinkLost,
    LinkRestored,
    MenuPressed,
    ReadCut,
    ReadTable,
    ReadZone,
    SetLed,
    TableRead,
    TableSeen,
    Tick,
    WriteScores,
    apply,
    new_game,
    policy_for,
)
from tablekit.clock import Clock, wall_ms
from tablekit.journal import Journal
from tablekit.present import SCOREBOARD, present, team_label

Groups = tuple[tuple[str, ...], ...]
#: The box gives a short buzz when this much of a turn is left.
TIMER_WARNING_MS = 10_000
WARNING_BUZZ_MS = 40


# --- the seams ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeenTable:
    """The whole table as a camera reads it: each seat's melds (``melds[seat]``), the discard
    pile bottom to top, and the stock when it can be counted."""

    melds: tuple[Groups, ...]
    discard: tuple[str, ...] = ()
    stock: int | None = None


class Camera(Protocol):
    """Reads the cards lying in a seat's zone, and the cut card. None: no reading possible.

    A camera that can also read the whole table for turn checks has
    ``read_table(seats) -> SeenTable | None``; the table asks for it only when it exists.
    Its ``table_unread`` says why it cannot ("" when it can), for the screen to show.
    """

    name: str
    fallback: bool

    def read_zone(self, seat: int) -> Groups | None: ...

    def read_cut(self) -> str | None: ...


class Box(Protocol):
    """Where the button lights and the buzzer go (the real box, or nothing for the keyboard)."""

    def led(self, button: int, mode: str) -> None: ...

    def buzz(self, ms: int) -> None: ...


def table_unread(camera: Camera) -> str:
    """Why ``camera`` cannot read the whole table for turn checks ("" when it can)."""
    if getattr(camera, "read_table", None) is None:
        return "the camera reads one zone at a time"
    return str(getattr(camera, "table_unread", ""))


class NoBox:
    """The keyboard has no lights: LED and buzzer commands go nowhere."""

    def led(self, button: int, mode: str) -> None:
        pass

    def buzz(self, ms: int) -> None:
        pass


class ScriptedCamera:
    """What a camera would read, given per deal and seat (tests, the demo without photos).

    Readings are keyed ``(deal, seat)`` and cut cards by deal, so the same question always
    gets the same answer — also after a resume. Whole tables (turn checks) are keyed
    ``(deal, turns)``: the table after that many turns of the deal. ``state_of`` tells it
    which deal is on.
    """

    name = "scripted readings"
    fallback = True
    #: Why turns go unchecked when no whole tables are scripted.
    no_tables = "no whole-table readings"

    def __init__(self, readings: dict[tuple[int, int], Groups] | None = None,
                 cuts: dict[int, str] | None = None,
                 tables: dict[tuple[int, int], SeenTable] | None = None) -> None:
        self.readings = dict(readings or {})
        self.cuts = dict(cuts or {})
        self.tables = dict(tables or {})
        self.state_of: Callable[[], GameState] | None = None

    def _deal(self, upcoming: bool) -> int:
        if self.state_of is None:
            return 1
        state = self.state_of()
        if upcoming or state.deal is None:
            return len(state.history) + 1
        return state.deal.number

    def read_zone(self, seat: int) -> Groups | None:
        return self.readings.get((self._deal(False), seat))

    def read_cut(self) -> str | None:
        return self.cuts.get(self._deal(True))

    @property
    def table_unread(self) -> str:
        return "" if self.tables else self.no_tables

    def read_table(self, seats: int) -> SeenTable | None:
        state = self.state_of() if self.state_of is not None else None
        turns = state.deal.turn_count - 1 if state is not None and state.deal is not None else 0
        return self.tables.get((self._deal(False), turns))


class FrameCamera:
    """A vision frame source read by the recognizer: a live camera, or a photo folder.

    With a calibration, a seat's zone is the mat's ``seat<N>`` region and the cut card lies in
    the ``centre``; without one, each read takes the next frame and reads all of it (a photo
    folder holding one photo per reading). A live camera (``live``) waits for the table to
    be still (hands out of the way) for at most ``max_wait_frames`` frames.
    """

    def __init__(self, source: Any, calibration: Any = None, fallback: bool = False,
                 live: bool = False, max_wait_frames: int = 90) -> None:
        self.source = source
        self.name = str(getattr(source, "name", "camera"))
        self.calibration = calibration
        self.fallback = fallback
        self.live = live
        self.max_wait_frames = max_wait_frames
        self._frames = iter(source.frames())

    def _frame(self) -> Any:
        if not self.live:
            return next(self._frames, None)
        from vision.stillness import StillnessGate

        gate = StillnessGate()
        frame = None
        for _ in range(self.max_wait_frames):
            frame = next(self._frames, None)
            if frame is None or gate.push(frame):
                break
        return frame

    def _reading(self) -> tuple[Any, Any] | None:
        from vision.recognize import read_table

        frame = self._frame()
        if frame is None:
            return None
        if self.calibration is not None:
            return self.calibration.read(frame, read_table), frame
        return read_table(frame), frame

    def _groups_in(self, zone: str) -> Groups | None:
        got = self._reading()
        if got is None:
            return None
        reading, _ = got
        groups = reading.group_cards()
        if self.calibration is not None:
            zones = self.calibration.group_zones(reading)
            groups = [g for g, z in zip(groups, zones, strict=True) if z == zone]
        return tuple(tuple(g) for g in groups)

    def read_zone(self, seat: int) -> Groups | None:
        return self._groups_in(f"seat{seat + 1}")

    @property
    def table_unread(self) -> str:
        return "" if self.calibration is not None else "no mat calibration"

    def read_table(self, seats: int) -> SeenTable | None:
        """Every seat's zone and the discard pile in the centre, from one frame (only with a
        calibration: without zones nothing says whose melds are whose). The pile's cards are
        taken in the order the recognizer groups them; the stock is not counted."""
        if self.calibration is None:
            return None
        got = self._reading()
        if got is None:
            return None
        reading, _ = got
        zones = self.calibration.group_zones(reading)
        melds: list[list[tuple[str, ...]]] = [[] for _ in range(seats)]
        discard: list[str] = []
        for group, zone in zip(reading.group_cards(), zones, strict=True):
            if zone == "centre":
                discard += group
            elif isinstance(zone, str) and zone.startswith("seat") and zone[4:].isdigit():
                seat = int(zone[4:]) - 1
                if 0 <= seat < seats:
                    melds[seat].append(tuple(group))
        return SeenTable(tuple(tuple(m) for m in melds), tuple(discard))

    def read_cut(self) -> str | None:
        groups = self._groups_in("centre")
        if not groups:
            return None
        card = groups[0][0]
        return None if card == "??" else card


# --- the table ----------------------------------------------------------------------------


@dataclass
class Devices:
    """What the screen says about the box link and the camera."""

    link: DeviceHealth = field(default_factory=DeviceHealth)
    camera: DeviceHealth = field(default_factory=DeviceHealth)


class Table:
    """One game at the table: the loop around the pure engine."""

    def __init__(self, journal: Journal, game_id: int, state: GameState, clock: Clock, *,
                 camera: Camera, box: Box | None = None, rng: random.Random | None = None,
                 devices: Devices | None = None,
                 on_view: Callable[[ViewModel], None] | None = None) -> None:
        self.journal = journal
        self.game_id = game_id
        self.state = state
        self.clock = clock
        self.camera = camera
        self.box: Box = box or NoBox()
        self.rng = rng or random.Random()
        self.devices = devices or Devices()
        self.on_view = on_view
        self.screen = ""  # a screen the players asked for with MENU (the scoreboard)
        self.effects: list[Effect] = []  # every effect performed, for tests and reports
        self._queue: deque[Event] = deque()
        self._redo: list[Effect] = []
        self._warned: tuple[int, int] | None = None
        self.correcting: tuple[int, int] | None = None  # (group, position) being corrected
        self.proposed = ""
        self.picking: Picking | None = None  # the box buttons' selection on a verdict
        self._seat_down: dict[int, int] = {}  # seat buttons held while picking: since when
        self.menu_button = -1
        self.ok_button = -1
        if hasattr(camera, "state_of"):  # cameras that answer from a script need the deal
            camera.state_of = lambda: self.state

    # --- starting and resuming ----------------------------------------------------------

    @classmethod
    def start(cls, journal: Journal, game: Game, clock: Clock, **kw: Any) -> Table:
        game_id = journal.new_game(game, wall_ms())
        return cls(journal, game_id, new_game(game), clock, **kw)

    @classmethod
    def resume(cls, journal: Journal, game_id: int, clock: Clock, **kw: Any) -> Table:
        """The game exactly as its journal left it.

        Effects already performed are not performed again, except those of the last event
        that ask for an input (a zone or cut to read) — the crash may have come before their
        answer was journaled — and the button lights, which the box may have lost.
        """
        state = new_game(journal.game(game_id))
        effects: list[Effect] = []
        for event in journal.events(game_id):
            state, effects = apply(state, event)
        table = cls(journal, game_id, state, clock, **kw)
        table._redo = [e for e in effects if isinstance(e, ReadZone | ReadTable | ReadCut | SetLed)]
        return table

    def catch_up(self) -> None:
        """Perform what a resumed game still owes (see :meth:`resume`)."""
        redo, self._redo = self._redo, []
        for effect in redo:
            self._perform(effect)
        while self._queue:
            self._apply(self._queue.popleft())

    @property
    def over(self) -> bool:
        return self.state.phase == "game-over"

    # --- events -------------------------------------------------------------------------

    def post(self, event: Event) -> None:
        """Journal and apply ``event`` and everything its effects bring in."""
        self._queue.append(event)
        while self._queue:
            self._apply(self._queue.popleft())

    def _apply(self, event: Event) -> None:
        new, effects = apply(self.state, event)
        if new is self.state and not effects:
            return  # nothing happened: not worth a journal line (most Ticks)
        self.journal.append(self.game_id, event)
        self.state = new
        for effect in effects:
            self._perform(effect)

    def now(self) -> int:
        return self.clock.now_ms()

    def _perform(self, effect: Effect) -> None:
        self.effects.append(effect)
        if isinstance(effect, ReadZone):
            groups = self.camera.read_zone(effect.seat)
            if groups is None:
                if self.state.camera_ok:
                    self._queue.append(CameraLost(self.now()))
            else:
                self._queue.append(TableRead(effect.seat, groups, self.now()))
        elif isinstance(effect, ReadTable):
            read = getattr(self.camera, "read_table", None)
            seen = read(self.state.game.players) if read is not None else None
            if seen is not None:  # no reading: this turn goes unchecked
                self._queue.append(TableSeen(seen.melds, seen.discard, seen.stock, self.now()))
        elif isinstance(effect, ReadCut):
            self._queue.append(DealStarted(self._cut(), self.now()))
        elif isinstance(effect, SetLed):
            self.box.led(effect.seat, effect.mode)
        elif isinstance(effect, Buzz):
            self.box.buzz(effect.ms)
        elif isinstance(effect, WriteScores):
            self.journal.write_scores(self.game_id, effect.deal, effect.scores, effect.totals)
        elif isinstance(effect, GameOver):
            self.journal.finish(self.game_id, effect.winners, wall_ms())

    def _cut(self) -> str:
        """The cut card: read from the table, else drawn here (the draw is journaled)."""
        if not policy_for(self.state.game).uses_wild:
            return ""
        card = self.camera.read_cut()
        if card:
            return card
        variant = self.state.game.variant
        items = [i for i in variant.full_set(variant.decks, variant.jokers)
                 if not (variant.uses_tiles and i.is_joker)]  # a Joly is never turned up as the ace
        return str(self.rng.choice(items))

    # --- inputs ---------------------------------------------------------------------------

    def button(self, button: int, pressed: bool, t_ms: int | None = None, *,
               keyboard: bool = False) -> None:
        """A button edge from the box or the keyboard. Past the seats come MENU and OK: the
        box's last two buttons once it said how many it has, else (and on the keyboard
        mapper) the two numbers after the seats."""
        t = self.now() if t_ms is None else t_ms
        players = self.state.game.players
        menu, ok = (players, players + 1) if keyboard or self.menu_button < 0 else (
            self.menu_button, self.ok_button)
        if button == menu:
            if pressed:
                self.menu_pressed(t)
        elif button == ok:
            if pressed:
                if self._picked_reading() is not None:
                    self.ok_picked(t)
                    return
                if not self.state.camera_ok:
                    # the players say the camera is back (there is no other way to know)
                    self.post(CameraRestored(t))
                self.post(Confirm(t))
        elif 0 <= button < players:
            if self._picked_reading() is not None and self.picking is not None and self.picking.cell is not None:
                self.seat_picked(button, pressed, t)
                return
            self.post(ButtonPressed(button, t) if pressed else ButtonReleased(button, t))

    def menu_pressed(self, t_ms: int) -> None:
        """MENU: on a verdict it moves the selection (read again, then each card); in play,
        the engine's menu; after a deal it flips to the scoreboard and back."""
        if self._reading() is not None:
            self.next_pick()
            return
        before = self.state
        self.post(MenuPressed(t_ms))
        if self.state is before and self.state.phase in ("deal-over", "game-over"):
            self.screen = "" if self.screen == SCOREBOARD else SCOREBOARD

    def link(self, up: bool) -> None:
        self.post(LinkRestored(self.now()) if up else LinkLost(self.now()))

    def camera_health(self, up: bool) -> None:
        self.post(CameraRestored(self.now()) if up else CameraLost(self.now()))

    # --- correcting a misread card on screen (keyboard or touch) ---------------------------

    def _reading(self) -> Any:
        show = self.state.show
        if self.state.phase != "show" or show is None:
            return None
        return show.declaration if show.stage == "verdict" else show.current if show.stage == "hand-check" else None

    def start_correction(self) -> bool:
        reading = self._reading()
        if reading is None or not reading.groups:
            return False
        self.correcting = (0, 0)
        self.proposed = ""
        self.picking = None
        return True

    def move_selection(self, step: int) -> None:
        reading = self._reading()
        if reading is None or self.correcting is None:
            self.correcting = None
            return
        cells = [(g, i) for g, group in enumerate(reading.groups) for i in range(len(group))]
        at = cells.index(self.correcting) if self.correcting in cells else 0
        self.correcting = cells[(at + step) % len(cells)]
        self.proposed = ""

    def type_card(self, text: str) -> None:
        self.proposed = (self.proposed + text.upper())[:3]

    def finish_correction(self, apply: bool) -> None:
        reading = self._reading()
        if apply and reading is not None and self.correcting is not None and self.proposed:
            group, index = self.correcting
            self.post(Correction(reading.seat, group, index, self.proposed, self.now()))
        self.correcting = None
        self.proposed = ""

    # --- correcting a misread card with the box buttons ------------------------------------
    #
    # On a verdict (the declarer's show or a hand being counted) MENU moves a selection: first
    # "read the zone again", then each recognized card (the first group the engine found wrong
    # first), then off. With a card selected, the button of the seat whose cards they are
    # changes it: a short press to the next rank (A, 2 … K, the joker, then "remove the card"),
    # a held one to the next suit. OK corrects the card (a Correction event, journaled like
    # the keyboard's) or reads the zone again. Only the Correction is an event: the selection is
    # the screen's, like the keyboard's cursor.

    def _picked_reading(self) -> Any:
        if self.picking is None:
            return None
        reading = self._reading()
        if reading is None or reading.groups != self.picking.groups or reading.seat != self.picking.seat:
            self.picking = None  # the verdict changed under the selection: start again
            return None
        return reading

    def next_pick(self) -> None:
        """MENU on a verdict: off → read again → each card → off."""
        reading = self._reading()
        if reading is None:
            return
        self.correcting = None
        self.proposed = ""
        cells = pick_order(reading)
        picking = self.picking if self._picked_reading() is not None else None
        if picking is None:
            self.picking = Picking(reading.seat, reading.groups)
            return
        at = cells.index(picking.cell) + 1 if picking.cell in cells else 0
        if at >= len(cells):
            self.picking = None
            return
        g, i = cells[at]
        self.picking = Picking(reading.seat, reading.groups, cells[at], reading.groups[g][i])

    def seat_picked(self, seat: int, pressed: bool, t_ms: int) -> None:
        """A seat button while a card is selected: only the owner's changes it."""
        picking = self.picking
        assert picking is not None
        if seat != picking.seat:
            return
        if pressed:
            self._seat_down[seat] = t_ms
            return
        since = self._seat_down.pop(seat, None)
        if since is None:
            return
        tiles = self.state.game.variant.uses_tiles
        suit = t_ms - since >= LONG_PRESS_MS
        self.picking = replace(picking, card=cycle_card(picking.card, tiles, suit), changed=True)

    def ok_picked(self, t_ms: int) -> None:
        """OK with the selection: read the zone again, or correct the selected card."""
        picking = self.picking
        reading = self._picked_reading()
        self.picking = None
        self._seat_down.clear()
        if picking is None or reading is None:
            return
        if picking.cell is None:
            self.post(MenuPressed(t_ms))  # the engine reads the zone again
            return
        g, i = picking.cell
        if picking.changed and picking.card != reading.groups[g][i]:
            self.post(Correction(reading.seat, g, i, picking.card, t_ms))

    def tick(self) -> None:
        now = self.now()
        self.post(Tick(now))
        deal = self.state.deal
        if self.state.phase == "play" and deal is not None and deal.deadline_ms is not None:
            turn = (deal.number, deal.turn_count)
            if deal.deadline_ms - now <= TIMER_WARNING_MS and self._warned != turn:
                self._warned = turn  # once per turn; not an event: it changes nothing
                self.box.buzz(WARNING_BUZZ_MS)

    # --- screen ---------------------------------------------------------------------------

    def view(self) -> ViewModel:
        if self.state.phase not in ("deal-over", "game-over"):
            self.screen = ""
        if self._reading() is None:
            self.correcting = None
        picking = self.picking if self._picked_reading() is not None else None
        kw: dict[str, Any] = dict(link=self.devices.link, camera=self.devices.camera, screen=self.screen,
                                  table_unread=table_unread(self.camera))
        if picking is not None and picking.cell is not None:
            owner = self.state.game.seats[picking.seat].name
            suit = "colour" if self.state.game.variant.uses_tiles else "suit"
            note = ("remove this card" if not picking.card else
                    "as read" if not picking.changed else "")
            kw.update(correcting=picking.cell, proposed=picking.card, proposed_note=note,
                      prompt=f"{owner}'s button: next rank · hold it: next {suit} · "
                             "OK: correct · MENU: next card")
        elif picking is not None:
            kw.update(read_again=True)
        else:
            kw.update(correcting=self.correcting, proposed=self.proposed)
        return present(self.state, self.now(), **kw)

    def draw(self) -> ViewModel:
        view = self.view()
        if self.on_view is not None:
            self.on_view(view)
        return view


@dataclass(frozen=True)
class Picking:
    """The box buttons' selection on a verdict: ``cell`` None is "read the zone again";
    ``card`` is what the selected card would become ("" removes it)."""

    seat: int
    groups: Groups
    cell: tuple[int, int] | None = None
    card: str = ""
    changed: bool = False


def pick_order(reading: Any) -> list[tuple[int, int]]:
    """Every card of a reading in table order, starting with the first group found wrong."""
    cells = [(g, i) for g, group in enumerate(reading.groups) for i in range(len(group))]
    ruling = reading.ruling
    wrong = [g for g, gr in enumerate(ruling.groups) if not gr.valid] if ruling is not None else []
    if ruling is not None and len(ruling.groups) != len(reading.groups):
        wrong = []  # the ruling rearranged the groups (best arrangement): keep table order
    start = next((k for k, (g, _) in enumerate(cells) if wrong and g == wrong[0]), 0)
    return cells[start:] + cells[:start]


def cycle_card(card: str, tiles: bool, suit_step: bool) -> str:
    """The card a seat press turns ``card`` into.

    A short press (``suit_step`` False) runs the ranks A, 2 … K, then the joker, then ""
    (remove the card), then A again, keeping the suit; a long one runs the suits S H D C (tile
    colours R Y B K), keeping the rank. A card that is not a card starts at the ace of spades.
    """
    from engine.tiles import COLOURS, parse_tile

    suits: tuple[str, ...] = COLOURS if tiles else SUITS
    first = f"{suits[0]}1" if tiles else f"A{suits[0]}"
    if not card:
        return first
    try:
        item: Any = parse_tile(card) if tiles else parse_card(card)
    except TablekitError:
        return first
    if item.is_joker:
        return first if suit_step else ""
    rank, suit = (item.number, item.colour) if tiles else (item.rank, item.suit)
    if suit_step:
        suit = suits[(suits.index(suit) + 1) % len(suits)]
    elif rank < 13:
        rank += 1
    else:
        return "JY" if tiles else "PJ"
    return f"{suit}{rank}" if tiles else f"{rank_text(rank)}{suit}"


def fallback_health(what: str) -> DeviceHealth:
    return DeviceHealth(HEALTH_FALLBACK, what)


# --- the screen ---------------------------------------------------------------------------


class Screen:
    """A pygame window (or the dummy driver's surface) drawn by the display renderer.

    ``screenshots``: a folder that gets a PNG every time a different screen appears.
    """

    def __init__(self, size: tuple[int, int] = (1280, 720), *, fullscreen: bool = False,
                 screenshots: Path | None = None, title: str = "Rummy Table Kit") -> None:
        import pygame

        from display.renderer import Renderer

        pygame.display.init()
        pygame.font.init()
        flags = pygame.FULLSCREEN if fullscreen else 0
        self.surface = pygame.display.set_mode(size, flags)
        pygame.display.set_caption(title)
        self.renderer = Renderer()
        self.screenshots = screenshots
        self.shots: list[Path] = []
        self.shot_texts: list[tuple[str, ...]] = []  # the words drawn on each screenshot
        self._last_key: Any = None
        if screenshots is not None:
            screenshots.mkdir(parents=True, exist_ok=True)

    @staticmethod
    def key(view: ViewModel) -> tuple[Any, ...]:
        """What makes a screen a different screen (not the ticking countdown)."""
        name = type(view).__name__
        if name == "PlayView":
            return (name, getattr(view, "deal_number", 0), getattr(view, "paused_reason", ""),
                    tuple(getattr(s, "state", "") for s in getattr(view, "seats", ())))
        if name == "ShowView":
            return (name, getattr(view, "declarer", ""), getattr(view, "stage", ""),
                    getattr(view, "verdict", ""))
        if name == "TurnCheckView":
            return (name, getattr(view, "player", ""), getattr(view, "reads", 0))
        if name == "DealResultView":
            return (name, getattr(view, "deal_number", 0))
        if name == "ScoreboardView":
            return (name, getattr(view, "title", ""))
        return (name,)

    def show(self, view: ViewModel) -> None:
        import pygame

        canvas = self.renderer.render(view, self.surface)
        pygame.display.flip()
        key = self.key(view)
        if self.screenshots is not None and key != self._last_key:
            path = self.screenshots / f"{len(self.shots) + 1:03d}-{type(view).__name__}.png"
            pygame.image.save(self.surface, str(path))
            self.shots.append(path)
            self.shot_texts.append(tuple(t.text for t in canvas.texts))
        self._last_key = key

    def close(self) -> None:
        import pygame

        pygame.display.quit()


# --- the setup screen -----------------------------------------------------------------------

TURN_CHOICES = (0, 30, 45, 60, 90)  # 0: the variant's own timer


class TableSetup:
    """The setup screen before a game: MENU moves to the next row, OK changes it or starts.

    Rows: the game, the number of players, the turn timer, how losing hands are counted, and
    Start. Names come from ``names`` (``Player N`` past the end).
    """

    ROWS = ("variant", "players", "turn_seconds", "count", "start")

    def __init__(self, variant_ids: list[str], names: list[str] | None = None,
                 variant: str = "indian-pool-101", players: int = 3) -> None:
        self.variant_ids = variant_ids
        self.variant = variant_ids.index(variant) if variant in variant_ids else 0
        self.names = list(names or [])
        self.players = players
        self.turn = TURN_CHOICES.index(0)
        self.count = "best"
        self.row = 0
        self.problem = ""

    def _variant(self) -> Any:
        from engine.variants import find

        return find(self.variant_ids[self.variant])

    def menu(self) -> None:
        self.row = (self.row + 1) % len(self.ROWS)

    def ok(self) -> Game | None:
        """Change the row under the cursor; on Start, the game (or None and a problem)."""
        row = self.ROWS[self.row]
        self.problem = ""
        if row == "variant":
            self.variant = (self.variant + 1) % len(self.variant_ids)
            v = self._variant()
            self.players = min(max(self.players, v.min_players), v.max_players)
        elif row == "players":
            v = self._variant()
            self.players = self.players + 1 if self.players < v.max_players else v.min_players
        elif row == "turn_seconds":
            self.turn = (self.turn + 1) % len(TURN_CHOICES)
        elif row == "count":
            self.count = "arranged" if self.count == "best" else "best"
        else:
            return self.game()
        return None

    def game(self) -> Game | None:
        from engine.game import Seat

        names = self.names + [f"Player {i + 1}" for i in range(len(self.names), self.players)]
        try:
            return Game(self.variant_ids[self.variant], tuple(Seat(n) for n in names[:self.players]),
                        TURN_CHOICES[self.turn], 0, {"count": self.count})
        except TablekitError as exc:
            self.problem = str(exc)
            return None

    def view(self) -> ViewModel:
        from display.viewmodel import SetupCursor, SetupOption, SetupPlayer, SetupView

        v = self._variant()
        names = self.names + [f"Player {i + 1}" for i in range(len(self.names), self.players)]
        turn = TURN_CHOICES[self.turn]
        options = (SetupOption("players", "Players", str(self.players)),
                   SetupOption("turn_seconds", "Turn timer", f"{turn} s" if turn else "the game's own"),
                   SetupOption("count", "Losing hands", "best arrangement" if self.count == "best"
                               else "as laid out"))
        row = self.ROWS[self.row]
        cursor = (SetupCursor("variant") if row == "variant" else SetupCursor("start") if row == "start"
                  else SetupCursor("option", self.ROWS.index(row) - 1))
        players = tuple(SetupPlayer(n, team_label(v, i)) for i, n in enumerate(names[:self.players]))
        return SetupView(v.id, v.name, players, options,
                         cursor, hint="MENU: next row · OK: change · OK on Start: play",
                         problem=self.problem)
