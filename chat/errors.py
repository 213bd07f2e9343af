"""A refused chat message, in words for the player."""

from __future__ import annotations

from core.refusals import Refusal


class ChatError(Refusal):
    """Raised by ``chat.services``; ``message`` is shown to the player as is."""
