"""Accounts seen from one address or device never sit at one stake table (RULES.md
§5): the reproduction of sign-up coins dumped into one account is refused at the
sit-down; two tabs of one person are refused; a pot such accounts moved anyway, and
a seat that forfeited without playing to an acquaintance, are reported to staff."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.sightings import sightings_record
from economy.selectors import pot_balance, wallet_balance
from games.models import Seat
from games.services import table_leave
from matchmaking.models import StakeReport, StakeSitter, StakeTable
from matchmaking.stakes.services import stake_sit
from ops.audit import audit_run
from tests.matchmaking.stakes.helpers import (  # noqa: F401 - fixtures
    assert_sound,
    expiries_fixture,
    fund,
)
from tests.matchmaking.stakes.test_unlock import online_table
from tests.support.tables import drive

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
PASSWORD = "a-Long-pass-42"
HOME = "203.0.113.20"


def sit(browser: Client, *, stake: int, table: int | None = None):
    data = {"stake": str(stake), "shape": "block-2"}
    if table is not None:
        data["table"] = str(table)
    return browser.post(reverse("stakes-sit"), data, **JSON)


def test_sign_up_coins_poured_into_a_main_account_are_refused_at_the_sit_down(
    make_user, settings, queued, pushes
):
    """The attacker's reproduction: a fresh account signed up from the main
    account's address sits at the main account's 1,000-coin table. Refused while
    the stake is locked, and still refused once it has played its way there."""
    settings.STAKES_UNLOCK = {100: 3, 250: 3, 500: 3, 1000: 3}
    main, cy = make_user("main"), make_user("cy")
    fund(main.pk, 2000)
    for seed in (1, 2, 3):
        online_table(main, cy, seed=seed)
    home = Client(REMOTE_ADDR=HOME)
    home.force_login(main)
    assert sit(home, stake=1000).status_code == 200
    table = StakeSitter.objects.get(user=main).stake_table_id

    fresh_browser = Client(REMOTE_ADDR=HOME)  # another browser, the same address
    fresh_browser.post(
        "/accounts/signup/",
        {
            "username": "fresh",
            "email": "fresh@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    fresh = get_user_model().objects.get(username="fresh")
    assert wallet_balance(user_id=fresh.pk) == 2000  # the sign-up grant
    refused = sit(fresh_browser, stake=1000, table=table)
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "stake_locked"
    assert "play 3 more online tables" in refused.json()["error"]["message"]

    for seed in (4, 5, 6):
        online_table(fresh, cy, seed=seed)
    refused = sit(fresh_browser, stake=1000, table=table)
    assert refused.status_code == 400
    assert refused.json()["error"] == {
        "code": "linked_at_table",
        "message": "An account seen from your address or device sits at this "
        "table: accounts seen together never sit at one stake table.",
    }
    # Nothing moved: the pot holds the main account's entry alone.
    assert wallet_balance(user_id=fresh.pk) == 2000
    assert pot_balance(table_ref=str(table)) == 1000
    assert list(
        Seat.objects.filter(table_id=table).values_list("user_id", flat=True)
    ) == [main.pk]
    assert StakeTable.objects.get(pk=table).seats_taken == 1
    # Quick seat passes over the main account's table: a table of its own.
    assert sit(fresh_browser, stake=1000).status_code == 200
    assert StakeSitter.objects.get(user=fresh).stake_table_id != table
    assert_sound()


def test_two_tabs_of_one_person_as_two_accounts_are_refused(make_user, queued, pushes):
    """One browser (one device cookie), two accounts; the address says nothing here
    (the test client's loopback is recorded for nobody)."""
    ana, alt = make_user("ana"), make_user("alt")
    fund(ana.pk, 500)
    fund(alt.pk, 500)
    browser = Client()
    browser.force_login(ana)
    assert sit(browser, stake=100).status_code == 200
    table = StakeSitter.objects.get(user=ana).stake_table_id
    browser.force_login(alt)  # the other tab signs in as the second account
    browser.get(reverse("stakes"))
    refused = sit(browser, stake=100, table=table)
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "linked_at_table"
    assert wallet_balance(user_id=alt.pk) == 500
    assert StakeTable.objects.get(pk=table).seats_taken == 1
    # Another person's browser sits there at once.
    stranger = make_user("stranger")
    fund(stranger.pk, 500)
    elsewhere = Client()
    elsewhere.force_login(stranger)
    assert sit(elsewhere, stake=100, table=table).status_code == 200
    assert_sound()


def test_a_family_on_one_network_may_still_play_ranked_and_friend_tables(make_user):
    """Linked accounts are kept apart at stakes and events only."""
    mum, kid = make_user(), make_user()
    for user in (mum, kid):
        sightings_record(user_id=user.pk, address=HOME, device="")
    assert online_table(mum, kid, seed=7)
    assert Seat.objects.filter(user__in=[mum, kid]).count() == 2


def seats_of(table_id: int) -> dict[int, object]:
    users = {u.pk: u for u in get_user_model().objects.all()}
    return {
        position: users[user_id]
        for position, user_id in Seat.objects.filter(table_id=table_id).values_list(
            "position", "user_id"
        )
    }


def test_a_pot_moved_between_accounts_linked_after_sitting_is_reported(
    make_user, queued, pushes, django_capture_on_commit_callbacks, admin_client
):
    ana, ben = make_user("ana"), make_user("ben")
    for user in (ana, ben):
        fund(user.pk, 500)
    row = stake_sit(user=ana, stake=100, shape="block-2")
    with django_capture_on_commit_callbacks(execute=True):
        stake_sit(user=ben, stake=100, shape="block-2", table_id=row.pk)
    for user in (ana, ben):  # seen from one address while playing
        sightings_record(user_id=user.pk, address=HOME, device="")
    with django_capture_on_commit_callbacks(execute=True):
        drive(row.pk, seats_of(row.pk), rng=random.Random(8))
    assert StakeTable.objects.get(pk=row.pk).state == StakeTable.State.SETTLED
    report = StakeReport.objects.get()
    assert (report.stake_table_id, report.kind) == (row.pk, "linked")
    assert report.user_ids == sorted([ana.pk, ben.pk])
    page = admin_client.get(reverse("admin:matchmaking_stakereport_changelist"))
    assert "Linked accounts at one table" in page.content.decode()
    assert "ana, ben" in page.content.decode()
    assert not [lines for lines in audit_run().values() if lines]


def test_a_seat_that_forfeits_at_once_to_an_acquaintance_is_reported_and_audited(
    make_user, queued, pushes, django_capture_on_commit_callbacks, admin_client
):
    main, fresh = make_user("main"), make_user("fresh")
    online_table(main, fresh, seed=9)  # they have met
    for user in (main, fresh):
        fund(user.pk, 1000)
    row = stake_sit(user=main, stake=1000, shape="block-2")
    with django_capture_on_commit_callbacks(execute=True):
        stake_sit(user=fresh, stake=1000, shape="block-2", table_id=row.pk)
    with django_capture_on_commit_callbacks(execute=True):
        table_leave(table_id=row.pk, user=fresh)  # the table socket's leave
        drive(
            row.pk,
            {p: u for p, u in seats_of(row.pk).items() if u == main},
            rng=random.Random(10),
        )
    assert wallet_balance(user_id=fresh.pk) == 0
    found = audit_run()
    assert found["dumping"] == [
        f"dumping: table {row.pk}: player {fresh.pk} forfeited before any "
        f"decision; the pot went to {[main.pk]}, met at an earlier table"
    ]
    assert not [lines for part, lines in found.items() if lines and part != "dumping"]
    report = StakeReport.objects.get()
    assert (report.kind, report.user_ids) == ("dumping", [fresh.pk, main.pk])
    page = admin_client.get(reverse("admin:matchmaking_stakereport_changelist"))
    assert "fresh, main" in page.content.decode()


def test_a_forfeit_to_a_stranger_or_after_playing_is_not_dumping(
    make_user, queued, pushes, django_capture_on_commit_callbacks
):
    cy, di = make_user("cy"), make_user("di")
    for user in (cy, di):
        fund(user.pk, 500)
    row = stake_sit(user=cy, stake=100, shape="block-2")
    with django_capture_on_commit_callbacks(execute=True):
        stake_sit(user=di, stake=100, shape="block-2", table_id=row.pk)
    with django_capture_on_commit_callbacks(execute=True):
        table_leave(table_id=row.pk, user=di)
        drive(
            row.pk,
            {p: u for p, u in seats_of(row.pk).items() if u == cy},
            rng=random.Random(11),
        )
    assert StakeTable.objects.get(pk=row.pk).state == StakeTable.State.SETTLED
    assert audit_run()["dumping"] == []
    assert not StakeReport.objects.exists()
