"""Head to head on profiles: wins, losses and even results against each person."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from friends import services
from games.head_to_head import head_to_head, recent_opponents
from games.models import Seat, Table
from tests.support.tables import drive, two_human_table

pytestmark = pytest.mark.django_db


def play(make_user, *, seed, **kw):
    table, ana, ben = two_human_table(
        make_user, mode=Table.Mode.ONLINE, target=50, **kw
    )
    return drive(table.pk, {0: ana, 1: ben}, rng=random.Random(seed)), ana, ben


def test_the_record_counts_each_finished_table_once(make_user, queued, client):
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    expected = [0, 0, 0]
    for seed in range(3):
        if seed:
            # two_human_table makes "ana" and "ben": reuse them after the first.
            make_user = _reusing(make_user, users)
        table, ana, ben = play(make_user, seed=seed)
        places = dict(Seat.objects.filter(table=table).values_list("user_id", "place"))
        mine, theirs = places[ana.pk], places[ben.pk]
        expected[0 if mine < theirs else 1 if mine > theirs else 2] += 1
    record = head_to_head(user_id=ana.pk, other_ids=[ben.pk])[ben.pk]
    assert [record.won, record.lost, record.even] == expected
    back = head_to_head(user_id=ben.pk, other_ids=[ana.pk])[ana.pk]
    assert [back.won, back.lost] == [record.lost, record.won]
    assert recent_opponents(user_id=ana.pk) == [ben.pk]
    # A table still in play does not count.
    two_human_table(_reusing(make_user, users), mode=Table.Mode.ONLINE)
    assert head_to_head(user_id=ana.pk, other_ids=[ben.pk])[ben.pk] == record
    # Ana's own profile lists Ben; Ben's profile tells Ana her record against him.
    services.friend_request_accept(
        request_id=services.friend_request_send(sender=ana, username="ben").pk, user=ben
    )
    client.force_login(ana)
    body = client.get(reverse("profile")).content.decode()
    assert 'data-opponent="ben"' in body
    body = client.get(reverse("player-profile", args=["ben"])).content.decode()
    assert (
        f"You against ben: {record.won} won, {record.lost} lost, {record.even} even."
        in body
    )


def _reusing(make_user, users):
    def make(name=None, **kw):
        found = users.filter(username=name).first() if name else None
        return found or make_user(name, **kw)

    return make


def test_partners_never_count_against_each_other(make_user, queued):
    from games.services import seat_join, table_create, table_start

    people = [make_user(n) for n in ("a", "b", "c", "d")]
    table = table_create(
        mode=Table.Mode.ONLINE,
        variant="block",
        options={"seats": 4, "partnership": True, "target": 50},
        hand_pause_seconds=0,
    )
    for person in people:
        seat_join(table_id=table.pk, user=person)
    table_start(table_id=table.pk)
    drive(table.pk, dict(enumerate(people)), rng=random.Random(2))
    seats = {s.user_id: s for s in Seat.objects.filter(table=table)}
    a = people[0]
    records = head_to_head(user_id=a.pk, other_ids=[p.pk for p in people[1:]])
    partner = next(p for p in people[1:] if seats[p.pk].team == seats[a.pk].team)
    assert partner.pk not in records
    assert sum(r.played for r in records.values()) == 2
