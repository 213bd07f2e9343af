"""Moves, seeds and practice tables through the API: the table socket's service
calls and refusals."""

from __future__ import annotations

import json

import pytest

from games import engine
from games.models import Table, TableEvent
from tests.api.conftest import bearer
from tests.support.tables import two_human_table

pytestmark = pytest.mark.django_db


def _post(client, path, body, secret):
    return client.post(path, body, content_type="application/json", **bearer(secret))


def test_a_practice_game_starts_against_the_computer(client, make_user, make_token):
    user = make_user()
    _, secret = make_token(user)
    made = _post(
        client, "/api/practice", {"variant": "draw", "level": "medium"}, secret
    )
    assert made.status_code == 201
    table = Table.objects.get(pk=made.json()["game"])
    assert table.mode == Table.Mode.PRACTICE and table.status == Table.Status.PLAYING
    seats = list(table.seats.order_by("position"))
    assert seats[0].user_id == user.pk and seats[1].bot_level == "medium"
    bad = _post(client, "/api/practice", {"variant": "draw", "level": "genius"}, secret)
    assert bad.status_code == 400
    assert bad.json() == {"error": "Computer levels are easy, medium or hard."}
    assert (
        _post(client, "/api/practice", {"variant": "chess"}, secret).status_code == 400
    )


def _mover(table):
    state = engine.from_json(table.state)
    return next(p for p in range(2) if engine.legal_actions(state, p))


def test_a_move_is_applied_and_a_refused_one_changes_nothing(
    client, make_user, make_token
):
    table, ana, ben = two_human_table(make_user, mode=Table.Mode.FRIEND)
    users = {0: ana, 1: ben}
    mover = _mover(table)
    _, secret = make_token(users[mover])
    _, other = make_token(users[1 - mover])
    state = engine.from_json(table.state)
    legal = [engine.action_to_dict(a) for a in engine.legal_actions(state, mover)]
    before = (table.seq, table.state, TableEvent.objects.count())

    illegal = {"type": "play", "tile": [9, 9], "end": "root"}
    refused = _post(
        client,
        f"/api/games/{table.pk}/move",
        {"seq": table.seq, "action": illegal},
        secret,
    )
    assert refused.status_code == 400
    assert set(refused.json()) == {"error"} and refused.json()["error"]
    out_of_turn = _post(
        client,
        f"/api/games/{table.pk}/move",
        {"seq": table.seq, "action": legal[0]},
        other,
    )
    assert out_of_turn.status_code == 409
    assert out_of_turn.json() == {"error": "It is not your turn."}
    stale = _post(
        client,
        f"/api/games/{table.pk}/move",
        {"seq": table.seq - 1, "action": legal[0]},
        secret,
    )
    assert stale.status_code == 409
    no_seq = _post(client, f"/api/games/{table.pk}/move", {"action": legal[0]}, secret)
    assert no_seq.status_code == 400
    table.refresh_from_db()
    assert (table.seq, table.state, TableEvent.objects.count()) == before

    played = _post(
        client,
        f"/api/games/{table.pk}/move",
        {"seq": table.seq, "action": legal[0]},
        secret,
    )
    assert played.status_code == 200
    table.refresh_from_db()
    assert played.json() == {"seq": table.seq} and table.seq == before[0] + 1


def test_a_stranger_cannot_move_or_read_a_seat(client, make_user, make_token):
    table, _, _ = two_human_table(make_user, mode=Table.Mode.ONLINE)
    _, secret = make_token(make_user())
    for path, body in (
        (f"/api/games/{table.pk}/move", {"seq": table.seq, "action": {"type": "pass"}}),
        (f"/api/games/{table.pk}/seed", {"seed": "abc"}),
    ):
        answer = _post(client, path, body, secret)
        assert answer.status_code == 404
        assert answer.json() == {"error": "There is no such game with a seat of yours."}
    assert (
        client.get(f"/api/games/{table.pk}/state", **bearer(secret)).status_code == 404
    )


def test_the_state_is_the_seats_own_view(client, make_user, make_token):
    table, ana, _ = two_human_table(make_user, mode=Table.Mode.ONLINE)
    _, secret = make_token(ana)
    frame = client.get(f"/api/games/{table.pk}/state", **bearer(secret)).json()
    assert frame["type"] == "state" and frame["you"] == 0
    state = engine.from_json(Table.objects.get(pk=table.pk).state)
    own = engine.view(state, 0)["hand"]
    assert frame["view"]["hand"] == own
    theirs = engine.view(state, 1)["hand"]
    shown = json.dumps(frame["view"]["hand"]) + json.dumps(frame["view"]["legal"])
    assert not any(json.dumps(tile) in shown for tile in theirs)
    assert "stock" not in frame["view"] or frame["view"]["stock"] is None


def test_a_bad_body_is_refused_in_words(client, make_user, make_token):
    _, secret = make_token(make_user())
    answer = client.post(
        "/api/practice", "{nope", content_type="application/json", **bearer(secret)
    )
    assert answer.status_code == 400
    assert answer.json() == {"error": "The request body is not valid JSON."}
    assert client.get("/api/practice", **bearer(secret)).status_code == 405
