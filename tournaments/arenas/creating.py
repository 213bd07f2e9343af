"""Making an arena of a pool: the staff's (the admin, ``manage.py arena_create``)
and a team battle's (``battles.battle_create``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from matchmaking.pools.config import pool_get
from tournaments.arenas.errors import ArenaError
from tournaments.arenas.models import Arena


def arena_create(
    *,
    pool_key: str,
    starts_at: datetime,
    minutes: int,
    created_by: User | None = None,
) -> Arena:
    """A staff-made arena of ``pool_key`` (the admin, ``manage.py arena_create``)."""
    pool = pool_get(pool_key)
    if pool is None:
        raise ArenaError("unknown_pool", _("There is no such game in the lobby."))
    if not 5 <= minutes <= 24 * 60:
        raise ArenaError("bad_length", _("An arena lasts between 5 minutes and a day."))
    arena: Arena = Arena.objects.create(
        pool=pool.key,
        variant=pool.variant,
        seats=pool.seats,
        partnership=pool.partnership,
        options=pool.options,
        starts_at=starts_at,
        ends_at=starts_at + timedelta(minutes=minutes),
        created_by=created_by,
    )
    return arena
