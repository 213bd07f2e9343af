"""What an arena's sockets are sent: standings to everyone watching the arena,
"your game is ready" to each player seated (docs/tournaments.md, the socket)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from django.urls import reverse
from django.utils import timezone

from realtime import outbox
from tournaments.arenas.models import Arena


def arena_group(arena_id: int) -> str:
    return f"arena.{arena_id}"


def arena_user_group(arena_id: int, user_id: int) -> str:
    return f"arena.{arena_id}.user.{user_id}"


def standings_push(*, arena_id: int) -> int:
    """Send the arena's standings as they are now to its sockets; return the
    version sent. The frame is serialised once for every socket."""
    from tournaments.arenas.selectors import standings_frame  # reads over writes

    version = (
        Arena.objects.filter(pk=arena_id)
        .values_list("standings_version", flat=True)
        .first()
    )
    if version is None:
        return 0
    frame = standings_frame(arena_id=arena_id)
    outbox.notify(
        [
            (
                arena_group(arena_id),
                {"type": "arena.standings", "text": json.dumps(frame)},
            )
        ]
    )
    Arena.objects.filter(pk=arena_id, standings_sent__lt=version).update(
        standings_sent=version, standings_sent_at=timezone.now()
    )
    return int(version)


def paired_send(*, arena_id: int, seated: Sequence[tuple[int, Sequence[int]]]) -> None:
    """Tell each seated player (after commit) where their game is."""
    messages = []
    # One ``reverse`` per call rather than per table (for the 500 tables of
    # ``bench/arena.py`` it would be most of this function's time): the table
    # page's path for a marker id, split around it.
    marker = 987654321
    path = reverse("table", args=[marker])
    head, tail = path.split(str(marker))
    for table_id, users in seated:
        url = f"{head}{table_id}{tail}"
        messages += [
            (
                arena_user_group(arena_id, user_id),
                {"type": "arena.paired", "table_id": table_id, "url": url},
            )
            for user_id in users
        ]
    outbox.notify(messages)
