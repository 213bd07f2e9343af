"""A rematch both players accept, after a finished online table.

Offered only at a table of two people and no computer (a backfilled or larger
table has no "the other player" who could accept; its players use Find another
table), within :data:`REMATCH_MINUTES` of its end. Each person's offer is a
``RematchOffer`` row; the offer that completes the set seats everyone at one new
table of the same pool, under the finished table's row lock, so two accepting at
once make one table. Stake tables have no rematch here: another stake table goes
through the stake tables' own books (Find another table there pays a new entry).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Seat, Table
from matchmaking.commitments import committed_elsewhere, player_lock
from matchmaking.errors import MatchError
from matchmaking.pools.conduct import free_to_sit_check
from matchmaking.pools.config import DEFAULT_SPEED, Pool, pool_get, speed_get
from matchmaking.pools.display import rating_points
from matchmaking.pools.models import Rating, RematchOffer, Search
from matchmaking.pools.ratings import MU
from matchmaking.pools.seating import Member, groups_seat
from matchmaking.pools.selectors import live_table_of

REMATCH_MINUTES = 10


def _pool_of(table_id: int) -> Pool | None:
    key = (
        Search.objects.filter(seated_table_id=table_id, status=Search.Status.SEATED)
        .values_list("pool", flat=True)
        .first()
    )
    return pool_get(key)


def _people(seats: list[Seat]) -> list[int] | None:
    """The table's two people, or None when it does not allow a rematch."""
    if len(seats) != 2 or any(s.user_id is None or s.simulated for s in seats):
        return None
    return [s.user_id for s in seats if s.user_id is not None]


def _open(table: Table) -> bool:
    return (
        table.mode == Table.Mode.ONLINE
        and table.status == Table.Status.FINISHED
        and table.finished_at is not None
        and timezone.now() - table.finished_at < timedelta(minutes=REMATCH_MINUTES)
    )


def rematch_state(*, user_id: int, table_id: int) -> dict[str, Any]:
    """What the finished table's result shows of a rematch: whether one can be
    offered, who has offered it (usernames), and the new table once seated."""
    table = Table.objects.filter(pk=table_id).first()
    seats = list(Seat.objects.filter(table_id=table_id).select_related("user"))
    people = _people(seats)
    offers = list(RematchOffer.objects.filter(table_id=table_id).select_related("user"))
    new_table = next((o.new_table_id for o in offers if o.new_table_id), None)
    available = (
        table is not None
        and people is not None
        and user_id in people
        and (new_table is not None or _open(table))
        and _pool_of(table_id) is not None
    )
    return {
        "available": available,
        "offered": [o.user.username for o in offers if o.user_id != user_id],
        "mine": any(o.user_id == user_id for o in offers),
        "table": new_table,
    }


@transaction.atomic
def rematch_offer(*, user_id: int, table_id: int) -> dict[str, Any]:
    """Offer (or accept) a rematch; the last person's offer seats both at a new
    table of the same pool. Refused for a table that allows none, or while the
    person holds another seat, searches, is in cooldown or is committed elsewhere
    (a sit-and-go: ``matchmaking.commitments``). Both people's commitment locks
    are taken first (in id order), then the finished table's row, so a sit-and-go
    entry racing the rematch by either of them is seen by one or the other."""
    seats = list(Seat.objects.filter(table_id=table_id))
    people = _people(seats)
    if people is not None and user_id in people:
        for person in sorted(people):
            player_lock(user_id=person)
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    pool = _pool_of(table_id)
    if table is None or people is None or user_id not in people or pool is None:
        raise MatchError("no_rematch", _("This table has no rematch."))
    if RematchOffer.objects.filter(table_id=table_id, new_table_id__isnull=False):
        return rematch_state(user_id=user_id, table_id=table_id)
    if not _open(table):
        raise MatchError("no_rematch", _("The time for a rematch is over."))
    free_to_sit_check(user_id=user_id)
    if reason := committed_elsewhere(user_id):
        raise MatchError("busy_elsewhere", reason)
    if Search.objects.filter(user_id=user_id, status=Search.Status.WAITING).exists():
        raise MatchError(
            "already_searching",
            _("You are looking for a table: cancel the search for a rematch."),
        )
    RematchOffer.objects.get_or_create(table_id=table_id, user_id=user_id)
    offered = set(
        RematchOffer.objects.filter(table_id=table_id).values_list("user_id", flat=True)
    )
    if offered >= set(people):
        _seat_rematch(table_id=table_id, pool=pool, people=people)
    return rematch_state(user_id=user_id, table_id=table_id)


def _rating(user_id: int, variant: str) -> float:
    mu = (
        Rating.objects.filter(user_id=user_id, variant=variant)
        .values_list("mu", flat=True)
        .first()
    )
    return float(rating_points(MU if mu is None else mu))


def _seat_rematch(*, table_id: int, pool: Pool, people: list[int]) -> None:
    """Seat the people at one new table of ``pool``, recorded as seated searches
    (the pool's counts and Find another table read them)."""
    for user_id in people:
        if live_table_of(user_id=user_id) is not None:
            raise MatchError(
                "other_seated",
                _("The other player has sat down at another table meanwhile."),
            )
        if committed_elsewhere(user_id):
            raise MatchError(
                "other_busy",
                _("The other player has entered another event meanwhile."),
            )
    ratings = {uid: _rating(uid, pool.variant) for uid in people}
    # A rematch runs the finished table's speed.
    speed = speed_get(
        Search.objects.filter(seated_table_id=table_id, status=Search.Status.SEATED)
        .values_list("speed", flat=True)
        .first()
    ) or speed_get(DEFAULT_SPEED)
    (new,) = groups_seat(
        pool=pool,
        groups=[[Member(user_id=uid, rating=ratings[uid]) for uid in people]],
        speed=speed,
    )
    now = timezone.now()
    Search.objects.bulk_create(
        [
            Search(
                user_id=uid,
                pool=pool.key,
                speed=speed.key if speed else DEFAULT_SPEED,
                status=Search.Status.SEATED,
                rating=ratings[uid],
                started_at=now,
                seen_at=now,
                ended_at=now,
                seated_table_id=new.pk,
            )
            for uid in people
        ]
    )
    RematchOffer.objects.filter(table_id=table_id).update(new_table_id=new.pk)
