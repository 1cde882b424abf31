"""Turns judge questions (command-line flags or batch JSON lines) into engine calls and JSON answers."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.cards import MAX_DECKS, parse_card
from engine.errors import NotationError, TablekitError
from engine.game.house_options import check_options
from engine.tiles import parse_tile
from engine.variants import JudgeRequest, find
from engine.variants.base import MODES


class JudgeInputError(TablekitError, ValueError):
    """A judge question that is malformed before the engine sees it."""


#: Longer numbers than this are not a deal, seat or player count (and Python refuses to turn
#: strings of more than a few thousand digits into numbers at all).
_MAX_DIGITS = 9
_WHOLE = re.compile(r"[+-]?[0-9]+")
#: Error messages quote at most this much of an offending value.
_SHOWN = 40


def shown(value: Any) -> str:
    """An offending value for an error message: its repr, cut short."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"<a nested {type(value).__name__}>"
    return text if len(text) <= _SHOWN else text[:_SHOWN - 3] + "..."


def _int(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise JudgeInputError(f"{name} must be a whole number, got {shown(value)}")
    text = value.strip() if isinstance(value, str) else str(value)
    if not _WHOLE.fullmatch(text):
        raise JudgeInputError(f"{name} must be a whole number, got {shown(value)}")
    if len(text.lstrip("+-").lstrip("0")) > _MAX_DIGITS:
        raise JudgeInputError(f"{name} out of range: {shown(value)}")
    n = int(text)
    if n < (0 if name == "seat" else 1):
        raise JudgeInputError(f"{name} out of range: {shown(value)}")
    if name == "decks" and n > MAX_DECKS:
        raise JudgeInputError(f"decks out of range: {n} (the games are played with 1 to {MAX_DECKS} decks)")
    return n


#: What a table state holds (``../shared/spec/judge.md``, "Turn checks").
STATE_KEYS = ("melds", "discard", "stock")


def _state(value: Any, name: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise JudgeInputError(f"{name} must be a table state object")
    for key in value:  # a misspelt key ignored would judge the turn on an empty table
        if key not in STATE_KEYS:
            raise JudgeInputError(f"{name}: unknown key {shown(key)} (a table state has "
                                  f"{', '.join(STATE_KEYS)})")
    melds = value.get("melds")
    if isinstance(melds, Mapping):
        for key in melds:
            # the engine reads seats with int(); keep what it cannot turn into a number out
            text = key.strip() if isinstance(key, str) else ""
            if text.isdigit() and not (text.isascii() and len(text) <= _MAX_DIGITS):
                raise JudgeInputError(f"{name} melds: seat {shown(key)} is not a seat number")
    return value


def answer(question: Mapping[str, Any]) -> dict[str, Any]:
    """Answer one judge question; raise a TablekitError for bad input."""
    variant_id = question.get("variant")
    if variant_id is None or variant_id == "":
        raise JudgeInputError("missing variant")
    if not isinstance(variant_id, str):
        raise JudgeInputError(f"variant must be a game's id (a string), got {shown(variant_id)}")
    if len(variant_id) > _SHOWN:
        raise JudgeInputError(f"unknown variant {shown(variant_id)}")
    mode = question.get("mode")
    if not isinstance(mode, str) or mode not in MODES:
        raise JudgeInputError(f"unknown mode {shown(mode)}")
    variant = find(variant_id)
    wild_text = question.get("wild")
    wild = None
    options = question.get("options") or {}
    if not isinstance(options, Mapping):
        raise JudgeInputError("options must be an object")
    # a misspelt house rule silently ignored would judge another game than the one asked about
    options = check_options(variant, options, judge=True)
    if wild_text not in (None, ""):
        if not isinstance(wild_text, str):
            raise NotationError(f"unknown wild card {shown(wild_text)}")
        if variant.uses_tiles:
            # tile rummy's turned-up "ace" tile plays the part of the cut card
            parse_tile(wild_text)
            options = {**options, "ace": wild_text}
        else:
            wild = parse_card(wild_text)
    if mode == "turn":
        request = JudgeRequest(
            mode=mode, wild=wild, deal=_int(question.get("deal"), "deal"),
            decks=_int(question.get("decks"), "decks"), players=_int(question.get("players"), "players"),
            seat=_int(question.get("seat"), "seat"),
            before=_state(question.get("before"), "before"), after=_state(question.get("after"), "after"),
            options=options)
    else:
        hand = question.get("hand")
        if hand is None:
            raise JudgeInputError("missing hand")
        if not isinstance(hand, str):
            raise JudgeInputError(f"hand must be cards in the judge notation (a string), got {shown(hand)}")
        request = JudgeRequest(
            mode=mode, groups=variant.parse(hand), wild=wild, deal=_int(question.get("deal"), "deal"),
            decks=_int(question.get("decks"), "decks"), players=_int(question.get("players"), "players"),
            options=options)
    ruling = variant.judge(request)
    return ruling.to_json(variant.id, mode)


def load_state_file(path: str) -> Mapping[str, Any]:
    try:
        irregular = Path(path).exists() and not Path(path).is_file()  # a pipe would be waited on
    except OSError as exc:
        raise JudgeInputError(f"cannot read table state {path}: {exc.strerror}") from None
    if irregular:
        raise JudgeInputError(f"cannot read table state {path}: not a regular file (give a file's path)")
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise JudgeInputError(f"cannot read table state {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise JudgeInputError(f"table state {path} is not valid JSON: {exc}") from None
    except RecursionError:
        raise JudgeInputError(f"table state {path} is nested too deeply to be a table state") from None
    return _state(data, path)
