"""Which arena games earned (RULES.md §5, "Earning needs playing"): the reads the
end of an arena, its page and the audit share.

An *earning game* is a player's seat at a finished table the arena seated and
counted, whose owner made more than half of that seat's own decisions
(``Seat.unpaid`` empty, written by ``games.earning`` when the match ended) and
did not forfeit it. A seat left at once is played by its stand-in (``standin``);
a forfeited seat finished last by leaving: neither is a game of the player's own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from django.db.models import Q

from games.models import Seat, Table


def _earning_seats(arena_filter: Q) -> Q:
    return arena_filter & Q(
        user__isnull=False,
        unpaid="",
        forfeited=False,
        table__status=Table.Status.FINISHED,
        table__arena_game__scored_at__isnull=False,
    )


def arena_earning_games(*, arena_id: int) -> Counter[int]:
    """``{user_id: earning games}`` of one arena (players with none left out)."""
    rows = Seat.objects.filter(
        _earning_seats(Q(table__arena_game__arena_id=arena_id))
    ).values_list("user_id", flat=True)
    return Counter(user_id for user_id in rows if user_id is not None)


def arenas_earning_players(*, arena_ids: Iterable[int]) -> set[tuple[int, int]]:
    """``{(arena_id, user_id)}`` of every player with an earning game in one of
    ``arena_ids``."""
    rows = (
        Seat.objects.filter(
            _earning_seats(Q(table__arena_game__arena_id__in=list(arena_ids)))
        )
        .values_list("table__arena_game__arena_id", "user_id")
        .distinct()
    )
    return {(arena_id, user_id) for arena_id, user_id in rows if user_id is not None}
