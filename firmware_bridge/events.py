"""The events the button box link hands to the game: button edges and link changes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ButtonAction = Literal["press", "release"]
LinkState = Literal["up", "down"]


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """A debounced press or release of one button, stamped with the box's uptime in ms.

    Buttons 0..n-3 are seats in clockwise order, then MENU and OK. ``t_ms`` is the box's
    clock: compare it only with other events between the same link "up" and "down" (a box
    that restarts counts from zero again).
    """

    button: int
    event: ButtonAction
    t_ms: int
    type: str = "button"

    def to_json(self) -> dict[str, object]:
        return {"button": self.button, "event": self.event, "t_ms": self.t_ms}


@dataclass(frozen=True, slots=True)
class LinkEvent:
    """The box became reachable ("up", after its HELLO) or was lost ("down")."""

    state: LinkState
    type: str = "link"

    def to_json(self) -> dict[str, object]:
        return {"link": self.state}


BoxEvent = ButtonEvent | LinkEvent
