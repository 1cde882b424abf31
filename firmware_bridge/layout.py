"""Where MENU and OK lie among the buttons: the one place that knows the numbering.

Buttons ``0 … seats-1`` are the seats, in table order. A box's HELLO says how many buttons it
has, and its last two are MENU and OK; the keyboard mapper numbers MENU and OK right after the
seats (digits for the seats, M and Return after them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Control = Literal["menu", "ok"]


@dataclass(frozen=True, slots=True)
class ButtonLayout:
    """The numbers of the MENU and OK buttons (below them: the seats)."""

    menu: int
    ok: int

    @classmethod
    def of_box(cls, buttons: int) -> ButtonLayout | None:
        """A box whose HELLO named ``buttons`` buttons: its last two are MENU and OK (None
        for a box with fewer than two buttons, which has neither)."""
        return cls(buttons - 2, buttons - 1) if buttons >= 2 else None

    @classmethod
    def keyboard(cls, seats: int) -> ButtonLayout:
        """The keyboard mapper's numbering: MENU and OK right after ``seats`` seats."""
        return cls(seats, seats + 1)

    def control(self, button: int) -> Control | None:
        """"menu" or "ok" for those two buttons, else None (a seat, or no button at all)."""
        if button == self.menu:
            return "menu"
        if button == self.ok:
            return "ok"
        return None
