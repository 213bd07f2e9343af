"""The counts the navigation shows beside its links, read in one statement.

Apps above accounts own what is counted (friend requests waiting for an answer,
room invitations still open): each registers a function giving the rows to count
for a player (``nav_count_register``, in its ``AppConfig.ready``), and every page
reads all of them as subqueries of one ``SELECT`` instead of one statement each.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import IntegerField, QuerySet, Subquery

# The rows a count counts, for one signed-in player.
NavRows = Callable[[Any], QuerySet[Any]]

_counts: dict[str, NavRows] = {}


def nav_count_register(name: str, rows: NavRows) -> None:
    """Show ``name`` (a template variable) as the count of ``rows(user)``."""
    _counts[name] = rows


class _Count(Subquery):
    """``(SELECT count(*) FROM (<rows>))``: the number of rows of a queryset."""

    template = "(SELECT count(*) FROM (%(subquery)s) nav_rows)"
    output_field = IntegerField()


def nav_counts(user: Any) -> dict[str, int]:
    """Every registered count for ``user``: one statement, none with no count."""
    if not _counts:
        return {}
    counts = {
        name: _Count(rows(user).order_by().values("pk"))
        for name, rows in _counts.items()
    }
    found: Any = (
        get_user_model().objects.filter(pk=user.pk).values(**counts).first() or {}
    )
    return {name: int(found.get(name) or 0) for name in _counts}
