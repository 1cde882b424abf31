"""Card and tile faces drawn with pygame primitives: ranks, suit pips, jokers, tiles, the Joly.

Pips are polygons and circles (no font has to carry ♠♥♦♣), drawn four times larger and
smoothed down. Every face keeps its index (rank and pip, or tile number) in the top-left
corner, so a fan of overlapping cards still reads. Faces are cached by text and size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import pygame

from display import theme
from display.canvas import TextCache
from display.theme import Colour
from engine.cards import RANK_TEXT, Card, parse_card
from engine.errors import NotationError
from engine.tiles import Tile, parse_tile

SUPERSAMPLE = 4
CARD_ASPECT = 0.7  # width / height of a playing card face
#: The smallest face drawn (pixels across and down): the index needs about this much.
MIN_FACE = (12, 16)


@dataclass(frozen=True, slots=True)
class Face:
    """What a notation string shows: a card, a tile, or an unread piece."""

    kind: str  # "card", "joker", "tile", "joly", "unread"
    label: str  # rank text or tile number ("" for jokers)
    suit: str = ""  # S H D C for cards, R Y B K for tiles
    text: str = ""  # the original string

    @property
    def red(self) -> bool:
        return (self.kind == "card" and self.suit in ("H", "D")) or (self.kind == "tile" and self.suit == "R")


def read_face(text: str) -> Face:
    """Classify a notation string for drawing; anything unreadable becomes an unread face."""
    try:
        card: Card = parse_card(text)
    except NotationError:
        pass
    else:
        if card.is_joker:
            return Face("joker", "", "", text)
        return Face("card", RANK_TEXT.get(card.rank, str(card.rank)), card.suit, text)
    try:
        tile: Tile = parse_tile(text)
    except NotationError:
        return Face("unread", "?", "", text)
    if tile.is_joker:
        return Face("joly", "", "", text)
    return Face("tile", str(tile.number), tile.colour, text)


def face_colour(face: Face) -> Colour:
    if face.kind == "card":
        return theme.CARD_RED if face.red else theme.CARD_BLACK
    if face.kind == "tile":
        return theme.TILE_COLOURS[face.suit]
    if face.kind in ("joker", "joly"):
        return theme.CARD_RED
    return theme.TEXT


# --- pip shapes, in a unit box (0..1, y down) ------------------------------------------------


@lru_cache(maxsize=1)
def _heart_outline() -> tuple[tuple[float, float], ...]:
    pts = []
    for i in range(96):
        t = 2 * math.pi * i / 96
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        pts.append((x, y))
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return tuple(((x - x0) / (x1 - x0), (y - y0) / (y1 - y0)) for x, y in pts)


def _star(points: int = 5, inner: float = 0.45) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        r = 0.5 if i % 2 == 0 else 0.5 * inner
        a = -math.pi / 2 + math.pi * i / points
        out.append((0.5 + r * math.cos(a), 0.53 + r * math.sin(a)))
    return out


def _draw_shape(surf: pygame.Surface, shape: str, colour: Colour) -> None:
    """Draw ``shape`` filling ``surf`` (already supersampled)."""
    s = surf.get_width()

    def P(pts: list[tuple[float, float]] | tuple[tuple[float, float], ...]) -> list[tuple[float, float]]:
        return [(x * s, y * s) for x, y in pts]

    if shape == "H":
        pygame.draw.polygon(surf, colour, P(_heart_outline()))
    elif shape == "D":
        pygame.draw.polygon(surf, colour, P([(0.5, 0.0), (0.86, 0.5), (0.5, 1.0), (0.14, 0.5)]))
    elif shape == "S":
        heart = [(0.05 + 0.9 * x, 0.78 - 0.78 * y) for x, y in _heart_outline()]
        pygame.draw.polygon(surf, colour, P(heart))
        pygame.draw.polygon(surf, colour, P([(0.5, 0.5), (0.3, 1.0), (0.7, 1.0)]))
    elif shape == "C":
        for cx, cy in ((0.5, 0.26), (0.25, 0.56), (0.75, 0.56)):
            pygame.draw.circle(surf, colour, (cx * s, cy * s), 0.235 * s)
        pygame.draw.circle(surf, colour, (0.5 * s, 0.5 * s), 0.13 * s)
        pygame.draw.polygon(surf, colour, P([(0.5, 0.45), (0.3, 1.0), (0.7, 1.0)]))
    elif shape == "star":
        pygame.draw.polygon(surf, colour, P(_star()))
    elif shape == "dot":
        pygame.draw.circle(surf, colour, (0.5 * s, 0.5 * s), 0.5 * s)
    elif shape == "face":  # the Joly: a smiling face
        w = max(2, s // 12)
        pygame.draw.circle(surf, colour, (0.5 * s, 0.5 * s), 0.5 * s - w / 2, w)
        for ex in (0.35, 0.65):
            pygame.draw.circle(surf, colour, (ex * s, 0.38 * s), 0.08 * s)
        smile = pygame.Rect(0, 0, round(0.56 * s), round(0.46 * s))
        smile.center = (round(0.5 * s), round(0.5 * s))
        pygame.draw.arc(surf, colour, smile, math.pi * 1.1, math.pi * 1.9, w)


@lru_cache(maxsize=512)
def pip(shape: str, size: int, colour: Colour) -> pygame.Surface:
    """A smoothed pip (suit symbol, star, dot or Joly face) ``size`` pixels square."""
    size = max(2, size)
    big = pygame.Surface((size * SUPERSAMPLE, size * SUPERSAMPLE), pygame.SRCALPHA)
    _draw_shape(big, shape, colour)
    return pygame.transform.smoothscale(big, (size, size))


# --- whole faces ---------------------------------------------------------------------------


class FaceDrawer:
    """Draws card and tile faces at any size, caching each finished face."""

    def __init__(self, texts: TextCache, capacity: int = 256) -> None:
        self.texts = texts
        self._faces: dict[tuple[str, int, int], pygame.Surface] = {}
        self.capacity = capacity

    def face(self, text: str, w: int, h: int) -> pygame.Surface:
        key = (text, w, h)
        surf = self._faces.get(key)
        if surf is None:
            if len(self._faces) >= self.capacity:
                self._faces.clear()
            surf = self._draw(read_face(text), w, h)
            self._faces[key] = surf
        return surf

    def draw(
        self,
        target: pygame.Surface,
        text: str,
        rect: pygame.Rect,
        *,
        selected: bool = False,
        wild: bool = False,
    ) -> None:
        """Blit the face of ``text`` into ``rect``, with a selection ring or a wild mark. A
        rect too small to hold a face (a narrow screen's many groups) is left empty: a sliver
        of a card reads as nothing, and drawing it would fail."""
        if rect.w < MIN_FACE[0] or rect.h < MIN_FACE[1]:
            return
        target.blit(self.face(text, rect.w, rect.h), rect)
        if wild:
            size = max(6, rect.w // 5)
            target.blit(pip("star", size, theme.WILD_MARK), (rect.x + rect.w // 16, rect.bottom - size - rect.h // 24))
        if selected:
            width = max(3, rect.w // 14)
            pygame.draw.rect(target, theme.SELECTION, rect.inflate(width * 2, width * 2), width, border_radius=max(4, rect.w // 8))

    def _draw(self, face: Face, w: int, h: int) -> pygame.Surface:
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        radius = max(3, w // 10)
        tile = face.kind in ("tile", "joly")
        fill = theme.TILE_FACE if tile else theme.CARD_FACE
        edge = theme.TILE_EDGE if tile else theme.CARD_EDGE
        if face.kind == "unread":
            fill = theme.CARD_UNREAD
        body = pygame.Rect(0, 0, w, h)
        pygame.draw.rect(surf, fill, body, border_radius=radius)
        pygame.draw.rect(surf, edge, body, max(1, w // (20 if tile else 60)), border_radius=radius)
        colour = face_colour(face)
        pad = max(2, w // 16)
        index_w = max(8, int(w * 0.36))
        rank_px = max(8, int(h * 0.2))
        small = max(6, int(w * 0.24))
        big = max(8, int(w * 0.5))
        centre = (int(w * 0.6), int(h * 0.6))

        def label(text: str, px: int, top: int, col: Colour, width: int) -> int:
            font = self.texts.fonts.get(px)
            while px > 8 and font.size(text)[0] > width:
                px = int(px * 0.9)
                font = self.texts.fonts.get(px)
            img = self.texts.render(text, px, col)
            surf.blit(img, (pad + (width - img.get_width()) // 2, top))
            return top + img.get_height()

        def at_centre(img: pygame.Surface) -> None:
            surf.blit(img, img.get_rect(center=centre))

        if face.kind == "card":
            y = label(face.label, rank_px, pad, colour, index_w)
            surf.blit(pip(face.suit, small, colour), (pad + (index_w - small) // 2, y))
            if face.label in ("J", "Q", "K"):
                frame = pygame.Rect(0, 0, int(w * 0.5), int(h * 0.56))
                frame.center = centre
                pygame.draw.rect(surf, colour, frame, max(1, w // 40), border_radius=max(2, w // 20))
                img = self.texts.render(face.label, int(h * 0.3), colour)
                surf.blit(img, img.get_rect(center=(frame.centerx, frame.centery - frame.h // 10)))
                p = pip(face.suit, int(w * 0.16), colour)
                surf.blit(p, p.get_rect(midbottom=(frame.centerx, frame.bottom - frame.h // 14)))
            else:
                at_centre(pip(face.suit, big, colour))
        elif face.kind == "joker":
            y = label("JK", rank_px, pad, theme.CARD_BLACK, index_w)
            surf.blit(pip("star", small, colour), (pad + (index_w - small) // 2, y))
            at_centre(pip("star", int(w * 0.56), colour))
            img = self.texts.render("JOKER", max(8, int(h * 0.1)), theme.CARD_BLACK)
            if img.get_width() > w - 2 * pad:
                img = pygame.transform.smoothscale(img, (w - 2 * pad, img.get_height()))
            surf.blit(img, img.get_rect(midbottom=(w // 2, h - pad)))
        elif face.kind == "tile":
            y = label(face.label, int(h * 0.3), pad, colour, int(w * 0.5))
            # the colour's letter (R, Y, B, K, as the keypad names them) where a set prints
            # its mark: the colour read without telling red from yellow by hue alone
            label(face.suit, max(8, int(h * 0.16)), y + pad // 2, colour, int(w * 0.5))
        elif face.kind == "joly":
            size = int(w * 0.5)
            surf.blit(pip("face", size, colour), (pad, pad * 2))
            img = self.texts.render("JOLY", max(8, int(h * 0.12)), theme.CARD_BLACK)
            if img.get_width() > w - 2 * pad:
                img = pygame.transform.smoothscale(img, (w - 2 * pad, img.get_height()))
            surf.blit(img, img.get_rect(midbottom=(w // 2, h - pad)))
        else:
            label("?", rank_px, pad, theme.TEXT, index_w)
            img = self.texts.render("?", int(h * 0.4), theme.TEXT)
            at_centre(img)
            if face.text and face.text != "?":
                shown = face.text[:4]
                img = self.texts.render(shown, max(8, int(h * 0.1)), theme.TEXT)
                surf.blit(img, img.get_rect(midbottom=(w // 2, h - pad)))
        return surf
