"""The lobby socket's frames leave through this one function (docs/protocol.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from realtime import outbox

LOBBY_GROUP = "lobby"


def lobby_user_group(user_id: int) -> str:
    """The group of one player's lobby sockets (every tab of theirs)."""
    return f"lobby.user.{user_id}"


def lobby_send(messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """Hand ``(group, message)`` pairs to the channel layer, in order, after commit."""
    outbox.notify(messages)
