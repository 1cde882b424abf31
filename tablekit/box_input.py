"""Button edges and link changes to the table: the one place a bridge event becomes a table input.

``tablekit run`` (a box on USB, the keyboard) and ``tablekit demo`` (the simulated box, scripted
keys) both hand what ``firmware_bridge`` delivers to :class:`tablekit.table.Table` through these
functions, so a press means the same thing whichever way it came:

- a box event: a button edge goes to ``Table.button`` (stamped with the table's clock when it
  arrives); a link "up" first tells the table where the box's MENU and OK are (its last two
  buttons, from the box's HELLO: ``firmware_bridge.layout``), then ``Table.link``;
- a keyboard event: the keyboard mapper numbers MENU and OK right after the seats, which
  ``Table.button(..., keyboard=True)`` knows.

:class:`BoxLink` is the real box as ``tablekit run`` uses it: its events, its button count,
its lights and buzzer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from firmware_bridge import BoxEvent, ButtonBox, ButtonEvent, LinkEvent
from firmware_bridge.layout import ButtonLayout

if TYPE_CHECKING:
    from tablekit.table import Table


class BoxLink:
    """The button box on a serial port, as the table uses it: events waiting now, where its
    MENU and OK are (from its HELLO), and the lights and buzzer the table drives."""

    def __init__(self, box: ButtonBox) -> None:
        self.box = box

    @property
    def buttons(self) -> int | None:
        """How many buttons the box's HELLO named (None before any HELLO)."""
        return self.box.buttons

    @property
    def layout(self) -> ButtonLayout | None:
        """Where its MENU and OK are (None before any HELLO)."""
        buttons = self.buttons
        return ButtonLayout.of_box(buttons) if buttons is not None else None

    def pending(self) -> Iterator[BoxEvent]:
        """The events that have arrived, without waiting."""
        while (event := self.box.get_event(timeout=0)) is not None:
            yield event

    def led(self, button: int, mode: str) -> None:
        self.box.led(button, mode)

    def buzz(self, ms: int) -> None:
        self.box.buzz(ms)

    def close(self) -> None:
        self.box.close()


def tell_buttons(table: Table, buttons: int) -> None:
    """The box said it has ``buttons`` buttons: its last two are MENU and OK (with fewer
    than two, the table keeps the keyboard's numbering)."""
    table.layout = ButtonLayout.of_box(buttons)


def hand_to_table(table: Table, event: BoxEvent, buttons: int | None) -> None:
    """One event from the box to the table; ``buttons``: how many the box's HELLO named
    (None before a HELLO, when a link "up" cannot say where MENU and OK are)."""
    if isinstance(event, LinkEvent):
        up = event.state == "up"
        if up and buttons:
            tell_buttons(table, buttons)
        table.link(up)
    else:
        table.button(event.button, event.event == "press")


def key_to_table(table: Table, event: ButtonEvent | None, t_ms: int) -> None:
    """A key's edge from the keyboard mapper (None: a key that is no button) at table time ``t_ms``."""
    if event is not None:
        table.button(event.button, event.event == "press", t_ms, keyboard=True)
