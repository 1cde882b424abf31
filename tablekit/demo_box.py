"""Where the demo's button presses come from: the simulated button box, or scripted keys.

``SimulatedPresses`` runs the real firmware in simavr (``firmware_bridge.VirtualBox``) behind a
pseudo-terminal and reads it with ``firmware_bridge.ButtonBox``, as ``tablekit run`` reads a
real box. Each scripted press becomes a button pin held low for the scripted time (a long
press is really long on the box); the firmware debounces it and sends BUTTON frames, the bridge
acknowledges and de-duplicates them, and the table gets the events the bridge delivers. The
seat lights and the buzzer go back the other way. A scripted lost link pulls the plug (the
simulator is killed and its port name disappears) and later plugs a fresh box in.

The table's clock stays the script's. A box event is stamped with the table's clock when it
arrives, as ``tablekit run`` stamps it, and here that clock reads the action's scripted time,
so the journal is the same event for event whichever way the presses came.

``KeyPresses`` types the same presses on the keyboard mapper: the fallback when the simulator
or the AVR toolchain is missing, and from the moment the simulated box stops answering in the
middle of a game. Every wait on the simulator has a deadline.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engine.errors import TablekitError
from firmware_bridge import (
    ButtonBox,
    ButtonEvent,
    KeyboardButtons,
    LinkError,
    LinkEvent,
    default_keymap,
)
from firmware_bridge.virtual import VirtualBox, build
from tablekit.box_input import hand_to_table, key_to_table, tell_buttons
from tablekit.table import fallback_health

if TYPE_CHECKING:
    from tablekit.clock import ManualClock
    from tablekit.table import Table

log = logging.getLogger(__name__)

SIM = "simulated box"
KEYS = "scripted keys"
BOX_CHOICES = ("auto", "sim", "keys")
#: MENU and OK are tapped: twice the firmware's 20 ms debounce.
TAP_MS = 40


class BoxUnavailable(TablekitError, OSError):
    """The simulated button box cannot run here (no toolchain, no simulator, no answer)."""


class BoxStopped(LinkError):
    """The simulated box stopped answering in the middle of a game."""


class Presses(Protocol):
    """What the demo's player needs: seat edges, MENU/OK taps, the link; lights back."""

    input: str
    health: str
    why: str  # why these presses are used (keys: what kept the simulated box away)

    @property
    def real_holds(self) -> bool: ...

    def attach(self, table: Table, clock: ManualClock | None = None,
               draw: Callable[[], object] | None = None) -> None: ...

    def seat(self, seat: int, down: bool, t: int) -> None: ...

    def hold(self, seat: int, until_t: int) -> None: ...

    def control(self, name: str, t: int) -> None: ...

    def link(self, up: bool, t: int) -> None: ...

    def led(self, button: int, mode: str) -> None: ...

    def buzz(self, ms: int) -> None: ...

    def report(self) -> dict[str, Any]: ...

    def close(self) -> None: ...


class KeyPresses:
    """The script's presses on the keyboard mapper of ``firmware_bridge`` (no lights)."""

    input = KEYS
    health = "scripted keys instead of the button box"
    real_holds = False  # a release comes at once, whatever the scripted hold

    def __init__(self, why: str = "") -> None:
        self.why = why
        self.table: Table | None = None
        self.keys = KeyboardButtons({})
        self.seat_keys: dict[int, str] = {}

    def attach(self, table: Table, clock: ManualClock | None = None,
               draw: Callable[[], object] | None = None) -> None:
        self.table = table
        players = table.state.game.players
        self.keys = KeyboardButtons(default_keymap(players))
        self.seat_keys = {s: str(s + 1) for s in range(players)}
        # a resumed game (or a box that failed mid-press) may have a button held down
        for seat, since in enumerate(table.state.pressed_at):
            if since is not None:
                self.keys.key_down(self.seat_keys[seat], since)

    def _on(self) -> Table:
        assert self.table is not None, "attach() the table first"
        return self.table

    def _key(self, name: str, down: bool, t: int) -> None:
        key_to_table(self._on(), self.keys.key_down(name, t) if down else self.keys.key_up(name, t), t)

    def seat(self, seat: int, down: bool, t: int) -> None:
        self._key(self.seat_keys[seat], down, t)

    def hold(self, seat: int, until_t: int) -> None:
        pass  # a key needs no time to be held: its release carries the scripted time

    def control(self, name: str, t: int) -> None:
        key = "return" if name == "ok" else "m"
        self._key(key, True, t)
        self._key(key, False, t)

    def link(self, up: bool, t: int) -> None:
        hand_to_table(self._on(), LinkEvent("up" if up else "down"), None)

    def led(self, button: int, mode: str) -> None:
        pass

    def buzz(self, ms: int) -> None:
        pass

    def report(self) -> dict[str, Any]:
        return {"input": KEYS, "why": self.why}

    def close(self) -> None:
        pass


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else text.strip()


class SimulatedPresses:
    """The script's presses as pin presses on the real firmware in simavr, read through the bridge.

    ``timeout``: seconds to wait for any one answer of the simulated box (an edge, a link
    change, simulated time passing) before giving up on it and typing the rest on keys.
    """

    input = SIM
    health = "simulated button box: the firmware in simavr"

    def __init__(self, *, timeout: float = 5.0, start_timeout: float = 15.0,
                 build_timeout: float = 120.0, say: Callable[[str], None] | None = None) -> None:
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.build_timeout = build_timeout
        self.say = say or log.warning
        self.why = ""
        self.sim: VirtualBox | None = None
        self.bridge: ButtonBox | None = None
        self.table: Table | None = None
        self.clock: ManualClock | None = None
        self.draw: Callable[[], object] | None = None
        self.fallback: KeyPresses | None = None  # set once the box stopped answering
        self.firmware = ""
        self.buttons = 0
        self.plugged = False
        self.edges = 0
        self.holds: list[dict[str, int]] = []
        self.replugs = 0
        self.unscripted_link_changes = 0
        self.stray_events = 0
        self.keys_while_unplugged = 0
        self.led_commands = 0
        self._dir: tempfile.TemporaryDirectory[str] | None = None
        self._port = Path()
        self._down_at: dict[int, int] = {}  # seat -> table ms of its press
        self._pin_at: dict[int, int] = {}  # seat -> simulated ms when its pin went low
        self._box_at: dict[int, int] = {}  # seat -> box ms the firmware stamped on the press
        self._hellos = 0

    # --- starting, plugging and unplugging ------------------------------------------------

    def start(self) -> SimulatedPresses:
        """Builds what is out of date, starts the simulator and the bridge, waits for HELLO."""
        if shutil.which("make") is None:
            raise BoxUnavailable("make is not installed, so the firmware cannot be built")
        try:
            build(timeout=self.build_timeout)
        except LinkError as exc:
            raise BoxUnavailable("the firmware or the simulator cannot be built here "
                                 f"({_last_line(str(exc))}; `make deb` installs the AVR toolchain "
                                 "and simavr)") from None
        self._dir = tempfile.TemporaryDirectory(prefix="tablekit-box-")
        self._port = Path(self._dir.name) / "tablekit-box"  # like the udev name of a real box
        try:
            self._plug()
            self.bridge = ButtonBox(str(self._port)).start()
            self._wait_hello(self.start_timeout)
        except (LinkError, OSError, TimeoutError) as exc:
            self.close()
            raise BoxUnavailable(f"the simulated box did not start: {exc}") from None
        return self

    def _plug(self) -> None:
        self.sim = VirtualBox(link=self._port)
        self.plugged = True

    def _wait_hello(self, timeout: float) -> None:
        """Waits until the bridge has the link up and a HELLO newer than the last one seen."""
        assert self.bridge is not None
        deadline = time.monotonic() + timeout
        protocol = self.bridge.protocol
        while not (protocol.up and protocol.stats.hellos > self._hellos and protocol.box is not None):
            left = deadline - time.monotonic()
            if left <= 0:
                raise BoxStopped(f"no HELLO from the simulated box within {timeout} s")
            event = self.bridge.get_event(timeout=min(left, 0.05))
            if isinstance(event, ButtonEvent):
                self.stray_events += 1
        self._hellos = protocol.stats.hellos
        self._drain()
        hello = protocol.box
        assert hello is not None
        self.firmware, self.buttons = hello.firmware, hello.buttons
        if self.table is not None:
            tell_buttons(self.table, self.buttons)  # as `tablekit run` does on a link up

    def _unplug(self) -> None:
        """Pulls the cable: the simulator dies and its port name goes, as a udev name would."""
        assert self.sim is not None
        self._drain()
        self.sim.kill()
        self.plugged = False
        for pins in (self._pin_at, self._down_at, self._box_at):
            pins.clear()  # a button held now is released by the keyboard that stands in
        self._port.unlink(missing_ok=True)
        self._wait_link("down")

    def _wait_link(self, state: str) -> None:
        assert self.bridge is not None
        deadline = time.monotonic() + self.timeout
        while (left := deadline - time.monotonic()) > 0:
            event = self.bridge.get_event(timeout=left)
            if isinstance(event, LinkEvent) and event.state == state:
                return
            if isinstance(event, ButtonEvent):
                self.stray_events += 1
        raise BoxStopped(f"the bridge did not see the link go {state} within {self.timeout} s")

    def _drain(self) -> None:
        """Counts what arrived unasked (nothing should): it is never given to the table."""
        assert self.bridge is not None
        while (event := self.bridge.get_event(timeout=0)) is not None:
            if isinstance(event, LinkEvent):
                self.unscripted_link_changes += 1
            else:
                self.stray_events += 1

    # --- the table side -----------------------------------------------------------------

    def attach(self, table: Table, clock: ManualClock | None = None,
               draw: Callable[[], object] | None = None) -> None:
        """``draw`` (a window): redraws while a button is held, the table's clock following."""
        self.table, self.clock, self.draw = table, clock, draw
        if self.fallback is not None:
            self.fallback.attach(table)
            return
        tell_buttons(table, self.buttons)
        try:
            # a resumed game may have a button held down (its release is the next step), or
            # the box unplugged: the simulated box is made to match, and the table told nothing
            for seat, since in enumerate(table.state.pressed_at):
                if since is not None:
                    self._box_at[seat] = self._pin_down(seat).t_ms
                    self._down_at[seat] = since
            if not table.state.link_ok:
                self._unplug()
        except (LinkError, OSError, TimeoutError) as exc:
            self._fall_back(str(exc))

    def _pin_down(self, button: int) -> ButtonEvent:
        assert self.sim is not None
        self._drain()
        self.sim.press(button)
        self._pin_at[button] = self.sim.sim_ms()
        return self._edge(button, "press")

    def _pin_up(self, button: int) -> ButtonEvent:
        assert self.sim is not None
        self._drain()
        self._pin_at.pop(button, None)
        self.sim.release(button)
        return self._edge(button, "release")

    def _edge(self, button: int, edge: str) -> ButtonEvent:
        """The bridge's next event for this pin, within the timeout."""
        assert self.bridge is not None
        deadline = time.monotonic() + self.timeout
        while (left := deadline - time.monotonic()) > 0:
            event = self.bridge.get_event(timeout=left)
            if event is None:
                break
            if isinstance(event, LinkEvent):
                self.unscripted_link_changes += 1  # a loaded machine; the box resends
            elif event.button == button and event.event == edge:
                self.edges += 1
                return event
            else:
                self.stray_events += 1
        raise BoxStopped(f"no {edge} of button {button} from the simulated box within {self.timeout} s")

    def _hold(self, button: int, hold_ms: int, since_t: int | None) -> None:
        """Keeps the pin low until ``hold_ms`` of simulated time have passed since it went low.

        In a window (``draw``) a seat's hold is drawn as it goes, the table's clock following
        from ``since_t`` (never past the scripted release); a tap (``since_t`` None) is not.
        """
        assert self.sim is not None
        target = self._pin_at.get(button, self.sim.sim_ms()) + hold_ms
        start = target - hold_ms
        deadline = time.monotonic() + hold_ms / 1000 + self.timeout
        while (now := self.sim.sim_ms()) < target:
            if time.monotonic() > deadline:
                raise BoxStopped(f"the simulator did not run {hold_ms} ms within {self.timeout} s of it")
            if self.draw is not None and self.clock is not None and since_t is not None:
                self.clock.set(since_t + now - start)
                self.draw()
            time.sleep(min(0.03, max(0.001, (target - now) / 1000)))

    def _fall_back(self, why: str) -> None:
        self.say(f"the simulated box stopped answering ({why}): scripted keys from here on")
        keys = KeyPresses(why)
        keys.health = "scripted keys: the simulated box stopped answering"
        if self.table is not None:
            keys.attach(self.table)
            self.table.devices.link = fallback_health(keys.health)
        self.fallback = keys
        self._shut()

    def _keys_now(self) -> KeyPresses:
        """The keyboard, for a press while the box is unplugged (it still works at a table)."""
        self.keys_while_unplugged += 1
        keys = KeyPresses("the box was unplugged")
        keys.attach(self._on())
        return keys

    def _on(self) -> Table:
        assert self.table is not None, "attach() the table first"
        return self.table

    # --- the player's calls -------------------------------------------------------------

    def hold(self, seat: int, until_t: int) -> None:
        """Before a release: the pin stays low until the scripted hold has passed on the box."""
        since = self._down_at.get(seat)
        if self.fallback is not None or not self.plugged or since is None:
            return
        try:
            self._hold(seat, until_t - since, since)
        except (LinkError, OSError, TimeoutError) as exc:
            self._fall_back(str(exc))

    def seat(self, seat: int, down: bool, t: int) -> None:
        if self.fallback is not None:
            return self.fallback.seat(seat, down, t)
        if not self.plugged or (not down and seat not in self._pin_at):
            # unplugged, or the release of a press the keyboard made while it was
            return self._keys_now().seat(seat, down, t)
        try:
            if down:
                event = self._pin_down(seat)
                self._down_at[seat], self._box_at[seat] = t, event.t_ms
            else:
                since = self._down_at.pop(seat, t)
                self._hold(seat, t - since, since)
                event = self._pin_up(seat)
                if seat in self._box_at:
                    self.holds.append({"seat": seat, "scripted_ms": t - since,
                                       "box_ms": event.t_ms - self._box_at.pop(seat)})
        except (LinkError, OSError, TimeoutError) as exc:
            self._fall_back(str(exc))
            return self.fallback.seat(seat, down, t) if self.fallback is not None else None
        hand_to_table(self._on(), event, self.buttons)

    def control(self, name: str, t: int) -> None:
        if self.fallback is not None:
            return self.fallback.control(name, t)
        if not self.plugged:
            return self._keys_now().control(name, t)
        button = self.buttons - 2 if name == "menu" else self.buttons - 1
        try:
            event = self._pin_down(button)
        except (LinkError, OSError, TimeoutError) as exc:
            self._fall_back(str(exc))
            return self.fallback.control(name, t) if self.fallback is not None else None
        hand_to_table(self._on(), event, self.buttons)
        try:
            self._hold(button, TAP_MS, None)
            event = self._pin_up(button)
        except (LinkError, OSError, TimeoutError) as exc:
            self._fall_back(str(exc))  # the tap was delivered; its release means nothing
            return None
        hand_to_table(self._on(), event, self.buttons)
        return None

    def link(self, up: bool, t: int) -> None:
        if self.fallback is None:
            try:
                if up and not self.plugged:
                    self.replugs += 1
                    self._plug()
                    self._wait_hello(self.start_timeout)
                elif not up and self.plugged:
                    self._unplug()
            except (LinkError, OSError, TimeoutError) as exc:
                self._fall_back(str(exc))
        # what the bridge saw (the link events themselves were waited for above); a fresh
        # box's HELLO named its buttons, unless the keyboard stands in now
        boxed = self.fallback is None and self.plugged
        hand_to_table(self._on(), LinkEvent("up" if up else "down"), self.buttons if boxed else None)

    def led(self, button: int, mode: str) -> None:
        if self.fallback is None and self.bridge is not None:
            self.led_commands += 1
            self.bridge.led(button, mode)

    def buzz(self, ms: int) -> None:
        if self.fallback is None and self.bridge is not None:
            self.bridge.buzz(ms)

    @property
    def real_holds(self) -> bool:
        """True while holds take their scripted time on the box."""
        return self.fallback is None

    def leds(self) -> str:
        """The seat lights the simulated box shows now, seat 0 first ("" when unplugged)."""
        return self.sim.leds() if self.sim is not None and self.plugged else ""

    # --- the end ------------------------------------------------------------------------

    def report(self) -> dict[str, Any]:
        stats = self.bridge.protocol.stats if self.bridge is not None else None
        return {
            "input": SIM if self.fallback is None else f"{SIM}, then {KEYS}",
            "why": self.fallback.why if self.fallback is not None else "",
            "firmware": self.firmware,
            "buttons": self.buttons,
            "edges": self.edges,
            "holds": self.holds,
            "replugs": self.replugs,
            "keys_while_unplugged": self.keys_while_unplugged,
            "unscripted_link_changes": self.unscripted_link_changes,
            "stray_events": self.stray_events,
            "led_commands": self.led_commands,
            "repeats_ignored": stats.repeats if stats else 0,
            "box_dropped": stats.box_dropped if stats else 0,
        }

    def _shut(self) -> None:
        bridge, self.bridge = self.bridge, None
        sim, self.sim = self.sim, None
        self.plugged = False
        if bridge is not None:
            bridge.close()
        if sim is not None:
            sim.close()

    def close(self) -> None:
        self._shut()
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None


def open_presses(choice: str, *, timeout: float = 5.0) -> Presses:
    """The presses for ``--box``: ``sim`` or an error, ``keys``, or ``auto`` (sim, else keys).

    With ``auto`` the keys' ``why`` says what kept the simulated box away.
    """
    if choice == "keys":
        return KeyPresses("asked for scripted keys")
    if choice not in BOX_CHOICES:
        raise BoxUnavailable(f"no such box {choice!r}: choose from {', '.join(BOX_CHOICES)}")
    try:
        return SimulatedPresses(timeout=timeout).start()
    except BoxUnavailable as exc:
        if choice == "sim":
            raise
        keys = KeyPresses(f"no simulated box: {exc}")
        keys.health = "scripted keys: no simulated button box here"
        return keys
