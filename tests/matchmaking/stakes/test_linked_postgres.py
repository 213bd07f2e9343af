"""PostgreSQL with real threads: linked accounts racing for one stake table, or for
a quick seat, never end up seated together; the books stay exact."""

from __future__ import annotations

from collections import Counter

import pytest

from accounts.sightings import sightings_record
from economy.selectors import pot_balance, wallet_balance
from games.models import Seat
from matchmaking.errors import StakeError
from matchmaking.models import StakeSitter, StakeTable
from matchmaking.stakes import services as stakes
from matchmaking.stakes.services import stake_sit
from ops.audit import audit_run
from tests.economy.test_postgres import run_threads
from tests.matchmaking.stakes.helpers import (  # noqa: F401 - fixtures
    assert_sound,
    expiries_fixture,
    fund,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def linked_family(make_user, size: int, *, coins: int = 1000) -> list:
    users = [make_user() for _ in range(size)]
    for user in users:
        fund(user.pk, coins)
        sightings_record(user_id=user.pk, address="203.0.113.50", device="")
    return users


def audit_clean() -> None:
    assert {part: lines for part, lines in audit_run().items() if lines} == {}


@pytest.mark.parametrize("attempt", range(3))
def test_two_linked_accounts_racing_for_one_table_one_sits(
    make_user, queued, pushes, attempt
):
    ana, alt = linked_family(make_user, 2)
    shape = stakes.stake_shapes()["block-2"]
    table = stakes.stake_table_open(stake=1000, shape=shape).pk

    def sit(user):
        return stake_sit(user=user, stake=1000, shape="block-2", table_id=table)

    results = run_threads(sit, [(ana,), (alt,)])
    seated = [r for r in results if isinstance(r, StakeTable)]
    refused = [r for r in results if isinstance(r, StakeError)]
    assert len(seated) == 1 and len(refused) == 1, results
    assert refused[0].code == "linked_at_table"
    assert "address or device" in refused[0].message
    assert Seat.objects.filter(table_id=table).count() == 1
    assert StakeTable.objects.get(pk=table).seats_taken == 1
    assert pot_balance(table_ref=str(table)) == 1000
    assert sorted(wallet_balance(user_id=u.pk) for u in (ana, alt)) == [0, 1000]
    assert_sound()
    audit_clean()


def test_a_linked_family_racing_for_quick_seats_never_shares_a_table(
    make_user, queued, pushes
):
    family = linked_family(make_user, 6, coins=100)
    others = [make_user() for _ in range(6)]
    for user in others:
        fund(user.pk, 100)
    calls = [(u,) for u in family + others]

    def quick(user):
        return stake_sit(user=user, stake=100, shape="block-2")

    results = run_threads(quick, calls)
    bad = [r for r in results if not isinstance(r, StakeTable | StakeError)]
    assert not bad, bad
    refusals = Counter(r.code for r in results if isinstance(r, StakeError))
    assert set(refusals) <= {"linked_at_table"}, refusals
    at: dict[int, list[int]] = {}
    for user_id, table_id in StakeSitter.objects.values_list(
        "user_id", "stake_table_id"
    ):
        at.setdefault(table_id, []).append(user_id)
    ids = {u.pk for u in family}
    for users in at.values():
        assert len(ids.intersection(users)) <= 1, at
    assert_sound()
    audit_clean()
