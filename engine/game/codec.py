"""Plain-JSON form of the game's small records (events and effects): a ``type`` tag plus fields.

Every record is a frozen dataclass with a class-level ``TYPE``. Lists in JSON come back as
tuples, so a record read back compares equal to the one written.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, Protocol, TypeVar

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


def record_from_json(registry: Mapping[str, type[R]], data: Mapping[str, Any]) -> R:
    """The record named by ``data["type"]``; unknown types or fields raise :class:`RecordError`."""
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
    try:
        return cls(**{k: _frozen(v) for k, v in data.items() if k != "type"})
    except TypeError as exc:
        raise RecordError(f"{tag}: {exc}") from None
