"""The scheduled arenas' slots (``TOURNAMENTS_ARENA_SCHEDULE``): pure over its
entries, so the scheduler's idempotence rests on the slot keys alone."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any


@dataclass(frozen=True, slots=True)
class Slot:
    """One scheduled arena: its pool, its time and its unique key."""

    pool: str
    starts_at: datetime
    ends_at: datetime

    @property
    def key(self) -> str:
        return f"{self.pool}@{self.starts_at.astimezone(UTC):%Y-%m-%dT%H:%M}"


def slots_between(
    entries: Iterable[Mapping[str, Any]], *, start: datetime, end: datetime
) -> list[Slot]:
    """Every slot of ``entries`` still running at ``start`` or starting before
    ``end``, in time order.

    An entry is ``{"pool", "every": "hourly"|"daily", "minute", "hour" (daily),
    "minutes" (length)}``; times are UTC.
    """
    found: list[Slot] = []
    first = start.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
    for entry in entries:
        length = timedelta(minutes=int(entry.get("minutes", 60)))
        minute = int(entry.get("minute", 0))
        if entry.get("every", "hourly") == "daily":
            step = timedelta(days=1)
            at = first.replace(hour=int(entry.get("hour", 0)), minute=minute)
            if at > first:
                at -= step
        else:
            step = timedelta(hours=1)
            at = first.replace(minute=minute)
            at -= step
        at -= length // step * step + step
        while at < end:
            if at + length > start:
                found.append(
                    Slot(pool=str(entry["pool"]), starts_at=at, ends_at=at + length)
                )
            at += step
    return sorted(found, key=lambda s: (s.starts_at, s.pool))
