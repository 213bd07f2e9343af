"""Practice statistics: games won and played, by the computers' strongest level."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib.auth.models import User

from games.models import Seat, Table

LEVELS = [level for level, _label in Seat.BotLevel.choices]
LEVEL_RANK = {level: i for i, level in enumerate(LEVELS)}


def practice_stats(*, user: User) -> list[dict[str, Any]]:
    """``[{"level", "label", "played", "won", "offline"}]`` for easy, medium and
    hard.

    A practice table where the user sat counts once, under the highest level among
    its computer players, when it finished or was abandoned after its start (left,
    or expired idle): it is won only when the user's seat placed first, so leaving
    a game that is going badly counts as a loss. ``offline`` says how many of the
    games played were played offline and uploaded (``games.offline_upload``).
    """
    seats = Seat.objects.filter(
        table__mode=Table.Mode.PRACTICE,
        table__status__in=[Table.Status.FINISHED, Table.Status.CANCELLED],
        table__started_at__isnull=False,
        table__seats__user=user,
    ).values_list(
        "table_id", "user_id", "bot_level", "place", "table__offline_game__id"
    )
    top: dict[int, int] = {}
    won: dict[int, bool] = defaultdict(bool)
    offline: set[int] = set()
    for table_id, user_id, bot_level, place, uploaded in seats:
        if uploaded is not None:
            offline.add(table_id)
        if user_id == user.pk:
            won[table_id] = place == 1
        elif bot_level in LEVEL_RANK:
            top[table_id] = max(top.get(table_id, -1), LEVEL_RANK[bot_level])
    played = [0] * len(LEVELS)
    wins = [0] * len(LEVELS)
    offline_played = [0] * len(LEVELS)
    for table_id, rank in top.items():
        played[rank] += 1
        wins[rank] += won[table_id]
        offline_played[rank] += table_id in offline
    labels = dict(Seat.BotLevel.choices)
    return [
        {
            "level": level,
            "label": labels[level],
            "played": played[i],
            "won": wins[i],
            "offline": offline_played[i],
        }
        for i, level in enumerate(LEVELS)
    ]
