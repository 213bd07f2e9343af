"""Who may see a table: its page, its socket, its fair deal, its history and its log.

Anyone signed in may watch a table, unless its mode has a check. A practice table
is its player's alone: its page, ``fair.json``, socket, history and log, and once
it has ended its replay, review and record (``games.replays.access`` and
``games.reviews.access`` start from this rule, adding only the share link its
player hands out). The app that owns another kind of table may register a check
(friend rooms: their members and invitees, or anyone if the host allows
spectators); the registry keeps ``games`` free of the apps that own the tables'
books (``matchmaking`` registers its check in ``MatchmakingConfig.ready``). A
player seated at the table may always see it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404
from django.utils.translation import gettext

from games.models import Seat, Table
from games.rows import table_with_seats

# A check answers whether a user who is not seated at the table may see it.
WatchCheck = Callable[[Table, Any], bool]


def _nobody_else(table: Table, user: Any) -> bool:
    """A practice table: its player plays alone against the computer, and nobody
    else sees the game (friends' watch lists leave it out too)."""
    return False


_checks: dict[str, WatchCheck] = {Table.Mode.PRACTICE: _nobody_else}


def watch_check_register(mode: str, check: WatchCheck) -> None:
    """Let ``check`` decide who, besides its players, sees tables of ``mode``."""
    _checks[mode] = check


def table_may_see(*, table: Table, user: Any, seats: list[Seat] | None = None) -> bool:
    """Whether ``user`` may see ``table`` (its page, socket, history, log);
    ``seats``, the table's seats if already read, spare reading them again."""
    check = _checks.get(table.mode)
    if check is None:
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    if seats is not None:
        seated = any(s.user_id == user.pk for s in seats)
    else:
        seated = Seat.objects.filter(table=table, user=user).exists()
    return seated or check(table, user)


def table_visible_or_404(*, table_id: int, user: Any) -> Table:
    """The table, or a plain 404 (the same as for no table at all) for anyone who
    may not see it."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not table_may_see(table=table, user=user):
        raise Http404(gettext("There is no such table."))
    return table


def table_with_seats_visible_or_404(
    *, table_id: int, user: Any
) -> tuple[Table, list[Seat]]:
    """The table and its seats by position (each with its user's id and name: one
    statement on PostgreSQL, ``games.rows.table_with_seats``), or the same 404 as
    :func:`table_visible_or_404`."""
    found = table_with_seats(table_id, lock=False)
    if found is None or not table_may_see(table=found[0], user=user, seats=found[1]):
        raise Http404(gettext("There is no such table."))
    return found
