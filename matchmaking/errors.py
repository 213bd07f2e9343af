"""The refusals of matchmaking's services, one per subpackage's books.

Each is a :class:`core.refusals.Refusal` (a code, a message for the player, an
optional detail for logs), so views, sockets and the admin answer them one way.
"""

from __future__ import annotations

from core.refusals import Refusal


class MatchError(Refusal):
    """A pool search, wave or block the matchmaker refuses; nothing was changed."""


class RoomError(Refusal):
    """A friend-room action that was refused; nothing was changed."""


class StakeError(Refusal):
    """A stake-table request refused; nothing was changed and no coin moved."""
