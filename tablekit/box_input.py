"""Button edges and link changes to the table: the one place a bridge event becomes a table input.

``tablekit run`` (a box on USB, the keyboard) and ``tablekit demo`` (the simulated box, scripted
keys) both hand what ``firmware_bridge`` delivers to :class:`tablekit.table.Table` through these
functions, so a press means the same thing whichever way it came:

- a box event: a button edge goes to ``Table.button`` at the table time the box's own stamp
  places it (:class:`BoxClock`; the table's clock when it arrives where nothing places it);
  a link "up" first tells the table where the box's MENU and OK are (its last two
  buttons, from the box's HELLO: ``firmware_bridge.layout``), then ``Table.link``;
- a keyboard event: the keyboard mapper numbers MENU and OK right after the seats, which
  ``Table.button(..., keyboard=True)`` knows.

:class:`BoxLink` is the real box as ``tablekit run`` uses it: its events, its button count,
its lights and buzzer, and its health. A box that loses presses says so only by the count of
frames it dropped, in its HEARTBEAT; ``BoxLink.pending`` hands a :class:`BoxDropped` along
with the events whenever that count grows, and ``hand_to_table`` makes it a warning on the
table's box icon ("… presses may be lost"), so a saturated or noisy line is never silent.

A seat's button **held while OK is pressed** is that seat's call in the games that have calls
(:func:`chord_call`): Telefunken's chip for an exact cut, Dummy Rummy's goal (and, with its
floating discard, the discard called out or the last card played), King Rummy's joker taken at
once, American Jokers' upcard, Push's push. The table asks the call panel which of the game's
calls the rules take now (:func:`tablekit.call_panel.box_call`) and posts it as a ``call``
event, journaled whether taken or refused; letting the seat's button go afterwards does
nothing more (the press became the call). Everywhere else OK means what it always does.

Before the box's HELLO the button count is unknown, and so are MENU and OK: a box button
that comes then is never taken for either (only a seat button that is a seat whatever the
box's size reaches the table). The bridge itself holds a box's events until its HELLO, so
this is a second fence, for any other source of box events.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from display.viewmodel import HEALTH_FALLBACK, HEALTH_OK, DeviceHealth
from firmware_bridge import BoxEvent, ButtonBox, ButtonEvent, LinkEvent
from firmware_bridge.layout import ButtonLayout
from tablekit.call_panel import box_call

if TYPE_CHECKING:
    from tablekit.table import Table

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BoxDropped:
    """The box has dropped ``dropped`` frames since the table started using it (the sum over
    its restarts): events it gave up re-sending or had no room for, and damaged frames."""

    dropped: int
    type: str = "dropped"


def dropped_health(dropped: int) -> DeviceHealth:
    """How the table shows the box's dropped count: a warning once it is above zero."""
    if dropped <= 0:
        return DeviceHealth(HEALTH_OK, "")
    frames = "frame" if dropped == 1 else "frames"
    return DeviceHealth(HEALTH_FALLBACK,
                        f"button box dropped {dropped} {frames}: presses may be lost (check the cable)")


#: How fast the offset between the box's clock and the table's may rise between readings (ms
#: a ms): far more than two crystals drift apart (well under 0.1%), far less than a delay.
CLOCK_CREEP = 0.001
#: A stamp this much older (ms) than the offset says is a box that began counting again
#: unnoticed, or a long stall: the clocks are matched anew.
CLOCK_RESYNC_MS = 5000


class BoxClock:
    """The box's own press and release times (``ButtonEvent.t_ms``, its uptime) as table
    time: the serial contract has the host decide what a press means from the press and
    release times, not from when their frames happen to arrive (a press frame re-sent 100 ms
    late, presses held back until a HELLO and arriving together).

    The two clocks differ by an offset: each event's arrival less its stamp is that offset
    plus the event's delay, so the offset is the least of those since the link came up
    (over all the events that arrived together, before any of them is placed), let rise by
    ``CLOCK_CREEP`` so that it follows the crystals' drift. An event is placed at its stamp
    plus the offset, never later than now and never before the event placed last."""

    def __init__(self) -> None:
        self._offset: float | None = None
        self._set_at = 0
        self._last: int | None = None

    def reset(self) -> None:
        """The link went down or came up: the box may count from zero again."""
        self._offset, self._last = None, None

    def place(self, stamps: list[int], now: int) -> list[int]:
        """Table times for the stamps of events that arrived together, at table time ``now``."""
        if not stamps:
            return []
        seen = min(now - t for t in stamps)
        if self._offset is None:
            self._offset = float(seen)
        else:
            allowed = self._offset + CLOCK_CREEP * max(0, now - self._set_at)
            self._offset = float(seen) if seen > allowed + CLOCK_RESYNC_MS else min(float(seen), allowed)
        self._set_at = now
        out = []
        for t in stamps:
            at = min(now, round(t + self._offset))
            at = at if self._last is None else max(at, self._last)
            self._last = at
            out.append(at)
        return out


#: How often (seconds) a table that started without its button box looks for one again.
LOOK_EVERY_S = 2.0


class BoxLink:
    """The button box on a serial port, as the table uses it: events waiting now, where its
    MENU and OK are (from its HELLO), and the lights and buzzer the table drives.

    A link made by :meth:`searching` starts with no box: it looks for one (``find``) every
    ``every_s`` seconds while its events are asked for, and opens the first found (a box
    plugged in after the table started, or not yet enumerated at boot), then calls
    ``on_found`` with its URL. Until then it has no events and no buttons, and remembers the
    lights the table sets, which the box is given as it opens (and again, by the bridge, at
    its HELLO)."""

    def __init__(self, box: ButtonBox | None, *, find: Callable[[], str | None] | None = None,
                 open_box: Callable[[str], ButtonBox] | None = None, every_s: float = LOOK_EVERY_S,
                 clock: Callable[[], float] = time.monotonic,
                 on_found: Callable[[str], None] | None = None) -> None:
        self.box = box
        self._find = find
        self._open_box = open_box or (lambda url: ButtonBox(url).start())
        self._every_s = every_s
        self._now = clock
        self._looked: float | None = None
        self._on_found = on_found
        self._lights: dict[int, str] = {}  # set while no box was there
        self._dropped_before = 0  # dropped in the box's earlier runs (its count restarts)
        self._last_count = 0  # the box's own count, as last seen
        self._reported = 0
        self.clock = BoxClock()

    @classmethod
    def searching(cls, find: Callable[[], str | None], **kwargs: Any) -> BoxLink:
        """A link with no box yet, which looks for one with ``find`` (a port's URL, or None)."""
        return cls(None, find=find, **kwargs)

    @property
    def link_up(self) -> bool:
        """Whether a box is there and its link is up (it said HELLO and is heard from)."""
        return self.box is not None and self.box.link_up

    @property
    def dropped(self) -> int:
        """Frames the box dropped since this link was made, across restarts of the box."""
        if self.box is None:
            return 0
        count = self.box.box_dropped
        if count < self._last_count:  # the box restarted: its count began again
            self._dropped_before += self._last_count
        self._last_count = count
        return self._dropped_before + count

    def health(self) -> DeviceHealth:
        """The link's health as the table shows it, with the dropped count as a warning."""
        return dropped_health(self.dropped)

    @property
    def buttons(self) -> int | None:
        """How many buttons the box's HELLO named (None before any HELLO, or any box)."""
        return self.box.buttons if self.box is not None else None

    @property
    def layout(self) -> ButtonLayout | None:
        """Where its MENU and OK are (None before any HELLO)."""
        buttons = self.buttons
        return ButtonLayout.of_box(buttons) if buttons is not None else None

    def _look(self) -> None:
        """Look for a box when it is time to (a searching link with none yet), and open the
        one found."""
        if self.box is not None or self._find is None:
            return
        now = self._now()
        if self._looked is not None and now - self._looked < self._every_s:
            return
        self._looked = now
        try:
            url = self._find()
            if url is None:
                return
            box = self._open_box(url)
        except Exception as exc:  # a port that fails as it appears: looked for again later
            log.info("a button box was seen but could not be opened: %s", exc)
            return
        self.box = box
        for button, mode in sorted(self._lights.items()):
            box.led(button, mode)
        log.info("button box found on %s", url)
        if self._on_found is not None:
            self._on_found(url)

    def pending(self) -> Iterator[BoxEvent | BoxDropped]:
        """The events that have arrived, without waiting; then a :class:`BoxDropped` if the
        box's dropped count grew since the last one (a searching link looks for its box first)."""
        self._look()
        if self.box is None:
            return
        while (event := self.box.get_event(timeout=0)) is not None:
            yield event
        dropped = self.dropped
        if dropped != self._reported:
            if dropped > self._reported:
                log.warning("the button box dropped %d frames in all", dropped)
            self._reported = dropped
            yield BoxDropped(dropped)

    def pending_at(self, now: int) -> list[tuple[BoxEvent | BoxDropped, int | None]]:
        """``pending``'s events, each button event with the table time it happened at (its
        stamp placed by ``clock``; the others with None): table time ``now``."""
        events = list(self.pending())
        out: list[tuple[BoxEvent | BoxDropped, int | None]] = []
        run: list[ButtonEvent] = []

        def flush() -> None:
            out.extend(zip(run, self.clock.place([e.t_ms for e in run], now), strict=True))
            run.clear()

        for event in events:
            if isinstance(event, ButtonEvent):
                run.append(event)
                continue
            flush()
            if isinstance(event, LinkEvent):
                self.clock.reset()
            out.append((event, None))
        flush()
        return out

    def led(self, button: int, mode: str) -> None:
        if self.box is None:
            self._lights[button] = mode
        else:
            self.box.led(button, mode)

    def buzz(self, ms: int) -> None:
        if self.box is not None:
            self.box.buzz(ms)

    def close(self) -> None:
        if self.box is not None:
            self.box.close()


def tell_buttons(table: Table, buttons: int) -> None:
    """The box said it has ``buttons`` buttons: its last two are MENU and OK (with fewer
    than two, the table keeps the keyboard's numbering)."""
    table.layout = ButtonLayout.of_box(buttons)


def hand_to_table(table: Table, event: BoxEvent | BoxDropped, buttons: int | None,
                  at: int | None = None) -> None:
    """One event from the box to the table; ``buttons``: how many the box's HELLO named
    (None before a HELLO, when a link "up" cannot say where MENU and OK are); ``at``: the
    table time a button event happened at (``BoxLink.pending_at``; None: now)."""
    if isinstance(event, BoxDropped):
        table.devices.link = dropped_health(event.dropped)
    elif isinstance(event, LinkEvent):
        up = event.state == "up"
        if up and buttons:
            tell_buttons(table, buttons)
        table.link(up)
    elif buttons is None and table.layout is None and not _seat_on_any_box(table, event.button):
        # MENU and OK are the box's last two buttons: before its HELLO nobody knows which
        log.info("box button %d before the box said its size: ignored", event.button)
    else:  # a stamped edge is placed no earlier than what the table has journaled since
        if buttons and table.layout is None:
            # a table started on a link already up (a rematch, a game chosen on the setup
            # screen) saw no "up": the box's size is known all the same, and its MENU and OK
            # are its last two buttons, not the keyboard's (seats, seats + 1)
            tell_buttons(table, buttons)
        t = table.now() if at is None else min(table.now(), max(at, table.last_event_ms))
        if not chord_call(table, event.button, event.event == "press", t, keyboard=False):
            table.button(event.button, event.event == "press", t)


def _seat_on_any_box(table: Table, button: int) -> bool:
    """A seat at this table whatever the box's size: a box with a button for each of the
    table's seats has its MENU and OK after them."""
    return 0 <= button < table.state.game.players


def key_to_table(table: Table, event: ButtonEvent | None, t_ms: int) -> None:
    """A key's edge from the keyboard mapper (None: a key that is no button) at table time ``t_ms``."""
    if event is not None and not chord_call(table, event.button, event.event == "press", t_ms, keyboard=True):
        table.button(event.button, event.event == "press", t_ms, keyboard=True)


def held_seat(table: Table) -> int | None:
    """The seat whose button is held down in play (the latest pressed, if several)."""
    state = table.state
    if state.phase != "play":
        return None
    held = [(since, seat) for seat, since in enumerate(state.pressed_at) if since is not None]
    return max(held)[1] if held else None


def chord_call(table: Table, button: int, pressed: bool, t_ms: int, *, keyboard: bool) -> bool:
    """OK pressed while a seat's button is held: that seat's call, when the game has calls
    (True: the table has it, as a ``call``); anything else is left to ``Table.button``."""
    if not pressed:
        return False
    players = table.state.game.players
    layout = table.layout if table.layout is not None and not keyboard else ButtonLayout.keyboard(players)
    if layout.control(button) != "ok":
        return False
    seat = held_seat(table)
    if seat is None:
        return False
    call = box_call(table.state, seat, t_ms)
    if not call:
        return False
    table.call(seat, call, (), t_ms)
    return True
