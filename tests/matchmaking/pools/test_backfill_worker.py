"""Backfill end to end: a lone searcher, simulated players and a real worker."""

from __future__ import annotations

import random
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from economy.models import Entry, XpAward
from economy.selectors import player_xp, wallet_balance
from games import engine
from games.models import FinishStep, Table
from games.services import table_act
from matchmaking.models import Rating, Search
from matchmaking.pools.services import search_start, wave_run

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_a_lone_searcher_is_backfilled_and_the_table_plays_to_the_end(
    make_user, celery_worker_running, settings, no_wave_tasks
):
    settings.MATCHMAKING_BACKFILL_SECONDS = 2
    settings.MATCHMAKING_POOLS = [
        {"key": "quick-3", "variant": "draw", "seats": 3, "options": {"target": 50}}
    ]
    settings.MATCHMAKING_BOT_SPEED = "instant"
    settings.MATCHMAKING_HAND_PAUSE_SECONDS = 0
    ana = make_user("ana")
    search = search_start(user_id=ana.pk, pool_key="quick-3")
    assert wave_run(pool_key="quick-3").tables == []  # not yet overdue
    Search.objects.filter(pk=search.pk).update(
        started_at=timezone.now() - timedelta(seconds=3)
    )
    result = wave_run(pool_key="quick-3")
    assert result.backfilled == result.tables
    table = Table.objects.get(pk=result.tables[0])
    bots = list(table.seats.filter(user__isnull=True))
    assert len(bots) == 2 and all(s.simulated for s in bots)
    assert all(s.name for s in bots)
    rng = random.Random(7)
    deadline = time.monotonic() + 240
    while table.status == Table.Status.PLAYING:
        assert time.monotonic() < deadline, "the table did not finish"
        state = engine.from_json(table.state)
        legal = engine.legal_actions(state, 0)
        if legal:
            table_act(
                table_id=table.pk,
                user=ana,
                action=engine.action_to_dict(rng.choice(legal)),
                expected_seq=table.seq,
            )
        else:
            time.sleep(0.05)
        table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    # The person is paid by position; simulated seats have no account to pay,
    # and one person with computer players is not rated. Every consequence the
    # finish owes is done before anything is read (and before the flush).
    steps = FinishStep.objects.filter(table=table)
    deadline = time.monotonic() + 20
    while steps.filter(done_at__isnull=True).exists():
        assert time.monotonic() < deadline, "the finish steps were not all done"
        time.sleep(0.1)
    assert steps.exists()
    assert wallet_balance(user_id=ana.pk) > 0 and player_xp(user_id=ana.pk) > 0
    assert not Rating.objects.exists()
    paid = Entry.objects.filter(transaction__table_ref=str(table.pk), amount__gt=0)
    assert set(paid.values_list("account__user_id", flat=True)) == {ana.pk}
    xp = XpAward.objects.filter(table_ref=str(table.pk))
    assert set(xp.values_list("user_id", flat=True)) == {ana.pk}
