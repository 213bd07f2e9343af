"""The next events on the home page and the lobby: live ones first, then the
soonest, at most three, each linking to its page; none, no box."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.swiss.helpers import event_of
from tournaments.arenas.models import Arena
from tournaments.arenas.services import arena_create
from tournaments.upcoming import next_events

pytestmark = pytest.mark.django_db


def test_live_first_then_the_soonest_at_most_three(make_user):
    now = timezone.now()
    later = arena_create(
        pool_key="draw-2", starts_at=now + timedelta(hours=3), minutes=60
    )
    soon = arena_create(
        pool_key="block-2", starts_at=now + timedelta(hours=1), minutes=60
    )
    live = arena_create(
        pool_key="spider-2", starts_at=now - timedelta(minutes=5), minutes=60
    )
    Arena.objects.filter(pk=live.pk).update(status=Arena.Status.LIVE)
    over = arena_create(
        pool_key="fives-2", starts_at=now - timedelta(hours=3), minutes=60
    )
    Arena.objects.filter(pk=over.pk).update(status=Arena.Status.FINISHED)
    swiss = event_of(make_user("lea"))  # in ten minutes
    found = next_events(limit=3)
    assert [e.url for e in found] == [
        reverse("arena", args=[live.pk]),
        reverse("swiss", args=[swiss.pk]),
        reverse("arena", args=[soon.pk]),
    ]
    assert found[0].live and not found[1].live
    assert reverse("arena", args=[later.pk]) not in [
        e.url for e in next_events(limit=3)
    ]


def test_the_home_page_and_the_lobby_show_them(client, make_user):
    assert 'id="next-events"' not in client.get("/").content.decode()
    event = event_of(make_user("lea"))
    page = client.get("/").content.decode()
    assert 'id="next-events"' in page and reverse("swiss", args=[event.pk]) in page
    client.force_login(make_user("ana"))
    page = client.get(reverse("lobby")).content.decode()
    assert 'id="next-events"' in page and "Friday Swiss" in page
