"""Issue 19 on the server: names, left games in the record, idle practice tables,
My games, error pages, the history's words and the admin's Cancel."""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import engine, expiry
from games.history import event_words, table_hands
from games.models import Seat, Table, TableEvent
from games.names import seat_display_name, table_title
from games.payloads import seats_public
from games.replay import table_verify
from games.services import seat_leave, table_create, table_practice_create
from games.stats import practice_stats
from games.tasks import practice_expire_task
from tests.support.tables import drive

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_queue(queued):
    return queued


@pytest.fixture
def sent(pushes):
    """Frames the outbox hands to the channel layer."""
    return pushes


def practice(user, levels=("easy",), variant="draw"):
    return table_practice_create(
        user=user,
        variant=variant,
        options={"seats": len(levels) + 1},
        bot_levels=list(levels),
    )


def age(table: Table, hours: float) -> None:
    """Make every event of the table (and the table) ``hours`` old."""
    then = timezone.now() - timedelta(hours=hours)
    TableEvent.objects.filter(table=table).update(created_at=then)
    Table.objects.filter(pk=table.pk).update(created_at=then)


# --- names


def test_computer_seats_have_distinct_names_everywhere(make_user):
    user = make_user("alice")
    table = practice(user, ("easy", "easy", "hard"))
    seats = list(table.seats.select_related("user"))
    names = [s["name"] for s in seats_public(seats)]
    assert names == [
        "alice",
        "Computer 2 · easy",
        "Computer 3 · easy",
        "Computer 4 · hard",
    ]
    assert [seat_display_name(s) for s in seats] == names
    assert table_title(table) == f"Draw · table {table.pk}"


def test_variant_titles_are_display_names(make_user):
    table = practice(make_user(), variant="all_fives")
    assert table_title(table) == f"All Fives · table {table.pk}"


# --- the practice record


def test_a_left_practice_game_counts_as_a_loss(make_user):
    user = make_user()
    table = practice(user, ("medium",))
    seat_leave(table_id=table.pk, user=user)
    table.refresh_from_db()
    assert table.status == Table.Status.CANCELLED
    row = next(r for r in practice_stats(user=user) if r["level"] == "medium")
    assert (row["won"], row["played"]) == (0, 1)


def test_a_won_game_still_counts_as_a_win_beside_a_left_one(make_user):
    user = make_user()
    practice_left = practice(user, ("easy",))
    seat_leave(table_id=practice_left.pk, user=user)
    played = practice(user, ("easy",))
    drive(played.pk, {0: user}, rng=random.Random(5))
    played.refresh_from_db()
    won = played.seats.get(position=0).place == 1
    row = next(r for r in practice_stats(user=user) if r["level"] == "easy")
    assert (row["won"], row["played"]) == (int(won), 2)


# --- idle practice tables


def test_idle_practice_tables_expire_as_abandoned_with_a_new_seq(
    make_user, sent, django_capture_on_commit_callbacks
):
    user = make_user()
    idle = practice(user)
    fresh = practice(make_user())
    age(idle, 25)
    age(fresh, 23)
    seq = Table.objects.get(pk=idle.pk).seq
    with django_capture_on_commit_callbacks(execute=True):
        assert expiry.practice_tables_expire() == 1
    idle.refresh_from_db()
    fresh.refresh_from_db()
    assert idle.status == Table.Status.CANCELLED
    assert idle.seq == seq + 1
    assert idle.timer == "" and idle.deadline is None and idle.finished_at
    assert fresh.status == Table.Status.PLAYING
    last = TableEvent.objects.filter(table=idle).order_by("-seq").first()
    assert (last.seq, last.action, last.events) == (
        seq + 1,
        None,
        [{"type": "abandoned", "reason": "idle"}],
    )
    table_verify(table=idle)  # the log still replays to the stored state
    frames = [json.loads(m["text"]) for _, m in sent]
    assert frames and all(f["seq"] == seq + 1 for f in frames)
    assert {f["table"]["status"] for f in frames} == {"cancelled"}
    assert expiry.practice_tables_expire() == 0  # nothing twice


def test_a_move_after_the_sweep_looked_keeps_the_table(make_user, sent):
    user = make_user()
    table = practice(user)
    age(table, 30)
    now = timezone.now()
    # A move lands between the look-up and the lock: the table has a fresh event.
    TableEvent.objects.filter(table=table).update(created_at=now)
    assert not expiry.table_expire(
        table_id=table.pk, now=now, idle=expiry.PRACTICE_IDLE
    )
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert sent == []


def test_only_practice_tables_in_play_expire(make_user, sent):
    user = make_user()
    room = table_create(mode=Table.Mode.FRIEND, variant="draw", host=user)
    Table.objects.filter(pk=room.pk).update(status=Table.Status.PLAYING)
    age(room, 48)
    done = practice(user)
    Table.objects.filter(pk=done.pk).update(status=Table.Status.FINISHED)
    age(done, 48)
    assert expiry.practice_tables_expire() == 0
    assert Table.objects.get(pk=room.pk).status == Table.Status.PLAYING


def test_the_expiry_task_is_on_the_beat_schedule_and_runs(make_user, sent):
    entries = [e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()]
    assert "games.practice_expire" in entries
    table = practice(make_user())
    age(table, 25)
    practice_expire_task()
    assert Table.objects.get(pk=table.pk).status == Table.Status.CANCELLED


# --- My games


def test_my_games_lists_live_games_first_with_resume(client, make_user):
    user = make_user("alice")
    client.force_login(user)
    finished = practice(user, ("hard",), variant="block")
    Table.objects.filter(pk=finished.pk).update(
        status=Table.Status.FINISHED, finished_at=timezone.now()
    )
    Seat.objects.filter(table=finished, user=user).update(place=1)
    left = practice(user)
    seat_leave(table_id=left.pk, user=user)
    live = practice(user, ("medium",), variant="all_fives")
    other = practice(make_user("bob"))
    html = client.get(reverse("my-games")).content.decode()
    rows = html.split("<tr class=")[1:]
    assert len(rows) == 3 and f'data-table="{other.pk}"' not in html
    assert f'data-table="{live.pk}"' in rows[0] and "Resume" in rows[0]
    assert reverse("table", args=[live.pk]) in rows[0]
    assert "All Fives" in rows[0] and "Computer 2 · medium" in rows[0]
    ended = {row.split('data-table="')[1].split('"')[0]: row for row in rows[1:]}
    assert "Won" in ended[str(finished.pk)] and "Block" in ended[str(finished.pk)]
    assert reverse("table-history", args=[finished.pk]) in ended[str(finished.pk)]
    assert "Abandoned" in ended[str(left.pk)]


def test_my_games_is_paginated(client, make_user):
    user = make_user()
    client.force_login(user)
    for _ in range(21):
        practice(user)
    first = client.get(reverse("my-games")).content.decode()
    second = client.get(reverse("my-games") + "?page=2").content.decode()
    assert first.count("Resume") == 20 and second.count("Resume") == 1
    assert "Page 1 of 2" in first


# --- history in a player's words


def test_moves_are_said_as_players_say_them():
    played = {"type": "played", "seat": 0, "tile": [5, 5], "end": "root", "points": 10}
    assert event_words(played) == "played 5–5 to open (the ends make 10)"
    left = {"type": "played", "seat": 1, "tile": [3, 5], "end": "left", "points": 0}
    assert event_words(left) == "played 3–5 on the left"
    side = {"type": "played", "seat": 1, "tile": [3, 2], "end": "3-3:l", "points": 0}
    assert event_words(side) == "played 3–2 beside the 3–3"


def test_the_history_page_names_seats_and_the_variant(client, make_user):
    user = make_user("alice")
    client.force_login(user)
    table = practice(user, ("easy",), variant="all_fives")
    drive(table.pk, {0: user}, rng=random.Random(2))
    html = client.get(reverse("table-history", args=[table.pk])).content.decode()
    assert f"All Fives · table {table.pk}" in html
    assert "Computer 2 · easy" in html
    shown = re.sub(r"<script\b.*?</script>", "", html, flags=re.S)  # what is read
    assert "all_fives" not in shown and "on root" not in shown
    assert "to open" in html
    hands = table_hands(table=Table.objects.get(pk=table.pk))
    assert all(h.summary for h in hands if h.result)


# --- error pages and the admin


def test_the_404_page_has_the_site_layout(client, make_user):
    client.force_login(make_user())
    response = client.get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert 'aria-label="Main"' in html and reverse("play") in html
    assert "We could not find that page." in html


def test_the_history_of_a_live_table_is_a_friendly_404(client, make_user):
    user = make_user()
    client.force_login(user)
    table = practice(user)
    response = client.get(reverse("table-history", args=[table.pk]))
    assert response.status_code == 404
    assert "We could not find that page." in response.content.decode()


def test_a_csrf_failure_is_explained_in_the_site_layout(make_user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user())
    response = client.post(reverse("play"), {"variant": "draw"})
    html = response.content.decode()
    assert response.status_code == 403
    assert "That form had expired." in html and 'aria-label="Main"' in html
    assert "CSRF" not in html


def test_the_500_page_has_the_site_look():
    from config.error_views import server_error

    response = server_error(None)
    assert response.status_code == 500
    assert "Something went wrong on our side." in response.content.decode()


def test_staff_cancel_a_stuck_table_from_the_admin(
    admin_client, make_user, sent, django_capture_on_commit_callbacks
):
    table = practice(make_user())
    seq = table.seq
    url = reverse("admin:games_table_changelist")
    assert admin_client.get(url).status_code == 200
    page = admin_client.get(reverse("admin:games_table_change", args=[table.pk]))
    assert page.status_code == 200
    assert '"hands"' not in page.content.decode()  # the state stays out of sight
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            url, {"action": "cancel_tables", "_selected_action": [table.pk]}
        )
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.CANCELLED and table.seq == seq + 1
    assert {json.loads(m["text"])["table"]["status"] for _, m in sent} == {"cancelled"}
    for name in ("games_seat_changelist", "games_tableevent_changelist"):
        assert admin_client.get(reverse(f"admin:{name}")).status_code == 200
    index = admin_client.get(reverse("admin:index")).content.decode()
    sections = re.findall(r"<caption>\s*<a[^>]*>([^<]*)</a>", index)
    assert len(sections) == len(set(sections)), sections  # no two "Accounts"
    assert "Games" in sections


def test_the_engine_names_match_the_titles():
    for key, spec in engine.VARIANTS.items():
        assert table_title(Table(pk=1, variant=key)) == f"{spec.title} · table 1"
