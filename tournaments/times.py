"""A start typed in a form of the tournaments (a Swiss event, a team battle)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def starts_at_of(local: str, offset: str) -> datetime | None:
    """The start the form gave: a ``datetime-local`` value in the browser's time,
    with the browser's offset from UTC in minutes (``Date.getTimezoneOffset``, set
    by the page's script; UTC without it). None for anything else."""
    try:
        naive = datetime.fromisoformat(local)
        minutes = int(offset or 0)
    except (TypeError, ValueError):
        return None
    if naive.tzinfo is not None or not -24 * 60 <= minutes <= 24 * 60:
        return None
    return naive.replace(tzinfo=UTC) + timedelta(minutes=minutes)
