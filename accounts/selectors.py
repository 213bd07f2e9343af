"""Presence reads."""

from django.utils import timezone

from accounts.models import Presence
from accounts.services import PRESENCE_STALE_AFTER


def online_count() -> int:
    """Players with at least one live connection."""
    cutoff = timezone.now() - PRESENCE_STALE_AFTER
    return (
        Presence.objects.filter(seen_at__gte=cutoff)
        .values("user_id")
        .distinct()
        .count()
    )
