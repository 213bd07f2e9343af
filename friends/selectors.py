"""Friends as a player sees them: who, online or not, at which live table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q

from accounts.presence import user_online
from friends.models import FriendRequest, Friendship
from games.models import Seat, Table
from games.names import variant_title

# Tables a friend may watch: friend rooms and practice games stay private.
WATCHABLE = (Table.Mode.ONLINE, Table.Mode.STAKE)


@dataclass(frozen=True)
class FriendRow:
    user: Any
    online: bool
    table_id: int | None  # a live table they sit at, if any
    table_variant: str
    watchable: bool


def friend_ids(user_id: int) -> list[int]:
    pairs = Friendship.objects.filter(Q(low_id=user_id) | Q(high_id=user_id))
    return [
        high if low == user_id else low
        for low, high in pairs.values_list("low_id", "high_id")
    ]


def friends_of(*, user: Any) -> list[FriendRow]:
    """The player's friends, online first, then by name."""
    ids = friend_ids(user.pk)
    users = get_user_model().objects.filter(pk__in=ids).order_by("username")
    live = {
        s.user_id: s.table
        for s in Seat.objects.filter(
            user_id__in=ids, table__status=Table.Status.PLAYING
        ).select_related("table")
    }
    rows = []
    for friend in users:
        table = live.get(friend.pk)
        rows.append(
            FriendRow(
                user=friend,
                online=user_online(friend.pk),
                table_id=table.pk if table else None,
                table_variant=variant_title(table.variant) if table else "",
                watchable=bool(table and table.mode in WATCHABLE),
            )
        )
    return sorted(rows, key=lambda r: (not r.online, r.user.username.lower()))


def requests_waiting(user: Any) -> Any:
    """The requests waiting for the player's answer, as a queryset (the navigation
    counts them: ``accounts.nav_counts``)."""
    return FriendRequest.objects.filter(
        recipient=user, status=FriendRequest.Status.PENDING
    )


def requests_received(*, user: Any) -> list[FriendRequest]:
    return list(requests_waiting(user).select_related("sender").order_by("-created_at"))


def requests_sent(*, user: Any) -> list[FriendRequest]:
    return list(
        FriendRequest.objects.filter(sender=user, status=FriendRequest.Status.PENDING)
        .select_related("recipient")
        .order_by("-created_at")
    )


def friendship_state(*, user: Any, other: Any) -> str:
    """Between two players: "self", "friends", "sent", "received" or "none"."""
    if user.pk == other.pk:
        return "self"
    low, high = sorted((user.pk, other.pk))
    if Friendship.objects.filter(low_id=low, high_id=high).exists():
        return "friends"
    pending = FriendRequest.objects.filter(
        status=FriendRequest.Status.PENDING,
        sender_id__in=(user.pk, other.pk),
        recipient_id__in=(user.pk, other.pk),
    ).values_list("sender_id", flat=True)
    senders = set(pending)
    if user.pk in senders:
        return "sent"
    if other.pk in senders:
        return "received"
    return "none"


def request_received_from(*, user: Any, other: Any) -> FriendRequest | None:
    found: FriendRequest | None = FriendRequest.objects.filter(
        sender=other, recipient=user, status=FriendRequest.Status.PENDING
    ).first()
    return found
