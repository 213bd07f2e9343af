"""A refused friend action, in words for the player."""

from __future__ import annotations

from core.refusals import Refusal


class FriendError(Refusal):
    """Raised by ``friends.services``; ``message`` is shown to the player as is."""
