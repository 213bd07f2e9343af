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
