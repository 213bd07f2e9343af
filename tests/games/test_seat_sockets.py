"""A seat is connected while any of its player's sockets to the table is open.

Closing one tab of two leaves the seat connected and makes no new ``seq``; only the
first socket opening and the last one closing change the seat and the ``seq``. The
count is shared by every server process (Redis in a deployment), which the
``services`` test checks by counting the same sockets through two Redis clients.
"""

from __future__ import annotations

import pytest

from games.models import Seat, Table
from games.services import seat_presence
from tests.support.tables import two_human_table

pytestmark = pytest.mark.django_db


def _seen(table: Table) -> tuple[bool, int]:
    seat = Seat.objects.get(table=table, position=0)
    return seat.connected, Table.objects.get(pk=table.pk).seq


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
        (False, seq + 2),  # last tab closed
    ]


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
    assert _seen(table)[0] is False
