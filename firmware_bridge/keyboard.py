"""Keyboard fallback: key names to the same button events the box sends (no pygame here).

The app feeds key names as its toolkit spells them (pygame's ``key.name``: "1", "m",
"return") with a time in ms; the mapper answers with a ``ButtonEvent`` or None. Auto-repeat
(a second key-down without a key-up) gives nothing, so a held key is one press, like a button.
"""

from __future__ import annotations

from collections.abc import Mapping

from firmware_bridge.events import ButtonEvent, LinkEvent
from firmware_bridge.layout import ButtonLayout


def default_keymap(seats: int = 8) -> dict[str, int]:
    """Digits 1..seats for the seats, M for MENU, Return (or space) for OK."""
    layout = ButtonLayout.keyboard(seats)
    keys = {str(i + 1): i for i in range(seats)}
    keys.update({"m": layout.menu, "return": layout.ok, "space": layout.ok})
    return keys


class KeyboardButtons:
    """A pure mapper from key presses to button events."""

    def __init__(self, keymap: Mapping[str, int] | None = None) -> None:
        self.keymap = dict(keymap) if keymap is not None else default_keymap()
        self._held: set[int] = set()

    def started(self) -> LinkEvent:
        """The keyboard is always there: the first event an app should post."""
        return LinkEvent("up")

    def key_down(self, name: str, t_ms: int) -> ButtonEvent | None:
        button = self.keymap.get(name.lower())
        if button is None or button in self._held:
            return None
        self._held.add(button)
        return ButtonEvent(button, "press", t_ms)

    def key_up(self, name: str, t_ms: int) -> ButtonEvent | None:
        button = self.keymap.get(name.lower())
        if button is None or button not in self._held:
            return None
        self._held.discard(button)
        return ButtonEvent(button, "release", t_ms)
