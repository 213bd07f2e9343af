"""A sit-and-go and the player's other commitments exclude each other: an entry is
refused while the player searches an online pool or holds a stake seat; a search
and a stake seat are refused while the player is in a sit-and-go that has not
finished, unless its first round knocked them out. Every refusal says why and
changes nothing. (An arena game and an arena's pairing:
tests/tournaments/arenas/test_services.py.)"""

from __future__ import annotations

import pytest
from django.urls import reverse

from economy.selectors import wallet_balance
from games.models import Seat, Table
from matchmaking.errors import MatchError, StakeError
from matchmaking.pools import services as pools
from matchmaking.pools.models import RematchOffer, Search
from matchmaking.pools.rematch import rematch_offer
from matchmaking.pools.services import search_cancel, search_start
from matchmaking.stakes import services as stakes
from matchmaking.stakes.models import StakeSitter, StakeTable
from matchmaking.stakes.services import stake_sit, stake_stand
from tests.matchmaking.test_competitive_pages import finished_online
from tests.tournaments.sitgo.helpers import (
    assert_sound,
    fill,
    fund,
    live_tables,
    play_out,
    snapshot,
)
from tournaments.sitgo.commitments import users_in_sitgo
from tournaments.sitgo.errors import SitGoError
from tournaments.sitgo.models import SitGo, SitGoEntry
from tournaments.sitgo.services import sitgo_enter, sitgo_withdraw

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet(monkeypatch, queued, pushes):
    """No broker: waves and stake deadlines are not queued."""
    monkeypatch.setattr(pools, "_wave_soon", lambda key: None)
    monkeypatch.setattr(stakes, "expiry_queue", lambda tid, deadline: None)


def books() -> tuple[object, ...]:
    """Everything an entry could change: the ledger, the events and entries."""
    return (
        snapshot(),
        list(SitGo.objects.values_list("pk", "state", "seats_taken")),
        list(SitGoEntry.objects.values_list("pk", "user_id", "active_user_id")),
    )


def refused_entry(user, **kind) -> SitGoError:
    before = books()
    with pytest.raises(SitGoError) as err:
        sitgo_enter(user=user, **(kind or {"size": 4, "entry": 100}))
    assert books() == before
    assert err.value.code == "busy_elsewhere"
    assert "'" not in err.value.message and "sitgo" not in err.value.message
    return err.value


def test_a_player_searching_an_online_pool_cannot_enter(funded):
    ana = funded()
    search_start(user_id=ana.pk, pool_key="draw-2")
    error = refused_entry(ana)
    assert "online table" in error.message and "cancel that search" in error.message
    # Once the search is cancelled, the same player enters.
    search_cancel(user_id=ana.pk)
    sitgo_enter(user=ana, size=4, entry=100)
    assert wallet_balance(user_id=ana.pk) == 900
    assert_sound()


@pytest.mark.parametrize("full", [False, True], ids=["open", "live"])
def test_a_player_holding_a_stake_seat_cannot_enter(funded, full):
    ana, ben = funded(), funded()
    table = stake_sit(user=ana, stake=100, shape="block-2")
    if full:
        stake_sit(user=ben, stake=100, shape="block-2")
    assert StakeTable.objects.get(pk=table.pk).state == (
        StakeTable.State.PLAYING if full else StakeTable.State.OPEN
    )
    error = refused_entry(ana)
    assert "stake table" in error.message
    # A chosen event refuses the same way.
    row = fill([ben] if not full else [funded()], size=4)
    refused_entry(ana, sitgo_id=row.pk)
    if not full:  # standing up from an open table frees the player
        stake_stand(user=ana, table_id=table.pk)
        assert sitgo_enter(user=ana, sitgo_id=row.pk).seats_taken == 2
    assert_sound()


def test_an_entrant_of_an_open_sit_and_go_cannot_search_or_sit_at_a_stake_table(
    funded,
):
    ana = funded()
    row = fill([ana], size=4)
    before = snapshot()
    with pytest.raises(MatchError) as err:
        search_start(user_id=ana.pk, pool_key="draw-2")
    assert err.value.code == "busy_elsewhere"
    assert "withdraw" in err.value.message and "sit-and-go" in err.value.message
    assert not Search.objects.filter(user=ana).exists()
    with pytest.raises(StakeError) as stake_err:
        stake_sit(user=ana, stake=100, shape="block-2")
    assert stake_err.value.code == "busy_elsewhere"
    assert stake_err.value.message == err.value.message
    assert not StakeSitter.objects.filter(user=ana).exists()
    assert not StakeTable.objects.exists()
    assert snapshot() == before
    # Withdrawn, the player is free again.
    sitgo_withdraw(user=ana, sitgo_id=row.pk)
    search_start(user_id=ana.pk, pool_key="draw-2")
    assert_sound()


def test_an_entrant_of_a_running_sit_and_go_between_games_stays_committed(
    funded, django_capture_on_commit_callbacks
):
    users = [funded() for _ in range(8)]
    row = fill(users, size=8)
    first, second = live_tables(row, 1)
    play_out(first.table_id, capture=django_capture_on_commit_callbacks)
    first.refresh_from_db()
    waiting = first.order[0]  # through to the final, which waits for table 2
    assert not Seat.objects.filter(
        user_id=waiting, table__status__in=("waiting", "playing")
    ).exists()
    ana = next(u for u in users if u.pk == waiting)
    before = snapshot()
    with pytest.raises(MatchError) as err:
        search_start(user_id=ana.pk, pool_key="draw-2")
    assert err.value.code == "busy_elsewhere"
    assert "playing a sit-and-go" in err.value.message
    with pytest.raises(StakeError) as stake_err:
        stake_sit(user=ana, stake=100, shape="block-2")
    assert stake_err.value.code == "busy_elsewhere"
    assert snapshot() == before
    # Once the event is over, the player is free.
    play_out(second.table_id, capture=django_capture_on_commit_callbacks)
    (final,) = live_tables(row, 2)
    play_out(final.table_id, capture=django_capture_on_commit_callbacks)
    assert SitGo.objects.get(pk=row.pk).state == SitGo.State.FINISHED
    search_start(user_id=ana.pk, pool_key="draw-2")
    assert_sound()


def test_a_player_knocked_out_in_the_first_round_is_free_while_the_final_is_played(
    client, funded, django_capture_on_commit_callbacks
):
    users = [funded() for _ in range(8)]
    by_id = {u.pk: u for u in users}
    row = fill(users, size=8)
    first, second = live_tables(row, 1)
    play_out(first.table_id, capture=django_capture_on_commit_callbacks)
    first.refresh_from_db()
    through, out = first.order[:2], first.order[2:]
    assert users_in_sitgo(by_id) == set(by_id) - set(out)  # arenas pair them again
    # The event's page tells the knocked-out players so, and only them.
    for uid in (out[0], through[0]):
        client.force_login(by_id[uid])
        page = client.get(reverse("sitgo", args=[row.pk])).content.decode()
        assert ("You are free to play elsewhere now" in page) == (uid in out)
    # Knocked out: free for a search, a stake seat and another sit-and-go.
    loser, other_loser = by_id[out[0]], by_id[out[1]]
    search_start(user_id=loser.pk, pool_key="draw-2")
    search_cancel(user_id=loser.pk)
    table = stake_sit(user=other_loser, stake=100, shape="block-2")
    stake_stand(user=other_loser, table_id=table.pk)
    coins = wallet_balance(user_id=loser.pk)
    again = sitgo_enter(user=loser, size=4, entry=100)
    assert wallet_balance(user_id=loser.pk) == coins - 100
    # Through to the final, which waits for the other table: still committed.
    before = snapshot()
    with pytest.raises(StakeError) as err:
        stake_sit(user=by_id[through[0]], stake=100, shape="block-2")
    assert "playing a sit-and-go" in err.value.message
    assert snapshot() == before
    # The other table knocks out its own two; the final places all eight, the
    # knocked-out ones included, and leaves the new entry alone.
    play_out(second.table_id, capture=django_capture_on_commit_callbacks)
    second.refresh_from_db()
    finalists = set(first.order[:2] + second.order[:2])
    assert users_in_sitgo(by_id) == finalists | {loser.pk}  # loser: the new event
    (final,) = live_tables(row, 2)
    play_out(final.table_id, capture=django_capture_on_commit_callbacks)
    assert SitGo.objects.get(pk=row.pk).state == SitGo.State.FINISHED
    places = dict(SitGoEntry.objects.filter(sitgo=row).values_list("user_id", "place"))
    assert sorted(places.values()) == list(range(1, 9))
    assert places[loser.pk] in (5, 6) and places[other_loser.pk] in (7, 8)
    assert SitGoEntry.objects.get(sitgo_id=again.pk).active_user_id == loser.pk
    assert users_in_sitgo(by_id) == {loser.pk}
    assert_sound()


def test_a_rematch_is_refused_to_an_entrant_and_once_the_other_has_entered(
    make_user, django_capture_on_commit_callbacks
):
    table, ana, ben = finished_online(make_user, django_capture_on_commit_callbacks)
    fund(ana.pk, 1000)
    rematch_offer(user_id=ana.pk, table_id=table.pk)
    row = sitgo_enter(user=ana, size=4, entry=100)  # an offer commits nobody

    def refused(user) -> MatchError:
        before = (books(), list(RematchOffer.objects.values_list("user_id")))
        tables = Table.objects.count()
        with pytest.raises(MatchError) as err:
            rematch_offer(user_id=user.pk, table_id=table.pk)
        assert (books(), list(RematchOffer.objects.values_list("user_id"))) == before
        assert Table.objects.count() == tables
        return err.value

    # Ben's acceptance would seat Ana at a second game: refused, in his words.
    error = refused(ben)
    assert error.code == "other_busy"
    assert error.message == "The other player has entered another event meanwhile."
    # Ana herself is told why.
    error = refused(ana)
    assert error.code == "busy_elsewhere" and "withdraw" in error.message
    # Withdrawn, she is free: Ben's acceptance seats them both.
    sitgo_withdraw(user=ana, sitgo_id=row.pk)
    state = rematch_offer(user_id=ben.pk, table_id=table.pk)
    seated = Seat.objects.filter(table_id=state["table"]).values_list("user_id")
    assert {uid for (uid,) in seated} == {ana.pk, ben.pk}
    assert_sound()
