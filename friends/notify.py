"""What a player's open pages hear about friends (over ``/ws/presence/``)."""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse

from accounts.groups import user_group
from realtime import outbox


def friend_request_push(*, recipient_id: int, sender: str) -> None:
    """A new friend request: a toast on the recipient's pages."""
    frame = {"type": "friend_request", "from": sender, "url": reverse("friends")}
    outbox.notify([(user_group(recipient_id), {"type": "user.push", "frame": frame})])


def friend_presence_push(*, friend_ids: Iterable[int], name: str, online: bool) -> None:
    """``name`` came online or went offline: their friends' pages update the list."""
    frame = {"type": "friend", "name": name, "online": online}
    outbox.notify(
        [(user_group(fid), {"type": "user.push", "frame": frame}) for fid in friend_ids]
    )
