"""Fonts for the screen: DejaVu Sans when the system has it, pygame's bundled font otherwise.

Nothing is downloaded. Sizes are asked for as a line height in pixels, so both faces give
text of the same height and layouts do not depend on which one was found.
"""

from __future__ import annotations

import pygame

_PREFERRED = ("dejavusans", "dejavusanscondensed")


class Fonts:
    """A cache of fonts by pixel line height and weight."""

    def __init__(self, path: str | None = None, *, search: bool = True) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._paths: dict[bool, str | None] = {}
        for bold in (True, False):
            found = path
            if found is None and search:
                for name in _PREFERRED:
                    found = pygame.font.match_font(name, bold=bold)
                    if found:
                        break
            self._paths[bold] = found
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}

    @property
    def face(self) -> str:
        """The file used for bold text, or 'default' for pygame's bundled font."""
        return self._paths[True] or "default"

    def get(self, line_px: int, bold: bool = True) -> pygame.font.Font:
        """A font whose line height is about ``line_px`` pixels."""
        line_px = max(8, int(line_px))
        key = (line_px, bold)
        font = self._fonts.get(key)
        if font is None:
            path = self._paths[bold]
            probe = pygame.font.Font(path, 100)
            size = max(6, round(100 * line_px / max(1, probe.get_linesize())))
            font = pygame.font.Font(path, size)
            if path is None and bold:
                font.bold = False  # the bundled face is already bold
            self._fonts[key] = font
        return font
