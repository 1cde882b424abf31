"""The table: one game's loop around the pure engine — events in, journal, effects out.

``Table`` owns one game. ``post(event)`` runs the loop's one rule: ask the engine, write the
event to the journal if it changed anything, only then adopt the new state and perform the
effects (light LEDs, read a zone, draw the cut card...). Effects that produce events (a
camera reading) queue them, so one post never recurses. Inputs (``button``, ``link``,
``tick``) and ``draw`` are called by whoever runs the table (``tablekit.shell`` for ``run``,
the demo's player). Everything with a side effect — camera, box, screen, clock, the chance of
the cut card — is injected, so tests and the demo drive it all.

When the camera gives no reading of a hand (there is none, it is lost, or its reading of a
hand cannot be counted and OK is pressed on it) the table asks the players instead: the
scorepad (:mod:`engine.game.scorepad`). The entry in progress is the table's own (``entry``):
seat buttons step it, MENU steps back, OK ends it, the keyboard types it; no event is
journaled until a different seat's button confirms it, which posts the engine's
``HandEntered``. Each change of the entry is kept beside the journal (its ``drafts``), and a
resumed table takes it back, so a power cut mid-entry loses nothing entered; so is the call
panel while a call is being made (:mod:`tablekit.call_panel`).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from display.viewmodel import (
    HEALTH_FALLBACK,
    LEVEL_WARNING,
    DeviceHealth,
    PlayView,
    Toast,
    ViewModel,
)
from engine.cards import Groups
from engine.errors import TablekitError
from engine.game import (
    ButtonPressed,
    ButtonReleased,
    Buzz,
    Called,
    CameraLost,
    CameraRestored,
    ClaimMade,
    Confirm,
    DealStarted,
    Effect,
    Event,
    Game,
    GameOver,
    GameState,
    HandReading,
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
from engine.game import scorepad as pad
from engine.game.codec import RecordError
from engine.game.deal_flow import cut_text
from engine.game.events import check_event
from engine.game.flow import is_claim_press, is_window_call_press
from firmware_bridge.layout import ButtonLayout
from tablekit import call_panel
from tablekit.cameras import Camera, TableRequest, ZoneRequest
from tablekit.clock import Clock, wall_ms
from tablekit.corrections import Corrections, Picking
from tablekit.handpad import cards_view, hand_key
from tablekit.journal import Journal
from tablekit.present import SCOREBOARD, present

log = logging.getLogger(__name__)
#: What a camera answers (groups, a seen table, a cut card).
_Answer = TypeVar("_Answer")

#: The box gives a short buzz when this much of a turn is left.
TIMER_WARNING_MS = 10_000
WARNING_BUZZ_MS = 40


class Box(Protocol):
    """Where the button lights and the buzzer go (the real box, or nothing for the keyboard)."""

    def led(self, button: int, mode: str) -> None: ...

    def buzz(self, ms: int) -> None: ...


class NoBox:
    """The keyboard has no lights: LED and buzzer commands go nowhere."""

    def led(self, button: int, mode: str) -> None:
        pass

    def buzz(self, ms: int) -> None:
        pass


@dataclass
class Devices:
    """What the screen says about the box link and the camera."""

    link: DeviceHealth = field(default_factory=DeviceHealth)
    camera: DeviceHealth = field(default_factory=DeviceHealth)


def fallback_health(what: str) -> DeviceHealth:
    """A device's health while ``what`` stands in for it (the keyboard, a photo folder)."""
    return DeviceHealth(HEALTH_FALLBACK, what)


def _as_journaled(journal: Journal, game_id: int) -> tuple[GameState, list[Effect]]:
    """The game as its journal holds it, and what its last event still owes: the effects
    that ask for an input (a zone or cut to read, whose answer may not have been journaled)
    and the button lights (which the box may have lost)."""
    state = new_game(journal.game(game_id))
    effects: list[Effect] = []
    for event in journal.events(game_id):
        state, effects = apply(state, event)
    return state, [e for e in effects if isinstance(e, ReadZone | ReadTable | ReadCut | SetLed)]


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
        #: The table time of the latest event journaled this run: a button edge the box
        #: stamped earlier (``box_input.BoxClock``) is placed no earlier than it.
        self.last_event_ms = 0
        #: How many events this table journaled (the shell tells from it that the journal
        #: takes events again after it could not).
        self.journaled = 0
        self.on_view = on_view
        self.screen = ""  # a screen the players asked for with MENU (the scoreboard)
        self.effects: list[Effect] = []  # every effect performed, for tests and reports
        #: Where the box's MENU and OK are, once its HELLO said (None: the keyboard's numbering).
        self.layout: ButtonLayout | None = None
        self.corrections = Corrections()
        self._queue: deque[Event] = deque()
        self._redo: list[Effect] = []
        self._warned: tuple[int, int] | None = None
        self._warning: tuple[str, int, bool] | None = None  # a line for the players, until when, urgent
        #: A hand the players are entering because the camera read none (no event: a copy is
        #: kept beside the journal, see ``entry``).
        self._entry: pad.Entry | None = None
        self._entry_why = ""
        self._draft_kept = True  # the journal's copy of the entry and the call panel is their latest
        self._taken_back: pad.Entry | None = None  # an entry taken back on resuming, not yet said
        self._entry_presses: dict[int, int] = {}  # seat -> when its button went down
        #: The call panel, while a seat is making a call at the table (no event: a copy is
        #: kept beside the journal, see ``calls``).
        self._calls: call_panel.CallPanel | None = None
        #: The most bytes the journal's photos may take (None: ``$TABLEKIT_PHOTO_BUDGET_MB``).
        self.photo_budget: int | None = None
        #: The club's page for this table, shown on the play screen as a QR code ("" none).
        self.club_page = ""
        self._photos: list[tuple[Event, bytes]] = []  # readings queued with their photo
        self._held_at: int | None = None  # the table's time, standing still (see hold_time)
        self._held_ms = 0  # how long the table's time has stood still in all

    # --- starting and resuming ----------------------------------------------------------

    @classmethod
    def start(cls, journal: Journal, game: Game, clock: Clock, *, camera: Camera,
              box: Box | None = None, rng: random.Random | None = None,
              devices: Devices | None = None,
              on_view: Callable[[ViewModel], None] | None = None) -> Table:
        game_id = journal.new_game(game, wall_ms())
        return cls(journal, game_id, new_game(game), clock, camera=camera, box=box, rng=rng,
                   devices=devices, on_view=on_view)

    @classmethod
    def resume(cls, journal: Journal, game_id: int, clock: Clock, *, camera: Camera,
               box: Box | None = None, rng: random.Random | None = None,
               devices: Devices | None = None,
               on_view: Callable[[ViewModel], None] | None = None) -> Table:
        """The game exactly as its journal left it.

        Effects already performed are not performed again, except those of the last event
        that ask for an input (a zone or cut to read) — the crash may have come before their
        answer was journaled — and the button lights, which the box may have lost.
        """
        state, owed = _as_journaled(journal, game_id)
        journal.settle(game_id, state)  # a summary an older kit left behind its events
        table = cls(journal, game_id, state, clock, camera=camera, box=box, rng=rng,
                    devices=devices, on_view=on_view)
        table._redo = owed
        table.last_event_ms = journal.last_time(game_id)
        table._take_back_draft()
        return table

    # --- what the players are entering by hand, kept across a power cut ------------------------

    @property
    def entry(self) -> pad.Entry | None:
        """The hand the players are entering (None: none). Each change is kept beside the
        journal (``Journal.keep_draft``), so a power cut loses none of what was entered."""
        return self._entry

    @entry.setter
    def entry(self, entry: pad.Entry | None) -> None:
        if entry == self._entry and self._draft_kept:
            return
        self._entry = entry
        self._keep_draft()

    @property
    def calls(self) -> call_panel.CallPanel | None:
        """The call panel, while a seat is making a call (None: closed). Kept beside the
        journal like the entry, so a power cut loses none of a call being typed."""
        return self._calls

    @calls.setter
    def calls(self, panel: call_panel.CallPanel | None) -> None:
        if panel == self._calls and self._draft_kept:
            return
        self._calls = panel
        self._keep_draft()

    def _keep_draft(self) -> None:
        """Keep the entry and the call panel as they are now beside the journal (with the
        game's last event). A journal that cannot take them (a full disk) never stops either:
        it is said once."""
        entry, panel = self._entry, self._calls
        kept: dict[str, object] = {}
        if entry is not None:
            kept.update(entry=pad.entry_record(entry), why=self._entry_why)
        if panel is not None:
            kept["calls"] = call_panel.panel_record(panel)
        body = json.dumps(kept, separators=(",", ":")) if kept else None
        try:
            self.journal.keep_draft(self.game_id, body)
        except TablekitError as exc:
            if self._draft_kept:
                log.warning("what is being entered cannot be kept in the journal (%s): "
                            "a power cut now would lose it", exc)
            self._draft_kept = False
            return
        self._draft_kept = True

    def _take_back_draft(self) -> None:
        """On resuming: the entry kept beside the journal, where the show still asks for it,
        and the call panel, where play is still on."""
        try:
            kept = self.journal.draft(self.game_id)
        except TablekitError as exc:
            log.warning("what was being entered cannot be read back (%s): it is entered again", exc)
            return
        if not isinstance(kept, dict):
            return
        self._calls = call_panel.panel_from_record(self.state, kept.get("calls"))
        if self._calls is not None:
            log.info("seat %d's call, being made when the table stopped, is back as it was",
                     self._calls.seat + 1)
        entry = pad.entry_from_record(self.state, kept.get("entry"))
        if entry is None:
            return
        why = kept.get("why")
        self._entry_why = why if isinstance(why, str) and len(why) <= 200 else ""
        self._entry = entry
        self._taken_back = entry
        log.info("seat %d's hand, being entered when the table stopped, is back as it was", entry.seat + 1)

    def recover(self) -> None:
        """After the journal could not take an event (a full disk, say: ``post`` raised its
        ``JournalError``), go on from the game as journaled: what its last event still owes is
        performed anew, as on :meth:`resume` (a reading whose answer was not journaled is
        taken again; the lights set again). Raises the ``JournalError`` again when what it
        performs cannot be journaled either."""
        state, owed = _as_journaled(self.journal, self.game_id)
        if state != self.state:  # never so: an event is adopted only once journaled
            log.warning("the table went on from its journal, which differed from it")
            self.state = state
        self._redo = owed
        self.catch_up()

    def catch_up(self) -> None:
        """Perform what a resumed game still owes (see :meth:`resume`)."""
        redo, self._redo = self._redo, []
        for effect in redo:
            self._perform(effect)
        while self._queue:
            self._apply(self._queue.popleft())
        taken, self._taken_back = self._taken_back, None
        if taken is not None and self._entry is not None and self._entry.seat == taken.seat:
            # said once the camera was asked again (had it read the hand, that would be shown)
            name = self.state.game.seats[taken.seat].name
            self.warn(f"what was entered for {name}'s hand before the table stopped is back", ms=10_000)

    @property
    def over(self) -> bool:
        return self.state.phase == "game-over"

    # --- events -------------------------------------------------------------------------

    def post(self, event: Event) -> None:
        """Journal and apply ``event`` and everything its effects bring in.

        When the journal cannot take an event (a full disk, say) its ``JournalError`` comes
        out of here: that event and the ones it would have brought in have not happened, and
        the table stands as it was after the last event journaled.
        """
        self._queue.append(event)
        try:
            while self._queue:
                self._apply(self._queue.popleft())
        except BaseException:
            self._queue.clear()
            raise
        finally:
            self._photos.clear()

    def _apply(self, event: Event) -> None:
        try:  # what the journal could not read back never enters it (a reading of too many seats)
            check_event(event, self.state.game.players)
        except RecordError as exc:
            log.warning("ignored: %s", exc)
            return
        new, effects = apply(self.state, event)
        if new is self.state and not effects:
            return  # nothing happened: not worth a journal line (most Ticks)
        # the event, with the score row of a deal it ends and the end of a game it ends
        seq = self.journal.append(self.game_id, event, new)
        self.last_event_ms = max(self.last_event_ms, getattr(event, "t_ms", 0))
        self.journaled += 1
        self.state = new  # journaled: it has happened, whatever becomes of its photo
        if self._entry is not None or self._calls is not None:
            # kept with the game's new last event, or gone with it
            if self._entry is not None and not pad.still_asked(new, self._entry):
                self._entry = None
            if self._calls is not None and new.phase != "play":
                self._calls = None
            self._keep_draft()
        self._keep_photo(event, seq)
        for effect in effects:
            self._perform(effect)

    def now(self) -> int:
        """The table's time: its clock's, less the time it stood still (:meth:`hold_time`)."""
        if self._held_at is not None:
            return self._held_at
        return self.clock.now_ms() - self._held_ms

    def hold_time(self, held: bool) -> None:
        """Stop the table's time (a question over the game, "Leave this game?": the turn
        clock stands still) or, with ``held`` False, let it run on from where it stood."""
        if held and self._held_at is None:
            self._held_at = self.now()
        elif not held and self._held_at is not None:
            self._held_ms = self.clock.now_ms() - self._held_at
            self._held_at = None

    # --- what the camera is asked -----------------------------------------------------------

    def deal_number(self, upcoming: bool = False) -> int:
        """The deal on the table (or, with ``upcoming`` or between deals, the next one)."""
        deal = self.state.deal
        if upcoming or deal is None:
            return len(self.state.history) + 1
        return deal.number

    def _turns(self) -> int:
        deal = self.state.deal
        return deal.turn_count - 1 if deal is not None else 0

    def zone_request(self, seat: int) -> ZoneRequest:
        """Read ``seat``'s zone now."""
        return ZoneRequest(seat, self.deal_number(), self._turns(), self._pieces())

    def table_request(self) -> TableRequest:
        """Read the whole table now: after a turn, or again on the turn-check screen."""
        deal = self.state.deal
        check = deal.watch.check if deal is not None and deal.watch is not None else None
        rereads = check.reads if self.state.phase == "turn-check" and check is not None else 0
        return TableRequest(self.state.game.players, self.deal_number(), self._turns(), rereads,
                            self._pieces())

    def _pieces(self) -> str:
        """What the camera should look for: the game's tiles or cards."""
        return self.state.game.variant.pieces

    def _perform(self, effect: Effect) -> None:
        self.effects.append(effect)
        if isinstance(effect, ReadZone):
            zone = self.zone_request(effect.seat)
            groups = self._ask_camera("read_zone", lambda: self.camera.read_zone(zone))
            if groups is None:
                absent = self.camera.absent
                if self.state.camera_ok and not absent:
                    self._queue.append(CameraLost(self.now()))
                self._ask_players(effect.seat, "no camera" if absent else "the camera read nothing")
            else:
                if self._entry is not None and self._entry.seat == effect.seat:
                    self.entry = None  # the camera reads the hand again (back after a restart)
                read = TableRead(effect.seat, groups, self.now())
                self._queue.append(read)
                self._take_photo(read, "zone_photo", zone)
        elif isinstance(effect, ReadTable):
            request = self.table_request()
            seen = self._ask_camera("read_table", lambda: self.camera.read_table(request))
            if seen is not None:  # no reading: this turn goes unchecked
                looked = TableSeen(seen.melds, seen.discard, seen.stock, self.now())
                self._queue.append(looked)
                self._take_photo(looked, "table_photo", request)
        elif isinstance(effect, ReadCut):
            deal = self.deal_number(upcoming=True)
            started = DealStarted(self._cut(), self.now())
            self._queue.append(started)
            self._take_photo(started, "cut_photo", deal)  # None from a camera that read no cut
        elif isinstance(effect, SetLed):
            self.box.led(effect.seat, effect.mode)
        elif isinstance(effect, Buzz):
            self.box.buzz(effect.ms)
        elif isinstance(effect, WriteScores | GameOver):
            pass  # journaled with the event that ended the deal or the game (Journal.append)

    def _ask_camera(self, what: str, ask: Callable[[], _Answer]) -> _Answer | None:
        """The camera's answer to ``ask`` (its ``what``: ``read_zone``, ``read_table``,
        ``read_cut``); None, as from a camera that read nothing, when the camera fails in a way
        it does not handle itself (a broken frame source, a recognizer fault): said in the
        log, and the game goes on without that reading."""
        try:
            return ask()
        except Exception as exc:  # a camera fault never stops the game
            log.warning("the camera failed (%s): %s: %s", what, type(exc).__name__, exc)
            return None

    def _take_photo(self, read: Event, maker_name: str, request: object) -> None:
        """The photo ``read`` was made from (the camera's ``zone_photo``, ``table_photo`` or
        ``cut_photo`` of ``request``), kept once it is journaled (:mod:`tablekit.evidence`)."""
        maker = getattr(self.camera, maker_name, None)
        if maker is None:
            return
        try:
            jpeg = maker(request)
        except Exception as exc:  # evidence never stops the game
            log.warning("no photo of the reading %s: %s", read.TYPE, exc)
            return
        if jpeg:
            self._photos.append((read, jpeg))

    def _keep_photo(self, event: Event, seq: int) -> None:
        for i, (read, jpeg) in enumerate(self._photos):
            if read is event:
                del self._photos[i]
                from tablekit.evidence import keep_photo

                keep_photo(self.journal, self.game_id, seq, jpeg, self.photo_budget)
                return

    def _cut(self) -> str:
        """The cut card: read from the table, else drawn here (the draw is journaled)."""
        if not policy_for(self.state.game).uses_wild:
            return ""
        deal = self.deal_number(upcoming=True)
        card = self._ask_camera("read_cut", lambda: self.camera.read_cut(deal))
        if card:
            try:
                return cut_text(self.state.game, card)
            except TablekitError as exc:
                # a reading the rules cannot use (a tile in a card game, a Joly, a misread):
                # as when nothing was read, it is drawn here; else each OK read it again, and
                # the deal never started
                log.warning("the cut read as %r cannot be used (%s): drawing it instead", card, exc)
        variant = self.state.game.variant
        items = [i for i in variant.full_set(variant.decks, variant.jokers)
                 if not (variant.uses_tiles and i.is_joker)]  # a Joly is never turned up as the ace
        return str(self.rng.choice(items))

    # --- inputs ---------------------------------------------------------------------------

    def button(self, button: int, pressed: bool, t_ms: int | None = None, *,
               keyboard: bool = False) -> None:
        """A button edge from the box or the keyboard. Past the seats come MENU and OK: the
        box's last two buttons once it said how many it has (``layout``), else (and on the
        keyboard mapper) the two numbers after the seats."""
        t = self.now() if t_ms is None else t_ms
        players = self.state.game.players
        layout = self.layout if self.layout is not None and not keyboard else ButtonLayout.keyboard(players)
        control = layout.control(button)
        if control == "menu":
            if pressed:
                self.menu_pressed(t)
        elif control == "ok":
            if pressed:
                self.ok_pressed(t)
        elif 0 <= button < players:
            if self._entry_seat(button, pressed, t):
                return
            reading = self.reading()
            if self.corrections.selecting_card(reading):
                self.corrections.seat(button, pressed, t, self.state.game.variant.uses_tiles)
                return
            call = "" if pressed else is_window_call_press(self.state, button, t)
            if call:
                # a long press in the opening window is the family's call (tile rummy: the ace)
                self.post(Called(button, call, (), t))
                return
            if not pressed and is_claim_press(self.state, button, t):
                # a short press out of turn claims the upcard ("May I", a buy, a call)
                self.post(ClaimMade(button, t))
                return
            self.post(ButtonPressed(button, t) if pressed else ButtonReleased(button, t))

    def call(self, seat: int, call: str, cards: Groups = (), t_ms: int | None = None) -> None:
        """``seat`` calls something its family's rules answer (tile rummy: ``double`` with
        the pair, ``ace``, ``meld`` with the groups laid), typed or touched at the table; the
        engine answers it or refuses it with the reason, and either way it is journaled."""
        if 0 <= seat < self.state.game.players:
            self.post(Called(seat, call, cards, self.now() if t_ms is None else t_ms))

    # --- the call panel (see tablekit.call_panel) -------------------------------------------

    def open_calls(self, seat: int | None = None) -> bool:
        """Open the call panel (K, or the play screen's "Calls"): False when the game has no
        calls or is not in play."""
        self.calls = call_panel.open_panel(self.state, seat)
        return self.calls is not None

    def calling(self) -> call_panel.CallPanel | None:
        """The call panel, while play goes on (it goes with play)."""
        if self.calls is not None and self.state.phase != "play":
            self.calls = None
        return self.calls

    def make_call(self) -> None:
        """The panel's call, posted: the rules take it (the tiles entered are cleared) or
        refuse it; the panel says which, with the rules' words."""
        panel = self.calling()
        if panel is None:
            return
        hand = pad.draft_typed(panel.hand, True)
        if hand.problem:
            self.calls = dataclasses.replace(panel, hand=hand, said=hand.problem, refused=True)
            return
        names_tiles = call_panel.LABELS.get(panel.call, ("", True))[1]
        tiles = hand.groups if names_tiles or hand.groups else ()
        seen = len(self.effects)
        # closed while its call goes to the journal, so that a power cut just after it brings
        # back no panel to make the call a second time (the call, journaled, is the game's)
        self._calls = None
        try:
            self.call(panel.seat, panel.call, tiles)
        except BaseException:
            self._calls = panel  # not journaled: the panel stays as it was, to call again
            raise
        refused = any(isinstance(e, Buzz) for e in self.effects[seen:])
        self.calls = dataclasses.replace(panel, hand=hand if refused else pad.new_draft((), hand.tiles),
                                         said=self.state.notice, refused=refused)

    def calls_key(self, name: str, text: str) -> bool:
        """A key while the panel is open (all keys are the panel's): True."""
        panel = self.calling()
        if panel is None:
            return False
        if name in ("left", "right"):
            self.calls = call_panel.step_seat(self.state, panel, -1 if name == "left" else 1)
        elif name in ("up", "down", "tab"):
            self.calls = call_panel.step_call(self.state, panel, -1 if name == "up" else 1)
        elif name in ("return", "enter"):
            self.make_call()
        elif name == "escape":
            if panel.hand.typed is not None:
                self.calls = dataclasses.replace(panel, hand=pad.draft_typed(panel.hand, False))
            else:
                self.calls = None
        elif name == "backspace":
            self.calls = dataclasses.replace(panel, hand=pad.draft_erase(panel.hand))
        elif text:
            self.calls = dataclasses.replace(panel, hand=pad.draft_type(panel.hand, text))
        return True

    def calls_tap(self, target: str) -> bool:
        """A tap on the panel (``call:…``, or a tile key ``pad:…``): True when it was the
        panel's; ``call:open`` on the play screen opens it."""
        if target == "call:open":
            return self.open_calls()
        panel = self.calling()
        if panel is None:
            return False
        parts = target.split(":")
        if target == "call:close":
            self.calls = None
        elif target == "call:make":
            self.make_call()
        elif len(parts) == 3 and parts[:2] == ["call", "seat"] and parts[2].isascii() and parts[2].isdigit():
            seat = int(parts[2])
            if 0 <= seat < self.state.game.players:
                self.calls = dataclasses.replace(panel, seat=seat, said="", refused=False)
        elif len(parts) == 3 and parts[:2] == ["call", "what"] \
                and parts[2] in call_panel.family_calls(self.state.game):
            self.calls = dataclasses.replace(panel, call=parts[2], said="", refused=False)
        else:
            change = hand_key(target)
            if change is None:
                return target.startswith("call:")
            self.calls = dataclasses.replace(panel, hand=change(panel.hand))
        return True

    def menu_pressed(self, t_ms: int) -> None:
        """MENU: on a verdict it moves the selection (read again, then each card); in play,
        the engine's menu; after a deal it flips to the scoreboard and back."""
        entry = self.entering()
        if entry is not None and entry.stage != pad.BLOCKED:
            self.entry = pad.step_back(entry)
            return
        self.entry = None  # a hand the game cannot take entered: MENU reads it again
        reading = self.reading()
        if reading is not None:
            self.corrections.next_pick(reading)
            return
        before = self.state
        self.post(MenuPressed(t_ms))
        if self.state is before and self.state.phase in ("deal-over", "game-over"):
            self.screen = "" if self.screen == SCOREBOARD else SCOREBOARD

    def ok_pressed(self, t_ms: int) -> None:
        """OK: with a selection on a verdict, its correction (or reading again); else the
        engine's OK (after a lost camera, the players saying it is back). On the scorepad it
        ends the entry; OK on a hand whose reading cannot be counted opens the scorepad."""
        entry = self.entering()
        if entry is not None:
            self._ok_entry(entry)
            return
        reading = self.reading()
        if self.corrections.picked(reading) is not None:
            event = self.corrections.ok(reading, t_ms)
            if event is not None:
                self.post(event)
            return
        if not self.state.camera_ok:
            # the players say the camera is back (there is no other way to know)
            self.post(CameraRestored(t_ms))
        self.post(Confirm(t_ms))
        show = self.state.show
        if reading is not None and reading.problem and show is not None \
                and show.stage == "hand-check" and show.current is reading:
            # OK refused on a hand that cannot be counted: the players may enter it instead
            self._ask_players(reading.seat, "the reading cannot be counted")

    # --- the scorepad: hands the players enter (see engine.game.scorepad) -------------------

    def _ask_players(self, seat: int, why: str) -> None:
        """The camera gave nothing to count for ``seat``: the players enter it."""
        asked = pad.wanted(self.state)
        if asked is None or asked[0] != seat:
            return
        self._entry_why = why
        if self._entry is not None and pad.still_asked(self.state, self._entry):
            self._keep_draft()  # already being entered (taken back after a power cut): kept
        else:
            self.entry = pad.open_entry(self.state)
        self._entry_presses = {}
        self.corrections.cursor = None

    def pad_tap(self, step: int) -> None:
        """A tap on the scorepad's -1, +1 or +10 (or on a verdict, which flips it)."""
        entry = self.entering()
        if entry is not None:
            self.entry = pad.nudge(entry, step)

    def pad_key(self, target: str) -> bool:
        """A tap on a key of the scorepad's cards (``pad:rank:N``, ``pad:suit:S``,
        ``pad:remove``, ``pad:group``, a card or an "add" slot ``pad:slot:G:I``): nobody's
        change, as typing is. True when the tap was one of these."""
        entry = self.entering()
        change = hand_key(target)
        if change is None:
            return False
        if entry is not None:
            self.entry = pad.edit(entry, change)
        return True

    def entering(self) -> pad.Entry | None:
        """The scorepad entry, while it is the one the show asks for (else it is dropped)."""
        entry = self.entry
        if entry is not None and not pad.still_asked(self.state, entry):
            self.entry = entry = None
        return entry

    def _entry_seat(self, seat: int, pressed: bool, t_ms: int) -> bool:
        """A seat button's edge on the scorepad (True when it was the scorepad's): a press
        and release steps the entry, or, once it waits, confirms it."""
        entry = self.entering()
        if entry is None:
            return False
        if pressed:
            self._entry_presses[seat] = t_ms
            return True
        since = self._entry_presses.pop(seat, None)
        if since is None:
            return False  # held since before the scorepad opened: the engine's press
        if entry.stage == pad.CONFIRMING:
            refused = pad.confirm(entry, seat)
            if refused is not None:
                self.entry = refused
                return True
            # The entry ends with the event it makes. Its copy beside the journal is not touched
            # before that: once the event is journaled it is older than the game's last event and
            # never taken back, and if the event cannot be (a power cut, a full disk) the entry
            # is still there to confirm again. Once journaled, with nothing else being entered,
            # the stale copy goes.
            self._entry = None
            journaled = self.journaled
            try:
                if entry.kind == pad.CARDS:
                    self._post_cards(entry, t_ms)
                else:
                    self.post(entry.event(seat, t_ms))
            except TablekitError:
                if self._entry is None and self.journaled == journaled:
                    self._entry = entry  # nothing of it journaled: it waits to be confirmed again
                raise
            if entry.kind != pad.CARDS and self.entering() is None \
                    and pad.wanted(self.state) == (entry.seat, entry.kind):
                # the engine refused it after all: the entry stays, saying why
                self.entry = dataclasses.replace(entry, stage=pad.ENTERING, problem=self.state.notice)
            elif self._entry is None and self._calls is None:
                self._keep_draft()
            return True
        self.entry = pad.press(entry, seat, t_ms - since)
        return True

    def _post_cards(self, entry: pad.Entry, t_ms: int) -> None:
        """Confirmed cards: posted as the camera's reading of the zone would be, then the OK
        that takes it, so the engine judges and scores them as it would a reading."""
        self.post(entry.reading(t_ms))
        reading = self.reading()
        if reading is None or reading.seat != entry.seat or entry.hand is None \
                or reading.groups != entry.hand.groups:
            return  # the engine did not take it as the hand asked for
        if reading.problem:  # cannot happen after the draft's own check; said, never lost
            self.entry = dataclasses.replace(entry, stage=pad.ENTERING,
                                             problem=f"this hand cannot be counted: {reading.problem}")
            return
        if not self.state.camera_ok:
            self.post(CameraRestored(t_ms))  # as OK says on a hand after a lost camera
        self.post(Confirm(t_ms))

    def _ok_entry(self, entry: pad.Entry) -> None:
        if entry.stage == pad.CONFIRMING:
            self.entry = dataclasses.replace(
                entry, problem="a seat's button confirms (OK cannot say whose it is)")
        else:
            self.entry = pad.finish(entry, self.state)

    def link(self, up: bool) -> None:
        self.post(LinkRestored(self.now()) if up else LinkLost(self.now()))

    def camera_health(self, up: bool) -> None:
        self.post(CameraRestored(self.now()) if up else CameraLost(self.now()))

    def tick(self) -> None:
        now = self.now()
        self.post(Tick(now))
        deal = self.state.deal
        if self.state.phase == "play" and deal is not None and deal.deadline_ms is not None:
            turn = (deal.number, deal.turn_count)
            if deal.deadline_ms - now <= TIMER_WARNING_MS and self._warned != turn:
                self._warned = turn  # once per turn; not an event: it changes nothing
                self.box.buzz(WARNING_BUZZ_MS)

    # --- correcting a misread card (see tablekit.corrections) ------------------------------

    def reading(self) -> HandReading | None:
        """The reading on a verdict now (the declarer's show, a hand being counted), or None."""
        show = self.state.show
        if self.state.phase != "show" or show is None:
            return None
        if show.stage == "verdict":
            return show.declaration
        return show.current if show.stage == "hand-check" else None

    @property
    def correcting(self) -> tuple[int, int] | None:
        """The card under the keyboard's cursor (group, position), or None. While a hand is
        entered on the scorepad every key is the scorepad's (digits type the count, Return
        ends it, Escape forgets what was typed): (0, 0)."""
        entry = self.entering()
        if entry is not None and entry.stage == pad.ENTERING:
            return (0, 0)
        return self.corrections.cursor

    @property
    def picking(self) -> Picking | None:
        """The box buttons' selection, while it belongs to the verdict on screen."""
        return self.corrections.picked(self.reading())

    def start_correction(self) -> bool:
        return self.corrections.start(self.reading())

    def move_selection(self, step: int) -> None:
        entry = self.entering()
        if entry is not None:
            if entry.kind == pad.CARDS:
                self.entry = pad.edit(entry, lambda d: pad.draft_move(d, step))
            elif entry.kind == pad.VERDICT:
                self.entry = pad.step_back(entry)  # the arrows flip a verdict
            return
        self.corrections.move(self.reading(), step)

    def type_card(self, text: str) -> None:
        entry = self.entering()
        if entry is not None:
            self.entry = pad.type_key(entry, text)
            return
        if text.isalnum():
            self.corrections.type(text)

    def erase_card(self) -> None:
        entry = self.entering()
        if entry is not None:
            self.entry = pad.erase(entry)
            return
        self.corrections.erase()

    def finish_correction(self, apply: bool) -> None:
        entry = self.entering()
        if entry is not None:
            self.entry = pad.finish(entry, self.state) if apply else pad.finish_typing(entry, False)
            return
        event = self.corrections.finish(self.reading(), apply, self.now())
        if event is not None:
            self.post(event)

    # --- screen ---------------------------------------------------------------------------

    def warn(self, text: str, ms: int = 30_000, *, urgent: bool = False) -> None:
        """Tell the players ``text`` (a warning line over the screen) for the next ``ms``:
        when no other line is up, or over any other line when ``urgent``."""
        self._warning = (text, self.now() + ms, urgent)

    def view(self) -> ViewModel:
        """What the screen shows now, with the standing warning when no other line is up
        (over any, when it is urgent)."""
        view = self._view()
        if self._warning is not None:
            text, until, urgent = self._warning
            if self.now() >= until:
                self._warning = None
            elif (urgent and hasattr(view, "toast")) or getattr(view, "toast", LEVEL_WARNING) is None:
                view = dataclasses.replace(view, toast=Toast(text, LEVEL_WARNING))
        return view

    def _view(self) -> ViewModel:
        if self.state.phase not in ("deal-over", "game-over"):
            self.screen = ""
        panel = self.calling()
        if panel is not None:
            return call_panel.view(self.state, panel, self.now())
        view = self._game_view()
        if isinstance(view, PlayView) and call_panel.family_calls(self.state.game):
            view = dataclasses.replace(view, calls="Calls")
        if isinstance(view, PlayView) and self.club_page:
            view = dataclasses.replace(view, club_url=self.club_page)
        return view

    def _game_view(self) -> ViewModel:
        entry = self.entering()
        if entry is not None and entry.kind == pad.CARDS:
            return cards_view(self.state, entry, self._entry_why)
        if entry is not None:
            return present(self.state, self.now(), link=self.devices.link, camera=self.devices.camera,
                           entry=entry, entry_why=self._entry_why)
        reading = self.reading()
        if reading is None:
            self.corrections.cursor = None
        picking = self.corrections.picked(reading)
        if picking is not None and picking.cell is not None:
            owner = self.state.game.seats[picking.seat].name
            suit = "colour" if self.state.game.variant.uses_tiles else "suit"
            note = ("remove this card" if not picking.card else
                    "as read" if not picking.changed else "")
            return present(self.state, self.now(), link=self.devices.link,
                           camera=self.devices.camera, screen=self.screen,
                           table_unread=self.camera.table_unread,
                           correcting=picking.cell, proposed=picking.card, proposed_note=note,
                           prompt=f"{owner}'s button: next rank · hold it: next {suit} · "
                                  "OK: correct · MENU: next card")
        return present(self.state, self.now(), link=self.devices.link, camera=self.devices.camera,
                       screen=self.screen, table_unread=self.camera.table_unread,
                       read_again=picking is not None,
                       correcting=None if picking is not None else self.corrections.cursor,
                       proposed="" if picking is not None else self.corrections.proposed)

    def show(self, view: ViewModel) -> None:
        """Hand ``view`` to the screen (``on_view``), if there is one."""
        if self.on_view is not None:
            self.on_view(view)

    def draw(self) -> ViewModel:
        view = self.view()
        self.show(view)
        return view
