"""The JSON endpoints: account, profiles, finished games and their records."""

from __future__ import annotations

import pytest

from games.models import Table
from tests.api.conftest import bearer
from tests.support.tables import finished_pair, finished_practice, two_human_table

pytestmark = pytest.mark.django_db


def test_a_public_profile(client, make_user, make_token):
    _, secret = make_token(make_user())
    make_user("Carla")
    answer = client.get("/api/users/carla", **bearer(secret))
    assert answer.status_code == 200
    assert answer.json()["username"] == "Carla"
    assert answer.json()["ratings"] == []
    missing = client.get("/api/users/nobody", **bearer(secret))
    assert missing.status_code == 404
    assert missing.json() == {"error": "There is no player of that name."}


def test_finished_games_newest_first_with_their_summary(client, make_user, make_token):
    table, ana, ben = finished_pair(make_user)
    _, secret = make_token(ben)
    games = client.get("/api/users/ana/games", **bearer(secret)).json()
    assert [g["id"] for g in games["games"]] == [table.pk]
    row = games["games"][0]
    assert [s["username"] for s in row["seats"]] == ["ana", "ben"]
    assert row["result"]["status"] == "finished"
    assert row["result"]["winners"]
    summary = client.get(f"/api/games/{table.pk}", **bearer(secret))
    assert summary.status_code == 200
    body = summary.json()
    assert body["links"]["record"] == f"/api/games/{table.pk}/record.txt"
    assert "hand" not in str(body.keys())
    record = client.get(f"/api/games/{table.pk}/record.txt", **bearer(secret))
    assert record.status_code == 200
    assert record["Content-Type"].startswith("text/plain")
    site = client.get(f"/tables/{table.pk}/record.txt")
    assert record.content == site.content


def test_someone_elses_practice_game_is_not_there(client, make_user, make_token):
    ana = make_user()
    table = finished_practice(ana)
    _, own = make_token(ana)
    _, other = make_token(make_user())
    assert client.get(f"/api/games/{table.pk}", **bearer(own)).status_code == 200
    for path in (f"/api/games/{table.pk}", f"/api/games/{table.pk}/record.txt"):
        answer = client.get(path, **bearer(other))
        assert answer.status_code == 404
        assert answer.json() == {"error": "There is no such game."}
    listed = client.get(f"/api/users/{ana.username}/games", **bearer(other)).json()
    assert listed["games"] == []
    assert (
        client.get(f"/api/users/{ana.username}/games", **bearer(own)).json()["count"]
        == 1
    )


def test_a_live_games_record_is_refused(client, make_user, make_token):
    table, ana, _ = two_human_table(make_user, mode=Table.Mode.ONLINE)
    _, secret = make_token(ana)
    answer = client.get(f"/api/games/{table.pk}/record.txt", **bearer(secret))
    assert answer.status_code == 409
    assert "still in play" in answer.json()["error"]
    _, stranger = make_token(make_user())
    stranger_answer = client.get(
        f"/api/games/{table.pk}/record.txt", **bearer(stranger)
    )
    assert stranger_answer.status_code == 409  # an online table anyone may watch


def test_games_are_paged(client, make_user, make_token):
    ana = make_user()
    _, secret = make_token(ana)
    for seed in range(3):
        finished_practice(ana, seed=seed)
    from api import selectors

    selectors.GAMES_PER_PAGE, saved = 2, selectors.GAMES_PER_PAGE
    try:
        first = client.get(f"/api/users/{ana.username}/games", **bearer(secret)).json()
        second = client.get(first["next"], **bearer(secret)).json()
    finally:
        selectors.GAMES_PER_PAGE = saved
    assert first["pages"] == 2 and len(first["games"]) == 2
    assert second["next"] is None and len(second["games"]) == 1
    ids = [g["id"] for g in first["games"] + second["games"]]
    assert ids == sorted(ids, reverse=True)
    bad = client.get(f"/api/users/{ana.username}/games?page=9", **bearer(secret))
    assert bad.status_code == 404
