"""The engine's error root and the specific errors a caller can catch."""

from __future__ import annotations


class TablekitError(Exception):
    """Root of every error the kit raises on purpose."""


class NotationError(TablekitError, ValueError):
    """Text that is not a card, tile or hand in the judge notation."""


class DeckError(TablekitError, ValueError):
    """More copies of a card than the variant's decks hold, or a hand of the wrong size."""


class MeldError(TablekitError, ValueError):
    """A meld or arrangement that breaks the variant's rules."""


class UnknownVariantError(TablekitError, LookupError):
    """No variant is registered under the given id."""


class UnsupportedModeError(TablekitError, ValueError):
    """The variant does not answer this judge mode (or an option it needs is missing)."""


class TableStateError(TablekitError, ValueError):
    """A table state the camera could not have produced: a seat that does not exist, a malformed state."""


class PlayerCountError(TablekitError, ValueError):
    """A number of players the variant cannot seat."""


class GameSetupError(TablekitError, ValueError):
    """A deal number, player count or deck count the game does not have."""
