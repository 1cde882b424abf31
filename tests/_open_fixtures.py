"""Shared helpers for the Open Rummy tests: table states from notation, turn checks, judge questions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card
from engine.families.open_rummy.turn_checks import TurnRules, check_turn
from engine.notation import parse_cards
from engine.ruling import Ruling
from engine.table import TableState, TurnVerdict
from engine.variants import JudgeRequest, find


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def state(melds: Mapping[int, Sequence[str]] | None = None, discard: str = "", stock: int | None = 30,
          players: int = 4) -> TableState:
    return TableState.of(melds or {}, discard, stock, players)


def turn(before: TableState, after: TableState, seat: int = 0, players: int = 4) -> TurnVerdict:
    return check_turn(before, after, seat, TurnRules(players=players))


def judge(mode: str, hand: str = "", variant: str = "open-rummy", **kw: Any) -> Ruling:
    v = find(variant)
    groups = v.parse(hand) if hand else []
    return v.judge(JudgeRequest(mode=mode, groups=groups, **kw))


def judge_turn(seat: int, before: Mapping[str, Any], after: Mapping[str, Any],
               variant: str = "open-rummy", **kw: Any) -> Ruling:
    return find(variant).judge(JudgeRequest(mode="turn", seat=seat, before=before, after=after, **kw))


def mentions(verdict: TurnVerdict | Ruling, *words: str) -> bool:
    """Does some violation mention every one of ``words``?"""
    return any(all(w in v for w in words) for v in verdict.violations)
