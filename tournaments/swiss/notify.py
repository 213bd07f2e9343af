"""What a Swiss event's sockets are sent: the standings and the rounds' pairings to
everyone on its page, "your game is ready" to each player seated."""

from __future__ import annotations

import json
from collections.abc import Sequence

from django.urls import reverse

from realtime import outbox


def swiss_group(event_id: int) -> str:
    return f"swiss.{event_id}"


def swiss_user_group(event_id: int, user_id: int) -> str:
    return f"swiss.{event_id}.user.{user_id}"


def standings_push(*, event_id: int) -> None:
    """Send the event as it is now to its sockets (serialised once for all)."""
    from tournaments.swiss.selectors import event_frame  # reads over writes

    frame = event_frame(event_id=event_id)
    outbox.notify(
        [(swiss_group(event_id), {"type": "swiss.update", "text": json.dumps(frame)})]
    )


def paired_send(*, event_id: int, seated: Sequence[tuple[int, Sequence[int]]]) -> None:
    """Tell each seated player (after commit) where their game is."""
    outbox.notify(
        [
            (
                swiss_user_group(event_id, user_id),
                {
                    "type": "swiss.paired",
                    "table_id": table_id,
                    "url": reverse("table", args=[table_id]),
                },
            )
            for table_id, users in seated
            for user_id in users
        ]
    )
