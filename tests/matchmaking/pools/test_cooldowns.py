"""Leavers' cooldowns: the first-time warning, escalation, decay, refusals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Table, TableEvent
from games.signals import SeatResult
from matchmaking.errors import MatchError
from matchmaking.models import Cooldown, Offence, Search
from matchmaking.pools.conduct import (
    cooldown_check,
    cooldown_warning_seen,
    offence_record,
)
from matchmaking.pools.selectors import cooldown_frame
from matchmaking.pools.services import search_start
from tests.support.finishing import finish_announce

pytestmark = pytest.mark.django_db


def test_the_first_offence_warns_then_cooldowns_escalate_and_decay(make_user):
    ana = make_user("ana")
    t0 = timezone.now() - timedelta(days=3)
    first = offence_record(user_id=ana.pk, table_id=1, kind="forfeit", now=t0)
    assert first.until is None and first.warned
    assert cooldown_frame(user_id=ana.pk, now=t0)["warning"] is True
    cooldown_warning_seen(user_id=ana.pk)
    assert cooldown_frame(user_id=ana.pk, now=t0)["warning"] is False
    # The same day: 5 min (the warned one counts as the first of the window),
    # then x3 for each repeat.
    minutes = []
    for i, hours in enumerate((1, 2, 3), start=2):
        now = t0 + timedelta(hours=hours)
        minutes.append(
            offence_record(user_id=ana.pk, table_id=i, kind="forfeit", now=now).minutes
        )
    assert minutes == [15, 45, 135]
    # Two days later the window is empty again: back to the first step.
    later = t0 + timedelta(days=2)
    again = offence_record(user_id=ana.pk, table_id=9, kind="clock", now=later)
    assert again.minutes == 5
    assert again.until == later + timedelta(minutes=5)


def test_the_second_offence_of_a_fresh_day_is_five_minutes(make_user):
    ana = make_user("ana")
    now = timezone.now()
    offence_record(
        user_id=ana.pk, table_id=1, kind="forfeit", now=now - timedelta(days=5)
    )
    cd = offence_record(user_id=ana.pk, table_id=2, kind="forfeit", now=now)
    assert cd.minutes == 5


def test_a_player_in_cooldown_cannot_search(make_user):
    ana = make_user("ana")
    now = timezone.now()
    offence_record(user_id=ana.pk, table_id=1, kind="forfeit", now=now)
    search_start(user_id=ana.pk, pool_key="draw-2")  # warned only: may search
    Search.objects.all().delete()
    offence_record(user_id=ana.pk, table_id=2, kind="forfeit", now=now)
    with pytest.raises(MatchError) as info:
        search_start(user_id=ana.pk, pool_key="draw-2")
    assert info.value.code == "cooldown"
    assert "15 minutes" in info.value.message
    assert not Search.objects.exists()
    cooldown_check(user_id=ana.pk, now=now + timedelta(minutes=16))  # over


def test_one_table_counts_once(make_user):
    ana = make_user("ana")
    offence_record(user_id=ana.pk, table_id=1, kind="forfeit")
    offence_record(user_id=ana.pk, table_id=1, kind="forfeit")
    offence_record(user_id=ana.pk, table_id=1, kind="clock")
    assert Offence.objects.count() == 1
    assert Cooldown.objects.get(user=ana).until is None  # still the warning


def result(pos, user, *, forfeited=False):
    return SeatResult(
        position=pos,
        user_id=user.pk,
        bot_level="",
        simulated=False,
        team=None,
        place=pos + 1,
        score=0,
        forfeited=forfeited,
    )


def finished(table, mode, results):
    finish_announce(table_id=table.pk, mode=mode, results=results)


def a_table(mode="online"):
    return Table.objects.create(mode=mode, variant="draw", options={}, seed=1)


def test_forfeits_and_repeated_clock_runouts_count_at_online_tables(make_user):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    table = a_table()
    for seq in (3, 9):  # ben's clock ran out twice
        TableEvent.objects.create(table=table, seq=seq, seat=1, actor="clock")
    TableEvent.objects.create(table=table, seq=12, seat=2, actor="clock")  # once
    finished(
        table, "online", [result(0, ana, forfeited=True), result(1, ben), result(2, cy)]
    )
    kinds = dict(Offence.objects.values_list("user__username", "kind"))
    assert kinds == {"ana": "forfeit", "ben": "clock"}


def test_practice_and_friend_rooms_never_count(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    for mode in ("friend", "practice"):
        finished(a_table(mode), mode, [result(0, ana, forfeited=True), result(1, ben)])
    assert not Offence.objects.exists()
