"""The Play page, the table page, rematch and practice statistics (test client)."""

from __future__ import annotations

import json
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine
from games.models import Seat, Table
from games.services import table_practice_create
from games.stats import practice_stats
from tests.support.tables import drive, two_human_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(client, make_user):
    user = make_user("alice")
    client.force_login(user)
    return user


@pytest.fixture(autouse=True)
def no_queue(queued):
    """Timed jobs are recorded, not sent to a broker."""
    return queued


def post_play(client, **fields):
    data = {
        "variant": "draw",
        "set_max": "6",
        "seats": "2",
        "target": "100",
        "bot_speed": "fast",
        "bot_1": "easy",
    }
    data.update({k: str(v) for k, v in fields.items()})
    return client.post(reverse("play"), data)


def test_play_page_needs_login(client):
    response = client.get(reverse("play"))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_play_page_offers_every_variant_with_its_rules(client, player):
    response = client.get(reverse("play"))
    assert response.status_code == 200
    html = response.content.decode()
    for spec in engine.VARIANTS.values():
        assert f'value="{spec.id}"' in html
        assert spec.summary[:40] in html
    for speed in ("slow", "normal", "fast", "instant"):
        assert f'value="{speed}"' in html
    specs = json.loads(
        html.split('id="variant-specs" type="application/json">')[1].split("</script>")[
            0
        ]
    )
    assert specs["spider"]["seats"] == [2]
    assert specs["catalan"]["partnership"] == "forced"
    assert 'href="/play/"' in client.get("/").content.decode()  # the nav shows Play


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"variant": "spider", "seats": 3, "bot_2": "easy"}, "seats", "2 players"),
        ({"variant": "fives", "set_max": 9}, "set_max", "double-6"),
        (
            {
                "variant": "cross",
                "seats": 4,
                "partnership": "on",
                "bot_2": "easy",
                "bot_3": "easy",
            },
            "partnership",
            "no partnerships",
        ),
        ({"variant": "catalan", "target": 250}, "target", "not 250"),
        ({"variant": "draw", "seats": 3}, "bot_2", "Choose a level"),
        ({"variant": "block", "bot_1": "genius"}, "bot_1", "genius"),
    ],
)
def test_invalid_combinations_are_refused_on_the_form(
    client, player, fields, field, message
):
    response = post_play(client, **fields)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert field in errors, errors
    assert message.lower() in " ".join(errors[field]).lower()
    assert message.lower() in response.content.decode().lower()
    assert Table.objects.count() == 0


def test_forced_partnership_is_filled_in(client, player):
    response = post_play(
        client, variant="catalan", seats=4, bot_2="medium", bot_3="hard"
    )
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.options["partnership"] is True
    assert [s.team for s in table.seats.all()] == [0, 1, 0, 1]


def test_play_creates_a_practice_table_and_redirects(client, player):
    response = post_play(
        client,
        variant="all_fives",
        seats=3,
        bot_1="medium",
        bot_2="hard",
        target=150,
        bot_speed="instant",
    )
    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("table", args=[table.pk])
    assert table.mode == Table.Mode.PRACTICE
    assert table.status == Table.Status.PLAYING
    assert table.variant == "all_fives"
    assert table.options["target"] == 150
    assert table.bot_delay_ms == 0
    seats = list(table.seats.all())
    assert seats[0].user == player
    assert [s.bot_level for s in seats[1:]] == ["medium", "hard"]


def test_house_rule_choice_reaches_the_engine(client, player):
    post_play(client, variant="catalan", seats=2, tiles_per_seat=5)
    assert Table.objects.get().options["tiles_per_seat"] == 5


def test_table_page_needs_login_and_knows_the_seat(client, player, make_user):
    table = table_practice_create(user=player, variant="draw", bot_levels=["easy"])
    url = reverse("table", args=[table.pk])
    client.logout()
    assert client.get(url).status_code == 302
    client.force_login(player)
    response = client.get(url)
    assert response.status_code == 200
    config = response.context["config"]
    assert config["seat"] == 0
    assert config["ws"] == f"/ws/tables/{table.pk}/"
    assert 'id="table-config"' in response.content.decode()
    assert "js/table/main.js" in response.content.decode()
    # Someone else's practice table is as missing as a table that does not exist;
    # someone else's online table opens to a spectator, without a seat.
    client.force_login(make_user("bob"))
    assert client.get(url).status_code == 404
    assert client.get(reverse("table", args=[table.pk + 99])).status_code == 404
    online, _, _ = two_human_table(make_user, mode="online")
    response = client.get(reverse("table", args=[online.pk]))
    assert response.status_code == 200
    assert response.context["config"]["seat"] is None
    assert response.context["config"]["rematch"] is None


def finished_practice(user, levels, *, won: bool, variant="draw"):
    table = table_practice_create(
        user=user,
        variant=variant,
        options={"seats": len(levels) + 1},
        bot_levels=levels,
    )
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    Seat.objects.filter(table=table, position=0).update(place=1 if won else 2)
    Seat.objects.filter(table=table, position__gt=0).update(place=2 if won else 1)
    return table


def test_rematch_copies_options_levels_and_speed(client, player):
    table = table_practice_create(
        user=player,
        variant="block",
        options={"seats": 3, "target": 50},
        bot_levels=["hard", "easy"],
        bot_speed="slow",
    )
    url = reverse("table-rematch", args=[table.pk])
    assert client.get(url).status_code == 405
    response = client.post(url)  # still playing: refused
    assert response.status_code == 302
    assert Table.objects.count() == 1
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    response = client.post(url)
    new = Table.objects.exclude(pk=table.pk).get()
    assert response["Location"] == reverse("table", args=[new.pk])
    assert new.options == table.options
    assert [s.bot_level for s in new.seats.all()][1:] == ["hard", "easy"]
    assert new.bot_delay_ms == table.bot_delay_ms
    assert new.seats.get(position=0).user == player


def test_rematch_only_for_own_practice_tables(client, player, make_user):
    table = finished_practice(make_user("carol"), ["easy"], won=True)
    assert client.post(reverse("table-rematch", args=[table.pk])).status_code == 404


def test_stats_count_by_strongest_computer(client, player, make_user):
    finished_practice(player, ["easy"], won=True)
    finished_practice(player, ["easy"], won=False)
    finished_practice(player, ["easy", "hard"], won=True, variant="block")
    finished_practice(player, ["medium", "easy", "easy"], won=False, variant="block")
    table_practice_create(user=player, variant="draw", bot_levels=["hard"])  # playing
    finished_practice(make_user("dave"), ["medium"], won=True)  # someone else's
    stats = {
        row["level"]: (row["won"], row["played"]) for row in practice_stats(user=player)
    }
    assert stats == {"easy": (1, 2), "medium": (0, 1), "hard": (1, 1)}
    html = client.get(reverse("play")).content.decode()
    assert '<td class="won">1</td><td class="played">2</td>' in html


def test_stats_after_a_real_match(player):
    table = table_practice_create(
        user=player, variant="draw", options={"target": 50}, bot_levels=["medium"]
    )
    drive(table.pk, {0: player}, rng=random.Random(3))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    won = table.seats.get(position=0).place == 1
    row = next(r for r in practice_stats(user=player) if r["level"] == "medium")
    assert (row["won"], row["played"]) == (int(won), 1)


def test_history_still_opens_after_the_end(client, player):
    table = finished_practice(player, ["easy"], won=True)
    assert client.get(reverse("table-history", args=[table.pk])).status_code == 200
    assert client.get(reverse("table-log", args=[table.pk])).status_code == 200


def _imported_modules(entry: str) -> set[str]:
    """Every module ``static/js/<entry>`` imports, directly or not (paths under js/)."""
    import posixpath
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "static" / "js"
    seen: set[str] = set()
    todo = [entry]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        text = (root / module).read_text()
        for target in re.findall(r'^import .* from "([^"]+)";', text, re.M):
            todo.append(
                posixpath.normpath(posixpath.join(posixpath.dirname(module), target))
            )
    return seen


def test_the_table_page_preloads_every_module_it_runs(client, player):
    table = table_practice_create(user=player, variant="draw", bot_levels=["easy"])
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    modules = _imported_modules("table/main.js")
    assert {"table/main.js", "table/ui.js", "dom.js", "i18n.js"} <= modules
    for module in sorted(modules):
        assert f'<link rel="modulepreload" href="/static/js/{module}">' in page, module


def test_the_table_page_reads_the_table_and_its_seats_together(client, player):
    """The user, the table with its seats (one statement on PostgreSQL:
    ``games.rows.table_with_seats``; two elsewhere) and the navigation's counts."""
    table = table_practice_create(
        user=player,
        variant="draw",
        options={"seats": 2, "target": 100},
        bot_levels=["easy"],
        bot_speed="normal",
    )
    url = reverse("table", args=[table.pk])
    client.get(url)  # the session into the cache
    with CaptureQueriesContext(connection) as sql:
        page = client.get(url)
    assert page.status_code == 200
    assert page.context["seat"].user_id == player.pk
    assert len(sql) == (3 if connection.vendor == "postgresql" else 4)
