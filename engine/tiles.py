"""Rummy tiles (four colours, numbers 1–13) and the Joly, in the judge notation.

A tile prints as ``<colour><number>`` (``R7``, ``K13``); the Joly prints as ``JY``.
Colours: R red, Y yellow (orange in some sets), B blue, K black.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.errors import NotationError

COLOURS: Final = ("R", "Y", "B", "K")
COLOUR_NAMES: Final = {"R": "red", "Y": "yellow", "B": "blue", "K": "black"}
_COLOUR_ALIASES: Final = {"O": "Y"}


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One tile: ``number`` 1–13 and ``colour``; the Joly has number 0 and colour ''."""

    number: int
    colour: str

    def __post_init__(self) -> None:
        if self.number == 0:
            if self.colour != "":
                raise NotationError("the Joly has no colour")
        elif not (1 <= self.number <= 13) or self.colour not in COLOURS:
            raise NotationError(f"no such tile: {self.colour}{self.number}")

    @property
    def is_joker(self) -> bool:
        return self.number == 0

    @classmethod
    def parse(cls, text: str) -> Tile:
        return parse_tile(text)

    def __str__(self) -> str:
        return "JY" if self.number == 0 else f"{self.colour}{self.number}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"

    @property
    def name(self) -> str:
        return "Joly" if self.number == 0 else f"{COLOUR_NAMES[self.colour]} {self.number}"


JOLY: Final = Tile(0, "")


def parse_tile(text: str) -> Tile:
    token = text.strip()
    upper = token.upper()
    if upper == "JY":
        return JOLY
    if not 2 <= len(upper) <= 3:
        raise NotationError(f"unknown tile {token[:12]!r}")
    colour = _COLOUR_ALIASES.get(upper[0], upper[0])
    digits = upper[1:]
    # plain digits only: '²' and '٣' are digits to Python but no tile's number
    if colour not in COLOURS or not (digits.isascii() and digits.isdigit()) or digits.startswith("0"):
        raise NotationError(f"unknown tile {token!r}")
    number = int(digits)
    if not 1 <= number <= 13:
        raise NotationError(f"unknown tile {token!r}: numbers run 1 to 13")
    return Tile(number, colour)


def full_tile_set(copies: int = 2, jolys: int = 2) -> list[Tile]:
    """The 106-tile set by default: two copies of each colour and number, plus two Jolys."""
    tiles = [Tile(n, c) for _ in range(copies) for c in COLOURS for n in range(1, 14)]
    return tiles + [JOLY] * jolys
