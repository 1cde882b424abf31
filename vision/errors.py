"""The vision package's errors."""

from __future__ import annotations

from engine.errors import TablekitError


class VisionError(TablekitError, ValueError):
    """An image, model or calibration the recognizer cannot use."""


class CalibrationError(VisionError):
    """The mat's markers cannot be found or give no usable homography."""


class FrameSourceError(TablekitError, OSError):
    """A camera, video or folder that yields no frames."""
