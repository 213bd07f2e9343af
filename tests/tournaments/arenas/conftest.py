"""Fixtures of the arena tests: arenas, present players, no broker."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone


@pytest.fixture(autouse=True)
def arena_quiet(monkeypatch):
    """Pairings queued "at once" are recorded, not sent to a broker."""
    from tournaments.arenas import services

    queued: list[int] = []
    monkeypatch.setattr(services, "_pair_soon", queued.append)
    cache.clear()
    return queued


@pytest.fixture
def make_arena():
    """``make_arena(pool="draw-2", live=True, **fields)``: an arena starting now
    (live) or in an hour; a short match target so games end quickly."""
    from tournaments.arenas.models import Arena
    from tournaments.arenas.services import arena_create

    def make(pool: str = "draw-2", *, live: bool = True, minutes: int = 60, **fields):
        now = timezone.now()
        arena = arena_create(
            pool_key=pool,
            starts_at=now - timedelta(minutes=1) if live else now + timedelta(hours=1),
            minutes=minutes,
        )
        options = {**arena.options, "target": 50} if pool == "draw-2" else arena.options
        Arena.objects.filter(pk=arena.pk).update(
            status=Arena.Status.LIVE if live else Arena.Status.SCHEDULED,
            options=options,
            **fields,
        )
        return Arena.objects.get(pk=arena.pk)

    return make


@pytest.fixture
def joined(make_user):
    """``joined(arena, n)``: n new players who joined ``arena`` with its page open."""
    from tournaments.arenas.presence import presence_mark
    from tournaments.arenas.services import arena_join

    def make(arena, n: int, prefix: str = "p"):
        users = []
        for _ in range(n):
            user = make_user()
            arena_join(arena_id=arena.pk, user=user)
            presence_mark(arena_id=arena.pk, user_id=user.pk)
            users.append(user)
        return users

    return make
