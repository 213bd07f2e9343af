"""Fixtures for league tests: finished tables made through the table services."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

import pytest

from games.models import Seat, Table
from games.services import seat_join, table_create
from leagues.services import table_points_record

FinishTable = Callable[..., Table]


def finish(
    *,
    seats: Sequence[object],
    places: Sequence[int],
    at: datetime,
    mode: str = "online",
    partnership: bool = False,
    record: bool = True,
) -> Table:
    """A table of ``seats`` (users, or ``"bot"`` for a simulated player) finished at
    ``at`` with ``places``, its points recorded as the finish receiver would."""
    options: dict[str, object] = {"seats": len(seats), "target": 50}
    if partnership:
        options["partnership"] = True
    table = table_create(mode=mode, variant="draw", options=options)
    for seat in seats:
        if seat == "bot":
            seat_join(table_id=table.pk, bot_level="medium", simulated=True)
        else:
            seat_join(table_id=table.pk, user=seat)
    Table.objects.filter(pk=table.pk).update(
        status=Table.Status.FINISHED, finished_at=at
    )
    for position, place in enumerate(places):
        Seat.objects.filter(table=table, position=position).update(place=place)
    if record:
        table_points_record(table_id=table.pk)
    return Table.objects.get(pk=table.pk)


@pytest.fixture
def finish_table() -> FinishTable:
    return finish


@pytest.fixture
def make_player(django_user_model) -> Callable[..., object]:
    """A player account without a password (hashing one is slow; these never log in)."""
    counter = iter(range(1, 1_000_000))

    def make(username: str | None = None) -> object:
        return django_user_model.objects.create(
            username=username or f"p{next(counter)}"
        )

    return make
