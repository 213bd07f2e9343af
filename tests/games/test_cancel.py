"""games.services.table_cancel: a waiting or playing table ends with nobody winning."""

from __future__ import annotations

import json

import pytest

from games.errors import TableError
from games.models import Table
from games.services import seat_join, table_cancel, table_create
from games.spectators import watched_mark
from tests.support.tables import drive, two_human_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def cancel_pushes(pushes):
    return pushes


def test_a_waiting_table_is_cancelled_and_everyone_at_it_told(
    make_user, cancel_pushes, django_capture_on_commit_callbacks
):
    ana = make_user()
    table = table_create(mode="stake", variant="block", options={})
    seat_join(table_id=table.pk, user=ana)
    watched_mark(table.pk)  # someone watches the waiting table
    with django_capture_on_commit_callbacks(execute=True):
        assert table_cancel(table_id=table.pk) is True
    table.refresh_from_db()
    assert table.status == Table.Status.CANCELLED and table.finished_at
    frames = [json.loads(m["text"]) for _, m in cancel_pushes]
    assert {f["table"]["status"] for f in frames} == {"cancelled"}
    assert len(frames) == 2  # ana's seat and the spectators
    # Again: nothing more happens.
    assert table_cancel(table_id=table.pk) is False


def test_a_playing_table_is_cancelled_and_its_timer_cleared(
    make_user, queued, pushes, cancel_pushes
):
    table, ana, ben = two_human_table(make_user, mode="stake", clock=30)
    assert Table.objects.get(pk=table.pk).deadline is not None
    assert table_cancel(table_id=table.pk) is True
    table.refresh_from_db()
    assert table.status == Table.Status.CANCELLED
    assert (table.timer, table.deadline) == ("", None)


def test_a_finished_table_cannot_be_cancelled(make_user, queued, pushes):
    import random

    table, ana, ben = two_human_table(make_user, mode="friend", target=50)
    drive(table.pk, {0: ana, 1: ben}, rng=random.Random(1))
    with pytest.raises(TableError) as caught:
        table_cancel(table_id=table.pk)
    assert caught.value.code == "finished"
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


def test_a_forged_table_id_is_refused(db):
    with pytest.raises(TableError) as caught:
        table_cancel(table_id=987_654)
    assert caught.value.code == "no_table"
