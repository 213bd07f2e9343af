"""The staff cancel a sit-and-go a fault made unplayable: every entry comes back
through the ledger, its live tables are cancelled without payouts, nothing is
replayed, and the entrants are told on the event's page."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from economy.models import Transaction
from economy.selectors import pot_balance, pot_state, wallet_balance
from games.models import Table
from tests.tournaments.sitgo.helpers import (
    assert_sound,
    fill,
    live_tables,
    play_out,
    snapshot,
)
from tournaments.sitgo.errors import SitGoError
from tournaments.sitgo.models import SitGo, SitGoEntry, SitGoTable
from tournaments.sitgo.services import sitgo_enter, sitgo_staff_cancel

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:tournaments_sitgo_changelist"


def cancel_in_admin(client, row: SitGo, capture) -> list[str]:
    with capture(execute=True):
        reply = client.post(
            reverse(CHANGELIST),
            {"action": "cancel_sitgos", "_selected_action": [row.pk]},
            follow=True,
        )
    assert reply.status_code == 200
    return [str(m) for m in reply.context["messages"]]


def test_the_admin_cancels_a_running_sit_and_go_and_refunds_every_entry(
    admin_client, client, funded, queued, pushes, django_capture_on_commit_callbacks
):
    users = [funded(250) for _ in range(8)]
    row = fill(users, size=8, entry=100)
    first, second = live_tables(row, 1)
    # One round-1 table is done; the other is still being played.
    play_out(first.table_id, capture=django_capture_on_commit_callbacks)
    said = cancel_in_admin(admin_client, row, django_capture_on_commit_callbacks)
    assert said == ["Cancelled 1 sit-and-go; its entries are refunded."]
    row.refresh_from_db()
    assert (row.state, row.reason) == (SitGo.State.CANCELLED, SitGo.Reason.STAFF)
    # The whole pot back, one refund per entry, no payout.
    assert pot_state(table_ref=row.pot_ref) == "refunded"
    pot = Transaction.objects.filter(table_ref=row.pot_ref)
    assert pot.filter(kind="refund").count() == 8
    assert not pot.filter(kind="payout").exists()
    assert not SitGoEntry.objects.filter(active_user__isnull=False).exists()
    assert set(SitGoEntry.objects.values_list("payout", flat=True)) == {0}
    # The live table is cancelled, the finished one kept; nothing is replayed.
    assert Table.objects.get(pk=second.table_id).status == Table.Status.CANCELLED
    assert Table.objects.get(pk=first.table_id).status == Table.Status.FINISHED
    states = dict(SitGoTable.objects.values_list("table_id", "state"))
    assert states == {first.table_id: "done", second.table_id: "cancelled"}
    # Each entrant's page says so, and their next table is theirs to choose.
    client.force_login(users[0])
    page = client.get(reverse("sitgo", args=[row.pk])).content.decode()
    assert "The staff cancelled this sit-and-go after a fault" in page
    assert "Cancelled by the staff, entries refunded" in page
    assert "Go to your table" not in page
    html = client.get(reverse("table", args=[second.table_id])).content.decode()
    assert f'href="/tournaments/sitgo/{row.pk}/" data-event' in html
    assert_sound()


def test_a_player_knocked_out_and_entered_elsewhere_gets_the_entry_back_once(
    funded, queued, pushes, django_capture_on_commit_callbacks
):
    users = [funded(250) for _ in range(8)]
    row = fill(users, size=8, entry=100)
    first, _second = live_tables(row, 1)
    play_out(first.table_id, capture=django_capture_on_commit_callbacks)
    first.refresh_from_db()
    loser = next(u for u in users if u.pk == first.order[3])
    coins = wallet_balance(user_id=loser.pk)  # with what the game rewarded
    elsewhere = sitgo_enter(user=loser, size=4, entry=100)  # free again
    assert wallet_balance(user_id=loser.pk) == coins - 100
    with django_capture_on_commit_callbacks(execute=True):
        assert sitgo_staff_cancel(sitgo_id=row.pk) is True
    # The cancelled event's entry comes back; the other event keeps its own.
    assert wallet_balance(user_id=loser.pk) == coins
    refunds = Transaction.objects.filter(kind="refund", table_ref=row.pot_ref)
    assert refunds.count() == 8
    assert pot_state(table_ref=elsewhere.pot_ref) == "open"
    assert pot_balance(table_ref=elsewhere.pot_ref) == 100
    assert SitGoEntry.objects.get(sitgo=elsewhere).active_user_id == loser.pk
    assert SitGo.objects.get(pk=elsewhere.pk).state == SitGo.State.OPEN
    assert_sound()


def test_entries_come_back_whole_and_only_once(
    funded, queued, pushes, django_capture_on_commit_callbacks
):
    users = [funded(300) for _ in range(4)]
    row = fill(users, size=4, entry=250)
    with django_capture_on_commit_callbacks(execute=True):
        assert sitgo_staff_cancel(sitgo_id=row.pk) is True
    with django_capture_on_commit_callbacks(execute=True):
        assert sitgo_staff_cancel(sitgo_id=row.pk) is False
    assert [wallet_balance(user_id=u.pk) for u in users] == [300] * 4
    assert Transaction.objects.filter(kind="refund", table_ref=row.pot_ref).count() == 4
    # The cancelled table's signal replayed nothing.
    assert SitGoTable.objects.filter(sitgo=row).count() == 1
    assert_sound()


def test_an_open_sit_and_go_is_cancelled_the_same_way(funded):
    ana, ben = funded(100), funded(100)
    row = fill([ana, ben], size=4)
    assert sitgo_staff_cancel(sitgo_id=row.pk) is True
    row.refresh_from_db()
    assert (row.state, row.reason) == (SitGo.State.CANCELLED, SitGo.Reason.STAFF)
    assert wallet_balance(user_id=ana.pk) == wallet_balance(user_id=ben.pk) == 100
    assert_sound()


def test_a_finished_sit_and_go_is_left_as_it_was(
    admin_client, funded, queued, pushes, django_capture_on_commit_callbacks
):
    row = fill([funded(100) for _ in range(4)], size=4)
    (game,) = live_tables(row)
    play_out(game.table_id, capture=django_capture_on_commit_callbacks)
    before = snapshot()
    with pytest.raises(SitGoError) as err:
        sitgo_staff_cancel(sitgo_id=row.pk)
    assert err.value.code == "finished"
    said = cancel_in_admin(admin_client, row, django_capture_on_commit_callbacks)
    assert "1 had finished (its pot is paid out) and was left as it was." in said
    assert snapshot() == before
    assert SitGo.objects.get(pk=row.pk).state == SitGo.State.FINISHED
    assert_sound()


def test_only_staff_who_may_change_sit_and_gos_see_the_action(
    client, make_user, funded
):
    row = fill([funded(100)], size=4)
    viewer = make_user(is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_sitgo"))
    client.force_login(viewer)
    page = client.get(reverse(CHANGELIST)).content.decode()
    assert f"/admin/tournaments/sitgo/{row.pk}/change/" in page
    assert "cancel_sitgos" not in page
    viewer.user_permissions.add(Permission.objects.get(codename="change_sitgo"))
    page = client.get(reverse(CHANGELIST)).content.decode()
    assert "cancel_sitgos" in page
