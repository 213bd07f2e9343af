"""The weekly league page as a competitive player reads it (issue 31): the week's end
as a moment, rewards by rank, names that link, whole points, legends that fit the
division, shapes in words, and the player's own tables of the week."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal
from html import unescape

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse
from django.utils import formats, timezone, translation

from leagues.display import points_text, shape_label, weight_text
from leagues.models import Membership, Player
from leagues.weeks import week_end, week_start

pytestmark = pytest.mark.django_db


def page_of(client, user, language: str = "en") -> str:
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    reply = client.get(reverse("league"))
    assert reply.status_code == 200
    return reply.content.decode()


def visible_text(page: str) -> str:
    """The page's text as a reader sees it: no tags, scripts, styles or attributes."""
    main = re.search(r"<main[^>]*>(.*)</main>", page, flags=re.S)
    body = main[1] if main else page
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", body)))


def standings_cells(page: str) -> list[list[str]]:
    """The standings table's cells, row by row, as text."""
    table = page.split('id="league-standings"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr class=\"zone-[^\"]*\">(.*?)</tr>", table, flags=re.S)
    return [
        [
            visible_text(c).strip()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", r, flags=re.S)
        ]
        for r in rows
    ]


def in_division(user, division: str) -> None:
    Player.objects.update_or_create(user=user, defaults={"division": division})


# The week's end ---------------------------------------------------------------


def test_the_week_end_is_a_moment_the_browser_shows_in_local_time(
    client, make_user, make_player, finish_table
):
    me = make_user("ana")
    finish_table(seats=[me, make_player()], places=[1, 2], at=timezone.now())
    end = week_end(week_start(timezone.now()))
    page = page_of(client, me)
    iso = end.isoformat().replace("+00:00", "Z")
    assert f'datetime="{iso}"' in page
    # Without scripts: the moment in UTC, named as such; the countdown stays.
    with translation.override("en"):
        date = formats.date_format(end, "DATE_FORMAT")  # "Dec. 7, 2026", "May 4, 2026"
    time_tag = re.search(r'<time id="league-week-end"[^>]*>([^<]*)</time>', page)
    assert time_tag is not None
    assert time_tag[1] == f"Monday, {date}, 00:00 UTC"
    assert "Time left this week" in page and 'id="league-time-left"' in page
    data = client.get(reverse("league_standings")).json()
    assert data["week_end"] == iso
    assert data["week_end_text"] == time_tag[1]


# Rewards ---------------------------------------------------------------------


def test_rewards_by_rank_come_from_the_division_settings(
    client, make_user, make_player, finish_table
):
    me = make_user("ana")
    finish_table(seats=[me, make_player()], places=[1, 2], at=timezone.now())
    text = visible_text(page_of(client, me))
    assert "Rank 1: 50 coins" in text and "Rank 3: 20 coins" in text  # Bronze
    zones = {
        d: {"up": 1, "down": 1, "rewards": [1200, 1]}
        for d in ("bronze", "silver", "gold", "platinum", "diamond")
    }
    with override_settings(LEAGUE_ZONES=zones):
        text = visible_text(page_of(client, me))
    assert "Rank 1: 1,200 coins" in text and "Rank 2: 1 coin" in text
    assert "Rank 3" not in text


# Names -----------------------------------------------------------------------


def test_player_names_link_to_their_profiles(
    client, make_user, make_player, finish_table
):
    me, ben = make_user("ana"), make_player("ben")
    finish_table(seats=[me, ben], places=[1, 2], at=timezone.now())
    page = page_of(client, me)
    profile = reverse("player-profile", args=["ben"])
    assert f'<a href="{profile}">ben</a>' in page
    rows = client.get(reverse("league_standings")).json()["rows"]
    assert [r["profile_url"] for r in rows] == [
        reverse("player-profile", args=["ana"]),
        profile,
    ]
    # A deleted account's place stays, with nothing to link to.
    Membership.objects.filter(user=ben).update(user=None)
    rows = client.get(reverse("league_standings")).json()["rows"]
    assert rows[1]["name"] == "—" and rows[1]["profile_url"] is None


# Points ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "points", "shown"),
    [
        ("en", "10.0", "10"),
        ("en", "7.5", "7.5"),
        ("es", "7.5", "7,5"),
        ("es", "1234.0", "1234"),
        ("en", "0.0", "0"),
    ],
)
def test_points_read_as_whole_numbers_when_whole(language, points, shown):
    with translation.override(language):
        assert points_text(Decimal(points)) == shown


def test_the_standings_show_whole_points_in_the_readers_language(
    client, make_user, make_player, finish_table
):
    me, ben = make_user("ana"), make_player("ben")
    now = timezone.now()
    finish_table(seats=[ben, me], places=[1, 2], at=now)  # ben 10, ana 3
    finish_table(seats=[me, "bot"], places=[2, 1], at=now)  # ana + 1.5 (half)
    cells = standings_cells(page_of(client, me))
    assert [(r[1], r[2]) for r in cells] == [("ben", "10"), ("ana", "4.5")]
    cells = standings_cells(page_of(client, me, "es"))
    assert [(r[1], r[2]) for r in cells] == [("ben", "10"), ("ana", "4,5")]
    rows = client.get(reverse("league_standings")).json()["rows"]
    assert [r["points"] for r in rows] == ["10", "4,5"]


# Legends ---------------------------------------------------------------------


def test_bronze_shows_no_demotion_and_diamond_no_promotion(
    client, make_user, make_player, finish_table
):
    bronze, other = make_user("ana"), make_player()
    finish_table(seats=[bronze, other], places=[1, 2], at=timezone.now())
    page = page_of(client, bronze)
    text = visible_text(page)
    assert "promotion zone" in text and "demotion zone" not in text
    assert "bottom 0" not in text and "go down;" not in text
    assert "nobody goes down from this division" in text

    diamond, rival = make_user("zoe"), make_player()
    in_division(diamond, "diamond")
    in_division(rival, "diamond")
    finish_table(seats=[diamond, rival], places=[1, 2], at=timezone.now())
    page = page_of(client, diamond)
    legend = re.search(r'<p class="legend"[^>]*>(.*?)</p>', page, flags=re.S)
    assert legend is not None
    assert "demotion zone" in legend[1] and "promotion zone" not in legend[1]
    text = visible_text(page)
    assert "top 0" not in text and "go up a division" not in text
    assert "the bottom 5 of each group go down a division" in text


def test_a_middle_division_shows_both_zones(
    client, make_user, make_player, finish_table
):
    me, other = make_user("ana"), make_player()
    in_division(me, "silver")
    in_division(other, "silver")
    finish_table(seats=[me, other], places=[1, 2], at=timezone.now())
    text = visible_text(page_of(client, me))
    assert "promotion zone" in text and "demotion zone" in text
    assert "the top 7 of each group go up a division and the bottom 5 go down" in text


# Shapes and raw ids -------------------------------------------------------------


def test_table_shapes_are_named_in_words():
    with translation.override("en"):
        assert shape_label("2") == "2 players"
        assert shape_label("4p") == "4 players in partnership"
        assert shape_label("odd") == "other tables"
        assert weight_text(Decimal("0.5")) == "½"
        assert weight_text(Decimal("1.0")) == "1"


def test_no_raw_ids_reach_the_page(client, make_user, make_player, finish_table):
    me = make_user("ana")
    others = [make_player() for _ in range(3)]
    now = timezone.now()
    finish_table(seats=[me, *others], places=[1, 2, 1, 2], at=now, partnership=True)
    finish_table(seats=[me, "bot"], places=[1, 2], at=now)
    text = visible_text(page_of(client, me))
    assert "4 players in partnership: 8 / 2" in text
    assert "2 players: 10 / 3" in text
    # Shape keys, division and zone codes, variant ids, decimals of whole numbers.
    for raw in (r"\b\dp\b", r"\b\d+ seats\b", r"\bbronze\b", r"\bzone-"):
        assert not re.search(raw, text), raw
    assert not re.search(r"\bdraw\b", text)  # the variant's id
    assert not re.search(r"\d\.0\b", text)


# My tables -------------------------------------------------------------------


def test_my_tables_this_week_show_points_weight_and_whether_they_counted(
    client, make_user, make_player, finish_table
):
    me, ben, cy = make_user("ana"), make_player("ben"), make_player("cy")
    now = timezone.now()
    last_week = week_start(now) - timedelta(days=2)
    finish_table(seats=[me, ben], places=[1, 2], at=last_week)
    at = [now - timedelta(seconds=60 - i) for i in range(6)]
    tables = [
        finish_table(seats=[me, ben], places=[1, 2], at=at[0]),
        finish_table(seats=[ben, me], places=[1, 2], at=at[1]),
        finish_table(seats=[me, ben], places=[1, 2], at=at[2]),
        # The fourth with ben that day is over the same-pair limit (3).
        finish_table(seats=[me, ben], places=[1, 2], at=at[3]),
        finish_table(seats=[me, "bot"], places=[2, 1], at=at[4]),
    ]
    finish_table(seats=[ben, cy], places=[1, 2], at=at[5])  # not mine
    page = page_of(client, me)
    data = client.get(reverse("league_standings")).json()
    mine = data["my_tables"]
    assert [t["url"] for t in mine] == [
        reverse("table", args=[t.pk]) for t in reversed(tables)
    ]
    assert [(t["points"], t["weight"], t["counted"]) for t in mine] == [
        ("1.5", "½", True),
        ("0", "1", False),
        ("10", "1", True),
        ("3", "1", True),
        ("10", "1", True),
    ]
    assert mine[1]["status"] == "no: same-pair daily limit"
    assert mine[0]["status"] == "yes"
    assert mine[0]["shape"] == "2 players"
    assert mine[0]["title"] == f"Draw · table {tables[4].pk}"
    section = page.split('id="league-my-tables"', 1)[1].split("</section>", 1)[0]
    for table in tables:
        assert f'<a href="{reverse("table", args=[table.pk])}">' in section
    assert section.count('<tr class="counted">') == 4
    assert section.count('<tr class="not-counted">') == 1
    assert "½" in visible_text(section)


def test_my_tables_is_empty_before_the_first_table(client, make_user):
    page = page_of(client, make_user())
    assert "My counted tables this week" in page
    assert 'id="league-my-tables-empty">' in page
    assert client.get(reverse("league_standings")).json()["my_tables"] == []
