"""The drawing surface of one frame: fitted text, panels, and a record of what went where.

Screens draw through a `Canvas` so that every text is fitted inside its box (shrunk, then
cut with an ellipsis, never spilling off the screen) and so tests can ask where a seat, a
ring or a marker was drawn (`regions`) and where every text landed (`texts`).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import pygame

from display.fonts import JOINERS, Fonts, clusters, tints_previous
from display.layout import MIN_PARAGRAPH_PX, Layout
from display.theme import Colour

ELLIPSIS = "…"
MIN_NUMBER_PX = 8  # a number shrinks this far before it is cut (never, on any screen the kit allows)
MIN_SHRUNK_PX = 12  # a line of words shrinks to fit its box no further than this before it is cut
ONE_LINE_SCALE = 0.85  # a paragraph shrinks this far to stay on one line before it wraps
FIGURE_PROBE_PX = 100  # the line height the digits' ink is measured at
# What to write when the font has no glyph: the judge notation's letters for the suits.
_STAND_INS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C", "…": "...", "·": "-", "—": "-", "→": "->"}


def number_text(value: float) -> str:
    """A score as players write it: whole numbers without a point, others to one decimal."""
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.1f}"
    return str(int(value))


def is_number(text: str) -> bool:
    """Is ``text`` a number as a screen shows one (``number_text``, a sign, a unit-less
    count): digits, at most one point, a leading minus or plus?"""
    body = text.strip().lstrip("+-−")
    return bool(body) and body.replace(".", "", 1).isascii() and body.replace(".", "", 1).isdigit()


def printable(text: str) -> str:
    """``text`` with control characters (tabs, newlines, NUL) turned into spaces; joiners are
    no control to blank, though Python does not count them printable."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in JOINERS else " " for ch in text).strip()


@dataclass(frozen=True, slots=True)
class TextPlacement:
    """One text as drawn: its words, its box on the surface and the box it had to fit."""

    text: str
    rect: pygame.Rect
    bounds: pygame.Rect


class TextCache:
    """Rendered text surfaces, reused across frames (the countdown digits, the names)."""

    def __init__(self, fonts: Fonts, capacity: int = 768) -> None:
        self.fonts = fonts
        self.capacity = capacity
        self._store: OrderedDict[tuple[str, int, bool, Colour], pygame.Surface] = OrderedDict()
        self._figure_ink: dict[bool, float] = {}

    def render(self, text: str, line_px: int, colour: Colour, bold: bool = True) -> pygame.Surface:
        key = (text, line_px, bold, colour)
        surf = self._store.get(key)
        if surf is None:
            surf = self.fonts.get(line_px, bold).render(text, True, colour)
            self._store[key] = surf
            if len(self._store) > self.capacity:
                self._store.popitem(last=False)
        else:
            self._store.move_to_end(key)
        return surf

    def displayable(self, text: str, line_px: int, bold: bool = True) -> str:
        """``text`` with characters no face can draw replaced (suit symbols by letters)."""
        if text.isascii():
            return text
        # a character that only shapes or tints the one before it is left out, not a "?"
        return "".join(ch if self.fonts.covers(ch, bold) else "" if tints_previous(ch) else _STAND_INS.get(ch, "?")
                       for ch in text)

    def width(self, text: str, line_px: int, bold: bool = True) -> int:
        return self.fonts.get(line_px, bold).size(text)[0]

    def figure_ink(self, bold: bool = True) -> float:
        """How tall the digits' ink is, as a share of the line height they are set in."""
        ratio = self._figure_ink.get(bold)
        if ratio is None:
            surf = self.fonts.get(FIGURE_PROBE_PX, bold).render("0123456789", True, (255, 255, 255))
            ratio = max(0.3, min(1.0, surf.get_bounding_rect().h / FIGURE_PROBE_PX))
            self._figure_ink[bold] = ratio
        return ratio


class Canvas:
    """One frame's surface plus its layout, fonts and the record of texts and regions."""

    def __init__(self, surface: pygame.Surface, texts: TextCache) -> None:
        self.surface = surface
        self.layout = Layout.of(surface)
        self.cache = texts
        self.texts: list[TextPlacement] = []
        self.regions: dict[str, pygame.Rect] = {}

    # --- records -------------------------------------------------------------------------

    def mark(self, name: str, rect: pygame.Rect) -> pygame.Rect:
        """Remember where ``name`` (e.g. "seat:2", "countdown") was drawn."""
        self.regions[name] = pygame.Rect(rect)
        return rect

    # --- text ----------------------------------------------------------------------------

    def fit(self, text: str, line_px: int, width: int, bold: bool = True, min_scale: float = 0.6) -> tuple[str, int]:
        """The text and line height that fit ``width``: shrink down to ``min_scale``, then cut.
        A number (a score, a count) shrinks as far as it must instead: cut, "157" would read
        "1…", another number."""
        if not text:
            return text, line_px
        size = line_px
        floor = self._fit_floor(text, line_px, min_scale)
        while size > floor and self.cache.width(text, size, bold) > width:
            size = max(floor, int(size * 0.9))
        if self.cache.width(text, size, bold) <= width:
            return text, size
        pieces = clusters(text)  # never cut a letter from its marks, nor a joined emoji
        while pieces and self.cache.width("".join(pieces) + ELLIPSIS, size, bold) > width:
            pieces.pop()
        cut = "".join(pieces)
        return (cut.rstrip() + ELLIPSIS) if cut else "", size

    @staticmethod
    def _fit_floor(text: str, line_px: int, min_scale: float) -> int:
        """The smallest line height ``fit`` shrinks ``text`` to before it cuts it."""
        return MIN_NUMBER_PX if is_number(text) else max(MIN_SHRUNK_PX, int(line_px * min_scale))

    def least_width(self, text: str, line_px: int, bold: bool = True, min_scale: float = 0.6) -> int:
        """The narrowest box ``text`` shows whole in as ``Canvas.text`` draws it (on one line,
        shrunk as far as ``fit`` shrinks it): what a column or a key must keep for it."""
        shown = self.cache.displayable(printable(text), line_px, bold)
        return self.cache.width(shown, min(line_px, self._fit_floor(shown, line_px, min_scale)), bold) if shown else 0

    def text(
        self,
        text: str,
        line_px: int,
        box: pygame.Rect,
        colour: Colour,
        *,
        align: str = "left",
        valign: str = "center",
        bold: bool = True,
        min_scale: float = 0.6,
    ) -> pygame.Rect:
        """Draw one line of text fitted inside ``box``; returns where it landed."""
        text = self.cache.displayable(printable(text), line_px, bold)
        box = box.clip(self.layout.full)
        line_px = min(line_px, max(1, box.h))
        # a face's glyph box can be a pixel or two taller than its line: shrink until it fits
        while line_px > 8 and self.cache.fonts.get(line_px, bold).get_height() > box.h:
            line_px -= 1
        shown, size = self.fit(text, line_px, box.w, bold, min_scale)
        if not shown:
            return pygame.Rect(box.x, box.y, 0, 0)
        surf = self.cache.render(shown, size, colour, bold)
        # a glyph reaching below the face's descent (an underscore) is cropped at the box
        return self._blit_placed(shown, surf, surf.get_rect(), box, align, valign)

    def _blit_placed(self, shown: str, surf: pygame.Surface, area: pygame.Rect, box: pygame.Rect,
                     align: str, valign: str) -> pygame.Rect:
        """``area`` of ``surf`` (the rendered ``shown``) aligned in ``box``, kept inside it (a
        font's line box can be a pixel or two taller than asked) and cropped at its edges;
        recorded in ``texts``. Returns where it landed."""
        rect = pygame.Rect(0, 0, area.w, area.h)
        if align == "center":
            rect.centerx = box.centerx
        elif align == "right":
            rect.right = box.right
        else:
            rect.left = box.left
        if valign == "top":
            rect.top = box.top
        elif valign == "bottom":
            rect.bottom = box.bottom
        else:
            rect.centery = box.centery
        rect.clamp_ip(box)
        shown_rect = rect.clip(box)
        self.surface.blit(surf, shown_rect, area=pygame.Rect(area.x + shown_rect.x - rect.x, area.y + shown_rect.y - rect.y,
                                                              shown_rect.w, shown_rect.h))
        self.texts.append(TextPlacement(shown, shown_rect, box))
        return shown_rect

    def figures(self, text: str, box: pygame.Rect, colour: Colour, *, min_scale: float = 0.6,
                align: str = "center") -> pygame.Rect:
        """A number drawn so that its digits' ink, not the font's line, is ``box``'s height
        (digits have no descenders or accents to keep room for): a score read across the
        table. A number too wide shrinks down to ``min_scale`` of that, then is cut. Returns
        where the ink landed (what ``texts`` records)."""
        text = printable(text)
        box = box.clip(self.layout.full)
        if not text or box.h <= 0:
            return pygame.Rect(box.x, box.y, 0, 0)
        line_px = max(1, int(box.h / self.cache.figure_ink(True)))
        shown, size = self.fit(text, line_px, box.w, True, min_scale)
        if not shown:
            return pygame.Rect(box.x, box.y, 0, 0)
        surf = self.cache.render(shown, size, colour, True)
        ink = surf.get_bounding_rect()
        area = pygame.Rect(0, ink.y, surf.get_width(), min(ink.h, box.h)) if ink.h else surf.get_rect()
        return self._blit_placed(shown, surf, area, box, align, "center")

    def wrapped(
        self,
        text: str,
        line_px: int,
        box: pygame.Rect,
        colour: Colour,
        *,
        align: str = "left",
        max_lines: int | None = None,
        bold: bool = False,
    ) -> list[pygame.Rect]:
        """Draw ``text`` over as many lines as fit in ``box`` (the last one cut if needed)."""
        box = box.clip(self.layout.full)
        if box.h <= 0:
            return []
        line_px = min(line_px, box.h)
        text = self.cache.displayable(printable(text), line_px, bold)
        if not text:
            return []
        lines_fit = max(1, box.h // line_px)
        if max_lines is not None:
            lines_fit = min(lines_fit, max_lines)
        lines: list[str] = []
        words = text.split()
        current = ""
        i = 0
        while i < len(words):
            trial = f"{current} {words[i]}".strip()
            if self.cache.width(trial, line_px, bold) <= box.w or not current:
                current = trial
                i += 1
                continue
            lines.append(current)
            current = ""
            if len(lines) == lines_fit:
                break
        if current and len(lines) < lines_fit:
            lines.append(current)
        if i < len(words) and lines:
            lines[-1] = lines[-1] + " " + " ".join(words[i:])  # cut with an ellipsis below
        top = box.y
        out = []
        for line in lines:
            row = pygame.Rect(box.x, top, box.w, line_px)
            out.append(self.text(line, line_px, row, colour, align=align, bold=bold, min_scale=1.0))
            top += line_px
        return out

    def wrap_lines(self, text: str, line_px: int, width: int, bold: bool = True) -> list[str]:
        """``text`` broken between words into lines no wider than ``width`` (a word wider
        than that alone on its line)."""
        lines: list[str] = []
        current = ""
        for word in text.split():
            trial = f"{current} {word}" if current else word
            if current and self.cache.width(trial, line_px, bold) > width:
                lines.append(current)
                current = word
            else:
                current = trial
        if current:
            lines.append(current)
        return lines

    def paragraph_fit(
        self, text: str, line_px: int, box: pygame.Rect, *, bold: bool = True, min_scale: float = 0.7
    ) -> tuple[list[str], int, bool]:
        """The lines and line height that show all of ``text`` in ``box``: the largest size
        from ``line_px`` down to ``min_scale`` of it at which every word fits, and True; else
        the lines at the smallest size, and False."""
        text = self.cache.displayable(printable(text), line_px, bold)
        size = max(1, min(line_px, box.h))
        floor = min(size, max(MIN_PARAGRAPH_PX, int(line_px * min_scale)))
        # a short text stays on one line, shrunk a little, rather than wrap
        one = size
        while one > max(floor, int(size * ONE_LINE_SCALE)) and self.cache.width(text, one, bold) > box.w:
            one -= 1
        if self.cache.width(text, one, bold) <= box.w:
            return [text], one, True
        while True:
            lines = self.wrap_lines(text, size, box.w, bold)
            fits = len(lines) * size <= box.h and all(self.cache.width(line, size, bold) <= box.w for line in lines)
            if fits or size <= floor:
                return lines, size, fits
            size = max(floor, min(size - 1, int(size * 0.94)))

    def paragraph_width(self, text: str, line_px: int, height: int, *, bold: bool = True,
                        min_scale: float = 0.7) -> int:
        """The narrowest width ``paragraph`` shows all of ``text`` in, in a box ``height``
        tall (its one line's full width where no width does): what a column must keep for it."""
        shown = self.cache.displayable(printable(text), line_px, bold)
        if not shown:
            return 0
        low, high = 1, self.cache.width(shown, line_px, bold)
        if not self.paragraph_fit(shown, line_px, pygame.Rect(0, 0, high, height), bold=bold, min_scale=min_scale)[2]:
            return high
        while low < high:  # halving: a wider box never needs more lines
            mid = (low + high) // 2
            if self.paragraph_fit(shown, line_px, pygame.Rect(0, 0, mid, height), bold=bold, min_scale=min_scale)[2]:
                high = mid
            else:
                low = mid + 1
        return high

    def lines_height(self, text: str, line_px: int, width: int, *, bold: bool = True) -> int:
        """The height ``text`` takes in ``width`` as ``paragraph`` draws it (at ``min_scale``
        0.75): one line where it fits, shrunk a little, else two (at most; a third is cut); 0
        for no text. A narrow column's head or a narrow panel's title is given as much."""
        if not text:
            return 0
        lines, size, _ = self.paragraph_fit(text, line_px, pygame.Rect(0, 0, width, 2 * line_px), bold=bold,
                                            min_scale=0.75)
        return min(2, len(lines)) * size

    def paragraph(
        self,
        text: str,
        line_px: int,
        box: pygame.Rect,
        colour: Colour,
        *,
        align: str = "left",
        valign: str = "center",
        bold: bool = True,
        min_scale: float = 0.7,
    ) -> list[pygame.Rect]:
        """Draw ``text`` wrapped over as many lines as ``box`` holds, shrinking the type (to
        ``min_scale``) before anything is cut; only then is the last line cut with an ellipsis."""
        box = box.clip(self.layout.full)
        if box.h <= 0 or not printable(text):
            return []
        lines, size, fits = self.paragraph_fit(text, line_px, box, bold=bold, min_scale=min_scale)
        room = max(1, box.h // size)
        if len(lines) > room:
            lines = lines[: room - 1] + [" ".join(lines[room - 1 :])]  # cut with an ellipsis below
        block = len(lines) * size
        top = box.y + {"top": 0, "bottom": box.h - block}.get(valign, (box.h - block) // 2)
        out = []
        for line in lines:
            row = pygame.Rect(box.x, top, box.w, size)
            out.append(self.text(line, size, row, colour, align=align, bold=bold, min_scale=1.0 if fits else 0.9))
            top += size
        return out

    # --- shapes --------------------------------------------------------------------------

    def panel(
        self,
        rect: pygame.Rect,
        fill: Colour | None,
        edge: Colour | None = None,
        *,
        width: int = 0,
        radius: int | None = None,
    ) -> None:
        r = self.layout.py(0.012) if radius is None else radius
        if fill is not None:
            pygame.draw.rect(self.surface, fill, rect, border_radius=r)
        if edge is not None:
            pygame.draw.rect(self.surface, edge, rect, max(1, width), border_radius=r)
