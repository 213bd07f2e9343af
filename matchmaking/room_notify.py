"""The one place room services hand messages to the channel layer (after commit)."""

from __future__ import annotations

from typing import Any

from realtime.broadcast import group_send_all


def user_group(user_id: int) -> str:
    """The presence-socket group of every open connection of one player."""
    return f"user.{user_id}"


def invitation_push(*, invitee_id: int, invitation: dict[str, Any]) -> None:
    """Tell the invitee's open pages about a new invitation (the toast)."""
    group_send_all(
        [
            (
                user_group(invitee_id),
                {"type": "invitation.push", "invitation": invitation},
            )
        ]
    )
