"""The refusal of the sit-and-go services: a code and a message for the player."""

from __future__ import annotations

from core.refusals import Refusal


class SitGoError(Refusal):
    """A sit-and-go request refused; nothing was changed and no coin moved."""
