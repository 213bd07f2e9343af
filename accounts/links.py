"""Linked accounts: players seen from one address or one device (RULES.md §5).

Two accounts are linked when they share a recorded sighting (``accounts.sightings``)
seen within ``ACCOUNT_SIGHTING_DAYS``. Linked accounts never sit at one stake table
or event table together; friend rooms and ranked tables stay open to a family on
one network. Reads only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from datetime import timedelta
from itertools import combinations

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import Sighting


def _recent() -> QuerySet[Sighting]:
    cutoff = timezone.now() - timedelta(days=settings.ACCOUNT_SIGHTING_DAYS)
    return Sighting.objects.filter(last_seen__gte=cutoff)


def linked_sightings(*, user_id: int) -> QuerySet[Sighting]:
    """The recent sightings of other accounts sharing one with ``user_id``: a lazy
    query, so a caller can narrow it (``user_id__in`` a subquery of its own) or
    embed it, and ask in one statement."""
    digests = _recent().filter(user_id=user_id).values("digest")
    return _recent().filter(digest__in=digests).exclude(user_id=user_id)


def linked_user_ids(*, user_id: int, among: Collection[int] | None = None) -> set[int]:
    """The accounts linked to ``user_id`` (``among`` these only, if given)."""
    if among is not None and not among:
        return set()
    query = linked_sightings(user_id=user_id)
    if among is not None:
        query = query.filter(user_id__in=list(among))
    return set(query.values_list("user_id", flat=True).distinct())


def linked_pairs(*, user_ids: Collection[int]) -> set[tuple[int, int]]:
    """Every two of ``user_ids`` that are linked, each pair once (smaller id first)."""
    if len(user_ids) < 2:
        return set()
    users_of: dict[str, set[int]] = defaultdict(set)
    for digest, user_id in (
        _recent()
        .filter(user_id__in=list(user_ids))
        .values_list("digest", "user_id")
        .order_by()
    ):
        users_of[digest].add(user_id)
    return {
        pair
        for users in users_of.values()
        if len(users) > 1
        for pair in combinations(sorted(users), 2)
    }
