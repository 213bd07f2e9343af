"""A player's own tables for the My games page: live ones first, then the ended."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.paginator import Page, Paginator
from django.db.models import Case, IntegerField, Value, When
from django.utils.translation import gettext

from games.models import Seat, Table
from games.names import seat_display_name, variant_title
from games.reviews.steps import hands_finished

PER_PAGE = 20
LIVE = (Table.Status.WAITING, Table.Status.PLAYING)


@dataclass(frozen=True)
class GameRow:
    """One table as its player sees it in the list."""

    table: Table
    variant: str
    mode: str
    live: bool
    result: str
    opponents: str
    date: datetime
    # The first hand with a review to open (0: no hand was played to its end).
    review_hand: int = 0
    # Played offline and uploaded (``games.offline_upload``).
    offline: bool = False


def _result_words(table: Table, mine: Seat, seats: list[Seat]) -> str:
    if table.status == Table.Status.CANCELLED:
        return str(gettext("Abandoned"))
    if table.status != Table.Status.FINISHED:
        return gettext("In play") if table.status == Table.Status.PLAYING else ""
    if mine.forfeited:
        return str(gettext("Left"))
    if mine.place == 1:
        return str(gettext("Won"))
    return str(
        gettext("Place %(place)s of %(count)s")
        % {
            "place": mine.place,
            "count": len(seats),
        }
    )


def _row(table: Table, user_id: int) -> GameRow:
    seats = list(table.seats.all())
    mine = next(s for s in seats if s.user_id == user_id)
    others = [seat_display_name(s) for s in seats if s.pk != mine.pk]
    return GameRow(
        table=table,
        variant=variant_title(table.variant),
        mode=table.get_mode_display(),
        live=table.status in LIVE,
        result=_result_words(table, mine, seats),
        opponents=", ".join(others),
        date=table.finished_at or table.started_at or table.created_at,
        review_hand=1 if hands_finished(table=table) else 0,
        offline=hasattr(table, "offline_game"),
    )


def player_games(*, user: User, page: int | str = 1) -> tuple[Page[Any], list[GameRow]]:
    """The page ``page`` of the user's tables: live first, then newest first."""
    tables = (
        Table.objects.filter(seats__user=user)
        .annotate(
            ended=Case(
                When(status__in=LIVE, then=Value(0)),
                default=Value(1),
                output_field=IntegerField(),
            )
        )
        .order_by("ended", "-created_at", "-pk")
        .select_related("offline_game")
        .prefetch_related("seats__user")
    )
    paged = Paginator(tables, PER_PAGE).get_page(page)
    return paged, [_row(t, user.pk) for t in paged.object_list]


PUBLIC_MODES = (Table.Mode.ONLINE, Table.Mode.STAKE)
RECENT = 10


def recent_games(*, player: User, viewer: Any) -> list[GameRow]:
    """The player's last ended tables whose replay ``viewer`` may watch without a
    link: every one of their own; of someone else's, the online and stake tables
    (friend rooms and practice stay with the people who played them)."""
    tables = Table.objects.filter(
        seats__user=player, status__in=(Table.Status.FINISHED, Table.Status.CANCELLED)
    )
    if getattr(viewer, "pk", None) != player.pk:
        tables = tables.filter(mode__in=PUBLIC_MODES)
    tables = (
        tables.order_by("-finished_at", "-pk")
        .select_related("offline_game")
        .prefetch_related("seats__user")
    )
    return [_row(t, player.pk) for t in tables[:RECENT]]
