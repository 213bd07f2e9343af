"""The waiting table of a friend room: its seats move, and it closes without a log."""

from __future__ import annotations

import pytest

from games.errors import TableError
from games.models import Seat, Table, TableEvent
from games.services import (
    SeatTaker,
    seat_join,
    seat_move,
    table_create,
    table_seated_create,
    table_start,
    table_waiting_cancel,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quiet(queued, pushes):
    """No broker and no channel layer: timed jobs and frames are recorded."""


def test_a_waiting_seat_moves_or_swaps_and_a_started_table_refuses(make_user):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    table = table_create(mode=Table.Mode.FRIEND, variant="draw", options={"seats": 4})
    for user in (ana, ben, cy):
        seat_join(table_id=table.pk, user=user)

    def seats():
        return sorted(
            Seat.objects.filter(table=table).values_list(
                "position", "user__username", "team"
            )
        )

    seat_move(table_id=table.pk, user_id=ben.pk, position=3)
    assert seats() == [(0, "ana", None), (2, "cy", None), (3, "ben", None)]
    seat_move(table_id=table.pk, user_id=cy.pk, position=0)  # a swap
    assert seats() == [(0, "cy", None), (2, "ana", None), (3, "ben", None)]
    before = seats()
    for code, kwargs in [
        ("bad_seat", {"user_id": ana.pk, "position": 4}),
        ("not_seated", {"user_id": make_user().pk, "position": 1}),
    ]:
        with pytest.raises(TableError) as err:
            seat_move(table_id=table.pk, **kwargs)
        assert err.value.code == code
    assert seats() == before
    seat_join(table_id=table.pk, bot_level="easy")
    table_start(table_id=table.pk)
    with pytest.raises(TableError) as err:
        seat_move(table_id=table.pk, user_id=ana.pk, position=1)
    assert err.value.code == "not_waiting" and seats()[:1] == [(0, "cy", None)]


def test_a_partner_seat_move_takes_the_team_of_the_new_seat(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    table = table_create(
        mode=Table.Mode.FRIEND,
        variant="draw",
        options={"seats": 4, "partnership": True},
    )
    seat_join(table_id=table.pk, user=ana, position=0)
    seat_join(table_id=table.pk, user=ben, position=1)
    seat_move(table_id=table.pk, user_id=ben.pk, position=2)
    teams = dict(Seat.objects.filter(table=table).values_list("user_id", "team"))
    assert teams == {ana.pk: 0, ben.pk: 0}


def test_only_a_waiting_table_is_cancelled_without_a_log(make_user):
    waiting = table_create(mode=Table.Mode.FRIEND, variant="draw")
    assert table_waiting_cancel(table_id=waiting.pk) is True
    waiting.refresh_from_db()
    assert waiting.status == "cancelled" and waiting.finished_at is not None
    assert waiting.seq == 0 and not TableEvent.objects.filter(table=waiting).exists()
    assert table_waiting_cancel(table_id=waiting.pk) is False
    ana = make_user("ana")
    started = table_seated_create(
        mode=Table.Mode.FRIEND,
        variant="draw",
        seats=[SeatTaker(user=ana), SeatTaker(bot_level="easy")],
    )
    assert table_waiting_cancel(table_id=started.pk) is False
    started.refresh_from_db()
    assert started.status == "playing"
