"""League weeks in time: Monday 00:00 UTC to the next Monday 00:00 UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import IntegrityError, transaction

from leagues.models import Week

WEEK = timedelta(days=7)


def week_start(at: datetime) -> datetime:
    """The Monday 00:00 UTC that opens the week ``at`` falls in."""
    moment = at.astimezone(UTC)
    monday = moment.date() - timedelta(days=moment.weekday())
    return datetime(monday.year, monday.month, monday.day, tzinfo=UTC)


def week_end(start: datetime) -> datetime:
    return start + WEEK


def week_ensure(*, start: datetime) -> Week:
    """The week opening at ``start``, created if nobody has yet."""
    week = Week.objects.filter(start=start).first()
    if week is not None:
        return week
    try:
        with transaction.atomic():
            return Week.objects.create(start=start)
    except IntegrityError:
        return Week.objects.get(start=start)
