"""The events the button box link hands to the game: button edges and link changes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ButtonAction = Literal["press", "release"]
LinkState = Literal["up", "down"]


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """A debounced press or release of one button, stamped with the box's uptime in ms."""

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
