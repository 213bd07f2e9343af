"""Channel-layer groups of the presence socket (``/ws/presence/``)."""

from __future__ import annotations

# Every presence socket: the count of players online goes here.
PRESENCE_GROUP = "presence"


def user_group(user_id: int) -> str:
    """Every open presence socket of one player (each of their pages)."""
    return f"user.{user_id}"
