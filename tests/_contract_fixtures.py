"""Shared helpers for the contract-rummy tests: ask the judge, and the rule texts' numbers."""

from __future__ import annotations

from typing import Any

from engine.families.contract.variants import ContractVariant
from engine.ruling import Ruling
from engine.variants import JudgeRequest, find


def game(variant: str) -> ContractVariant:
    v = find(variant)
    assert isinstance(v, ContractVariant)
    return v


def ask(variant: str, mode: str, hand: str, deal: int | None = None, players: int | None = None,
        decks: int | None = None, **options: Any) -> Ruling:
    v = game(variant)
    return v.judge(JudgeRequest(mode, groups=v.parse(hand), deal=deal, players=players, decks=decks,
                                options=options))


def contract(variant: str, deal: int | None, hand: str, **options: Any) -> Ruling:
    return ask(variant, "contract", hand, deal=deal, **options)


def count(variant: str, hand: str, **options: Any) -> int:
    points = ask(variant, "count", hand, **options).points
    assert isinstance(points, int)
    return points


# Numbers read from the rule texts, written out again by hand so that a slip in a definition
# shows up as a disagreement: players (min, max), {players: (decks, jokers)}, cards per deal.
STANDARD_TABLE = {3: (2, 2), 4: (2, 3), 5: (2, 4), 6: (3, 5), 7: (3, 6), 8: (3, 7)}
STANDARD_CARDS = [10, 10, 10, 12, 12, 12, 12]
TEXT_FACTS: dict[str, tuple[tuple[int, int], dict[int, tuple[int, int]], list[int]]] = {
    "contract-rummy": ((3, 8), STANDARD_TABLE, STANDARD_CARDS),
    "contract-twos-wild": ((3, 8), STANDARD_TABLE, STANDARD_CARDS),
    "jo": ((3, 8), {3: (2, 2), 4: (2, 3), 5: (3, 4), 6: (3, 5), 7: (4, 6), 8: (4, 7)}, STANDARD_CARDS),
    "progressive-rummy": ((3, 8), STANDARD_TABLE, [6, 7, 8, 9, 10, 11, 12]),
    "king-rummy": ((4, 4), {4: (2, 4)}, [10] * 4),
    "shanghai": ((3, 8), STANDARD_TABLE, [11] * 10),
    "loba": ((2, 5), {n: (2, 4) for n in range(2, 6)}, [11] * 6),
    "carioca": ((2, 5), {n: (2, 4) for n in range(2, 6)}, [11] * 6 + [12]),
    "sa-kaluki": ((3, 5), {n: (2, 4) for n in range(3, 6)}, [13] * 7),
    "caribbean-kalooki": ((3, 6), {n: (2, 4) for n in range(3, 7)}, [9, 10, 11, 12]),
    "super-kalooki": ((3, 6), {n: (2, 4) for n in range(3, 7)}, [9, 10, 11, 12, 12, 13, 14, 15, 16]),
    "baby-kalooki": ((3, 6), {n: (2, 4) for n in range(3, 7)}, [6, 7, 8]),
    "kalooki-40": ((2, 5), {n: (2, 2) for n in range(2, 6)}, []),
    "na-kalooki": ((2, 6), {n: (2, 4) for n in range(2, 7)}, []),
    "russian-rummy": ((2, 8), {2: (1, 2), 3: (2, 4), 4: (2, 4), 5: (3, 6), 6: (3, 6), 7: (4, 8), 8: (4, 8)},
                      [13] * 5),
    "telefunken": ((4, 4), {4: (2, 4)}, [11] * 7),
    "farmers-rummy": ((4, 8), {4: (2, 4), 5: (3, 6), 6: (3, 6), 7: (3, 6), 8: (3, 6)}, [11] * 8),
    "push": ((4, 4), {4: (2, 4)}, [6, 7, 8, 9, 10]),
    "onze": ((3, 7), {n: (2, 4) for n in range(3, 8)}, [11] * 6 + [13]),
    "american-jokers": ((2, 8), {2: (2, 4), 3: (2, 4), 4: (3, 6), 5: (3, 6), 6: (3, 9), 7: (3, 9), 8: (3, 9)},
                        [13] * 6),
    "american-jokers-single": ((2, 4), {2: (1, 2), 3: (1, 2), 4: (1, 2)}, [7] * 6),
    "american-jokers-alt": ((2, 8), {2: (2, 4), 3: (2, 4), 4: (3, 6), 5: (3, 6), 6: (3, 9), 7: (3, 9),
                                     8: (3, 9)}, [13] * 5),
    "dummy-rummy": ((2, 4), {n: (2, 4) for n in range(2, 5)}, [13] * 12),
}
