"""A sit-and-go that an account seen from the same address or device has entered
refuses the entry in words (RULES.md §5), and under a race one of two linked
accounts enters."""

from __future__ import annotations

import pytest

from accounts.sightings import sightings_record
from economy.selectors import pot_balance, wallet_balance
from tests.economy.test_postgres import run_threads
from tests.tournaments.sitgo.helpers import assert_sound, fund
from tournaments.sitgo.errors import SitGoError
from tournaments.sitgo.models import SitGo, SitGoEntry
from tournaments.sitgo.services import sitgo_enter, sitgo_withdraw

HOME = "203.0.113.70"


def linked(make_user, n: int = 2) -> list:
    users = [make_user() for _ in range(n)]
    for user in users:
        fund(user.pk, 500)
        sightings_record(user_id=user.pk, address=HOME, device="")
    return users


@pytest.mark.django_db
def test_a_linked_account_is_refused_the_sit_and_go_in_words(make_user):
    main, alt = linked(make_user)
    row = sitgo_enter(user=main, size=4, entry=100)
    with pytest.raises(SitGoError) as refused:
        sitgo_enter(user=alt, size=4, entry=100)
    assert refused.value.code == "linked_entered"
    assert refused.value.message == (
        "An account seen from your address or device is in this sit-and-go: "
        "accounts seen together never play one event together."
    )
    with pytest.raises(SitGoError):
        sitgo_enter(user=alt, sitgo_id=row.pk)
    assert wallet_balance(user_id=alt.pk) == 500
    assert pot_balance(table_ref=row.pot_ref) == 100
    assert SitGo.objects.get(pk=row.pk).seats_taken == 1
    # Once the first has withdrawn, the other may enter.
    sitgo_withdraw(user=main, sitgo_id=row.pk)
    assert sitgo_enter(user=alt, size=4, entry=100).pk == row.pk
    assert_sound()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_linked_accounts_racing_into_one_sit_and_go_one_enters(make_user, attempt):
    ana, alt = linked(make_user)
    results = run_threads(
        lambda user: sitgo_enter(user=user, size=4, entry=100), [(ana,), (alt,)]
    )
    entered = [r for r in results if isinstance(r, SitGo)]
    refused = [r for r in results if isinstance(r, SitGoError)]
    assert len(entered) == 1 and len(refused) == 1, results
    assert refused[0].code == "linked_entered"
    assert SitGoEntry.objects.filter(user__in=[ana, alt]).count() == 1
    assert sorted(wallet_balance(user_id=u.pk) for u in (ana, alt)) == [400, 500]
    assert_sound()
