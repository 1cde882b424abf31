"""Fonts for the screen: a chain of faces so every player's name is drawn in its own script.

DejaVu Sans draws Latin, Greek and Cyrillic (and the suit symbols); after it come Noto faces for
the scripts it lacks — Devanagari and the other Indic scripts, Chinese, Japanese and Korean,
Arabic, Hebrew, Thai — when the system has them (Debian's ``fonts-noto-core`` and
``fonts-noto-cjk``, which the kit's setup installs). Without any of them pygame's bundled face
is used. Nothing is downloaded.

A line of text is cut into runs, each drawn by the first face that has its characters
(combining marks stay with the letter they sit on), each run shaped by HarfBuzz for its script
(pygame-ce's ``set_script``; right to left for Arabic and Hebrew), and the runs are set side by
side on a common baseline. Sizes are asked for as a line height in pixels and every face is
scaled to it, so layouts do not depend on which faces were found.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

_PRIMARY = ("dejavusans", "dejavusanscondensed")
#: Faces tried after the primary, in order, for the characters it cannot draw.
FALLBACKS = ("notosansdevanagari", "notosansbengali", "notosansgurmukhi", "notosansgujarati",
             "notosansoriya", "notosanstamil", "notosanstelugu", "notosanskannada",
             "notosansmalayalam", "notosanssinhala", "notosanscjksc", "notosansarabic",
             "notosanshebrew", "notosansthai", "notosans")
_NO_SUCH_GLYPH = "\ue000"  # a private-use code point: drawn as a face's missing-glyph box

#: Unicode blocks by the ISO 15924 script tag HarfBuzz shapes them with.
_SCRIPTS: tuple[tuple[int, int, str], ...] = (
    (0x0590, 0x05FF, "Hebr"), (0x0600, 0x06FF, "Arab"), (0x0750, 0x077F, "Arab"),
    (0x0900, 0x097F, "Deva"), (0x0980, 0x09FF, "Beng"), (0x0A00, 0x0A7F, "Guru"),
    (0x0A80, 0x0AFF, "Gujr"), (0x0B00, 0x0B7F, "Orya"), (0x0B80, 0x0BFF, "Taml"),
    (0x0C00, 0x0C7F, "Telu"), (0x0C80, 0x0CFF, "Knda"), (0x0D00, 0x0D7F, "Mlym"),
    (0x0D80, 0x0DFF, "Sinh"), (0x0E00, 0x0E7F, "Thai"), (0x1100, 0x11FF, "Hang"),
    (0x3040, 0x309F, "Hira"), (0x30A0, 0x30FF, "Kana"), (0x3400, 0x4DBF, "Hani"),
    (0x4E00, 0x9FFF, "Hani"), (0xAC00, 0xD7AF, "Hang"), (0xFB50, 0xFDFF, "Arab"),
    (0xFE70, 0xFEFF, "Arab"),
)
_RIGHT_TO_LEFT = {"Arab", "Hebr"}


def script_of(ch: str) -> str:
    """The ISO 15924 tag of ``ch``'s script for shaping ("Latn" for everything else)."""
    code = ord(ch)
    for low, high, tag in _SCRIPTS:
        if low <= code <= high:
            return tag
    return "Latn"


#: Joiners that shape the letters around them (a Devanagari conjunct, a Persian name, an
#: emoji sequence).
JOINERS = "\u200c\u200d"


def _joins_previous(ch: str) -> bool:
    """A combining mark, a joiner or a variation selector belongs to the run before it."""
    return unicodedata.category(ch) in ("Mn", "Mc", "Me") or ch in JOINERS or 0xFE00 <= ord(ch) <= 0xFE0F


def tints_previous(ch: str) -> bool:
    """A character drawn as no glyph of its own, only shaping or tinting the one before it: a
    joiner, a variation selector, an emoji skin tone."""
    return ch in JOINERS or 0xFE00 <= ord(ch) <= 0xFE0F or 0x1F3FB <= ord(ch) <= 0x1F3FF


def clusters(text: str) -> list[str]:
    """``text`` cut into the pieces a reader sees as one character: a letter with its combining
    marks, joiners, the character a joiner joins and variation selectors (a skin tone too), a
    flag's two letters or its tag letters."""
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        tag = 0xE0020 <= code <= 0xE007F  # a subdivision flag's letters and its end
        flag_half = 0x1F1E6 <= code <= 0x1F1FF  # two regional indicators make one flag
        pairs = out and flag_half and len(out[-1]) == 1 and 0x1F1E6 <= ord(out[-1]) <= 0x1F1FF
        if out and (_joins_previous(ch) or tints_previous(ch) or tag or pairs
                    or out[-1].endswith("\u200d")):
            out[-1] += ch
        else:
            out.append(ch)
    return out


@dataclass(frozen=True, slots=True)
class Run:
    """A stretch of text drawn by one face in one script."""

    text: str
    face: int
    script: str


class TextFont:
    """One size of the face chain, used like a ``pygame.font.Font``: ``render``, ``size``,
    ``get_height``, ``get_linesize``, ``get_ascent``. Lines that the primary face draws alone
    (the usual case) go straight to it."""

    def __init__(self, fonts: Fonts, line_px: int, bold: bool) -> None:
        self._fonts = fonts
        self.line_px = line_px
        self.bold = bold
        self._faces: dict[int, pygame.font.Font] = {0: fonts.face_at(line_px, bold, 0)}
        self._height = self.primary.get_height()
        self._shapers: dict[int, pygame.font.Font] = {}

    def face(self, index: int) -> pygame.font.Font:
        """Face number ``index`` of the chain at this size (opened when first needed)."""
        font = self._faces.get(index)
        if font is None:
            font = self._faces[index] = self._fonts.face_at(self.line_px, self.bold, index)
        return font

    @property
    def primary(self) -> pygame.font.Font:
        return self._faces[0]

    def get_height(self) -> int:
        return self.primary.get_height()

    def get_linesize(self) -> int:
        return self.primary.get_linesize()

    def get_ascent(self) -> int:
        return self.primary.get_ascent()

    def runs(self, text: str) -> list[Run]:
        """``text`` cut where the face or the script changes."""
        runs: list[Run] = []
        for ch in text:
            if runs and (_joins_previous(ch) or (ch == " " and runs[-1].script not in _RIGHT_TO_LEFT)):
                last = runs[-1]
                runs[-1] = Run(last.text + ch, last.face, last.script)
                continue
            face = self._fonts.face_for(ch, self.bold)
            script = script_of(ch)
            if runs and runs[-1].face == face and runs[-1].script == script:
                last = runs[-1]
                runs[-1] = Run(last.text + ch, face, script)
            else:
                runs.append(Run(ch, face, script))
        return runs

    def _shaped(self, run: Run) -> pygame.font.Font:
        """The run's face set up for its script: a copy of the face, so the face itself keeps
        the state it draws plain text with."""
        font = self._shapers.get(run.face)
        if font is None:
            font = self._shapers[run.face] = self._fonts.face_at(self.line_px, self.bold, run.face)
        font.set_script(run.script)
        font.set_direction(pygame.DIRECTION_RTL if run.script in _RIGHT_TO_LEFT else pygame.DIRECTION_LTR)
        return font

    def _simple(self, text: str) -> bool:
        return text.isascii() or all(self._fonts.face_for(ch, self.bold) == 0 and script_of(ch) == "Latn"
                                     for ch in text)

    def size(self, text: str) -> tuple[int, int]:
        if self._simple(text):
            return self.primary.size(text)
        width = sum(self._shaped(run).size(run.text)[0] for run in self.runs(text))
        return width, self._height

    def render(self, text: str, antialias: bool, colour: tuple[int, int, int]) -> pygame.Surface:
        if self._simple(text):
            return self.primary.render(text, antialias, colour)
        pieces = []
        for run in visual_order(self.runs(text)):
            font = self._shaped(run)
            pieces.append((font.render(run.text, antialias, colour), font.get_ascent()))
        surf = pygame.Surface((max(1, sum(p.get_width() for p, _ in pieces)), self._height),
                              pygame.SRCALPHA)
        baseline = self.primary.get_ascent()
        x = 0
        for piece, ascent in pieces:  # on the primary's baseline, kept inside the line
            surf.blit(piece, (x, min(max(0, baseline - ascent), self._height - piece.get_height())))
            x += piece.get_width()
        return surf


def visual_order(runs: list[Run]) -> list[Run]:
    """``runs`` in the order they are drawn left to right: words of a right-to-left script
    that follow one another (with only spaces, hyphens or numbers between) are laid from the right, so "سارة أحمد"
    reads as written; each run's own letters are shaped right to left by its face already."""
    out: list[Run] = []
    i = 0
    while i < len(runs):
        if runs[i].script not in _RIGHT_TO_LEFT:
            out.append(runs[i])
            i += 1
            continue
        j = i
        while j + 1 < len(runs) and (runs[j + 1].script in _RIGHT_TO_LEFT or (
                not any(ch.isalpha() for ch in runs[j + 1].text)
                and j + 2 < len(runs) and runs[j + 2].script in _RIGHT_TO_LEFT)):
            j += 1  # a space, hyphen or number between two right-to-left words goes with them
        out.extend(reversed(runs[i:j + 1]))
        i = j + 1
    return out


class Fonts:
    """The face chain and a cache of its sizes by pixel line height and weight."""

    def __init__(self, path: str | None = None, *, search: bool = True,
                 fallbacks: Sequence[str] = FALLBACKS) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._paths: dict[bool, list[str | None]] = {}
        for bold in (True, False):
            found = path
            if found is None and search:
                for name in _PRIMARY:
                    found = pygame.font.match_font(name, bold=bold)
                    if found:
                        break
            chain: list[str | None] = [found]
            if search:
                for name in fallbacks:
                    extra = pygame.font.match_font(name, bold=bold)
                    if extra and extra not in chain:
                        chain.append(extra)
            self._paths[bold] = chain
        self._fonts: dict[tuple[int, bool], TextFont] = {}
        self._faces: dict[tuple[str, bool], int] = {}

    @property
    def face(self) -> str:
        """The file used for bold text, or 'default' for pygame's bundled font."""
        return self._paths[True][0] or "default"

    @property
    def chain(self) -> tuple[str, ...]:
        """Every face file tried for bold text, in order."""
        return tuple(p or "default" for p in self._paths[True])

    def get(self, line_px: int, bold: bool = True) -> TextFont:
        """The chain at a line height of about ``line_px`` pixels."""
        line_px = max(8, int(line_px))
        key = (line_px, bold)
        font = self._fonts.get(key)
        if font is None:
            font = self._fonts[key] = TextFont(self, line_px, bold)
        return font

    def face_at(self, line_px: int, bold: bool, index: int) -> pygame.font.Font:
        """Face number ``index`` of the chain opened at ``line_px`` (a new font object). A
        fallback's glyph box fits inside the primary's, so mixed lines keep their height."""
        paths = self._paths[bold]
        if index == 0:
            return self._sized(paths[0], line_px, bold)
        height = self.get(line_px, bold).get_height()
        return self._sized(paths[index], line_px, bold, height)

    def faces(self, bold: bool = True) -> int:
        """How many faces the chain has."""
        return len(self._paths[bold])

    @staticmethod
    def _sized(path: str | None, line_px: int, bold: bool, height: int = 0) -> pygame.font.Font:
        """``path`` at a line height of ``line_px``, or with a glyph box at most ``height`` tall."""
        probe = pygame.font.Font(path, 100)
        scale = line_px / max(1, probe.get_linesize())
        if height:
            scale = min(scale, height / max(1, probe.get_height()))
        font = pygame.font.Font(path, max(6, int(100 * scale)))
        if path is None and bold:
            font.bold = False  # the bundled face is already bold
        return font

    def face_for(self, ch: str, bold: bool = True) -> int:
        """The index in the chain of the first face that draws ``ch`` (0 when none does)."""
        return max(0, self._find(ch, bold))

    def covers(self, ch: str, bold: bool = True) -> bool:
        """Whether some face of the chain draws ``ch`` as itself."""
        return ch.isascii() or self._find(ch, bold) >= 0

    def _find(self, ch: str, bold: bool) -> int:
        if ch.isascii():
            return 0
        key = (ch, bold)
        known = self._faces.get(key)
        if known is None:
            probe = self.get(32, bold)
            known = next((i for i in range(self.faces(bold)) if _draws(probe.face(i), ch)), -1)
            self._faces[key] = known
        return known


def _draws(font: pygame.font.Font, ch: str) -> bool:
    """Whether ``font`` draws ``ch`` as itself rather than as its missing-glyph box."""
    def image(c: str) -> tuple[tuple[int, int], bytes]:
        surf = font.render(c, False, (255, 255, 255))
        return surf.get_size(), pygame.image.tobytes(surf, "RGB")

    try:
        return image(ch) != image(_NO_SUCH_GLYPH)
    except pygame.error:  # a character with no width at all (a variation selector…)
        return False
