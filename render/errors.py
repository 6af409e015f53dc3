"""The one error type of ``render``: input that cannot be drawn."""

from __future__ import annotations


class RenderInputError(ValueError):
    """Data given to a render function that it cannot draw; the message says what to fix."""
