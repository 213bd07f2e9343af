"""The one place room services hand messages to the channel layer (after commit)."""

from __future__ import annotations

from typing import Any

from accounts.groups import user_group
from realtime import outbox


def invitation_push(*, invitee_id: int, invitation: dict[str, Any]) -> None:
    """Tell the invitee's open pages about a new invitation (the toast)."""
    outbox.notify(
        [
            (
                user_group(invitee_id),
                {"type": "invitation.push", "invitation": invitation},
            )
        ]
    )


def room_group(room_id: int) -> str:
    """The group of every socket open on one room's page."""
    return f"room.{room_id}"


def room_changed(*, room_id: int, removed: int | None = None) -> None:
    """Nudge the room's pages after commit: each socket re-reads its member's state
    (``removed``: the player the host just removed, told so by their page)."""
    outbox.notify([(room_group(room_id), {"type": "room.changed", "removed": removed})])
