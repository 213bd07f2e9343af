"""Swiss events' pages: scheduling from the club's page (the start typed in the
reader's time), the event page (standings, rounds, schedule, prizes), joining and
withdrawing through it, the tournaments page's list, the table's link back; and a
real game played to its end moving the event."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from clubs.services import club_create, club_join
from games.events import table_event_link
from tests.tournaments.sitgo.helpers import play_out
from tests.tournaments.swiss.helpers import event_of, games_of, here, start
from tournaments.swiss.models import SwissEntry, SwissEvent
from tournaments.swiss.services import swiss_join
from tournaments.times import starts_at_of

pytestmark = pytest.mark.django_db


def said(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_start_is_read_in_the_readers_time():
    assert starts_at_of("2026-12-24T20:00", "-60") == datetime(
        2026, 12, 24, 19, 0, tzinfo=UTC
    )
    assert starts_at_of("2026-12-24T20:00", "") == datetime(
        2026, 12, 24, 20, 0, tzinfo=UTC
    )
    for bad in (("tomorrow", "0"), ("2026-12-24T20:00", "x"), ("", "0")):
        assert starts_at_of(*bad) is None
    assert starts_at_of("2026-12-24T20:00", "5000") is None


def test_a_leader_schedules_from_the_club_page_and_members_see_it(client, make_user):
    lea, ana = make_user("lea"), make_user("ana")
    club = club_create(
        user=lea, name="Harbour", description="", language="en", open=True
    )
    club_join(user=ana, slug=club.slug)
    client.force_login(ana)
    page = client.get(reverse("club", args=[club.slug])).content.decode()
    assert 'id="club-events"' in page and 'id="swiss-new"' not in page
    client.force_login(lea)
    page = client.get(reverse("club", args=[club.slug])).content.decode()
    assert 'id="swiss-new"' in page
    local = (timezone.now() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "club": club.slug,
        "name": "Friday Swiss",
        "pool": "block-2",
        "rounds": "4",
        "round_minutes": "20",
        "starts_at": local,
        "offset": "0",
        "entry": "0",
        "members_only": "1",
    }
    reply = client.post(reverse("swiss-new"), {**form, "rounds": "40"}, follow=True)
    assert said(reply) == ["An event has 1 to 11 rounds."]
    assert reply.redirect_chain[-1][0] == reverse("club", args=[club.slug])
    reply = client.post(reverse("swiss-new"), form, follow=True)
    event = SwissEvent.objects.get()
    assert reply.redirect_chain[-1][0] == reverse("swiss", args=[event.pk])
    assert said(reply) == ["The event is scheduled: its players may join now."]
    assert (event.pool, event.rounds, event.members_only) == ("block-2", 4, True)
    client.force_login(ana)
    page = client.get(reverse("club", args=[club.slug])).content.decode()
    assert reverse("swiss", args=[event.pk]) in page
    page = client.get(reverse("tournaments")).content.decode()
    assert 'id="swiss"' in page and "Friday Swiss" in page


def test_joining_and_withdrawing_from_the_event_page(client, make_user):
    lea, ana = make_user("lea"), make_user("ana")
    event = event_of(lea, entry=0)
    client.force_login(ana)
    page = client.get(reverse("swiss", args=[event.pk])).content.decode()
    assert 'id="swiss-join"' in page and 'id="swiss-standings"' in page
    reply = client.post(reverse("swiss-join", args=[event.pk]), follow=True)
    assert said(reply) == [
        "You are in. Keep this page open when a round starts, or you miss it."
    ]
    assert 'id="swiss-withdraw"' in reply.content.decode()
    reply = client.post(reverse("swiss-join", args=[event.pk]), follow=True)
    assert said(reply) == ["You are already in this event."]
    reply = client.post(reverse("swiss-withdraw", args=[event.pk]), follow=True)
    assert said(reply) == ["You withdrew from the event."]
    assert not SwissEntry.objects.exists()
    assert client.get(reverse("swiss", args=[999])).status_code == 404
    assert client.get(reverse("swiss-join", args=[event.pk])).status_code == 405


def test_the_event_page_shows_rounds_and_the_prize_table(client, make_user, funded):
    lea = make_user("lea")
    ana, ben = funded(1000), funded(1000)
    event = event_of(lea, entry=100, rounds=2)
    for user in (ana, ben):
        swiss_join(user=user, event_id=event.pk)
    here(event, ana, ben)
    start(event, 1)
    client.force_login(ana)
    page = client.get(reverse("swiss", args=[event.pk])).content.decode()
    (game,) = games_of(event, 1)
    assert f"{game.first.username} – {game.second.username}</a>: playing" in page
    assert reverse("table", args=[game.table_id]) in page
    assert 'id="swiss-ready"' in page  # Ana's game is ready
    assert 'id="swiss-payout"' in page and "#1: 100% (200)" in page
    link = table_event_link(table_id=game.table_id, mode="online")
    assert link is not None and link.url == reverse("swiss", args=[event.pk])


def test_a_game_played_to_its_end_finishes_a_one_round_event(
    make_user, queued, pushes, django_capture_on_commit_callbacks
):
    lea, ana, ben = make_user("lea"), make_user("ana"), make_user("ben")
    event = event_of(lea, rounds=1)
    for user in (ana, ben):
        swiss_join(user=user, event_id=event.pk)
    here(event, ana, ben)
    with django_capture_on_commit_callbacks(execute=True):
        start(event, 1)
    (game,) = games_of(event, 1)
    paired = [m for g, m in pushes if m.get("type") == "swiss.paired"]
    assert sorted(g for g, m in pushes if m.get("type") == "swiss.paired") == sorted(
        [f"swiss.{event.pk}.user.{ana.pk}", f"swiss.{event.pk}.user.{ben.pk}"]
    )
    assert paired[0]["url"] == reverse("table", args=[game.table_id])
    play_out(game.table_id, capture=django_capture_on_commit_callbacks)
    event.refresh_from_db()
    game.refresh_from_db()
    assert event.state == "finished" and game.result == "played"
    ranks = dict(SwissEntry.objects.filter(event=event).values_list("user_id", "rank"))
    winner = game.first_id if game.points == 2 else game.second_id
    assert ranks[winner] == 1
