"""A seat is connected while any of its player's sockets to the table is open.

Closing one tab of two leaves the seat connected and makes no new ``seq``; only the
first socket opening and the last one closing change the seat and the ``seq``, the
last closing only once its grace has passed without a socket opening again (a page
reload changes nothing anyone sees). The count is shared by every server process
(Redis in a deployment), which the ``services`` test checks by counting the same
sockets through two Redis clients.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Seat, Table, TableEvent
from games.services import seat_presence, seats_offline_tick
from games.services.seats import OFFLINE_GRACE
from tests.support.tables import two_human_table

pytestmark = pytest.mark.django_db


def _seen(table: Table) -> tuple[bool, int]:
    seat = Seat.objects.get(table=table, position=0)
    return seat.connected, Table.objects.get(pk=table.pk).seq


def _lapse() -> int:
    """The sweep, once every grace given so far has passed."""
    return seats_offline_tick(now=timezone.now() + OFFLINE_GRACE + timedelta(seconds=1))


def _two_tabs(table: Table, ana) -> list[tuple[bool, int]]:
    seen = [_seen(table)]
    for socket, connected in [
        ("tab-a", True),
        ("tab-b", True),
        ("tab-a", False),
        ("tab-b", False),
    ]:
        seat_presence(table_id=table.pk, user=ana, connected=connected, socket=socket)
        seen.append(_seen(table))
    assert seats_offline_tick() == 0  # the grace has not passed yet
    seen.append(_seen(table))
    assert _lapse() == 1
    seen.append(_seen(table))
    return seen


def test_only_the_first_open_and_the_last_close_change_the_seat(make_user, pushes):
    table, ana, _ben = two_human_table(make_user)
    seq = table.seq

    seen = _two_tabs(table, ana)

    assert seen == [
        (False, seq),
        (True, seq + 1),  # first tab: connected, a new seq
        (True, seq + 1),  # second tab: nothing anyone sees
        (True, seq + 1),  # one tab closed, one open: still connected
        (True, seq + 1),  # last tab closed: connected for its grace
        (True, seq + 1),
        (False, seq + 2),  # the grace passed: offline, a new seq
    ]


def test_a_reload_within_the_grace_changes_nothing(make_user, pushes):
    table, ana, _ben = two_human_table(make_user)
    seat_presence(table_id=table.pk, user=ana, connected=True, socket="page-1")
    seen = _seen(table)
    seat_presence(table_id=table.pk, user=ana, connected=False, socket="page-1")
    assert Seat.objects.get(table=table, position=0).offline_at is not None
    seat_presence(table_id=table.pk, user=ana, connected=True, socket="page-2")

    assert _lapse() == 0
    assert _seen(table) == seen
    assert Seat.objects.get(table=table, position=0).offline_at is None


def test_a_socket_closed_twice_counts_once(make_user, pushes):
    table, ana, _ben = two_human_table(make_user)
    for socket in ("tab-a", "tab-b"):
        seat_presence(table_id=table.pk, user=ana, connected=True, socket=socket)
    seat_presence(table_id=table.pk, user=ana, connected=False, socket="tab-a")
    seat_presence(table_id=table.pk, user=ana, connected=False, socket="tab-a")

    assert _seen(table)[0] is True


@pytest.mark.services
def test_the_count_is_shared_between_processes(make_user, pushes, settings):
    """Two processes have two Redis clients; a socket counted by one is seen by
    the other (no process memory holds the count)."""
    from realtime import socket_sets

    table, ana, _ben = two_human_table(make_user)
    seat_presence(table_id=table.pk, user=ana, connected=True, socket="proc1.tab")
    socket_sets._client.cache_clear()  # another process: a client of its own
    socket_sets.socket_sets_forget()
    seat_presence(table_id=table.pk, user=ana, connected=True, socket="proc2.tab")
    seat_presence(table_id=table.pk, user=ana, connected=False, socket="proc1.tab")
    assert _seen(table)[0] is True
    seat_presence(table_id=table.pk, user=ana, connected=False, socket="proc2.tab")
    _lapse()
    assert _seen(table)[0] is False


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_reconnect_racing_the_sweep_leaves_the_seat_connected(make_user, pushes):
    """The sweep making a seat offline and its player's page opening again, at the
    same moment, over and over: the seat always ends connected (a socket is open),
    and the table gets a new ``seq`` only for a real flip (offline, then online)."""
    table, ana, _ben = two_human_table(make_user)
    seat_presence(table_id=table.pk, user=ana, connected=True, socket="page-0")
    for round_ in range(1, 16):
        seat_presence(
            table_id=table.pk, user=ana, connected=False, socket=f"page-{round_ - 1}"
        )
        before = _seen(table)[1]
        start = threading.Barrier(2)
        errors: list[BaseException] = []

        def run(job, errors=errors, start=start):
            try:
                start.wait()
                job()
            except BaseException as exc:
                errors.append(exc)
            finally:
                connection.close()

        def reopen(r: int = round_) -> None:
            seat_presence(
                table_id=table.pk, user=ana, connected=True, socket=f"page-{r}"
            )

        threads = [
            threading.Thread(target=run, args=(job,)) for job in (_lapse, reopen)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors
        seat = Seat.objects.get(table=table, position=0)
        assert seat.connected and seat.offline_at is None
        after = _seen(table)[1]
        assert after - before in (0, 2)
        assert TableEvent.objects.filter(table=table, seq__gt=before).count() == (
            after - before
        )
