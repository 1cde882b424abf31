"""Photograph-like drawn scenes of rummy tiles with exact labels, for training the learnt tile
reader (``vision/train/train_tiles.py``) and measuring it (``bench/bench_tiles_learnt.py``).

A tile set (:class:`TileSet`) fixes what a real set of tiles looks like: the plastic of its
faces (:data:`PLASTICS`: cream, ivory, white, with their gradients and rims), the typeface
of its numerals (the font files Debian's font packages install, found as
``vision.deck_styles`` finds them), a stroke weight and rounding, how high the numeral sits,
the mark some sets print under the numeral (a dot, a bar, a ring, or a bar under 6 and 9
only), its four inks and its Joly. The numeral always sits above the tile's middle, so a
tile's own layout (with the mark, where there is one) tells which way up it lies: a 6 turned
half round is not a 9.

A scene (:func:`tile_scene`) lays tiles in rows of sets (pushed together or a little
apart), on racks, or scattered and turned any way, among face-down tiles and clutter, on
wood, cloth, felt or a light floor, some among playing cards (``cards``: what the reader
must learn is not a tile, so that it can also tell a card table from a tile table); seen at
a slant, under warm or cold light with glare, blurred, noisy and JPEG-compressed. Every
tile's face corners are known exactly.

Families :data:`HELD_OUT_TILE_FAMILIES` and plastics :data:`HELD_OUT_PLASTICS` are never drawn
in training, only by the benchmark.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from engine.tiles import COLOURS
from vision.deck_styles import DeckStyle, font_family, font_files, random_style, styled_face
from vision.synth import CARD_H, CARD_W, camera_pose, random_card
from vision.synth import draw_face as draw_card_face
from vision.tile_reader import TILE_CLASSES

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

#: Typeface families never drawn in training scenes, only in the benchmark's held-out sets.
HELD_OUT_TILE_FAMILIES: Final = frozenset({"URWGothic", "NotoSansDisplay", "LiberationSerif",
                                           "NimbusMonoPS"})
#: Families that draw no tile numerals (symbols, other scripts).
_NOT_NUMERALS: Final = frozenset({"NotoSansSymbols", "NotoTraditionalNushu", "NotoSansMath"})
BGR = tuple[int, int, int]


@dataclass(frozen=True)
class Plastic:
    """A tile face's plastic: its colour, how much it shades across the face, how dark its
    bevelled rim gets and how glossy it is (0 matte … 1 glossy)."""

    name: str
    face: BGR
    gradient: float
    rim: float
    gloss: float


PLASTICS: Final = (
    Plastic("cream", (200, 232, 245), 0.06, 0.25, 0.4),
    Plastic("ivory", (215, 238, 248), 0.05, 0.2, 0.6),
    Plastic("white", (242, 244, 245), 0.04, 0.18, 0.5),
    Plastic("bone", (185, 215, 228), 0.08, 0.3, 0.3),
    Plastic("matte-white", (228, 232, 234), 0.03, 0.12, 0.1),
    Plastic("yellowed", (165, 215, 235), 0.07, 0.28, 0.3),
    Plastic("pearl", (232, 236, 240), 0.1, 0.22, 0.8),
    Plastic("bluish-white", (248, 240, 232), 0.05, 0.2, 0.5),
)
#: Plastics never drawn in training scenes.
HELD_OUT_PLASTICS: Final = frozenset({"pearl", "yellowed"})
#: Marks printed under the numeral.
MARKS: Final = ("none", "dot", "bar", "ring", "six-nine")


@dataclass(frozen=True)
class TileSet:
    """One set's design: plastic, numeral font file, ink per colour (BGR), stroke weight
    (dilation in face pixels at 100 pixels high), rounding, the numeral's height and centre
    as shares of the face's height, the mark under it and its colour, and the Joly's face."""

    plastic: Plastic
    font: Path
    inks: dict[str, BGR]
    weight: float
    rounding: float
    height: float
    centre: float
    mark: str
    mark_ink: BGR | None
    joly: int
    engraved: bool
    #: the Joly's design (``JOLY_DESIGNS``): ``JOLY_V1[joly]`` unless another was chosen
    joly_design: str = ""

    @property
    def joly_face(self) -> str:
        return self.joly_design or JOLY_V1[self.joly]

    @property
    def family(self) -> str:
        return font_family(self.font)


@lru_cache(maxsize=1)
def _all_fonts() -> tuple[Path, ...]:
    # tiles print upright numerals: no italic or oblique cuts
    return tuple(p for p in font_files() if font_family(p) not in _NOT_NUMERALS
                 and not any(s in p.stem for s in ("Italic", "Oblique")))


def tile_fonts(held_out: bool | None = False) -> tuple[Path, ...]:
    """Numeral font files of the training families (``False``), the held-out ones (``True``)
    or all (``None``)."""
    return tuple(p for p in _all_fonts()
                 if held_out is None or (font_family(p) in HELD_OUT_TILE_FAMILIES) == held_out)


def plastics(held_out: bool | None = False) -> tuple[Plastic, ...]:
    """The training plastics (``False``), the held-out ones (``True``) or all."""
    return tuple(p for p in PLASTICS if held_out is None or (p.name in HELD_OUT_PLASTICS) == held_out)


def _jitter(rng: np.random.Generator, colour: BGR, amount: int) -> BGR:
    c = np.clip(np.array(colour) + rng.integers(-amount, amount + 1, 3), 0, 255)
    return (int(c[0]), int(c[1]), int(c[2]))


def random_set(rng: np.random.Generator, held_out_fonts: bool | None = False,
               held_out_plastics: bool | None = False, fonts: tuple[Path, ...] | None = None,
               jolys: str = "v1") -> TileSet:
    """A random tile set design from the given fonts and plastics (``fonts`` names the font
    files instead), its Joly drawn from the designs of the version ``jolys`` (``JOLYS``)."""
    if jolys not in JOLYS:
        raise ValueError(f"jolys must be one of {', '.join(JOLYS)}, not {jolys!r}")
    fonts = fonts or tile_fonts(held_out_fonts)
    if not fonts:
        raise RuntimeError("no numeral fonts installed (fonts-dejavu-core at least)")
    font = fonts[int(rng.integers(len(fonts)))]
    choice = plastics(held_out_plastics)
    p = choice[int(rng.integers(len(choice)))]
    plastic = Plastic(p.name, _jitter(rng, p.face, 8), p.gradient, p.rim, p.gloss)
    inks = {
        "R": _jitter(rng, [(35, 30, 200), (40, 20, 170), (60, 50, 215), (30, 40, 150)][int(rng.integers(4))], 15),
        "B": _jitter(rng, [(170, 80, 20), (120, 50, 20), (200, 120, 40), (140, 70, 0)][int(rng.integers(4))], 15),
        "K": _jitter(rng, (30, 30, 30), 15),
        "Y": _jitter(rng, [(0, 130, 240), (10, 160, 235), (0, 100, 230), (20, 175, 215)][int(rng.integers(4))], 12),
    }
    mark = MARKS[int(rng.choice(len(MARKS), p=[0.4, 0.15, 0.1, 0.1, 0.25]))]
    mark_ink = None if rng.random() < 0.6 else _jitter(rng, (60, 120, 200), 40)
    tset = TileSet(plastic, font, inks, float(rng.uniform(0, 5)), float(rng.uniform(0, 1)),
                   float(rng.uniform(0.32, 0.46)), float(rng.uniform(0.3, 0.42)), mark, mark_ink,
                   int(rng.integers(3)), bool(rng.random() < 0.25))
    if jolys == "v1":
        return tset
    # chosen by a generator of the set's own, seeded by what was drawn for it, so that a scene
    # drawn at another version is the same scene but for its Jolys' faces
    own = np.random.default_rng([*(v for ink in inks.values() for v in ink), tset.joly,
                                 round(tset.weight * 1e6), round(tset.height * 1e6)])
    designs = JOLYS[jolys]
    design = designs[int(own.integers(len(designs)))]
    if jolys in EMBLEMS and own.random() < EMBLEMS[jolys]:
        design = f"emblem-{int(own.integers(1 << 30))}"
    return replace(tset, joly_design=design)


@lru_cache(maxsize=2048)
def _numeral(font: str, text: str) -> np.ndarray:
    """``text`` in ``font`` as an ink mask (0..1) cropped to its ink, 100 pixels high."""
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()
    face = pygame.font.Font(font, 140)
    surface = face.render(text, True, (255, 255, 255), (0, 0, 0))
    grey = np.ascontiguousarray(np.transpose(pygame.surfarray.array3d(surface)[..., 0]))
    ys, xs = np.nonzero(grey > 40)
    if len(xs) == 0:
        return np.zeros((100, 50), np.float32)
    cut = grey[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32) / 255.0
    s = 100 / cut.shape[0]
    out: np.ndarray = cv2.resize(cut, (max(2, round(cut.shape[1] * s)), 100), interpolation=cv2.INTER_AREA)
    return out


def _rounded_mask(w: int, h: int, radius: float) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    r = max(1, int(radius))
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


#: The three smiling faces the first Jolys were drawn with (``TileSet.joly``): a red ring, a
#: black ring, a sun (yellow disc, red ring).
JOLY_V1: Final = ("smiley-red", "smiley-black", "smiley-sun")
#: The Joly designs a scene's sets draw from, by version (``tile_scene``'s ``jolys``): ``v1``,
#: the three smiling faces the shipped reader learnt; ``v2`` adds a jester in a three-pointed
#: cap, a clown, a crowned face, a star and a letter J in the set's own typeface, as real
#: sets print them; ``v3`` gives half the sets instead an emblem of their own (``emblem-SEED``:
#: two to four shapes of the set's inks put together at random, ``_emblem``), so that what
#: is learnt is a picture in the numeral's place, not a few pictures; ``held-out``, designs
#: never drawn in training (a four-leaf clover, as the false jokers of okey sets, and a
#: crescent moon's face), for the benchmark.
_NAMED_JOLYS: Final = (*JOLY_V1, "jester", "clown", "crown", "star", "letter")
JOLYS: Final = {"v1": JOLY_V1, "v2": _NAMED_JOLYS, "v3": _NAMED_JOLYS, "held-out": ("clover", "moon")}
#: The share of the sets given an emblem of their own instead of a named design, by version.
EMBLEMS: Final = {"v3": 0.5}
#: Every Joly design drawn (``draw_joly``).
JOLY_DESIGNS: Final = tuple(dict.fromkeys(d for v in JOLYS.values() for d in v))


def _star(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> np.ndarray:
    a = np.arange(2 * points) * np.pi / points - np.pi / 2
    rr = np.where(np.arange(2 * points) % 2 == 0, r, r * inner)
    return np.stack([cx + rr * np.cos(a), cy + rr * np.sin(a)], axis=1).round().astype(np.int32)


def _smile(img: np.ndarray, cx: float, cy: float, r: float, colour: tuple[float, ...], t: int) -> None:
    """Two eyes and a smile of a face of radius ``r`` centred at (cx, cy)."""
    e = max(1, round(r / 6))
    cv2.circle(img, (round(cx - r / 3), round(cy - r / 4)), e, colour, -1, cv2.LINE_AA)
    cv2.circle(img, (round(cx + r / 3), round(cy - r / 4)), e, colour, -1, cv2.LINE_AA)
    cv2.ellipse(img, (round(cx), round(cy + r / 8)), (round(r / 2), round(r / 3)), 0, 20, 160,
                colour, t, cv2.LINE_AA)


def _glyph(img: np.ndarray, tset: TileSet, char: str, x: float, y: float, height: float, widest: float,
           ink: tuple[float, ...]) -> tuple[int, int, int, int]:
    """``char`` in the set's typeface laid in ``ink`` on ``img``, centred at (x, y), ``height``
    high and at most ``widest`` wide; its left, top, width and height in pixels."""
    mask = _numeral(str(tset.font), char)
    mh = max(4, round(height))
    mw = max(2, min(round(widest), round(mask.shape[1] * mh / mask.shape[0])))
    x0, y0 = round(x - mw / 2), round(y - mh / 2)
    _lay(img, cv2.resize(mask, (mw, mh), interpolation=cv2.INTER_AREA), x0, y0, np.array(ink, np.float32), False)
    return x0, y0, mw, mh


#: The shapes an emblem is put together from (``_emblem``): no digit, no crescent.
EMBLEM_SHAPES: Final = ("disc", "ring", "star", "polygon", "heart", "face", "rays", "letter", "bar")


def _emblem(img: np.ndarray, tset: TileSet, seed: int, cx: float, cy: float,
            r: float) -> tuple[float, float, float, float]:
    """An emblem of two to four shapes (``EMBLEM_SHAPES``) drawn from ``seed`` in the set's inks,
    within radius ``r`` of (cx, cy); its box."""
    g = np.random.default_rng(seed)
    inks = [tset.inks[c] for c in "RKBY"]
    t = max(1, round(r / 6))
    boxes = []
    for k in range(int(g.integers(2, 5))):
        shape = EMBLEM_SHAPES[int(g.integers(len(EMBLEM_SHAPES)))]
        size = r * float(g.uniform(0.35, 0.9)) if k else r * float(g.uniform(0.7, 1.0))
        off = g.uniform(-1, 1, 2) * (r - size) if k else np.zeros(2)
        x, y = cx + float(off[0]), cy + float(off[1])
        ink = inks[int(g.choice(4, p=[0.4, 0.35, 0.15, 0.1]))]
        p = (round(x), round(y))
        if shape == "disc":
            cv2.circle(img, p, round(size), ink, -1, cv2.LINE_AA)
        elif shape == "ring":
            cv2.circle(img, p, round(size), ink, t, cv2.LINE_AA)
        elif shape == "star":
            pts = _star(x, y, size, int(g.integers(4, 9)), float(g.uniform(0.35, 0.6)))
            cv2.fillPoly(img, [pts], ink, cv2.LINE_AA)
        elif shape == "polygon":
            n = int(g.integers(3, 7))
            a = np.arange(n) * 2 * np.pi / n + float(g.uniform(0, np.pi))
            pts = np.stack([x + size * np.cos(a), y + size * np.sin(a)], axis=1).round().astype(np.int32)
            cv2.fillPoly(img, [pts], ink, cv2.LINE_AA)
        elif shape == "heart":
            h = size * 0.5
            cv2.circle(img, (round(x - h * 0.9), round(y - h * 0.4)), round(h), ink, -1, cv2.LINE_AA)
            cv2.circle(img, (round(x + h * 0.9), round(y - h * 0.4)), round(h), ink, -1, cv2.LINE_AA)
            pts = np.array([[x - h * 1.85, y - h * 0.1], [x + h * 1.85, y - h * 0.1], [x, y + size]])
            cv2.fillPoly(img, [pts.round().astype(np.int32)], ink, cv2.LINE_AA)
        elif shape == "face":
            cv2.circle(img, p, round(size), ink, t, cv2.LINE_AA)
            _smile(img, x, y, size, inks[int(g.integers(4))], t)
        elif shape == "rays":
            for a in np.arange(int(g.integers(6, 13))) * 2 * np.pi / 12:
                cv2.line(img, (round(x + size * 0.45 * np.cos(a)), round(y + size * 0.45 * np.sin(a))),
                         (round(x + size * np.cos(a)), round(y + size * np.sin(a))), ink, t, cv2.LINE_AA)
        elif shape == "letter":
            _glyph(img, tset, "JKRW&@"[int(g.integers(6))], x, y, size * 1.6, size * 1.8, ink)
        else:  # a bar across
            turn = float(g.uniform(0, np.pi))
            dx, dy = size * float(np.cos(turn)), size * float(np.sin(turn))
            cv2.line(img, (round(x - dx), round(y - dy)), (round(x + dx), round(y + dy)), ink, 2 * t, cv2.LINE_AA)
        reach = size * 1.05 + 2 * t
        boxes.append((x - reach, y - reach, x + reach, y + reach))
    b = np.array(boxes)
    h, w = img.shape[:2]
    return (max(0.0, float(b[:, 0].min())), max(0.0, float(b[:, 1].min())),
            min(float(w), float(b[:, 2].max())), min(float(h), float(b[:, 3].max())))


def draw_joly(img: np.ndarray, tset: TileSet, cx: float, cy: float, r: float,
              rng: np.random.Generator) -> tuple[float, float, float, float]:
    """The Joly's face (``tset.joly_face``: one of ``JOLY_DESIGNS``, or ``emblem-SEED``, an
    emblem drawn from that seed by ``_emblem``) on ``img`` (float BGR), centred at (cx, cy)
    within radius ``r``; its box."""
    design = tset.joly_face
    # a smiling face's inks are its design's; the other designs' red or black as the set drew
    kind = JOLY_V1.index(design) if design in JOLY_V1 else tset.joly
    colour = tset.inks["R"] if kind != 1 else tset.inks["K"]
    second = tset.inks["K"] if kind == 2 else colour
    t = max(1, round(r / 6))
    c = (round(cx), round(cy))
    if design in JOLY_V1:
        if kind != 2:
            cv2.circle(img, c, round(r), colour, t, cv2.LINE_AA)
        else:
            cv2.circle(img, c, round(r), tset.inks["Y"], -1, cv2.LINE_AA)
            cv2.circle(img, c, round(r), colour, t, cv2.LINE_AA)
        _smile(img, cx, cy, r, second, t)
        r += t / 2 + 1  # the ring's stroke
        return (cx - r, cy - r, cx + r, cy + r)
    other = tset.inks["K"] if kind != 1 else tset.inks["R"]
    if design.startswith("emblem-"):
        return _emblem(img, tset, int(design.removeprefix("emblem-")), cx, cy, r)
    if design == "jester":  # a face under a cap of three points, a bell on each
        fr = r * 0.55
        fy = cy + r * 0.4
        cv2.circle(img, (round(cx), round(fy)), round(fr), colour, t, cv2.LINE_AA)
        _smile(img, cx, fy, fr, other, max(1, t - 1))
        base = fy - fr * 0.8
        tips = [(cx - r, cy - r * 0.7), (cx, cy - r), (cx + r, cy - r * 0.7)]
        for k, (tx, ty) in enumerate(tips):
            poly = np.array([[cx - fr * 1.1 + k * fr * 0.73, base], [cx - fr * 1.1 + (k + 1) * fr * 0.73, base],
                             [tx, ty]]).round().astype(np.int32)
            cv2.fillPoly(img, [poly], colour if k != 1 else other, cv2.LINE_AA)
            cv2.circle(img, (round(tx), round(ty)), max(1, t), other if k != 1 else colour, -1, cv2.LINE_AA)
        return (cx - r - t, cy - r - t, cx + r + t, fy + fr + t)
    if design == "clown":  # a ring face, a round nose and tufts of hair either side
        cv2.circle(img, c, round(r * 0.8), other, t, cv2.LINE_AA)
        _smile(img, cx, cy + r * 0.1, r * 0.8, other, t)
        cv2.circle(img, (round(cx), round(cy + r * 0.05)), max(2, round(r / 5)), colour, -1, cv2.LINE_AA)
        for side in (-1, 1):
            for k in range(3):
                cv2.circle(img, (round(cx + side * r * 0.85), round(cy - r * 0.45 + k * r * 0.3)),
                           max(1, round(r / 6)), colour, -1, cv2.LINE_AA)
        return (cx - r - t, cy - r * 0.8 - t, cx + r + t, cy + r * 0.8 + t)
    if design == "crown":  # a crown of three points over a small face
        fr = r * 0.5
        fy = cy + r * 0.45
        cv2.circle(img, (round(cx), round(fy)), round(fr), other, t, cv2.LINE_AA)
        _smile(img, cx, fy, fr, other, max(1, t - 1))
        top, low = cy - r, fy - fr - t
        crown = np.array([[cx - r * 0.8, low], [cx - r * 0.8, top + r * 0.3], [cx - r * 0.4, top + r * 0.6],
                          [cx, top], [cx + r * 0.4, top + r * 0.6], [cx + r * 0.8, top + r * 0.3],
                          [cx + r * 0.8, low]]).round().astype(np.int32)
        cv2.fillPoly(img, [crown], colour, cv2.LINE_AA)
        return (cx - r * 0.8, top, cx + r * 0.8, fy + fr + t)
    if design == "star":  # a five-pointed star, a dot of the other ink in it
        cv2.fillPoly(img, [_star(cx, cy, r)], colour, cv2.LINE_AA)
        cv2.circle(img, c, max(1, round(r / 5)), other, -1, cv2.LINE_AA)
        return (cx - r, cy - r, cx + r, cy + r * 0.81)
    if design == "letter":  # a J in the set's own typeface, a small star beside it
        x0, y0, mw, mh = _glyph(img, tset, "J", cx - r * 0.15, cy, r * 1.7, r * 1.6, colour)
        sr = r * 0.3
        cv2.fillPoly(img, [_star(cx + r * 0.7, cy - r * 0.65, sr)], other, cv2.LINE_AA)
        return (min(x0, cx + r * 0.4), cy - r * 0.95, max(x0 + mw, cx + r), y0 + mh)
    if design == "clover":  # four round leaves and a stem
        lr = r * 0.36
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            cv2.circle(img, (round(cx + dx * lr * 1.05), round(cy - r * 0.15 + dy * lr * 1.05)), round(lr),
                       colour, -1, cv2.LINE_AA)
        cv2.line(img, (round(cx), round(cy + r * 0.2)), (round(cx + r * 0.35), round(cy + r)), colour,
                 max(1, t), cv2.LINE_AA)
        return (cx - r * 0.75, cy - r * 0.9, cx + r * 0.75, cy + r + t)
    if design == "moon":  # a crescent moon with an eye and a smile on its inner edge
        mask = np.zeros(img.shape[:2], np.uint8)
        cv2.circle(mask, c, round(r), 255, -1, cv2.LINE_AA)
        cv2.circle(mask, (round(cx + r * 0.45), round(cy - r * 0.1)), round(r * 0.8), 0, -1, cv2.LINE_AA)
        a = (mask.astype(np.float32) / 255.0)[..., None]
        img[:] = img * (1 - a) + np.array(colour, np.float32) * a
        xs = np.nonzero(mask.any(axis=0))[0]
        cv2.circle(img, (round(cx - r * 0.05), round(cy - r * 0.3)), max(1, round(r / 7)), other, -1, cv2.LINE_AA)
        cv2.ellipse(img, (round(cx), round(cy + r * 0.1)), (round(r / 3), round(r / 4)), 0, 20, 120,
                    other, t, cv2.LINE_AA)
        return (float(xs.min()), cy - r - 1, float(xs.max()) + 1, cy + r + 1)
    raise ValueError(f"unknown Joly design {design!r} (one of {', '.join(JOLY_DESIGNS)})")


def draw_face(tile: str, tset: TileSet, w: int, h: int, rng: np.random.Generator,
              face_up: bool = True) -> tuple[np.ndarray, np.ndarray, tuple[float, float, float, float]]:
    """A tile face ``w``×``h`` (upright): its BGR image (float32), its shape's alpha (0..1,
    rounded corners) and the box of its numeral (or Joly) in face pixels. ``face_up=False``
    draws the plain plastic of a face-down tile."""
    p = tset.plastic
    ys = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    xs = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    a = float(rng.uniform(0, 2 * np.pi))
    shade = 1.0 + p.gradient * float(rng.uniform(0.3, 1.0)) * (np.cos(a) * xs + np.sin(a) * ys)
    img = np.empty((h, w, 3), np.float32)
    img[:] = np.array(p.face, np.float32)
    img *= shade[..., None]
    alpha = _rounded_mask(w, h, w * float(rng.uniform(0.06, 0.18)))
    # the bevelled rim: lit on the side facing the light, dark on the other
    rim = max(1.5, w * float(rng.uniform(0.04, 0.1)))
    dist = cv2.distanceTransform(alpha, cv2.DIST_L2, 3)
    prof = np.clip(dist / rim, 0, 1).astype(np.float32)
    gx = cv2.Sobel(prof, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(prof, cv2.CV_32F, 0, 1, ksize=3)
    la = float(rng.uniform(0, 2 * np.pi))
    light = (gx * np.cos(la) + gy * np.sin(la)) * p.rim * 0.6
    img *= np.clip(1.0 + light - p.rim * 0.5 * (1 - prof), 0.3, 1.4)[..., None]
    box = (0.0, 0.0, 0.0, 0.0)
    if face_up:
        box = _print(img, tile, tset, w, h, rng)
    return img, alpha.astype(np.float32) / 255.0, box


def _print(img: np.ndarray, tile: str, tset: TileSet, w: int, h: int,
           rng: np.random.Generator) -> tuple[float, float, float, float]:
    """The numeral (or the Joly) and the mark under it, printed on a face."""
    cy = h * (tset.centre + float(rng.uniform(-0.02, 0.02)))
    nh = h * tset.height
    if tile == "JY":
        return draw_joly(img, tset, w / 2, cy, min(w * 0.36, nh * 0.6), rng)
    number = tile[1:]
    ink = np.array(tset.inks[tile[0]], np.float32) * float(rng.uniform(0.9, 1.1))
    mask = _numeral(str(tset.font), number)
    mh = max(4, round(nh))
    mw = max(2, round(mask.shape[1] * mh / mask.shape[0]))
    if mw > 0.84 * w:  # two digits squeezed to fit the face
        mw = round(0.84 * w)
    m = cv2.resize(mask, (mw, mh), interpolation=cv2.INTER_AREA)
    grow = tset.weight * mh / 100
    pad = int(grow) + 2
    m = cv2.copyMakeBorder(m, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    if grow >= 1:
        k = int(round(grow)) * 2 + 1
        m = cv2.dilate(m, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    if tset.rounding > 0.3:
        s = tset.rounding * mh / 40
        m = np.clip((cv2.GaussianBlur(m, (0, 0), s) - 0.5) * 2.5 + 0.5, 0, 1)
    x0 = round(w / 2 - m.shape[1] / 2)
    y0 = round(cy - m.shape[0] / 2)
    _lay(img, m, x0, y0, ink, tset.engraved)
    ys, xs = np.nonzero(m > 0.4)
    box = (x0 + float(xs.min()), y0 + float(ys.min()), x0 + float(xs.max()) + 1, y0 + float(ys.max()) + 1)
    mark = tset.mark
    if mark == "six-nine":
        mark = "bar" if number in ("6", "9") else "none"
    if mark != "none":
        colour = tuple(float(v) for v in (ink if tset.mark_ink is None else tset.mark_ink))
        my = box[3] + h * 0.08
        t = max(1, round(w * 0.05))
        if mark == "dot":
            cv2.circle(img, (round(w / 2), round(my + t)), t, colour, -1, cv2.LINE_AA)
        elif mark == "ring":
            cv2.circle(img, (round(w / 2), round(my + 2 * t)), 2 * t, colour, max(1, t // 2), cv2.LINE_AA)
        else:
            cv2.rectangle(img, (round(w * 0.36), round(my)), (round(w * 0.64), round(my + t)), colour, -1)
    return box


def _lay(img: np.ndarray, m: np.ndarray, x0: int, y0: int, ink: np.ndarray, engraved: bool) -> None:
    h, w = img.shape[:2]
    xa, ya = max(0, x0), max(0, y0)
    xb, yb = min(w, x0 + m.shape[1]), min(h, y0 + m.shape[0])
    if xa >= xb or ya >= yb:
        return
    sub = m[ya - y0:yb - y0, xa - x0:xb - x0][..., None]
    region = img[ya:yb, xa:xb]
    if engraved:  # pressed into the plastic: a dark edge below and a light one above
        edge = np.roll(sub, 1, axis=0) - sub
        region *= np.clip(1 + 0.25 * edge, 0.6, 1.3)
    img[ya:yb, xa:xb] = region * (1 - sub) + ink[None, None, :] * sub


# --- tables -----------------------------------------------------------------------------------


#: The table surfaces drawn at random, by version, with their chances. ``v1`` is what the
#: first learnt tile reader learnt on; ``v2``, the shipped reader's, adds busy surfaces: fine
#: speckle (laminate, cork), granite (dots of two to four shades) and carpet (fibres along one
#: way), on which the ``v1`` reader took grain for tiles by the hundred. ``v3`` adds a printed
#: oilcloth (``print``: a pale ground under a repeating print of small coloured motifs, as
#: kitchen tablecloths have), on which a pale gap between two melds shows coloured marks the
#: size of a numeral's strokes.
SURFACES: Final = {
    "v1": (("wood", 0.3), ("cloth", 0.15), ("felt", 0.2), ("floor", 0.2), ("plain", 0.15)),
    "v2": (("wood", 0.2), ("cloth", 0.1), ("felt", 0.12), ("floor", 0.13), ("plain", 0.1),
           ("speckle", 0.13), ("granite", 0.12), ("carpet", 0.1)),
    "v3": (("wood", 0.18), ("cloth", 0.09), ("felt", 0.11), ("floor", 0.12), ("plain", 0.09),
           ("speckle", 0.11), ("granite", 0.11), ("carpet", 0.09), ("print", 0.1)),
}
#: Surfaces never drawn at random, for measuring only (``bench/bench_tiles_learnt.py``):
#: ``grain``, blotches a few pixels wide (a coarse-grained cloth or stone), and ``terrazzo``,
#: chips of stone of several colours set in a pale ground.
HELD_OUT_SURFACES: Final = ("grain", "terrazzo")
#: The surfaces drawn by ``table_texture`` itself (those of ``v1``), and the busy ones
#: (``_busy_surface``): every other kind named in ``SURFACES``, and the held-out ones.
_PLAIN: Final = tuple(name for name, _ in SURFACES["v1"])
_BUSY: Final = tuple(dict.fromkeys(name for kinds in SURFACES.values() for name, _ in kinds
                                   if name not in _PLAIN)) + HELD_OUT_SURFACES


def table_texture(h: int, w: int, rng: np.random.Generator, kind: str | None = None,
                  surfaces: str = "v1") -> np.ndarray:
    """A table surface (float32 BGR) of ``kind`` (see ``SURFACES`` and ``HELD_OUT_SURFACES``),
    drawn at random from the version ``surfaces`` when None."""
    if kind is None:
        if surfaces not in SURFACES:
            raise ValueError(f"unknown surfaces {surfaces!r} (known: {', '.join(SURFACES)})")
        names, chances = zip(*SURFACES[surfaces], strict=True)
        kind = str(rng.choice(list(names), p=list(chances)))
    if kind in _BUSY:
        return _busy_surface(h, w, rng, kind)
    if kind not in _PLAIN:
        raise ValueError(f"unknown table surface {kind!r}")
    sh, sw = max(8, h // 4), max(8, w // 4)
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    if kind == "wood":
        base = np.array(_jitter(rng, [(40, 80, 130), (70, 120, 170), (25, 45, 80), (110, 160, 200)][int(rng.integers(4))], 20), np.float32)
        a = float(rng.uniform(0, np.pi))
        u = xs * np.cos(a) + ys * np.sin(a)
        v = -xs * np.sin(a) + ys * np.cos(a)
        warp = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (sw, sh)) * rng.uniform(2, 8)
        grain = np.sin(v * rng.uniform(0.3, 1.2) + warp + np.sin(u * 0.05) * 2)
        plank = (np.floor(v / rng.uniform(20, 60)) % 2) * rng.uniform(-0.1, 0.1)
        f = 1 + 0.12 * grain + plank
        img = base[None, None, :] * f[..., None]
    elif kind in ("cloth", "felt"):
        colour = [(40, 110, 30), (110, 60, 20), (30, 30, 140), (60, 60, 60), (90, 40, 90), (140, 130, 120)]
        base = np.array(_jitter(rng, colour[int(rng.integers(len(colour)))], 25), np.float32)
        n = rng.normal(0, 1, (sh, sw)).astype(np.float32)
        if kind == "cloth":
            weave = np.sin(xs * rng.uniform(1, 2.5)) * np.sin(ys * rng.uniform(1, 2.5))
            n = 0.5 * n + weave
        f = 1 + 0.06 * cv2.GaussianBlur(n, (0, 0), 0.7)
        img = base[None, None, :] * f[..., None]
    elif kind == "floor":
        base = np.array(_jitter(rng, [(200, 205, 210), (170, 190, 205), (225, 225, 222), (150, 160, 165)][int(rng.integers(4))], 15), np.float32)
        n = np.asarray(cv2.GaussianBlur(rng.normal(0, 1, (sh, sw)).astype(np.float32), (0, 0), 2))
        img = base[None, None, :] * (1 + 0.05 * n)[..., None]
        if rng.random() < 0.5:  # tiled floor's joints
            step = rng.uniform(25, 80)
            joint = ((xs % step) < 1) | ((ys % step) < 1)
            img[joint] *= 0.8
    else:
        base = rng.uniform(20, 200, 3).astype(np.float32)
        img = np.ones((sh, sw, 3), np.float32) * base
    out: np.ndarray = cv2.resize(img.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return out


def _busy_surface(h: int, w: int, rng: np.random.Generator, kind: str) -> np.ndarray:
    """A surface with detail at the scale of a tile's numeral strokes (float32 BGR, ``h``×``w``
    pixels): see ``SURFACES`` and ``HELD_OUT_SURFACES``."""
    base = rng.uniform(25, 215, 3).astype(np.float32)
    img: np.ndarray = np.ones((h, w, 3), np.float32) * base
    if kind == "speckle":  # fine noise, one to three pixels across, grey or tinted
        cell = float(rng.uniform(1.0, 3.0))
        coarse = rng.normal(0, 1, (max(2, round(h / cell)), max(2, round(w / cell)))).astype(np.float32)
        n = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR).reshape(h, w, 1)
        tint = rng.uniform(0.7, 1.3, 3).astype(np.float32)
        img = img + n * float(rng.uniform(10, 40)) * tint
    elif kind == "granite":  # dots of two to four shades over the ground
        for _ in range(int(rng.integers(2, 5))):
            # lighter and darker stones of the ground's hue, a little tinted
            colour = np.clip(base * float(rng.uniform(0.3, 1.7)) + rng.normal(0, 20, 3), 0, 255).astype(np.float32)
            cell = float(rng.uniform(1.5, 5.0))
            gh, gw = max(2, round(h / cell)), max(2, round(w / cell))
            dots = (rng.random((gh, gw)) < rng.uniform(0.05, 0.3)).astype(np.float32)
            mask = cv2.resize(dots, (w, h), interpolation=cv2.INTER_LINEAR)[..., None]
            img = img * (1 - mask) + colour * mask
    elif kind == "carpet":  # short fibres along one way
        noise = rng.normal(0, 1, (h, w)).astype(np.float32)
        length = int(rng.integers(3, 9))
        angle = float(rng.uniform(0, 180))
        line = np.zeros((length, length), np.float32)
        line[length // 2, :] = 1.0 / length
        k = cv2.warpAffine(line, cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), angle, 1.0),
                           (length, length))
        kernel = (k / max(1e-6, float(k.sum()))).astype(np.float32)
        fibres = cv2.filter2D(noise, -1, kernel)
        img = img * (1 + float(rng.uniform(0.1, 0.3)) * fibres[..., None])
    elif kind == "print":  # an oilcloth: one block of small coloured motifs, repeated
        img = printed_cloth(h, w, rng)
    elif kind == "grain":  # blotches about four pixels across
        blotches = rng.normal(0, rng.uniform(5, 30), (h // 4 + 1, w // 4 + 1)).astype(np.float32)
        img = img + cv2.resize(blotches, (w, h), interpolation=cv2.INTER_LINEAR)[..., None]
    else:  # terrazzo: chips of stone of several colours in a pale ground
        img = np.ones((h, w, 3), np.float32) * rng.uniform(170, 240, 3).astype(np.float32)
        cell = float(rng.uniform(3, 10))
        gh, gw = max(2, round(h / cell)), max(2, round(w / cell))
        colours = cv2.resize(rng.uniform(0, 220, (gh, gw, 3)).astype(np.float32), (w, h),
                             interpolation=cv2.INTER_NEAREST)
        chips = (rng.random((gh, gw)) < rng.uniform(0.2, 0.5)).astype(np.float32)
        # the grid's squares rounded off into pebbles
        pebbles = cv2.GaussianBlur(cv2.resize(chips, (w, h), interpolation=cv2.INTER_NEAREST), (0, 0), cell / 3) > 0.5
        img[pebbles] = colours[pebbles]
    out: np.ndarray = np.clip(img, 0, 255)
    return out


def printed_cloth(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A printed tablecloth (float32 BGR, ``h``×``w``): a pale ground, and a square block 16–90
    pixels wide holding three to ten motifs (dots, rings, petals, squares, short bars) in two
    to five colours, repeated across the cloth, every other row of blocks shifted by half a
    block or not."""
    ground = rng.uniform(165, 245, 3).astype(np.float32)
    side = int(rng.integers(16, 91))
    block = np.ones((side, side, 3), np.float32) * ground
    inks = [tuple(float(v) for v in rng.uniform(0, 230, 3)) for _ in range(int(rng.integers(2, 6)))]
    for _ in range(int(rng.integers(3, 11))):
        ink = inks[int(rng.integers(len(inks)))]
        cx, cy = (int(v) for v in rng.integers(0, side, 2))
        r = max(1, int(rng.uniform(0.04, 0.16) * side))
        shape = int(rng.integers(5))
        if shape == 0:
            cv2.circle(block, (cx, cy), r, ink, -1, cv2.LINE_AA)
        elif shape == 1:
            cv2.circle(block, (cx, cy), r, ink, max(1, r // 3), cv2.LINE_AA)
        elif shape == 2:  # a flower's petals round a centre
            for k in range(int(rng.integers(4, 7))):
                a = 2 * np.pi * k / 6
                cv2.ellipse(block, (int(cx + r * np.cos(a)), int(cy + r * np.sin(a))), (max(1, r // 2), max(1, r // 3)),
                            float(np.degrees(a)), 0, 360, ink, -1, cv2.LINE_AA)
        elif shape == 3:
            cv2.rectangle(block, (cx - r, cy - r), (cx + r, cy + r), ink, -1)
        else:
            a = float(rng.uniform(0, np.pi))
            dx, dy = int(r * 1.5 * np.cos(a)), int(r * 1.5 * np.sin(a))
            cv2.line(block, (cx - dx, cy - dy), (cx + dx, cy + dy), ink, max(1, r // 2), cv2.LINE_AA)
    shift = side // 2 if rng.random() < 0.5 else 0
    row = np.tile(block, (1, w // side + 3, 1))
    plain, shifted = row[:, :w + side], row[:, shift:shift + w + side]
    cloth = np.concatenate([shifted if k % 2 else plain for k in range(h // side + 2)], axis=0)
    y0, x0 = int(rng.integers(side)), int(rng.integers(side))
    out: np.ndarray = np.ascontiguousarray(cloth[y0:y0 + h, x0:x0 + w])
    return out


@dataclass(frozen=True)
class SceneTile:
    """A tile in a scene: its label, its face's corners (4×2, clockwise from the face's
    top-left as printed, in image pixels), its numeral's corners likewise, and the meld it
    was laid in (numbered in the order laid; None for a rack's or a scattered tile)."""

    tile: str
    quad: np.ndarray
    numeral: np.ndarray
    meld: int | None = None

    @property
    def box(self) -> tuple[float, float, float, float]:
        q = self.quad
        return (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max()))

    @property
    def centre(self) -> tuple[float, float]:
        c = self.quad.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def height(self) -> float:
        """The face's height in image pixels: from its bottom edge's middle to its top's."""
        q = self.quad
        return float(np.hypot(*((q[0] + q[1]) / 2 - (q[2] + q[3]) / 2)))

    @property
    def up(self) -> tuple[float, float]:
        """The unit vector from the face's bottom edge to its top edge, in image pixels."""
        q = self.quad
        v = (q[0] + q[1]) / 2 - (q[2] + q[3]) / 2
        n = float(np.hypot(*v)) or 1.0
        return float(v[0] / n), float(v[1] / n)


@dataclass
class _Placed:
    tile: str | None  # None: face down
    tset: TileSet
    cx: float
    cy: float
    w: float
    h: float
    angle: float  # radians, the face's up turned clockwise in the image
    meld: int | None = None  # the meld of a row it was laid in


def random_tile(rng: np.random.Generator, joly_share: float = 0.0) -> str:
    """Any tile, or with chance ``joly_share`` besides, the Joly (no draw for it at 0)."""
    if joly_share > 0 and rng.random() < joly_share:
        return "JY"
    return TILE_CLASSES[int(rng.integers(len(TILE_CLASSES)))]


def random_meld(rng: np.random.Generator, joly_share: float = 0.0) -> list[str]:
    """A run, a group, a long row (a colour laid out 1–13) or a random row of tiles."""
    kind = rng.random()
    if kind < 0.35:
        n = int(rng.integers(3, 8))
        start = int(rng.integers(1, 15 - n))
        c = COLOURS[int(rng.integers(4))]
        return [f"{c}{i}" for i in range(start, start + n)]
    if kind < 0.6:
        num = int(rng.integers(1, 14))
        cs = list(rng.permutation(COLOURS))[: int(rng.integers(3, 5))]
        return [f"{c}{num}" for c in cs]
    if kind < 0.7:
        c = COLOURS[int(rng.integers(4))]
        return [f"{c}{i}" for i in range(1, 14)]
    return [random_tile(rng, joly_share) for _ in range(int(rng.integers(2, 8)))]


def _layout(rng: np.random.Generator, size: tuple[int, int], tile_px: float, layout: str,
            tsets: list[TileSet], joly_share: float = 0.0) -> tuple[list[_Placed], list[tuple[np.ndarray, BGR]]]:
    """Tiles placed on a ``size`` (w, h) table, tile height ``tile_px``; and racks (polygon,
    colour) to draw under them. ``joly_share``: as ``random_tile``'s."""
    W, H = size
    th = tile_px
    aspect = float(rng.uniform(0.62, 0.8))
    tw = th * aspect
    placed: list[_Placed] = []
    racks: list[tuple[np.ndarray, BGR]] = []

    def pick() -> TileSet:
        return tsets[int(rng.integers(len(tsets)))]

    if layout in ("rows", "rack"):
        rack = layout == "rack"
        base = float(rng.normal(0, 0.12)) if rng.random() < 0.8 else float(rng.uniform(0, 2 * np.pi))
        if rack:
            base = float(rng.normal(0, 0.08))
        gap_in = float(rng.choice([0.0, 0.02, 0.05, 0.1], p=[0.4, 0.3, 0.2, 0.1])) * tw
        fit = max(1, int(H / (th * 1.3)))
        rows = int(rng.integers(1, 3)) if rack else int(rng.integers(max(1, fit // 2), fit + 2))
        row_gap = th * (float(rng.uniform(1.35, 1.6)) if rack else float(rng.uniform(1.1, 1.8)))
        span_w = W * float(rng.uniform(0.7, 1.3))
        ox, oy = float(rng.uniform(-0.2, 0.1)) * W, float(rng.uniform(0.0, 0.4)) * H - (0 if rows > 1 else 0)
        if rows * row_gap < H:
            oy = float(rng.uniform(0, H - rows * row_gap + th * 0.3))
        cx0, cy0 = W / 2, H / 2
        ca, sa = np.cos(base), np.sin(base)
        tset = pick()
        melds = 0
        for r in range(rows):
            x = ox + float(rng.uniform(0, 0.5)) * tw
            y = oy + r * row_gap + th / 2
            row_start = x
            while x < ox + span_w:
                meld = (random_meld(rng, joly_share) if not rack
                        else [random_tile(rng, joly_share) for _ in range(int(rng.integers(3, 15)))])
                meld_id = None if rack else melds
                melds += 1
                if not rack and rng.random() < 0.3:
                    tset = pick()
                for t in meld:
                    px, py = x + tw / 2 - cx0, y - cy0
                    jx, jy = rng.normal(0, 0.02 * tw, 2) if gap_in > 0 else (0.0, 0.0)
                    placed.append(_Placed(t, tset, cx0 + px * ca - py * sa + jx, cy0 + px * sa + py * ca + jy,
                                          tw, th, base + float(rng.normal(0, 0.015 if gap_in == 0 else 0.04)),
                                          meld_id))
                    x += tw + gap_in
                x += (gap_in if rack else tw * float(rng.uniform(0.4, 1.5)))
            if rack:  # the rack's tier under the row and its ledge
                x1 = x + tw * 0.3
                x0 = row_start - tw * 0.3
                ledge = y + th * 0.5
                corners = np.array([[x0, y - th * 0.55], [x1, y - th * 0.55], [x1, ledge + th * 0.25],
                                    [x0, ledge + th * 0.25]]) - [cx0, cy0]
                rot = np.array([[ca, -sa], [sa, ca]])
                poly = corners @ rot.T + [cx0, cy0]
                racks.append((poly.astype(np.float32), _jitter(rng, [(30, 30, 30), (40, 70, 110), (150, 90, 30), (200, 200, 200)][int(rng.integers(4))], 20)))
    else:  # scattered, turned any way, some face down
        n = int(rng.integers(3, max(4, int(W * H / (tw * th) * float(rng.uniform(0.15, 0.5))))))
        diag = float(np.hypot(tw, th))
        for _ in range(n * 4):
            if len(placed) >= n:
                break
            cx, cy = float(rng.uniform(-0.1, 1.1)) * W, float(rng.uniform(-0.1, 1.1)) * H
            if any(np.hypot(cx - q.cx, cy - q.cy) < diag * 0.85 for q in placed):
                continue
            down = rng.random() < 0.12
            placed.append(_Placed(None if down else random_tile(rng, joly_share), pick(), cx, cy, tw, th,
                                  float(rng.uniform(0, 2 * np.pi))))
    return placed, racks


def _blend(canvas: np.ndarray, src: np.ndarray, alpha: np.ndarray, m: np.ndarray) -> None:
    """``src`` (with ``alpha``) warped by the affine ``m`` onto ``canvas`` (float32), in place,
    touching only the destination's bounding rectangle."""
    h, w = src.shape[:2]
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float32) @ m.T
    H, W = canvas.shape[:2]
    x0, y0 = max(0, int(corners[:, 0].min()) - 1), max(0, int(corners[:, 1].min()) - 1)
    x1, y1 = min(W, int(corners[:, 0].max()) + 2), min(H, int(corners[:, 1].max()) + 2)
    if x0 >= x1 or y0 >= y1:
        return
    mm = m.copy()
    mm[:, 2] -= (x0, y0)
    part = cv2.warpAffine(src, mm, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA if m[0, 0] ** 2 + m[1, 0] ** 2 < 1 else cv2.INTER_LINEAR)
    a = cv2.warpAffine(alpha, mm, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)[..., None]
    region = canvas[y0:y1, x0:x1]
    if part.ndim == 2:
        part = part[..., None]
    region[:] = region * (1 - a) + part * a


#: The versions of the light's colour a scene may be drawn under (``tile_scene``'s ``casts``):
#: ``v1``, a warm or cold tint of a tenth or so, as the shipped reader learnt; ``v2`` adds, to
#: half the scenes, a strong cast no camera balanced away (a bulb's orange, a shade's blue, a
#: green or magenta tinge), under which blue ink and black come close.
CASTS: Final = ("v1", "v2")
#: How a slanted table is seen (``tile_scene``'s ``perspective``): ``corners``, each corner of
#: the image moved on its own (the training scenes' way; at a strong slant it can lay the table
#: nearly edge-on, as no camera at a table would); ``camera``, a pinhole camera over the table
#: tilted from straight down toward any side (``camera_view``), as a phone or a webcam sees it.
PERSPECTIVES: Final = ("corners", "camera")
#: The versions of how the scenes drawn at random are slanted (``tile_scene``'s ``slants``):
#: ``v1``, each corner moved on its own (``corners``), as the shipped reader's tile stage
#: learnt; ``v2`` sees half of the slanted scenes by a camera tilted 13–58° from straight down
#: instead (``camera``), whose far rows are foreshortened as a phone's photo shows them.
SLANTS: Final = ("v1", "v2")


def _photo(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0,
           casts: str = "v1") -> np.ndarray:
    """Light, camera and compression: uneven light, warm or cold tint (and, with ``casts``
    ``v2``, a strong cast: ``CASTS``), glare, gamma, blur, noise, JPEG."""
    h, w = img.shape[:2]
    ys = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    xs = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    a = float(rng.uniform(0, 2 * np.pi))
    light = 1 + float(rng.uniform(0, 0.25)) * strength * (np.cos(a) * xs + np.sin(a) * ys)
    img = img * light[..., None]
    if rng.random() < 0.35 * strength:  # glare: a bright soft spot (a lamp in glossy plastic)
        for _ in range(int(rng.integers(1, 4))):
            gx, gy = float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))
            r = float(rng.uniform(0.05, 0.4))
            spot = np.exp(-((xs - gx) ** 2 + ((ys - gy) * float(rng.uniform(0.5, 2))) ** 2) / (2 * r * r))
            img = img + spot[..., None] * float(rng.uniform(40, 160))
    warm = float(rng.normal(0, 0.1)) * strength  # warm (+) or cold (−) light
    tint = np.array([1 - warm, 1.0, 1 + warm], np.float32) * rng.uniform(0.92, 1.08, 3).astype(np.float32)
    img = img * tint[None, None, :]
    if casts == "v2" and rng.random() < 0.5:  # (no draw at v1: its scenes stay as they were)
        warm, tinge = float(rng.uniform(-0.3, 0.45)), float(rng.normal(0, 0.06))
        gains = np.array([1 - warm, 1 + tinge, 1 + warm], np.float32)
        img = img * (gains / gains.mean())[None, None, :]
    img = img * float(rng.uniform(0.65, 1.25)) + float(rng.uniform(-25, 20))
    img = np.clip(img, 0, 255)
    if rng.random() < 0.3:
        img = 255.0 * (img / 255.0) ** float(rng.uniform(0.7, 1.6))
    if rng.random() < 0.3:
        s = float(rng.uniform(0.4, 0.8))
        small = cv2.resize(img, (max(8, int(w * s)), max(8, int(h * s))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.4:
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 1.4)))
    elif rng.random() < 0.15:  # a shaken hand
        k = int(rng.integers(3, 7))
        kern = np.zeros((k, k), np.float32)
        kern[k // 2] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        kern = np.asarray(cv2.warpAffine(kern, rot, (k, k)), np.float32)
        img = cv2.filter2D(img, -1, kern / max(1e-6, float(kern.sum())))
    img = img + rng.normal(0, float(rng.uniform(1, 7)), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def tile_scene(rng: np.random.Generator, size: tuple[int, int] = (640, 480),
               tile_px: tuple[float, float] = (26.0, 100.0), layout: str | None = None,
               held_out_fonts: bool | None = False, held_out_plastics: bool | None = False,
               slant: float | None = None, sets: int | None = None,
               fonts: tuple[Path, ...] | None = None, cards: float = 0.0,
               card_fonts: tuple[Path, ...] | None = None, surfaces: str = "v1",
               surface: str | None = None, dark_decks: float = 0.0,
               casts: str = "v1", perspective: str = "corners",
               slants: str = "v1", jolys: str = "v1",
               joly_share: float = 0.0,
               seen_through: list[np.ndarray] | None = None) -> tuple[np.ndarray, list[SceneTile]]:
    """A drawn table ``size`` (w, h) of tiles, as a camera sees it, and its tiles.

    ``tile_px`` is the range of a tile's height in pixels (log-uniform); ``layout`` is
    ``rows``, ``rack`` or ``scattered`` (random when None); ``slant`` the perspective's
    strength (random when None), in the way ``perspective`` says (``PERSPECTIVES``: each
    corner moved up to this share of the image, or a camera tilted from straight down by half
    to all of this share of a right angle; a slant drawn at random is drawn as the version
    ``slants`` says, ``SLANTS``); ``sets``
    how many tile-set designs are mixed on the table (random when None); ``fonts`` the font
    files to draw numerals with (else the held-out or training ones). ``cards`` is the
    chance that playing cards lie on the table too, things the reader must learn are not
    tiles (a third of such tables hold cards only), their decks' typefaces from
    ``card_fonts`` when given, and a share ``dark_decks`` of them light ink on dark card (a
    deck whose light pips the reader must learn are not tiles; at 0 no draw is made for it).
    The table's surface is ``surface`` when given, else one drawn from the version
    ``surfaces`` (``table_texture``), and its light's colour one of the version ``casts``
    (``CASTS``). Its sets' Jolys are drawn from the designs of the version ``jolys``
    (``JOLYS``), and a share ``joly_share`` of the tiles laid face up at random (in racks,
    scattered, random rows) are Jolys besides those drawn as any tile (at 0 no draw is made
    for it). Tiles whose centre lies outside the image are not listed. ``seen_through``, a list
    when given, has the homography from the table as drawn (from straight above) to the image
    appended (the identity for a table drawn with no slant)."""
    if casts not in CASTS:
        raise ValueError(f"casts must be one of {', '.join(CASTS)}, not {casts!r}")
    if perspective not in PERSPECTIVES:
        raise ValueError(f"perspective must be one of {', '.join(PERSPECTIVES)}, not {perspective!r}")
    if slants not in SLANTS:
        raise ValueError(f"slants must be one of {', '.join(SLANTS)}, not {slants!r}")
    W, H = size
    layout = layout or str(rng.choice(["rows", "rack", "scattered"], p=[0.5, 0.2, 0.3]))
    th = float(np.exp(rng.uniform(np.log(tile_px[0]), np.log(tile_px[1]))))
    n_sets = sets or (1 if rng.random() < 0.8 else 2)
    tsets = [random_set(rng, held_out_fonts, held_out_plastics, fonts, jolys) for _ in range(n_sets)]
    placed, racks = _layout(rng, size, th, layout, tsets, joly_share)
    table = table_texture(H, W, rng, surface, surfaces)
    canvas = table.copy()
    for poly, colour in racks:
        cv2.fillPoly(canvas, [poly.astype(np.int32)], tuple(float(c) for c in colour), cv2.LINE_AA)
        ledge = poly.copy()
        ledge[:2] = poly[3] + (poly[0] - poly[3]) * 0.22, poly[2] + (poly[1] - poly[2]) * 0.22
        cv2.fillPoly(canvas, [ledge.astype(np.int32)], tuple(float(c) * 0.7 for c in colour), cv2.LINE_AA)
    if cards > 0 and rng.random() < cards:
        _lay_cards(canvas, rng, th, held_out_fonts, card_fonts, dark_decks)
        if rng.random() < 1 / 3:
            placed = []
    if rng.random() < 0.3:  # clutter: things that are not tiles
        for _ in range(int(rng.integers(1, 4))):
            c = (float(rng.uniform(0, W)), float(rng.uniform(0, H)))
            ax = (int(rng.uniform(0.2, 1.2) * th), int(rng.uniform(0.2, 1.2) * th))
            col = tuple(float(v) for v in rng.uniform(0, 255, 3))
            if rng.random() < 0.5:
                cv2.ellipse(canvas, (round(c[0]), round(c[1])), ax, float(rng.uniform(0, 180)), 0, 360, col, -1, cv2.LINE_AA)
            else:
                cv2.rectangle(canvas, (round(c[0]), round(c[1])), (round(c[0]) + ax[0], round(c[1]) + ax[1]), col, -1)
    shadow_dir = rng.normal(0, 1, 2)
    shadow_dir = shadow_dir / (np.hypot(*shadow_dir) + 1e-6)
    shadow = float(rng.uniform(0.03, 0.12))
    thick = shadow_dir * float(rng.uniform(0.03, 0.1))
    out: list[SceneTile] = []
    for p in placed:
        # the face drawn at about twice its final size, then scaled and turned onto the table
        fh = max(24, min(200, round(p.h * 2)))
        fw = max(16, round(fh * p.w / p.h))
        face, alpha, nbox = draw_face(p.tile or "", p.tset, fw, fh, rng, p.tile is not None)
        s = p.h / fh
        ca, sa = np.cos(p.angle) * s, np.sin(p.angle) * s
        m = np.array([[ca, -sa, 0.0], [sa, ca, 0.0]], np.float32)
        m[:, 2] = np.array([p.cx, p.cy]) - m[:, :2] @ np.array([fw / 2, fh / 2])
        body = np.ones_like(alpha)
        ms = m.copy()
        ms[:, 2] += shadow_dir * p.h * shadow
        _blend(canvas, np.zeros((fh, fw, 3), np.float32), cv2.GaussianBlur(alpha, (0, 0), max(1.0, fw * 0.06)) * 0.55, ms)
        mt = m.copy()
        mt[:, 2] += thick * p.h
        side = np.ones((fh, fw, 3), np.float32) * np.array(p.tset.plastic.face, np.float32) * float(rng.uniform(0.55, 0.8))
        _blend(canvas, side, alpha * body, mt)
        if p.tset.plastic.gloss > 0 and rng.random() < p.tset.plastic.gloss * 0.5:
            g = float(rng.uniform(-1, 1))
            band = np.exp(-((np.linspace(-1, 1, fw)[None, :] + np.linspace(-1, 1, fh)[:, None] * g) ** 2) / 0.05)
            face = face + band[..., None].astype(np.float32) * float(rng.uniform(15, 60))
        _blend(canvas, np.clip(face, 0, 255), alpha, m)
        if p.tile is None:
            continue
        corners = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        nx0, ny0, nx1, ny1 = nbox
        ncorners = np.array([[nx0, ny0], [nx1, ny0], [nx1, ny1], [nx0, ny1]], np.float32)
        out.append(SceneTile(p.tile, corners @ m[:, :2].T + m[:, 2], ncorners @ m[:, :2].T + m[:, 2], p.meld))
    drawn = slant is None
    slant = float(rng.choice([0.0, rng.uniform(0.05, 0.22)], p=[0.55, 0.45])) if slant is None else slant
    if drawn and slant > 0 and slants == "v2" and rng.random() < 0.5:  # (no draw at v1)
        perspective, slant = "camera", float(rng.uniform(0.3, 0.65))
    out = [t for t in out if 0 <= t.centre[0] < W and 0 <= t.centre[1] < H]  # drawn ones only
    through = np.eye(3)
    if slant > 0:
        canvas, out, through = _slanted(canvas, out, rng, slant, table, perspective)
    if seen_through is not None:
        seen_through.append(through)
    image = _photo(canvas, rng, casts=casts)
    seen = [t for t in out if 0 <= t.centre[0] < W and 0 <= t.centre[1] < H]
    return image, seen


#: A playing card's height over a tile's (about 88 mm against 35–45 mm).
CARD_PER_TILE: Final = (1.8, 2.6)


def _lay_cards(canvas: np.ndarray, rng: np.random.Generator, tile_px: float,
               held_out_fonts: bool | None, fonts: tuple[Path, ...] | None = None,
               dark_decks: float = 0.0) -> None:
    """A few playing cards laid on ``canvas`` (float32, in place): alone, or overlapping in a
    small fan or row, in the project's drawn faces or a random deck design (in the held-out
    typefaces when ``held_out_fonts``, else the training ones, or ``fonts`` when given); a
    share ``dark_decks`` in a light-on-dark design."""
    H, W = canvas.shape[:2]
    height = tile_px * float(rng.uniform(*CARD_PER_TILE))
    s = height / CARD_H
    if dark_decks > 0 and rng.random() < dark_decks:
        style: DeckStyle | None = random_style(rng, held_out_fonts, kind="light-on-dark", fonts=fonts)
    else:
        style = random_style(rng, held_out_fonts, fonts=fonts) if rng.random() < 0.6 else None
    for _ in range(int(rng.integers(1, 4))):
        cx, cy = float(rng.uniform(0, W)), float(rng.uniform(0, H))
        angle = float(rng.uniform(0, 2 * np.pi))
        step = float(rng.uniform(0.15, 0.5)) * CARD_W * s
        for i in range(int(rng.integers(1, 6))):
            card = random_card(rng, jokers=0.03)
            face = styled_face(card, style, rng) if style is not None else draw_card_face(card, rng)
            ca, sa = np.cos(angle) * s, np.sin(angle) * s
            m = np.array([[ca, -sa, 0.0], [sa, ca, 0.0]], np.float32)
            centre = np.array([cx + i * step * np.cos(angle), cy + i * step * np.sin(angle)])
            m[:, 2] = centre - m[:, :2] @ np.array([CARD_W / 2, CARD_H / 2])
            _blend(canvas, face.image.astype(np.float32), np.ones((CARD_H, CARD_W), np.float32), m)


def _corners_moved(w: int, h: int, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A random perspective (the far side narrower): the image's corners each moved up to
    ``strength`` of it."""
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    move = rng.uniform(-strength, strength, (4, 2)).astype(np.float32)
    squeeze = float(rng.uniform(0, strength))  # the far edge narrower, as a seated player sees it
    move[0, 0] += squeeze
    move[1, 0] -= squeeze
    dst = src + move * np.array([w, h], np.float32)
    m: np.ndarray = cv2.getPerspectiveTransform(src, dst)
    return m


def _slanted(canvas: np.ndarray, tiles: list[SceneTile], rng: np.random.Generator,
             strength: float, table: np.ndarray,
             perspective: str = "corners") -> tuple[np.ndarray, list[SceneTile], np.ndarray]:
    """The table seen from a slant of ``strength`` in the way ``perspective`` says
    (``PERSPECTIVES``), and the homography that sees it so; uncovered margins show the bare
    ``table``."""
    h, w = canvas.shape[:2]
    m = _corners_moved(w, h, rng, strength) if perspective == "corners" else camera_pose(w, h, rng, strength)
    seen = cv2.warpPerspective(canvas, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0))
    cover = cv2.warpPerspective(np.ones((h, w), np.float32), m, (w, h), flags=cv2.INTER_LINEAR)[..., None]
    seen = seen * cover + table * (1 - cover)

    def moved(q: np.ndarray) -> np.ndarray:
        r: np.ndarray = cv2.perspectiveTransform(q.reshape(-1, 1, 2).astype(np.float32), m).reshape(-1, 2)
        return r

    return seen, [SceneTile(t.tile, moved(t.quad), moved(t.numeral), t.meld) for t in tiles], m
