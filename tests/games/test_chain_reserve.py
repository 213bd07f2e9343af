"""The reserve of fair-deal chains drawn ahead of their tables (RULES.md §1.1): each
chain secret until a table takes it, taken by exactly one table, put back unseen
when the creation rolls back, and topped up by its task."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.engine import fair
from games.fairness import chains_reserve_fill, chains_take
from games.models import ChainReserve, Table
from games.services import SeatTaker, TablePlan, tables_seated_create
from games.tasks import chain_reserve_fill_task
from tests.games.fairness import top_of
from tests.support.threads import in_threads

pytestmark = pytest.mark.django_db(transaction=True)


def plans(users, count):
    return [
        TablePlan(
            mode=Table.Mode.ONLINE,
            variant="draw",
            seats=[SeatTaker(user=users[i]), SeatTaker(bot_level="easy")],
        )
        for i in range(count)
    ]


def reserved():
    return list(ChainReserve.objects.order_by("pk").values_list("top", "commitment"))


def test_the_reserve_fills_in_batches_up_to_its_target(fair_deals):
    assert chains_reserve_fill(target=5, batch=3) == 3
    assert chains_reserve_fill(target=5, batch=3) == 2
    assert chains_reserve_fill(target=5, batch=3) == 0
    chains = reserved()
    assert [top for top, _ in chains] == [top_of(n).hex() for n in range(5)]
    for top, commitment in chains:
        assert commitment == fair.chain_link(bytes.fromhex(top), 0).hex()


def test_the_task_tops_up_to_the_setting(fair_deals, settings):
    settings.GAMES_CHAIN_RESERVE, settings.GAMES_CHAIN_RESERVE_BATCH = 4, 10
    chain_reserve_fill_task()
    assert ChainReserve.objects.count() == 4
    settings.GAMES_FAIR_DEALS = False  # the suite's tables deal by their seed
    ChainReserve.objects.all().delete()
    chain_reserve_fill_task()
    assert ChainReserve.objects.count() == 0


def test_seated_tables_take_reserved_chains_then_fresh_ones(make_user, fair_deals):
    chains_reserve_fill(target=2, batch=2)  # tops 0 and 1
    users = [make_user() for _ in range(3)]
    tables = tables_seated_create(plans=plans(users, 3))
    dealt = [Table.objects.get(pk=t.pk).fair for t in tables]
    assert [d["chains"] for d in dealt] == [[top_of(n).hex()] for n in range(3)]
    for d in dealt:
        top = bytes.fromhex(d["chains"][0])
        assert d["commitments"] == [fair.chain_link(top, 0).hex()]
    assert reserved() == []  # taken chains leave the reserve


def test_a_rolled_back_creation_puts_its_chains_back(make_user, fair_deals):
    chains_reserve_fill(target=3, batch=3)
    before = reserved()
    users = [make_user() for _ in range(2)]
    with pytest.raises(RuntimeError), transaction.atomic():
        tables_seated_create(plans=plans(users, 2))
        raise RuntimeError("the caller's transaction fails after the tables")
    assert reserved() == before
    assert not Table.objects.exists()


def test_a_refused_plan_takes_no_chain(make_user, fair_deals):
    chains_reserve_fill(target=2, batch=2)
    before = reserved()
    bad = TablePlan(mode=Table.Mode.ONLINE, variant="draw", seats=[])
    with pytest.raises(Exception, match="seat"):
        tables_seated_create(plans=[bad])
    assert reserved() == before


@pytest.mark.services
def test_racing_takers_never_share_a_chain(fair_deals):
    """Eight threads take chains from one reserve at once, each in its own
    transaction: every chain goes to one taker, and the reserve's are all used."""
    chains_reserve_fill(target=40, batch=40)
    reserve = set(reserved())
    taken: list[list[tuple[str, str]]] = []

    def take() -> None:
        with transaction.atomic():
            taken.append(chains_take(6))

    in_threads(take, [()] * 8)
    chains = [chain for batch in taken for chain in batch]
    assert len(chains) == 48 and len(set(chains)) == 48
    assert reserve <= set(chains)  # the 40 reserved, then 8 drawn afresh
    assert reserved() == []
