"""PostgreSQL with real threads: sit-and-go entries, withdrawals, the deadline and
the payout stay exact under races, and the ledger audit stays clean."""

from __future__ import annotations

import contextlib
import random
import time
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from economy.models import Account, Transaction
from economy.pots import pot_settle_places
from economy.selectors import pot_balance, wallet_balance
from games import services as table_services
from games.finish import FinishNotice
from games.models import Seat, Table
from tests.economy.conftest import assert_sound as ledger_sound
from tests.economy.test_postgres import run_threads
from tests.matchmaking.stakes.helpers import drive_to_last_move
from tests.tournaments.sitgo.helpers import assert_sound, fill, fund, live_tables
from tournaments.sitgo.errors import SitGoError
from tournaments.sitgo.models import SitGo, SitGoEntry, SitGoTable
from tournaments.sitgo.rounds import sitgo_on_table_finished
from tournaments.sitgo.services import (
    sitgo_cancel,
    sitgo_enter,
    sitgo_expire,
    sitgo_withdraw,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def codes(results) -> Counter:
    return Counter(
        r.code if isinstance(r, SitGoError) else type(r).__name__ for r in results
    )


def books_agree(row: SitGo) -> None:
    """The row's count, its entries and its pot say the same."""
    row.refresh_from_db()
    entries = SitGoEntry.objects.filter(sitgo=row).count()
    assert row.seats_taken == entries
    if row.state in (SitGo.State.OPEN, SitGo.State.RUNNING):
        assert pot_balance(table_ref=row.pot_ref) == entries * row.entry


def test_racers_for_the_last_seat_exactly_one_enters_the_rest_pay_nothing(
    funded, queued, pushes
):
    row = fill([funded(100) for _ in range(3)], size=4)
    racers = [funded(100) for _ in range(6)]
    results = run_threads(
        lambda u: sitgo_enter(user=u, sitgo_id=row.pk), [(u,) for u in racers]
    )
    assert codes(results) == Counter({"SitGo": 1, "started": 5}), codes(results)
    row.refresh_from_db()
    assert row.state == SitGo.State.RUNNING and row.seats_taken == 4
    winner = next(
        u for u, r in zip(racers, results, strict=True) if isinstance(r, SitGo)
    )
    assert wallet_balance(user_id=winner.pk) == 0
    assert all(wallet_balance(user_id=u.pk) == 100 for u in racers if u != winner)
    assert len(live_tables(row)) == 1
    books_agree(row)
    assert_sound()


def test_racers_by_kind_fill_eight_and_the_rest_open_the_next_one(
    funded, queued, pushes
):
    racers = [funded(250) for _ in range(11)]
    results = run_threads(
        lambda u: sitgo_enter(user=u, size=8, entry=250), [(u,) for u in racers]
    )
    assert codes(results) == Counter({"SitGo": 11}), codes(results)
    running = SitGo.objects.get(state=SitGo.State.RUNNING)
    waiting = SitGo.objects.get(state=SitGo.State.OPEN)
    assert (running.seats_taken, waiting.seats_taken) == (8, 3)
    assert len(live_tables(running, 1)) == 2
    books_agree(running)
    books_agree(waiting)
    assert all(wallet_balance(user_id=u.pk) == 0 for u in racers)
    assert_sound()


def test_one_player_racing_into_two_sit_and_gos_enters_one(funded):
    ana = funded(1000)
    calls = [(4, 100), (8, 100), (4, 250), (8, 500)]
    results = run_threads(
        lambda size, entry: sitgo_enter(user=ana, size=size, entry=entry), calls
    )
    assert codes(results)["SitGo"] == 1, codes(results)
    assert set(codes(results)) == {"SitGo", "other_sitgo"}
    assert SitGoEntry.objects.filter(user=ana).count() == 1
    entered = next(r for r in results if isinstance(r, SitGo))
    assert wallet_balance(user_id=ana.pk) == 1000 - entered.entry
    for row in SitGo.objects.all():
        books_agree(row)
    assert_sound()


def test_enter_and_withdraw_race_and_the_books_agree(funded, queued, pushes):
    stayers = [funded(100) for _ in range(2)]
    row = fill(stayers, size=4)
    leavers = stayers[:1]
    comers = [funded(100) for _ in range(3)]
    calls = [("withdraw", u) for u in leavers * 2] + [("enter", u) for u in comers]

    def act(what, user):
        if what == "enter":
            return sitgo_enter(user=user, sitgo_id=row.pk)
        return sitgo_withdraw(user=user, sitgo_id=row.pk)

    results = run_threads(act, calls)
    row.refresh_from_db()
    books_agree(row)
    withdrawn = [r for (w, _), r in zip(calls, results, strict=True) if w == "withdraw"]
    # The same withdrawal twice: at most one refund (the other is refused).
    refunds = Transaction.objects.filter(kind="refund", table_ref=row.pot_ref).count()
    assert refunds == sum(isinstance(r, SitGo) for r in withdrawn) <= 1
    assert wallet_balance(user_id=leavers[0].pk) in (0, 100)
    in_it = set(SitGoEntry.objects.filter(sitgo=row).values_list("user_id", flat=True))
    for user in [*stayers, *comers]:
        assert wallet_balance(user_id=user.pk) == (0 if user.pk in in_it else 100)
    assert_sound()


def test_a_double_withdraw_refunds_once(funded):
    ana, bob = funded(100), funded(100)
    row = fill([ana, bob], size=4)
    results = run_threads(
        lambda: sitgo_withdraw(user=ana, sitgo_id=row.pk), [(), (), ()]
    )
    assert codes(results) == Counter({"SitGo": 1, "not_entered": 2}), codes(results)
    assert wallet_balance(user_id=ana.pk) == 100
    assert Transaction.objects.filter(kind="refund", table_ref=row.pot_ref).count() == 1
    books_agree(row)
    assert_sound()


def test_an_operator_cancel_racing_the_last_entry_one_fate_wins(funded, queued, pushes):
    for attempt in range(3):
        row = fill([funded(100) for _ in range(3)], size=4)
        last = funded(100)

        def race(what, user, sitgo_id):
            if what == "enter":
                return sitgo_enter(user=user, sitgo_id=sitgo_id)
            return sitgo_cancel(sitgo_id=sitgo_id, reason=SitGo.Reason.OPERATOR)

        results = run_threads(race, [("enter", last, row.pk), ("cancel", last, row.pk)])
        row.refresh_from_db()
        entered, cancelled = results
        if row.state == SitGo.State.RUNNING:
            assert isinstance(entered, SitGo), results
            assert isinstance(cancelled, SitGoError) and cancelled.code == "started"
            assert pot_balance(table_ref=row.pot_ref) == 400
        else:
            assert row.state == SitGo.State.CANCELLED, (attempt, results)
            assert cancelled is True
            assert isinstance(entered, SitGoError)
            assert entered.code == "cancelled"
            assert wallet_balance(user_id=last.pk) == 100
            assert Account.objects.get(key=f"pot:{row.pot_ref}").balance == 0
        assert_sound()


def test_the_deadline_racing_a_last_entry_refunds_once(funded, queued, pushes):
    early = [funded(100) for _ in range(3)]
    row = fill(early, size=4)
    SitGo.objects.filter(pk=row.pk).update(
        fill_deadline=timezone.now() - timedelta(seconds=1)
    )
    late = funded(100)
    results = run_threads(
        lambda what: (
            sitgo_enter(user=late, size=4, entry=100)
            if what == "enter"
            else sitgo_expire(sitgo_id=row.pk)
        ),
        [("expire",), ("enter",), ("expire",)],
    )
    row.refresh_from_db()
    assert row.state == SitGo.State.CANCELLED, results
    assert Transaction.objects.filter(kind="refund", table_ref=row.pot_ref).count() == 3
    assert all(wallet_balance(user_id=u.pk) == 100 for u in early)
    # The late entry opened the next sit-and-go instead.
    entered = results[1]
    assert isinstance(entered, SitGo) and entered.pk != row.pk
    assert wallet_balance(user_id=late.pk) == 0
    books_agree(SitGo.objects.get(pk=entered.pk))
    assert_sound()


def test_settling_twice_at_once_pays_once(funded):
    # The ledger alone: a pot settled under an event still running is no state
    # the services reach, so the sit-and-go audit is not asked here.
    users = [funded(250) for _ in range(4)]
    row = fill(users, size=4, entry=250)
    places = [users[2].pk, users[0].pk]
    results = run_threads(
        lambda: pot_settle_places(
            table_ref=row.pot_ref, places=places, shares=(65, 35)
        ),
        [(), (), ()],
    )
    assert len({r.pk for r in results}) == 1, results
    assert Transaction.objects.filter(kind="payout", table_ref=row.pot_ref).count() == 1
    assert wallet_balance(user_id=users[2].pk) == 650
    assert wallet_balance(user_id=users[0].pk) == 350
    ledger_sound()


def test_a_finished_table_told_twice_at_once_finishes_the_event_once(
    funded, queued, pushes
):

    users = [funded(100) for _ in range(4)]
    row = fill(users, size=4)
    (game,) = live_tables(row)
    seated = {s.position: s.user for s in Seat.objects.filter(table_id=game.table_id)}
    final = drive_to_last_move(game.table_id, seated, rng=random.Random(7))
    table_services.table_act(
        table_id=game.table_id,
        user=final.user,
        action=final.action,
        expected_seq=final.seq,
    )
    # The final move's own after-commit apply ran once already; call it again
    # from two threads at once, as a sweep racing a retry would.
    notice = FinishNotice(
        table_id=game.table_id,
        mode="online",
        variant="block",
        simulated=False,
        results=[],
    )
    results = run_threads(sitgo_on_table_finished, [(notice,), (notice,)])
    assert not [r for r in results if isinstance(r, Exception)], results
    row.refresh_from_db()
    assert row.state == SitGo.State.FINISHED
    assert Table.objects.get(pk=game.table_id).status == Table.Status.FINISHED
    assert SitGoTable.objects.get(pk=game.pk).state == SitGoTable.State.DONE
    assert Transaction.objects.filter(kind="payout", table_ref=row.pot_ref).count() == 1
    assert sorted(
        SitGoEntry.objects.filter(sitgo=row).values_list("payout", flat=True)
    ) == [0, 0, 140, 260]
    assert_sound()


# --- one commitment at a time: an entry racing a search or a stake seat


@pytest.fixture
def commitments_quiet(monkeypatch, queued, pushes):
    """No broker: waves, lobby counts and stake deadlines are not sent."""
    from matchmaking.pools import services as pools
    from matchmaking.stakes import services as stakes

    monkeypatch.setattr(pools, "_wave_soon", lambda key: None)
    monkeypatch.setattr(pools, "_counts_send", lambda: None)
    monkeypatch.setattr(stakes, "expiry_queue", lambda tid, deadline: None)
    monkeypatch.setattr(stakes, "stakes_changed", lambda: None)


def audit_clean() -> None:
    """Every part of the platform's audit (ledger, finishes, stake and sit-and-go
    pots, Swiss pots, minting, dumping) is clean."""
    from ops.audit import audit_run

    assert audit_run() == {
        "ledger": [],
        "finish": [],
        "stakes": [],
        "sitgo": [],
        "swiss": [],
        "minting": [],
        "dumping": [],
    }


@pytest.mark.parametrize("other", ["search", "stake"])
def test_an_entry_racing_a_search_or_a_stake_seat_by_one_player_one_wins(
    funded, commitments_quiet, other
):
    from core.refusals import Refusal
    from matchmaking.pools.models import Search
    from matchmaking.pools.services import search_cancel, search_start
    from matchmaking.stakes.models import StakeSitter
    from matchmaking.stakes.services import stake_sit, stake_stand

    def race(what, user):
        if what == "enter":
            return sitgo_enter(user=user, size=4, entry=100)
        if what == "search":
            return search_start(user_id=user.pk, pool_key="draw-2")
        return stake_sit(user=user, stake=100, shape="block-2")

    wins: Counter[str] = Counter()
    for _attempt in range(8):
        ana = funded(200)
        entered, elsewhere = run_threads(race, [("enter", ana), (other, ana)])
        in_sitgo = SitGoEntry.objects.filter(active_user=ana).exists()
        searching = Search.objects.filter(user=ana, status="waiting").exists()
        seated = StakeSitter.objects.filter(user=ana).exists()
        # One commitment, never two; the other call is refused in words.
        assert in_sitgo + searching + seated == 1, (entered, elsewhere)
        loser = elsewhere if in_sitgo else entered
        assert isinstance(loser, Refusal), (entered, elsewhere)
        assert loser.code == "busy_elsewhere", loser.code
        assert isinstance(entered, SitGo) == in_sitgo
        paid = 100 if (in_sitgo or seated) else 0
        assert wallet_balance(user_id=ana.pk) == 200 - paid
        wins["sitgo" if in_sitgo else other] += 1
        # Free the player again, so the next attempt starts from the same place.
        if in_sitgo:
            sitgo_withdraw(user=ana, sitgo_id=entered.pk)
        elif searching:
            search_cancel(user_id=ana.pk)
        else:
            stake_stand(user=ana, table_id=elsewhere.pk)
        assert wallet_balance(user_id=ana.pk) == 200
    assert sum(wins.values()) == 8, wins
    audit_clean()


def test_an_entry_racing_the_other_players_rematch_acceptance_one_wins(
    make_user, commitments_quiet
):
    """Ana has offered a rematch; her sit-and-go entry races Ben's acceptance,
    which would seat her at a new online table. One of them wins, the other is
    refused in words, and she is never both entered and seated."""
    from core.refusals import Refusal
    from games.services import table_cancel
    from matchmaking.pools.rematch import rematch_offer
    from tests.matchmaking.test_competitive_pages import finished_online

    def unchecked(**_):
        return contextlib.nullcontext()

    def race(what, user, table_id):
        if what == "enter":
            return sitgo_enter(user=user, size=4, entry=100)
        return rematch_offer(user_id=user.pk, table_id=table_id)

    def users_of(attempt):
        return lambda name: make_user(f"{name}{attempt}")

    wins: Counter[str] = Counter()
    for attempt in range(6):
        table, ana, ben = finished_online(users_of(attempt), unchecked)
        fund(ana.pk, 100)
        coins = wallet_balance(user_id=ana.pk)  # with what the table rewarded
        rematch_offer(user_id=ana.pk, table_id=table.pk)
        entered, accepted = run_threads(
            race, [("enter", ana, table.pk), ("accept", ben, table.pk)]
        )
        in_sitgo = SitGoEntry.objects.filter(active_user=ana).exists()
        new_table = Seat.objects.filter(
            user=ana, table__status=Table.Status.PLAYING
        ).exists()
        assert in_sitgo + new_table == 1, (entered, accepted)
        loser = accepted if in_sitgo else entered
        assert isinstance(loser, Refusal), (entered, accepted)
        assert loser.code in ("other_busy", "busy_elsewhere"), loser.code
        assert wallet_balance(user_id=ana.pk) == coins - (100 if in_sitgo else 0)
        wins["sitgo" if in_sitgo else "rematch"] += 1
        if in_sitgo:  # free her for the next attempt
            sitgo_withdraw(user=ana, sitgo_id=entered.pk)
        else:
            table_cancel(table_id=accepted["table"], reason="fault")
    assert sum(wins.values()) == 6, wins
    audit_clean()


# --- a first round's finish frees the players it knocks out


def test_a_first_round_ending_as_its_players_enter_elsewhere_frees_the_knocked_out(
    funded, queued, pushes
):
    """The last move of a first-round table (its finish applied after its commit,
    in the same thread) races every one of its players entering a 4-player
    sit-and-go, twice each (at once, and a little later): the two through to the
    final are always refused; a knocked-out player is refused (still held) or
    enters, once at most, and can enter afterwards."""

    def race(what, user=None, final=None, table_id=0, delay=0.0):
        time.sleep(delay)
        if what == "move":
            return table_services.table_act(
                table_id=table_id,
                user=final.user,
                action=final.action,
                expected_seq=final.seq,
            )
        return sitgo_enter(user=user, size=4, entry=100)

    for attempt in range(3):
        users = [funded(200) for _ in range(8)]
        row = fill(users, size=8)
        first, _second = live_tables(row, 1)
        seated = {
            s.position: s.user for s in Seat.objects.filter(table_id=first.table_id)
        }
        final = drive_to_last_move(first.table_id, seated, rng=random.Random(attempt))
        players = list(seated.values())
        jobs = [("move", None, final, first.table_id)]
        # Each player tries with the move, and again later: before or after the
        # finish, as the machine goes (up to when it has surely been applied).
        later = (0.05, 0.3, 1.5)[attempt]
        jobs += [("enter", u, None, 0, d) for u in players for d in (0.0, later)]
        results = run_threads(race, jobs)
        assert not isinstance(results[0], Exception), results[0]
        first.refresh_from_db()
        assert first.state == SitGoTable.State.DONE
        through, out = set(first.order[:2]), set(first.order[2:])
        for user in players:
            tries = [r for job, r in zip(jobs, results, strict=True) if job[1] is user]
            entered = [r for r in tries if isinstance(r, SitGo)]
            refused = [r for r in tries if not isinstance(r, SitGo)]
            assert all(isinstance(r, SitGoError) for r in refused), tries
            assert {r.code for r in refused} <= {"other_sitgo", "already_entered"}
            elsewhere = SitGoEntry.objects.filter(user=user).exclude(sitgo=row)
            if user.pk in through:
                assert entered == [] and not elsewhere.exists(), tries
                continue
            assert len(entered) <= 1, tries
            if not entered:  # refused while still held: free now
                sitgo_enter(user=user, size=4, entry=100)
            assert elsewhere.count() == 1
        # Every new entry paid once into its event's pot.
        for other in SitGo.objects.exclude(pk=row.pk).filter(size=4):
            books_agree(other)
        assert (
            set(
                SitGoEntry.objects.filter(
                    sitgo=row, active_user__isnull=False
                ).values_list("user_id", flat=True)
            )
            == {u.pk for u in users} - out
        )
        assert_sound()


# --- the staff's cancel racing the event's own finish


def test_a_staff_cancel_racing_the_last_move_one_of_them_moves_the_pot(
    funded, queued, pushes
):
    from tournaments.sitgo.services import sitgo_staff_cancel

    def race(what, sitgo_id, table_id, final, delay=0.0):
        if what == "cancel":
            time.sleep(delay)
            return sitgo_staff_cancel(sitgo_id=sitgo_id)
        # The last move; its finish consequences run after its commit.
        return table_services.table_act(
            table_id=table_id,
            user=final.user,
            action=final.action,
            expected_seq=final.seq,
        )

    # The cancel starts with the move, or a little later (up to when the finish
    # has surely been applied): both orders are met.
    delays = [0.0, 0.0, 0.01, 0.05, 0.2, 1.5]
    fates: Counter[str] = Counter()
    for attempt, delay in enumerate(delays):
        users = [funded(100) for _ in range(4)]
        row = fill(users, size=4)
        (game,) = live_tables(row)
        seated = {
            s.position: s.user for s in Seat.objects.filter(table_id=game.table_id)
        }
        final = drive_to_last_move(game.table_id, seated, rng=random.Random(attempt))

        results = run_threads(
            race,
            [
                ("move", row.pk, game.table_id, final),
                ("cancel", row.pk, 0, None, delay),
            ],
        )
        row.refresh_from_db()
        pot = Transaction.objects.filter(table_ref=row.pot_ref)
        payouts = pot.filter(kind="payout").count()
        refunds = pot.filter(kind="refund").count()
        if row.state == SitGo.State.FINISHED:
            assert isinstance(results[1], SitGoError), results
            assert results[1].code == "finished"
            assert (payouts, refunds) == (1, 0)
            assert sorted(
                SitGoEntry.objects.filter(sitgo=row).values_list("payout", flat=True)
            ) == [0, 0, 140, 260]
        else:
            assert row.state == SitGo.State.CANCELLED, (attempt, results)
            assert results[1] is True
            assert (payouts, refunds) == (0, 4)
            assert set(
                SitGoEntry.objects.filter(sitgo=row).values_list("payout", flat=True)
            ) == {0}
            table = Table.objects.get(pk=game.table_id)
            # The cancel took the table first, or the move finished it first.
            assert table.status in (Table.Status.CANCELLED, Table.Status.FINISHED)
            if table.status == Table.Status.CANCELLED:
                assert isinstance(results[0], Exception), results
        fates[row.state] += 1
        assert not SitGoEntry.objects.filter(active_user__isnull=False).exists()
        assert_sound()
    assert sum(fates.values()) == len(delays), fates
