"""Button edges and link changes to the table: the one place a bridge event becomes a table input.

``tablekit run`` (a box on USB, the keyboard) and ``tablekit demo`` (the simulated box, scripted
keys) both hand what ``firmware_bridge`` delivers to :class:`tablekit.app.Table` through these
functions, so a press means the same thing whichever way it came:

- a box event: a button edge goes to ``Table.button`` (stamped with the table's clock when it
  arrives); a link "up" first tells the table which of the box's buttons are MENU and OK (its
  last two, from the box's HELLO), then ``Table.link``;
- a keyboard event: the keyboard mapper numbers MENU and OK right after the seats, which
  ``Table.button(..., keyboard=True)`` knows.

This module imports only ``firmware_bridge``; the table is passed in, so ``tablekit.app`` and
the commands can all import it without a cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from firmware_bridge import BoxEvent, ButtonEvent, LinkEvent

if TYPE_CHECKING:
    from tablekit.app import Table

Control = Literal["menu", "ok"]


def tell_buttons(table: Table, buttons: int) -> None:
    """The box said it has ``buttons`` buttons: its last two are MENU and OK."""
    table.menu_button, table.ok_button = buttons - 2, buttons - 1


def control_of(button: int, buttons: int) -> Control | None:
    """"menu" or "ok" for a box's last two buttons (``buttons`` from its HELLO), else None."""
    if buttons >= 2 and button == buttons - 2:
        return "menu"
    if buttons >= 2 and button == buttons - 1:
        return "ok"
    return None


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
