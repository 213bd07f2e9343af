"""The next events (arenas, team battles, Swiss events) for the home page and the
lobby: the ones being played first, then the soonest to start."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse
from django.utils import timezone

from tournaments.arenas.models import Arena
from tournaments.arenas.selectors import arena_title
from tournaments.swiss.models import SwissEvent
from tournaments.swiss.selectors import event_title


@dataclass(frozen=True)
class NextEvent:
    title: str
    url: str
    starts_at: datetime
    live: bool


def next_events(*, limit: int = 3) -> list[NextEvent]:
    """At most ``limit`` events still to play, live ones first."""
    now = timezone.now()
    arenas = Arena.objects.filter(
        status__in=(Arena.Status.SCHEDULED, Arena.Status.LIVE), ends_at__gt=now
    ).order_by("starts_at")[:limit]
    swiss = SwissEvent.objects.filter(
        state__in=(SwissEvent.State.SCHEDULED, SwissEvent.State.RUNNING)
    ).order_by("starts_at")[:limit]
    found = [
        NextEvent(
            title=arena_title(a),
            url=reverse("arena", args=[a.pk]),
            starts_at=a.starts_at,
            live=a.status == Arena.Status.LIVE,
        )
        for a in arenas
    ] + [
        NextEvent(
            title=event_title(e),
            url=reverse("swiss", args=[e.pk]),
            starts_at=e.starts_at,
            live=e.state == SwissEvent.State.RUNNING,
        )
        for e in swiss
    ]
    found.sort(key=lambda e: (not e.live, e.starts_at))
    return found[:limit]
