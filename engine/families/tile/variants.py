"""The 106-tile rummy variant (``tile-rummy``) and its judge modes: meld, count, contract, declare.

- ``meld``: each group is read as a run or a formation; points are the put-down values of
  the valid groups (a Joly scores what it stands for).
- ``count``: the end-of-game value of every tile given (tiles left on a board all count,
  whether or not they form melds): 2–9 = 5, 10–13 = 10, 1 = 25, Joly = 50. ``valid`` is
  true: nothing a losing board holds is credited or excused, so the count always stands.
- ``contract``: the first meld; valid with at least one run and at least 45 points.
- ``declare``: going out; every tile in a valid meld except at most one lone tile, the one
  thrown to close (group kind ``closing-tile``). Points: 0 for a valid close, otherwise the
  end-of-game value of the tiles outside valid melds.

Options (``--option KEY=VALUE``): ``ace=<tile>`` names the tile turned up at the deal, so
that its twin counts 50 in ``count`` (``ace_dealt=false`` when it was drawn later, not
dealt); ``first_meld=<points>`` changes the 45-point threshold; ``closing_tile=false``
demands that a close leave no lone tile.

``--decks N`` means N full 106-tile sets. Game-level rules live in :mod:`engine.families.tile.game_rules`,
meld and value rules in :mod:`engine.families.tile.rules`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.errors import NotationError, UnsupportedModeError
from engine.families.tile.game_rules import check_players
from engine.families.tile.policy import TilePolicy
from engine.families.tile.rules import (
    FIRST_MELD_POINTS,
    MeldReading,
    check_close,
    check_first_meld,
    end_value,
    read_groups,
)
from engine.options import SWITCH, OptionKind
from engine.ruling import GroupRuling, Ruling
from engine.tiles import Tile, full_tile_set, parse_tile
from engine.variants.base import Item, JudgeRequest, Variant

#: How tile rummy is played out at the table: the doubles window, one deal, the close.
TILE_POLICY = TilePolicy()


def _tile_option(options: Mapping[str, Any], key: str) -> Tile | None:
    value = options.get(key)
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise NotationError(f"option {key} must name a tile, got {value!r}")
    tile = parse_tile(value)
    if tile.is_joker:
        raise NotationError(f"option {key}: the turned-up ace is a numbered tile, not {value!r}")
    return tile


def _int_option(options: Mapping[str, Any], key: str, default: int) -> int:
    value = options.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UnsupportedModeError(f"option {key} must be a whole number of points, got {value!r}")
    return value


def _bool_option(options: Mapping[str, Any], key: str, default: bool) -> bool:
    value = options.get(key, default)
    if not isinstance(value, bool):
        raise UnsupportedModeError(f"option {key} must be true or false, got {value!r}")
    return value


def _tile_groups(request: JudgeRequest) -> list[list[Tile]]:
    groups = []
    for g in request.groups:
        tiles = [t for t in g if isinstance(t, Tile)]
        if len(tiles) != len(g):
            raise NotationError("tile rummy is judged on tiles, not playing cards")
        groups.append(tiles)
    return groups


def _group(r: MeldReading, points: int = 0) -> GroupRuling:
    return GroupRuling(tuple(r.tiles), r.kind, points, 0, r.reason)


@dataclass(frozen=True)
class TileVariant(Variant):
    """Rummy played with 106 numbered tiles and two Jolys."""

    family: ClassVar[str] = "tile"
    #: (the tile turned up at each deal, the judge's ``ace``, is the table's to set, not the house's)
    house_options: ClassVar[Mapping[str, OptionKind]] = {
        "ace_dealt": SWITCH, "first_meld": OptionKind("number", 0, 500), "closing_tile": SWITCH}
    uses_tiles: ClassVar[bool] = True
    modes: ClassVar[tuple[str, ...]] = ("meld", "count", "contract", "declare")

    @property
    def policy(self) -> TilePolicy:
        return TILE_POLICY

    def full_set(self, decks: int, jokers: int) -> list[Item]:
        return list(full_tile_set(copies=2 * decks, jolys=jokers))

    def jokers_for(self, request: JudgeRequest) -> int:
        return self.jokers * self.decks_for(request)

    def copies_allowed(self, request: JudgeRequest) -> Counter[Item]:
        """Two of each tile and two Jolys per set; the turned-up ace (option ``ace``) is out of play."""
        allowed: Counter[Item] = Counter(self.full_set(self.decks_for(request), self.jokers_for(request)))
        ace = _tile_option(request.options, "ace")
        if ace is not None:
            allowed[ace] -= 1
        return allowed

    def validate(self, request: JudgeRequest) -> None:
        if request.players is not None:
            check_players(request.players)
        super().validate(request)

    # --- modes -------------------------------------------------------------------------

    def judge_meld(self, request: JudgeRequest) -> Ruling:
        readings = read_groups(_tile_groups(request))
        groups = tuple(_group(r, r.value) for r in readings)
        bad = [g for g in groups if not g.valid]
        points = sum(r.value for r in readings)
        if not bad:
            reason = f"every group is a valid meld, worth {points} points laid down"
        else:
            reason = (f"{len(bad)} group(s) are not melds: "
                      + "; ".join(f"{' '.join(map(str, g.cards))}: {g.reason}" for g in bad))
        return Ruling(not bad, points, groups, reason)

    def judge_count(self, request: JudgeRequest) -> Ruling:
        ace = _tile_option(request.options, "ace")
        dealt = _bool_option(request.options, "ace_dealt", True)
        readings = read_groups(_tile_groups(request))
        groups = []
        total = 0
        for r in readings:
            pts = sum(end_value(t, ace, dealt) for t in r.tiles)
            total += pts
            groups.append(_group(r, pts))
        reason = "every tile left on the board counts at its end-of-game value"
        if ace is not None and dealt and any(t == ace for r in readings for t in r.tiles):
            reason += f"; the ace's twin {ace} counts 50"
        return Ruling(True, total, tuple(groups), reason)

    def judge_contract(self, request: JudgeRequest) -> Ruling:
        threshold = _int_option(request.options, "first_meld", FIRST_MELD_POINTS)
        verdict = check_first_meld(_tile_groups(request), threshold)
        groups = tuple(_group(r, r.value) for r in verdict.readings)
        if verdict.valid:
            reason = f"a valid first meld: {verdict.points} points with a run"
        else:
            reason = "not a valid first meld: " + "; ".join(verdict.problems)
        return Ruling(verdict.valid, verdict.points, groups, reason, verdict.problems)

    def judge_declare(self, request: JudgeRequest) -> Ruling:
        allow = _bool_option(request.options, "closing_tile", True)
        verdict = check_close(_tile_groups(request), allow)
        groups = []
        for r in verdict.readings:
            if verdict.closing_tile is not None and not r.valid and r.tiles == (verdict.closing_tile,):
                groups.append(GroupRuling(r.tiles, "closing-tile", 0, 0, "the last tile, thrown to close"))
            else:
                groups.append(_group(r))
        if verdict.valid:
            reason = "a valid close: every tile is in a meld"
            if verdict.closing_tile is not None:
                reason += f", and {verdict.closing_tile} is thrown to finish"
        else:
            reason = (f"not a valid close ({verdict.points} points still on the board): "
                      + "; ".join(verdict.problems))
        return Ruling(verdict.valid, verdict.points, tuple(groups), reason, verdict.problems)


TILE_RUMMY = TileVariant(
    id="tile-rummy", name="Tile rummy (106 tiles, Jolys)", min_players=2, max_players=4,
    decks=1, jokers=2, cards_dealt="14 (15 for the first player)", deals=1,
    summary="106 tiles; runs and formations, Jolys 1 in 3; first meld 45 with a run; "
            "laid tiles score, tiles left count against")

VARIANTS = (TILE_RUMMY,)
