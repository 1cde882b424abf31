"""Errors the button box link raises on purpose."""

from __future__ import annotations

from engine.errors import TablekitError


class LinkError(TablekitError, OSError):
    """The button box cannot be reached, or a command cannot be sent to it."""
