"""Helpers of the Swiss event tests: a club whose leader schedules events, players
present on the event's page, games ended by hand or played out."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from clubs.services import club_create
from games.finish import FinishNotice
from games.models import Seat, Table
from tests.economy.conftest import assert_sound as ledger_sound
from tournaments.swiss.audit import swiss_pots_audit
from tournaments.swiss.models import SwissEvent, SwissGame
from tournaments.swiss.presence import presence_mark
from tournaments.swiss.rounds import (
    round_starts_at,
    swiss_advance,
    swiss_on_table_finished,
)
from tournaments.swiss.services import swiss_create


def assert_sound() -> None:
    """The ledger audit and the Swiss pots' audit are both clean."""
    ledger_sound()
    assert swiss_pots_audit() == []


def event_of(
    leader: Any,
    *,
    rounds: int = 3,
    entry: int = 0,
    members_only: bool = False,
    club: Any = None,
    pool: str = "draw-2",
) -> SwissEvent:
    """A Swiss event of ``rounds`` rounds starting in ten minutes, run by a club
    that ``leader`` leads (made for it when not given)."""
    if club is None:
        club = club_create(
            user=leader,
            name=f"Club of {leader.username}",
            description="",
            language="en",
            open=True,
        )
    return swiss_create(
        user=leader,
        club_slug=club.slug,
        name="Friday Swiss",
        pool=pool,
        rounds=rounds,
        round_minutes=30,
        starts_at=timezone.now() + timedelta(minutes=10),
        entry=entry,
        members_only=members_only,
    )


def here(event: SwissEvent, *users: Any) -> None:
    """Mark ``users`` present on the event's page."""
    for user in users:
        presence_mark(event_id=event.pk, user_id=user.pk)


def start(event: SwissEvent, number: int) -> datetime:
    """Advance the event at round ``number``'s time; return that time."""
    at = round_starts_at(SwissEvent.objects.get(pk=event.pk), number)
    swiss_advance(event_id=event.pk, now=at)
    return at


def end_game(game: SwissGame, *, winner: Any = None, forfeit: Any = None) -> None:
    """End ``game``'s table: ``winner`` places first (None: a tie), or ``forfeit``
    left it; then the finish consequence runs, as after the last move."""
    assert game.table_id is not None
    for seat in Seat.objects.filter(table_id=game.table_id):
        if forfeit is not None:
            seat.forfeited = seat.user_id == forfeit.pk
            seat.place = 2 if seat.forfeited else 1
        else:
            seat.place = 1 if winner is None or seat.user_id == winner.pk else 2
        seat.save(update_fields=["place", "forfeited"])
    Table.objects.filter(pk=game.table_id).update(
        status=Table.Status.FINISHED, finished_at=timezone.now()
    )
    swiss_on_table_finished(
        FinishNotice(
            table_id=game.table_id,
            mode="online",
            variant="draw",
            simulated=False,
            results=[],
        )
    )


def games_of(event: SwissEvent, number: int) -> list[SwissGame]:
    return list(
        SwissGame.objects.filter(event=event, round=number)
        .select_related("first", "second")
        .order_by("number")
    )
