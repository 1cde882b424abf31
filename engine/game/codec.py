"""Plain-JSON form of the game's small records (events and effects): a ``type`` tag plus fields.

Every record is a frozen dataclass with a class-level ``TYPE``. Lists in JSON come back as
tuples, so a record read back compares equal to the one written. Reading checks every field
against its declared type (a time that is not a number, a seat given as text, cards that are
not text) and raises :class:`RecordError` naming the field, so a damaged journal line or a
mistyped script line is refused where it is read, not deep inside the game.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from functools import cache
from typing import (
    Any,
    ClassVar,
    Protocol,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)

from engine.errors import TablekitError


class RecordError(TablekitError, ValueError):
    """A journal or script line that is not a known event or effect."""


class Record(Protocol):
    TYPE: ClassVar[str]
    __dataclass_fields__: ClassVar[dict[str, Any]]


R = TypeVar("R")


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _frozen(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def record_to_json(record: Any) -> dict[str, Any]:
    """``{"type": TYPE, field: value, …}`` with tuples as lists."""
    out: dict[str, Any] = {"type": record.TYPE}
    for f in dataclasses.fields(record):
        out[f.name] = _plain(getattr(record, f.name))
    return out


@cache
def _field_types(cls: type) -> dict[str, Any]:
    hints = get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _fits(value: Any, hint: Any) -> bool:
    """Does the plain JSON ``value`` have the declared type ``hint``?"""
    if hint is Any:
        return True
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if hint is type(None):
        return value is None
    origin, args = get_origin(hint), get_args(hint)
    if origin is Union or origin is types.UnionType:
        return any(_fits(value, a) for a in args)
    if origin is tuple:
        if not isinstance(value, list | tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(v, args[0]) for v in value)
        return len(value) == len(args) and all(_fits(v, a) for v, a in zip(value, args, strict=True))
    return True  # a type this codec does not know how to check: the record's own code decides


def _describe(hint: Any) -> str:
    if hint is int:
        return "a whole number"
    if hint is float:
        return "a number"
    if hint is str:
        return "text"
    if hint is bool:
        return "true or false"
    if hint is type(None):
        return "null"
    origin, args = get_origin(hint), get_args(hint)
    if origin is Union or origin is types.UnionType:
        return " or ".join(_describe(a) for a in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list of ({_describe(args[0])})"
        return f"a list of {len(args)}"
    return str(hint)


def record_from_json(registry: Mapping[str, type[R]], data: Mapping[str, Any]) -> R:
    """The record named by ``data["type"]``; unknown types or fields, and fields whose value
    does not have the field's type, raise :class:`RecordError`."""
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    tag = data.get("type")
    cls = registry.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise RecordError(f"unknown record type {tag!r}")
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    extra = set(data) - names - {"type"}
    if extra:
        raise RecordError(f"{tag}: unknown field(s) {', '.join(sorted(extra))}")
    for name, hint in _field_types(cast(type, cls)).items():
        if name in data and not _fits(data[name], hint):
            shown = repr(data[name])
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise RecordError(f"{tag}: {name} must be {_describe(hint)}, not {shown}")
    try:
        return cls(**{k: _frozen(v) for k, v in data.items() if k != "type"})
    except TypeError as exc:
        raise RecordError(f"{tag}: {exc}") from None
