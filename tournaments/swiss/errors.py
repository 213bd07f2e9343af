"""A refused Swiss event action, in words for the player."""

from __future__ import annotations

from core.refusals import Refusal


class SwissError(Refusal):
    """Raised by ``tournaments.swiss``; ``message`` is shown to the player as is."""
