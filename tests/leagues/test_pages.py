"""League pages: standings, zones, live JSON, past weeks, top board, admin."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import formats, timezone

from leagues.models import Correction, Membership, Week
from leagues.rollover import weeks_rollover
from leagues.weeks import week_start

pytestmark = pytest.mark.django_db


def fill_group(make_player, finish_table, size: int, me) -> None:
    """``me`` and ``size - 1`` others in one Bronze group this week."""
    now = timezone.now()
    others = [make_player() for _ in range(size - 1)]
    finish_table(seats=[me, others[0]], places=[1, 2], at=now)
    for i, other in enumerate(others[1:]):
        finish_table(seats=[other, "bot"], places=[2 if i % 2 else 1, 1], at=now)


def standings_queries(
    client, size, make_player, finish_table, make_user
) -> tuple[int, int]:
    me = make_user()
    fill_group(make_player, finish_table, size, me)
    client.force_login(me)
    counts = []
    for name in ("league", "league_standings"):
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse(name)).status_code == 200
        counts.append(len(ctx.captured_queries))
    return counts[0], counts[1]


def test_league_page_shows_my_group_with_zones(
    client, make_user, make_player, finish_table
):
    me = make_user("ana")
    fill_group(make_player, finish_table, 12, me)
    client.force_login(me)
    page = client.get(reverse("league")).content.decode()
    assert page.count('class="zone-up') == 10  # Bronze: top 10 up, none down
    assert "zone-up me" in page
    assert "How points are earned" in page
    assert "Time left this week" in page
    data = client.get(reverse("league_standings")).json()
    assert data["division"] == "Bronze"
    assert len(data["rows"]) == 12
    assert data["rows"][0] == {
        "rank": 1,
        "name": "ana",
        "profile_url": "/players/ana/",
        "points": "10",
        "tables": 1,
        "zone": "up",
        "zone_label": "promotion zone",
        "me": True,
    }
    assert [r["zone"] for r in data["rows"]].count("") == 2
    assert 0 < data["seconds_left"] <= 7 * 24 * 3600


def test_a_player_without_a_group_is_told_how_to_join(client, make_user):
    client.force_login(make_user())
    page = client.get(reverse("league")).content.decode()
    assert "Finish an online or stake table this week" in page
    assert client.get(reverse("league_standings")).json()["rows"] == []


def test_league_pages_need_a_login(client):
    assert client.get(reverse("league")).status_code == 302
    assert client.get(reverse("league_standings")).status_code == 302


def test_query_count_does_not_grow_with_the_group(
    client, make_user, make_player, finish_table
):
    small = standings_queries(client, 3, make_player, finish_table, make_user)
    Membership.objects.all().delete()
    large = standings_queries(client, 30, make_player, finish_table, make_user)
    assert small == large


def test_profile_lists_past_weeks(client, make_user, make_player, finish_table):
    me, other = make_user("ana"), make_player()
    start = week_start(timezone.now()) - timedelta(days=7)
    finish_table(seats=[me, other], places=[1, 2], at=start + timedelta(hours=1))
    weeks_rollover(now=start + timedelta(days=7, minutes=1))
    client.force_login(me)
    page = client.get(reverse("profile")).content.decode()
    assert "Past league weeks" in page
    # The week's Monday in the reader's short date format (English: 11/23/2026).
    monday = formats.date_format(start.date(), "SHORT_DATE_FORMAT")
    assert monday in page and "promoted" in page


def test_top_board_lists_each_division(client, make_player, finish_table):
    ana, ben = make_player("ana"), make_player("ben")
    finish_table(seats=[ana, ben], places=[1, 2], at=timezone.now())
    page = client.get(reverse("league_top")).content.decode()
    for division in ("Bronze", "Silver", "Gold", "Platinum", "Diamond"):
        assert division in page
    assert page.index("ana") < page.index("ben")


def test_operator_removes_points_with_a_reason(
    client, make_user, make_player, finish_table
):
    admin = make_user("op", is_staff=True, is_superuser=True)
    ana, ben = make_player("ana"), make_player("ben")
    finish_table(seats=[ana, ben], places=[1, 2], at=timezone.now())
    membership = Membership.objects.get(user=ana)
    client.force_login(admin)
    url = reverse("admin:leagues_correction_add")
    reply = client.post(url, {"membership": membership.pk, "reason": "short"})
    assert reply.status_code == 200
    assert "Ensure this value has at least 10 characters" in reply.content.decode()
    assert not Correction.objects.exists()
    reply = client.post(
        url, {"membership": membership.pk, "reason": "Colluded with ben all week"}
    )
    assert reply.status_code == 302
    correction = Correction.objects.get()
    assert (correction.points_removed, correction.operator_id) == (
        Decimal("10.0"),
        admin.pk,
    )
    membership.refresh_from_db()
    assert membership.points == 0
    # Closed weeks are final: the form refuses them with an explanation.
    Week.objects.update(status="closed")
    reply = client.post(
        url, {"membership": membership.pk, "reason": "Colluded with ben all week"}
    )
    assert "closed weeks are final" in reply.content.decode()
    assert Correction.objects.count() == 1
