"""Open tables under real concurrency on PostgreSQL: racing joins of the last
seat, a join racing the owner's cancel, the same player joining twice at once."""

from __future__ import annotations

from collections import Counter

import pytest

from games.models import Seat, Table
from matchmaking.errors import MatchError
from matchmaking.models import Seek, SeekPlayer
from matchmaking.pools.seeks import seek_join, seek_leave, seek_open
from tests.support.threads import in_threads

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _quiet(queued, pushes, lobby_frames, no_wave_tasks):
    """No broker and no channel layer: timed jobs and frames are recorded."""


def _attempt(outcomes: list[str], func, **kwargs) -> None:
    try:
        func(**kwargs)
        outcomes.append("ok")
    except MatchError as err:
        outcomes.append(err.code)


def test_players_racing_for_the_last_seat_make_one_table(make_user):
    owner = make_user("owner")
    racers = [make_user(f"racer{i}") for i in range(8)]
    seek = seek_open(user_id=owner.pk, pool_key="draw-2")
    outcomes: list[str] = []
    in_threads(
        lambda uid: _attempt(outcomes, seek_join, user_id=uid, seek_id=seek.pk),
        [(u.pk,) for u in racers],
    )
    assert sorted(outcomes) == ["ok"] + ["unknown_seek"] * 7
    seek.refresh_from_db()
    assert seek.status == "started"
    assert Table.objects.count() == 1
    seats = Counter(Seat.objects.values_list("user_id", flat=True))
    assert set(seats.values()) == {1} and len(seats) == 2 and owner.pk in seats
    assert not SeekPlayer.objects.filter(active=True).exists()


def test_three_racing_for_the_last_two_of_four_seats(make_user):
    people = [make_user(f"p{i}") for i in range(8)]
    seek = seek_open(user_id=people[0].pk, pool_key="draw-4p")
    seek_join(user_id=people[1].pk, seek_id=seek.pk)
    outcomes: list[str] = []
    in_threads(
        lambda uid: _attempt(outcomes, seek_join, user_id=uid, seek_id=seek.pk),
        [(u.pk,) for u in people[2:]],
    )
    assert sorted(outcomes) == ["ok", "ok"] + ["unknown_seek"] * 4
    assert Table.objects.count() == 1
    per_user = Counter(Seat.objects.values_list("user_id", flat=True))
    assert len(per_user) == 4 and set(per_user.values()) == {1}


def test_joins_racing_the_owners_cancel(make_user):
    for round_ in range(5):
        owner = make_user(f"owner{round_}")
        # Two joiners: with the owner they never fill the four seats, so no join
        # can start the table before the cancel (three would, and rightly).
        joiners = [make_user(f"j{round_}_{i}") for i in range(2)]
        seek = seek_open(user_id=owner.pk, pool_key="draw-4p")
        outcomes: list[str] = []

        def act(
            uid: int,
            seek_id: int = seek.pk,
            owner_id: int = owner.pk,
            outcomes: list[str] = outcomes,
        ) -> None:
            if uid == owner_id:
                _attempt(outcomes, seek_leave, user_id=uid)
            else:
                _attempt(outcomes, seek_join, user_id=uid, seek_id=seek_id)

        in_threads(act, [(u.pk,) for u in [*joiners, owner]])
        seek.refresh_from_db()
        # Whatever the order, the owner's cancel closed it: no place stays held,
        # nobody was seated, and each join either came first or saw it gone.
        assert seek.status == "cancelled"
        assert not SeekPlayer.objects.filter(seek=seek, active=True).exists()
        assert set(outcomes) <= {"ok", "unknown_seek"}
        assert Table.objects.count() == 0


def test_the_same_player_joining_twice_at_once_holds_one_place(make_user):
    owner, ben = make_user("owner"), make_user("ben")
    seek = seek_open(user_id=owner.pk, pool_key="draw-4p")
    outcomes: list[str] = []
    in_threads(
        lambda: _attempt(outcomes, seek_join, user_id=ben.pk, seek_id=seek.pk),
        [() for _ in range(6)],
    )
    assert sorted(outcomes) == ["in_seek"] * 5 + ["ok"]
    assert SeekPlayer.objects.filter(user=ben, active=True).count() == 1
    assert Seek.objects.get(pk=seek.pk).status == "open"


# --- stake seeks: the stake books take each entry once and refund it once


@pytest.fixture
def stakes_open(settings, monkeypatch):
    """Every stake open to new players; fill deadlines not queued to a broker."""
    from matchmaking.stakes import services as stakes

    settings.STAKES_UNLOCK = {}
    monkeypatch.setattr(stakes, "expiry_queue", lambda tid, deadline: None)


def _books_sound(people) -> None:
    """Every wallet and pot adds up: each holds its coins or one entry in a pot."""
    from economy.selectors import pot_balance, wallet_balance
    from tests.economy.conftest import assert_sound
    from tests.matchmaking.stakes.leave_helpers import assert_every_stake_table_agrees

    assert_every_stake_table_agrees()
    assert_sound()
    in_pots = sum(
        pot_balance(table_ref=str(t))
        for t in Seek.objects.exclude(stake_table_id=None).values_list(
            "stake_table_id", flat=True
        )
    )
    assert sum(wallet_balance(user_id=p.pk) for p in people) + in_pots == 1000 * len(
        people
    )


def test_stake_seek_joins_racing_the_owners_cancel_and_the_expiry(
    make_user, stakes_open, settings
):
    from datetime import datetime, timedelta

    from django.utils import timezone

    from economy.selectors import wallet_balance
    from matchmaking.pools.seeks import seeks_expire_abandoned
    from tests.economy.conftest import fund

    everyone = []
    for round_ in range(4):
        owner = make_user(f"owner{round_}")
        # Two joiners: with the owner, never enough to fill the table, so the
        # cancel or the expiry closes it whatever the order.
        joiners = [make_user(f"j{round_}_{i}") for i in range(2)]
        for p in (owner, *joiners):
            fund(p.pk, 1000)
        everyone += [owner, *joiners]
        seek = seek_open(user_id=owner.pk, pool_key="draw-4p", stake=250)
        outcomes: list[str] = []
        later = timezone.now() + timedelta(
            seconds=settings.MATCHMAKING_ABANDON_SECONDS + 1
        )

        def act(
            uid: int,
            seek_id: int = seek.pk,
            owner_id: int = owner.pk,
            outcomes: list[str] = outcomes,
            later: datetime = later,
        ) -> None:
            if uid == owner_id:
                _attempt(outcomes, seek_leave, user_id=uid)
            elif uid == 0:
                seeks_expire_abandoned(now=later)
            else:
                _attempt(outcomes, seek_join, user_id=uid, seek_id=seek_id)

        # Two joins, the owner's cancel and the expiry sweep, all at once.
        in_threads(act, [(u.pk,) for u in [*joiners, owner]] + [(0,)])
        seek.refresh_from_db()
        assert seek.status in ("cancelled", "expired")
        assert not SeekPlayer.objects.filter(seek=seek, active=True).exists()
        assert Table.objects.get(pk=seek.stake_table_id).status == "cancelled"
        for p in (owner, *joiners):  # every entry came back, once
            assert wallet_balance(user_id=p.pk) == 1000
    _books_sound(everyone)


def test_a_stake_join_repeated_at_once_takes_one_entry(make_user, stakes_open):
    from economy.selectors import wallet_balance
    from tests.economy.conftest import fund

    owner, ben = make_user("owner"), make_user("ben")
    for p in (owner, ben):
        fund(p.pk, 1000)
    seek = seek_open(user_id=owner.pk, pool_key="draw-4p", stake=100)
    outcomes: list[str] = []
    in_threads(
        lambda: _attempt(outcomes, seek_join, user_id=ben.pk, seek_id=seek.pk),
        [() for _ in range(6)],
    )
    assert outcomes.count("ok") == 1, outcomes
    assert wallet_balance(user_id=ben.pk) == 900
    assert SeekPlayer.objects.filter(user=ben, active=True).count() == 1
    # And leaving repeated at once gives the entry back once.
    in_threads(
        lambda: _attempt(outcomes, seek_leave, user_id=ben.pk), [() for _ in range(4)]
    )
    assert wallet_balance(user_id=ben.pk) == 1000
    _books_sound([owner, ben])


def test_racing_for_the_last_stake_seat_seats_one_and_charges_one(
    make_user, stakes_open
):
    from economy.selectors import wallet_balance
    from tests.economy.conftest import fund

    owner = make_user("owner")
    racers = [make_user(f"r{i}") for i in range(6)]
    for p in (owner, *racers):
        fund(p.pk, 1000)
    seek = seek_open(user_id=owner.pk, pool_key="block-2", stake=100)
    outcomes: list[str] = []
    in_threads(
        lambda uid: _attempt(outcomes, seek_join, user_id=uid, seek_id=seek.pk),
        [(u.pk,) for u in racers],
    )
    assert outcomes.count("ok") == 1, outcomes
    seek.refresh_from_db()
    assert seek.status == "started"
    paid = [p for p in racers if wallet_balance(user_id=p.pk) == 900]
    assert len(paid) == 1
    assert all(wallet_balance(user_id=p.pk) == 1000 for p in racers if p not in paid)
    assert Table.objects.get(pk=seek.table_id).status == "playing"
    _books_sound([owner, *racers])
