"""The refusals of the arenas' services."""

from __future__ import annotations

from core.refusals import Refusal


class ArenaError(Refusal):
    """An arena request refused; nothing was changed."""
