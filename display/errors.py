"""Errors the screen raises on purpose."""

from __future__ import annotations

from engine.errors import TablekitError


class ScreenError(TablekitError, RuntimeError):
    """The screen could not be opened the way it was asked for (no driver, no permission)."""


class UnknownViewError(TablekitError, TypeError):
    """The renderer was given something that is not one of the view-models."""
