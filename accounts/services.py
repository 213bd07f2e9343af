"""Presence writes: a row per open connection, so any server process can count."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import Presence

# A connection that has not pinged for this long belongs to a process that died.
PRESENCE_STALE_AFTER = timedelta(minutes=3)


def _live_connections(user_id: int) -> int:
    cutoff = timezone.now() - PRESENCE_STALE_AFTER
    return Presence.objects.filter(user_id=user_id, seen_at__gte=cutoff).count()


@transaction.atomic
def presence_connect(*, user_id: int, channel_name: str) -> bool:
    """Record an open connection; return whether the player just came online.

    The count is read in the transaction that writes the row: of two tabs opening
    at once, at least one sees itself alone and reports the change (both may).
    """
    Presence.objects.update_or_create(
        channel_name=channel_name,
        defaults={"user_id": user_id, "seen_at": timezone.now()},
    )
    return _live_connections(user_id) == 1


def presence_touch(*, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).update(seen_at=timezone.now())


@transaction.atomic
def presence_disconnect(*, channel_name: str) -> bool:
    """Forget a connection; return whether its player just went offline."""
    row = Presence.objects.filter(channel_name=channel_name).first()
    if row is None:
        return False
    row.delete()
    return _live_connections(row.user_id) == 0


def presence_prune() -> int:
    """Delete connections left behind by dead processes; return how many.

    Reads first: with none stale (the usual case) it writes nothing, so a
    periodic run opens no write transaction (on SQLite, the whole database).
    """
    cutoff = timezone.now() - PRESENCE_STALE_AFTER
    stale = list(
        Presence.objects.filter(seen_at__lt=cutoff).values_list("pk", flat=True)
    )
    if not stale:
        return 0
    deleted, _ = Presence.objects.filter(pk__in=stale, seen_at__lt=cutoff).delete()
    return deleted
