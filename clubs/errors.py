"""A refused club action, in words for the player."""

from __future__ import annotations

from core.refusals import Refusal


class ClubError(Refusal):
    """Raised by ``clubs.services`` and ``clubs.chat``; ``message`` is shown to the
    player as is."""
