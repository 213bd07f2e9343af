"""Sit-and-gos on the default database: entering, withdrawing, the deadline, the
rounds, the whole-pot payout, a fault's replay and a no-show's forfeit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from economy.models import Account, Transaction
from economy.pots import places_split, pot_settle_places
from economy.selectors import pot_balance, wallet_balance
from games.models import Seat, Table
from games.services import table_cancel
from tests.tournaments.sitgo.helpers import (
    assert_sound,
    fill,
    live_tables,
    play_out,
    snapshot,
)
from tournaments.sitgo.errors import SitGoError
from tournaments.sitgo.models import SitGo, SitGoEntry, SitGoTable
from tournaments.sitgo.rounds import noshows_forfeit, sitgo_tables_overdue
from tournaments.sitgo.services import (
    sitgo_enter,
    sitgo_withdraw,
    sitgos_expire_due,
)

pytestmark = pytest.mark.django_db


def test_entries_fill_one_pot_and_the_last_starts_a_table_of_entrants_only(
    funded, queued, pushes
):
    users = [funded(300) for _ in range(4)]
    row = fill(users[:3], entry=250, size=4)
    assert row.state == SitGo.State.OPEN and row.seats_taken == 3
    assert row.fill_deadline is not None
    assert pot_balance(table_ref=row.pot_ref) == 750
    assert SitGoTable.objects.count() == 0
    row = sitgo_enter(user=users[3], size=4, entry=250)
    row.refresh_from_db()
    assert row.state == SitGo.State.RUNNING
    (game,) = live_tables(row)
    seats = list(Seat.objects.filter(table_id=game.table_id))
    assert sorted(s.user_id for s in seats) == sorted(u.pk for u in users)
    assert not any(s.bot_level or s.simulated for s in seats)
    table = Table.objects.get(pk=game.table_id)
    assert table.status == Table.Status.PLAYING and table.mode == "online"
    assert [wallet_balance(user_id=u.pk) for u in users] == [50] * 4
    assert pot_balance(table_ref=row.pot_ref) == 1000
    assert_sound()


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"size": 5, "entry": 100}, "bad_size"),
        ({"size": 4, "entry": 99}, "bad_entry"),
        ({"sitgo_id": 999999}, "no_sitgo"),
    ],
)
def test_bad_requests_change_nothing(funded, kwargs, code):
    user = funded(1000)
    before = snapshot()
    with pytest.raises(SitGoError) as err:
        sitgo_enter(user=user, **kwargs)
    assert err.value.code == code
    assert snapshot() == before


def test_player_errors_change_nothing(funded, queued, pushes):
    poor, ana = funded(60), funded(1000)
    row = sitgo_enter(user=ana, size=4, entry=100)
    before = (snapshot(), list(SitGoEntry.objects.values_list("pk", flat=True)))
    with pytest.raises(SitGoError) as err:
        sitgo_enter(user=poor, sitgo_id=row.pk)
    assert err.value.code == "not_enough_coins"
    assert "40 more coins" in err.value.message
    with pytest.raises(SitGoError) as err:
        sitgo_enter(user=ana, sitgo_id=row.pk)
    assert err.value.code == "already_entered"
    with pytest.raises(SitGoError) as err:
        sitgo_enter(user=ana, size=8, entry=100)
    assert err.value.code == "other_sitgo"
    assert (snapshot(), list(SitGoEntry.objects.values_list("pk", flat=True))) == before
    full = fill([funded() for _ in range(4)], entry=500)
    with pytest.raises(SitGoError) as err:
        sitgo_enter(user=funded(), sitgo_id=full.pk)
    assert err.value.code == "started"
    assert_sound()


def test_withdraw_before_the_start_refunds_and_after_is_refused(funded, queued, pushes):
    users = [funded(100) for _ in range(4)]
    row = sitgo_enter(user=users[0], size=4, entry=100)
    sitgo_withdraw(user=users[0], sitgo_id=row.pk)
    row.refresh_from_db()
    assert wallet_balance(user_id=users[0].pk) == 100
    assert row.seats_taken == 0 and row.fill_deadline is None
    with pytest.raises(SitGoError) as err:
        sitgo_withdraw(user=users[0], sitgo_id=row.pk)
    assert err.value.code == "not_entered"
    # Entering again pays a new entry (a new sitting in the same pot).
    row = fill(users)
    assert row.state == SitGo.State.RUNNING
    with pytest.raises(SitGoError) as err:
        sitgo_withdraw(user=users[1], sitgo_id=row.pk)
    assert err.value.code == "started"
    assert pot_balance(table_ref=row.pot_ref) == 400
    assert_sound()


def test_not_full_by_the_deadline_is_cancelled_and_refunded(funded):
    users = [funded(250) for _ in range(3)]
    row = fill(users, entry=250, size=8)
    assert sitgos_expire_due() == 0
    SitGo.objects.filter(pk=row.pk).update(
        fill_deadline=timezone.now() - timedelta(seconds=1)
    )
    assert sitgos_expire_due() == 1
    row.refresh_from_db()
    assert row.state == SitGo.State.CANCELLED and row.reason == SitGo.Reason.UNFILLED
    assert [wallet_balance(user_id=u.pk) for u in users] == [250] * 3
    assert Account.objects.get(key=f"pot:{row.pot_ref}").state == "refunded"
    assert not SitGoEntry.objects.filter(active_user__isnull=False).exists()
    # The next entry opens a new sit-and-go of the same kind.
    again = sitgo_enter(user=users[0], size=8, entry=250)
    assert again.pk != row.pk and again.state == SitGo.State.OPEN
    assert sitgos_expire_due() == 0
    assert_sound()


def test_an_entry_past_the_deadline_cancels_the_old_one_first(funded):
    ana, bob = funded(100), funded(100)
    old = sitgo_enter(user=ana, size=4, entry=100)
    SitGo.objects.filter(pk=old.pk).update(
        fill_deadline=timezone.now() - timedelta(seconds=1)
    )
    with pytest.raises(SitGoError) as err:
        sitgo_enter(user=bob, sitgo_id=old.pk)
    assert err.value.code == "closing"
    new = sitgo_enter(user=bob, size=4, entry=100)
    assert new.pk != old.pk
    assert SitGo.objects.get(pk=old.pk).state == SitGo.State.CANCELLED
    assert wallet_balance(user_id=ana.pk) == 100
    assert_sound()


@pytest.mark.parametrize(
    ("total", "shares", "amounts"),
    [
        (1000, (65, 35), [650, 350]),
        (800, (50, 30, 20), [400, 240, 160]),
        (750, (65, 35), [488, 262]),  # 487.5 / 262.5: the coin left goes to 1st
        (1001, (50, 30, 20), [501, 300, 200]),
    ],
)
def test_places_split_pays_the_whole_pot(total, shares, amounts):
    assert places_split(total=total, shares=shares) == amounts
    assert sum(amounts) == total


def test_settle_places_pays_the_whole_pot_once_with_the_remainder_first(
    funded, queued, pushes
):
    users = [funded(250) for _ in range(3)]
    for user in users:
        from economy.services import pot_entry_pay

        pot_entry_pay(table_ref="odd-pot", user_id=user.pk, amount=250)
    first = pot_settle_places(
        table_ref="odd-pot", places=[users[2].pk, users[0].pk], shares=(65, 35)
    )
    again = pot_settle_places(
        table_ref="odd-pot", places=[users[2].pk, users[0].pk], shares=(65, 35)
    )
    assert first.pk == again.pk
    assert wallet_balance(user_id=users[2].pk) == 488
    assert wallet_balance(user_id=users[0].pk) == 262
    assert wallet_balance(user_id=users[1].pk) == 0
    assert Account.objects.get(key="pot:odd-pot").state == "settled"
    assert Transaction.objects.filter(kind="payout", table_ref="odd-pot").count() == 1
    assert_sound()


def test_four_players_play_one_table_and_the_top_two_share_the_pot(
    funded, queued, pushes, django_capture_on_commit_callbacks
):
    users = [funded(250) for _ in range(4)]
    row = fill(users, entry=250)
    (game,) = live_tables(row)
    play_out(game.table_id, capture=django_capture_on_commit_callbacks)
    row.refresh_from_db()
    assert row.state == SitGo.State.FINISHED
    entries = {e.user_id: e for e in SitGoEntry.objects.filter(sitgo=row)}
    by_place = sorted(entries.values(), key=lambda e: e.place or 0)
    assert [e.place for e in by_place] == [1, 2, 3, 4]
    assert [e.payout for e in by_place] == [650, 350, 0, 0]
    game.refresh_from_db()
    assert game.order == [e.user_id for e in by_place]
    assert Account.objects.get(key=f"pot:{row.pot_ref}").state == "settled"
    assert pot_balance(table_ref=row.pot_ref) == 0
    payout = Transaction.objects.get(kind="payout", table_ref=row.pot_ref)
    legs = dict(
        payout.entries.filter(account__kind="wallet").values_list(
            "account__user_id", "amount"
        )
    )
    assert legs == {by_place[0].user_id: 650, by_place[1].user_id: 350}
    assert not SitGoEntry.objects.filter(active_user__isnull=False).exists()
    assert_sound()


def test_eight_players_two_tables_then_a_final_of_the_best_two_of_each(
    funded, queued, pushes, django_capture_on_commit_callbacks
):
    users = [funded(100) for _ in range(8)]
    row = fill(users, entry=100)
    first = live_tables(row, 1)
    assert len(first) == 2
    seated = [
        set(Seat.objects.filter(table_id=g.table_id).values_list("user_id", flat=True))
        for g in first
    ]
    assert seated[0] | seated[1] == {u.pk for u in users} and not seated[0] & seated[1]
    play_out(first[0].table_id, seed=3, capture=django_capture_on_commit_callbacks)
    assert live_tables(row, 2) == []
    play_out(first[1].table_id, seed=4, capture=django_capture_on_commit_callbacks)
    first = live_tables(row, 1)
    (final,) = live_tables(row, 2)
    finalists = set(
        Seat.objects.filter(table_id=final.table_id).values_list("user_id", flat=True)
    )
    assert finalists == set(first[0].order[:2] + first[1].order[:2])
    play_out(final.table_id, seed=5, capture=django_capture_on_commit_callbacks)
    row.refresh_from_db()
    final.refresh_from_db()
    assert row.state == SitGo.State.FINISHED
    entries = sorted(SitGoEntry.objects.filter(sitgo=row), key=lambda e: e.place or 0)
    assert [e.place for e in entries] == list(range(1, 9))
    assert [e.user_id for e in entries[:4]] == final.order
    assert {e.user_id for e in entries[4:6]} == {first[0].order[2], first[1].order[2]}
    assert [e.payout for e in entries] == [400, 240, 160, 0, 0, 0, 0, 0]
    assert sum(e.payout for e in entries) == 800
    assert_sound()


def test_a_table_cancelled_by_a_fault_is_replayed_by_the_same_players(
    funded, queued, pushes, django_capture_on_commit_callbacks
):
    users = [funded(100) for _ in range(4)]
    row = fill(users)
    (game,) = live_tables(row)
    seats = list(
        Seat.objects.filter(table_id=game.table_id).values_list("user_id", flat=True)
    )
    with django_capture_on_commit_callbacks(execute=True):
        table_cancel(table_id=game.table_id, reason="fault")
    game.refresh_from_db()
    assert game.state == SitGoTable.State.VOID
    (replay,) = live_tables(row)
    assert replay.pk != game.pk and (replay.round, replay.number) == (1, 1)
    again = list(
        Seat.objects.filter(table_id=replay.table_id).values_list("user_id", flat=True)
    )
    assert again == seats
    assert Table.objects.get(pk=replay.table_id).status == Table.Status.PLAYING
    # The sweep finds nothing more to replay; the pot is untouched.
    assert sitgo_tables_overdue() == 0
    assert pot_balance(table_ref=row.pot_ref) == 400
    play_out(replay.table_id, capture=django_capture_on_commit_callbacks)
    row.refresh_from_db()
    assert row.state == SitGo.State.FINISHED
    assert_sound()


def test_the_sweep_replays_a_cancelled_game_the_receiver_missed(funded, queued, pushes):
    row = fill([funded(100) for _ in range(4)])
    (game,) = live_tables(row)
    table_cancel(table_id=game.table_id, reason="fault")  # no on-commit receiver
    Table.objects.filter(pk=game.table_id).update(
        finished_at=timezone.now() - timedelta(minutes=1)
    )
    assert sitgo_tables_overdue() == 1
    assert live_tables(row)[0].pk != game.pk
    assert sitgo_tables_overdue() == 0


def test_a_seat_never_connected_after_two_minutes_forfeits_its_game(
    funded, queued, pushes
):
    users = [funded(100) for _ in range(4)]
    row = fill(users)
    (game,) = live_tables(row)
    Seat.objects.filter(table_id=game.table_id).exclude(user=users[0]).update(
        connected=True
    )
    assert sitgo_tables_overdue() == 0  # not two minutes yet
    SitGoTable.objects.filter(pk=game.pk).update(
        created_at=timezone.now() - timedelta(minutes=3)
    )
    assert sitgo_tables_overdue() == 1
    seats = {s.user_id: s for s in Seat.objects.filter(table_id=game.table_id)}
    assert seats[users[0].pk].forfeited
    assert not any(seats[u.pk].forfeited for u in users[1:])
    assert noshows_forfeit(table_id=game.table_id) == []
    assert sitgo_tables_overdue() == 0  # checked once


def test_the_wallet_links_a_sit_and_go_payout_to_its_page():
    from economy.conf import pot_url

    assert pot_url("sitgo-12") == "/tournaments/sitgo/12/"
    assert pot_url("345") == "/tables/345/"
    assert pot_url("odd-pot") == ""


def test_the_pots_audit_finds_a_pot_that_disagrees(funded):
    from tournaments.sitgo.audit import sitgo_pots_audit

    row = fill([funded(100)], size=4)
    assert sitgo_pots_audit() == []
    SitGo.objects.filter(pk=row.pk).update(seats_taken=2)
    (breach,) = sitgo_pots_audit()
    assert breach.startswith(f"sitgo: {row.pk}: holds 100 for 2 entries")
