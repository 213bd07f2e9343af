"""Presence writes: a row per open connection, so any server process can count."""

from datetime import timedelta

from django.utils import timezone

from accounts.models import Presence

# A connection that has not pinged for this long belongs to a process that died.
PRESENCE_STALE_AFTER = timedelta(minutes=3)


def presence_connect(*, user_id: int, channel_name: str) -> None:
    Presence.objects.update_or_create(
        channel_name=channel_name,
        defaults={"user_id": user_id, "seen_at": timezone.now()},
    )


def presence_touch(*, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).update(seen_at=timezone.now())


def presence_disconnect(*, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).delete()


def presence_prune() -> int:
    """Delete connections left behind by dead processes; return how many."""
    cutoff = timezone.now() - PRESENCE_STALE_AFTER
    deleted, _ = Presence.objects.filter(seen_at__lt=cutoff).delete()
    return deleted
