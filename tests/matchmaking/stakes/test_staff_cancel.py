"""A stake table cancelled from games (the admin's Cancel) refunds its pot once."""

from __future__ import annotations

import pytest
from django.urls import reverse

from economy.selectors import pot_state, wallet_balance
from games.models import Table
from games.services import table_cancel
from matchmaking.errors import StakeError
from matchmaking.models import StakeTable
from matchmaking.stakes.services import stake_cancel, stake_sit
from tests.matchmaking.stakes.helpers import assert_sound, kinds_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("stake_quiet")]


def test_the_admin_cancel_of_an_open_stake_table_refunds_every_entry(
    funded, admin_client, django_capture_on_commit_callbacks
):
    ana, ben = funded(300), funded(300)
    row = stake_sit(user=ana, stake=250, shape="draw-4p")
    stake_sit(user=ben, stake=250, shape="draw-4p", table_id=row.pk)
    assert wallet_balance(user_id=ana.pk) == 50
    url = reverse("admin:games_table_changelist")
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            url, {"action": "cancel_tables", "_selected_action": [row.pk]}
        )
    assert response.status_code == 302
    assert Table.objects.get(pk=row.pk).status == Table.Status.CANCELLED
    row.refresh_from_db()
    assert row.state == StakeTable.State.CANCELLED
    assert row.reason == StakeTable.Reason.OPERATOR
    assert wallet_balance(user_id=ana.pk) == wallet_balance(user_id=ben.pk) == 300
    assert pot_state(table_ref=str(row.pk)) == "refunded"
    assert kinds_of("refund", row.pk) == 2
    assert_sound()


def test_a_staff_cancel_of_a_started_stake_table_refunds_once(
    funded, django_capture_on_commit_callbacks
):
    ana, ben = funded(100), funded(100)
    row = stake_sit(user=ana, stake=100, shape="block-2")
    stake_sit(user=ben, stake=100, shape="block-2", table_id=row.pk)
    assert Table.objects.get(pk=row.pk).status == Table.Status.PLAYING
    with django_capture_on_commit_callbacks(execute=True):
        assert table_cancel(table_id=row.pk)
    with django_capture_on_commit_callbacks(execute=True):
        assert not table_cancel(table_id=row.pk)  # a second cancel is no refund
    assert wallet_balance(user_id=ana.pk) == wallet_balance(user_id=ben.pk) == 100
    assert kinds_of("refund", row.pk) == 2
    assert_sound()


def test_the_stake_cancel_and_its_own_announcement_refund_once(
    funded, django_capture_on_commit_callbacks
):
    ana = funded(100)
    row = stake_sit(user=ana, stake=100, shape="block-2")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert stake_cancel(table_id=row.pk, reason=StakeTable.Reason.UNFILLED)
    assert callbacks, "table_cancelled was not announced"
    row.refresh_from_db()
    assert row.reason == StakeTable.Reason.UNFILLED  # the receiver changed nothing
    assert wallet_balance(user_id=ana.pk) == 100
    assert kinds_of("refund", row.pk) == 1
    assert_sound()


def test_cancelling_a_table_of_another_mode_touches_no_stake(
    make_user, django_capture_on_commit_callbacks
):
    from games.services import seat_join, table_create

    table = table_create(mode=Table.Mode.FRIEND, variant="block")
    seat_join(table_id=table.pk, user=make_user("ana"))
    with django_capture_on_commit_callbacks(execute=True):
        assert table_cancel(table_id=table.pk)
    assert not StakeTable.objects.exists()
    with pytest.raises(StakeError):
        stake_cancel(table_id=table.pk, reason=StakeTable.Reason.OPERATOR)
