"""Deck designs for drawn training and benchmark scenes, wider than ``vision.synth.draw_face``.

A real table sees whatever deck the players brought: dark ink on white, four-colour decks,
light ink on black cards, gold or silver ink, jumbo indices, an index in all four corners,
rank numerals in whatever typeface the printer liked. A :class:`DeckStyle` fixes one such
design (paper, inks, typeface, index size, corners) and :func:`styled_face` draws any card of
it, with the boxes of its corner indices. Typefaces come from the font files Debian's font
packages install (``fonts-dejavu-core`` is enough; ``fonts-urw-base35``, ``fonts-liberation2``
and ``fonts-freefont-ttf`` add families), grouped by family so whole families can be held out
of training (:data:`HELD_OUT_FAMILIES`) and used only to measure. Training passes the fonts of
a pinned list instead (``fonts=``, ``vision.train.typefaces``), so its draws do not depend on
what else a machine has installed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.synth import CARD_H, CARD_W, FONTS, Face, court_art, draw_suit, pips

# pygame (imported when a typeface is drawn) prints a banner on first import unless told not to
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

FONT_DIRS: Final = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
#: Typeface families never used in training scenes, only in the benchmark's held-out decks.
HELD_OUT_FAMILIES: Final = frozenset({"URWBookman", "P052", "FreeSerif", "NimbusSansNarrow"})
#: Families that are not card lettering (symbols, script, mathematics).
_NOT_LETTERING: Final = frozenset({"StandardSymbolsPS", "D050000L", "Z003", "DejaVuMathTeXGyre"})
#: Kinds of design, each a different look a deck can have.
KINDS: Final = ("standard", "four-colour", "light-on-dark", "metallic", "jumbo")

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class DeckStyle:
    """One deck design: ``kind`` (one of :data:`KINDS`), paper colour, ink per suit,
    ``font`` (a font file, or ``None`` for OpenCV's Hershey lettering ``hershey``), the
    index's rank height in face pixels, the stroke weight, and how many corners carry an
    index (2 or 4)."""

    kind: str
    paper: BGR
    inks: dict[str, BGR]
    font: Path | None
    hershey: int
    rank_height: float
    weight: int
    corners: int
    sheen: bool = False

    @property
    def family(self) -> str:
        return font_family(self.font) if self.font is not None else "Hershey"


#: Endings of a font file's name that name a cut, not a family.
_CUTS: Final = ("Bold", "Italic", "Oblique", "Regular", "Book", "Condensed", "Cond", "Demi", "Medium")


def font_family(path: Path) -> str:
    """The family of a font file, from its name: what comes before the first ``-`` or ``_``,
    spaces dropped, less the endings that name a cut, however many (``DejaVuSans-Bold.ttf``,
    ``FreeSerifBoldItalic.ttf``, ``LinLibertine_RB.otf``, ``Courier Prime Bold.otf`` →
    ``DejaVuSans``, ``FreeSerif``, ``LinLibertine``, ``CourierPrime``)."""
    stem = path.stem.split("-")[0].split("_")[0].replace(" ", "")
    cut = True
    while cut:
        cut = False
        for suffix in _CUTS:
            if stem.endswith(suffix) and stem != suffix:
                stem, cut = stem[: -len(suffix)], True
    return stem


def font_dirs() -> tuple[Path, ...]:
    """The folders fonts are looked for in: ``TABLEKIT_FONT_DIR`` when set, then the system's."""
    extra = os.environ.get("TABLEKIT_FONT_DIR")
    return ((Path(extra),) if extra else ()) + FONT_DIRS


@lru_cache(maxsize=1)
def font_files() -> tuple[Path, ...]:
    """Every lettering font file installed (sorted, so draws are repeatable)."""
    found = {p for d in font_dirs() if d.is_dir() for ext in ("*.ttf", "*.otf") for p in d.rglob(ext)}
    return tuple(sorted(p for p in found if font_family(p) not in _NOT_LETTERING and draws_ranks(p)))


#: What a deck's indices print: a typeface must have a glyph of its own for each.
RANK_GLYPHS: Final = "AKQJ1023456789"


def draws_ranks(path: Path) -> bool:
    """Whether the font has every glyph of :data:`RANK_GLYPHS` (a font for another script,
    such as most of Noto's, draws the same "missing glyph" box for each, which would teach
    the networks that a box is an ace)."""
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()
    try:
        face = pygame.font.Font(str(path), 20)
    except (OSError, pygame.error):
        return False

    def ink(text: str) -> np.ndarray:
        out: np.ndarray = pygame.surfarray.array3d(face.render(text, True, (255, 255, 255), (0, 0, 0)))[..., 0]
        return out

    missing = ink("\ue000")  # a private-use code point: no lettering font draws it
    return not any(np.array_equal(ink(c), missing) for c in RANK_GLYPHS)


def fonts_for(held_out: bool | None) -> tuple[Path, ...]:
    """Font files of the training families (``False``), the held-out ones (``True``) or all."""
    return tuple(p for p in font_files()
                 if held_out is None or (font_family(p) in HELD_OUT_FAMILIES) == held_out)


def _jitter(rng: np.random.Generator, colour: BGR, amount: int) -> BGR:
    c = np.clip(np.array(colour) + rng.integers(-amount, amount + 1, 3), 0, 255)
    return (int(c[0]), int(c[1]), int(c[2]))


def random_style(rng: np.random.Generator, held_out: bool | None = False,
                 kind: str | None = None, fonts: tuple[Path, ...] | None = None) -> DeckStyle:
    """A random deck design; its typeface is from the training families (``held_out=False``),
    the held-out ones (``True``) or any, or from ``fonts`` when given (a training run's
    pinned list); ``kind`` forces the kind of design."""
    kind = kind or str(rng.choice(KINDS, p=[0.3, 0.15, 0.25, 0.15, 0.15]))
    fonts = fonts_for(held_out) if fonts is None else fonts
    use_hershey = not fonts or (held_out is not True and rng.random() < 0.15)
    font = None if use_hershey else fonts[int(rng.integers(len(fonts)))]
    red, black = _jitter(rng, (30, 25, 200), 30), _jitter(rng, (25, 25, 25), 25)
    paper = _jitter(rng, (235, 242, 246), 12)
    inks = {"H": red, "D": red, "S": black, "C": black}
    sheen = False
    if kind == "four-colour":
        inks["D"] = _jitter(rng, (190, 90, 20), 30)
        inks["C"] = _jitter(rng, (40, 140, 30), 30)
    elif kind == "light-on-dark":
        paper = _jitter(rng, (28, 24, 22), 20) if rng.random() < 0.7 else _jitter(rng, (70, 35, 25), 20)
        light = _jitter(rng, (235, 235, 235), 20)
        warm = _jitter(rng, (110, 110, 250), 30) if rng.random() < 0.6 else _jitter(rng, (60, 200, 235), 20)
        inks = {"H": warm, "D": warm, "S": light, "C": light}
    elif kind == "metallic":
        gold, silver = _jitter(rng, (50, 170, 215), 25), _jitter(rng, (190, 190, 185), 20)
        if rng.random() < 0.5:  # foil on a dark card
            paper = _jitter(rng, (30, 28, 26), 15)
            inks = {"H": gold, "D": gold, "S": silver, "C": silver}
        else:  # foil and black on pale card
            inks = {"H": gold, "D": gold, "S": black, "C": black}
        sheen = True
    height = float(rng.uniform(52, 72)) if kind == "jumbo" else float(rng.uniform(28, 46))
    return DeckStyle(kind, paper, inks, font, int(rng.integers(len(FONTS))), height,
                     int(rng.integers(1, 4)), 4 if rng.random() < 0.3 else 2, sheen)


@lru_cache(maxsize=256)
def _glyph_mask(font: str, text: str, height: int, weight: int) -> np.ndarray:
    """``text`` in ``font`` as an ink mask (0..1) cropped to its ink, about ``height`` tall."""
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()
    face = pygame.font.Font(font, max(8, int(height * 1.45)))
    surface = face.render(text, True, (255, 255, 255), (0, 0, 0))
    grey = np.ascontiguousarray(np.transpose(pygame.surfarray.array3d(surface)[..., 0]))
    ys, xs = np.nonzero(grey > 40)
    if len(xs) == 0:
        return np.zeros((height, height // 2), np.float32)
    cut = grey[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32) / 255.0
    scale = height / cut.shape[0]
    ink: np.ndarray = cv2.resize(cut, (max(2, round(cut.shape[1] * scale)), height),
                                 interpolation=cv2.INTER_AREA)
    if weight > 1:
        ink = cv2.dilate(ink, np.ones((weight, weight), np.uint8))
    return ink


def _lay(img: np.ndarray, mask: np.ndarray, x: float, y: float, colour: BGR, sheen: bool,
         rng: np.random.Generator) -> tuple[float, float, float, float]:
    """Ink ``mask`` onto ``img`` with its top-left at (x, y); its box in face pixels."""
    h, w = mask.shape
    x0, y0 = round(x), round(y)
    x1, y1 = min(img.shape[1], x0 + w), min(img.shape[0], y0 + h)
    m = mask[: y1 - y0, : x1 - x0, None]
    ink = np.array(colour, np.float32)[None, None, :] * np.ones((y1 - y0, x1 - x0, 1), np.float32)
    if sheen:  # foil: brighter and darker bands across the glyph
        band = np.sin(np.linspace(0, float(rng.uniform(2, 6)), x1 - x0) + float(rng.uniform(0, 6)))
        ink = np.clip(ink * (1.0 + 0.35 * band[None, :, None]), 0, 255)
    region = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = (region * (1 - m) + ink * m).astype(np.uint8)
    return (float(x0), float(y0), float(x1), float(y1))


def styled_face(card: str, style: DeckStyle, rng: np.random.Generator) -> Face:
    """``card`` (``QH``, ``10C``, ``PJ``) drawn in ``style``, with the boxes of its indices."""
    img = np.empty((CARD_H, CARD_W, 3), np.uint8)
    img[:] = style.paper
    ix, iy = float(rng.uniform(7, 16)), float(rng.uniform(8, 18))
    joker = card == "PJ"
    suit = "H" if joker and rng.random() < 0.5 else ("S" if joker else card[-1])
    colour = style.inks[suit]
    rank = "JOKER" if joker else card[:-1]
    height = round(style.rank_height * (0.6 if joker else 1.0))
    if style.font is not None:
        if joker:
            letters = [_glyph_mask(str(style.font), ch, height, style.weight) for ch in rank]
            y, boxes_x1 = iy, ix
            for mask in letters:
                box = _lay(img, mask, ix, y, colour, style.sheen, rng)
                y, boxes_x1 = box[3] + 3, max(boxes_x1, box[2])
            index = (ix - 3, iy - 3, boxes_x1 + 3, y)
        else:
            mask = _glyph_mask(str(style.font), rank, height, style.weight)
            if mask.shape[1] > 1.25 * height:  # a wide "10": squeeze it as printers do
                mask = cv2.resize(mask, (round(1.2 * height), mask.shape[0]), interpolation=cv2.INTER_AREA)
            box = _lay(img, mask, ix, iy, colour, style.sheen, rng)
            ss = float(rng.uniform(0.65, 0.95)) * height
            sx, sy = (box[0] + box[2]) / 2, box[3] + 5 + ss / 2
            draw_suit(img, suit, sx, sy, ss, colour)
            index = (ix - 3, iy - 3, max(box[2], sx + ss / 2) + 3, sy + ss / 2 + 3)
    else:
        font, thick = FONTS[style.hershey], max(2, style.weight + 1)
        scale = cv2.getFontScaleFromHeight(font, height, thick)
        if joker:
            y, width = iy, 0.0
            for ch in rank:
                (tw, th), _ = cv2.getTextSize(ch, font, scale * 0.8, thick)
                cv2.putText(img, ch, (round(ix), round(y + th)), font, scale * 0.8, colour, thick, cv2.LINE_AA)
                y, width = y + th + 4, max(width, tw)
            index = (ix - 3, iy - 3, ix + width + 3, y)
        else:
            (tw, th), _ = cv2.getTextSize(rank, font, scale, thick)
            cv2.putText(img, rank, (round(ix), round(iy + th)), font, scale, colour, thick, cv2.LINE_AA)
            ss = float(rng.uniform(0.65, 0.95)) * height
            sx, sy = ix + tw / 2, iy + th + 5 + ss / 2
            draw_suit(img, suit, sx, sy, ss, colour)
            index = (ix - 3, iy - 3, max(ix + tw, sx + ss / 2) + 3, sy + ss / 2 + 3)
    index = (max(0.0, index[0]), max(0.0, index[1]), min(CARD_W / 2, index[2]), min(CARD_H / 2, index[3]))
    if joker or rank in ("J", "Q", "K"):
        court_art(img, rng, inset=int(max(index[2], index[3] - CARD_H / 3) + 6) if style.rank_height > 50 else 60)
    else:
        pips(img, rank, suit, colour, rng)
    return Face(card, img, _copy_corners(img, index, style.corners, style.paper))


def _copy_corners(img: np.ndarray, index: tuple[float, float, float, float], corners: int,
                  paper: BGR) -> tuple[tuple[float, float, float, float], ...]:
    """Print the top-left index ``index`` in the other corners: the bottom-right one turned
    half round always, and with ``corners=4`` the top-right one as it is and the bottom-left
    one turned; returns every index box."""
    x0, y0, x1, y1 = (round(v) for v in index)
    patch = img[y0:y1, x0:x1].copy()
    turned = cv2.rotate(patch, cv2.ROTATE_180)
    w, h = x1 - x0, y1 - y0
    boxes = [(float(x0), float(y0), float(x1), float(y1))]
    places = [(CARD_W - x1, CARD_H - y1, turned)]
    if corners == 4:
        places += [(CARD_W - x1, y0, patch), (x0, CARD_H - y1, turned)]
    for bx, by, p in places:
        img[by:by + h, bx:bx + w] = p
        boxes.append((float(bx), float(by), float(bx + w), float(by + h)))
    edge = tuple(int(v) for v in np.clip(np.array(paper) - 40, 0, 255)) if sum(paper) > 300 \
        else tuple(int(v) for v in np.clip(np.array(paper) + 60, 0, 255))
    cv2.rectangle(img, (0, 0), (CARD_W - 1, CARD_H - 1), edge, 2)
    return tuple(boxes)


def deck_drawer(rng: np.random.Generator, decks: int = 2, held_out: bool | None = False,
                kind: str | None = None, fonts: tuple[Path, ...] | None = None,
                ) -> Callable[[str, np.random.Generator], Face]:
    """A face drawer for one table: each card is drawn in one of ``decks`` random designs
    (their typefaces from ``fonts`` when given)."""
    styles = [random_style(rng, held_out, kind, fonts) for _ in range(decks)]

    def draw(card: str, r: np.random.Generator) -> Face:
        return styled_face(card, styles[int(r.integers(len(styles)))], r)

    return draw


def any_deck(held_out: bool | None = False,
             base: Callable[[str, np.random.Generator], Face] | None = None,
             share: float = 0.5, fonts: tuple[Path, ...] | None = None,
             ) -> Callable[[str, np.random.Generator], Face]:
    """A face drawer for training: each card in a fresh random design ``share`` of the time
    (its typeface from ``fonts`` when given), else drawn by ``base`` (e.g. the artwork and
    drawn faces)."""

    def draw(card: str, r: np.random.Generator) -> Face:
        if base is not None and r.random() >= share:
            return base(card, r)
        return styled_face(card, random_style(r, held_out, fonts=fonts), r)

    return draw
