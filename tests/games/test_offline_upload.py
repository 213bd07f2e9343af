"""The upload of a finished offline practice game (``POST /play/offline/results/``).

The server replays it through the engine (``games.offline.replay``) and records it
once, as a finished practice table counted in the player's practice record under
its strongest computer and marked offline in the history; practice pays nothing.
Illegal logs, games already recorded (by this player or another), oversized or
unreadable bodies, a player who is not signed in and a post without its CSRF
token are refused in words, and change nothing.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from economy.models import Entry, Transaction
from games import engine, offline, offline_upload
from games.models import FinishStep, OfflineGame, Seat, Table, TableEvent
from games.my_games import player_games
from games.replay import table_verify
from games.stats import practice_stats
from tests.games.offline_games import played, send, signed_in, upload

URL = "/play/offline/results/"


@pytest.fixture(autouse=True)
def no_hourly_limit(settings):
    """The hourly allowance has its own test: elsewhere it would count the
    uploads of every test (and run) under the same few user ids."""
    settings.GAMES_OFFLINE_UPLOADS_PER_HOUR = 0


@pytest.fixture(scope="module")
def game() -> offline.Game:
    """One Block match against a medium computer, played to its end."""
    return played("block", ("medium",), seed="5eed" * 16)


def nothing_recorded() -> None:
    assert not Table.objects.exists()
    assert not OfflineGame.objects.exists()
    assert not TableEvent.objects.exists()


def stats_of(user: Any) -> dict[str, dict[str, Any]]:
    return {row["level"]: row for row in practice_stats(user=user)}


def words(response: Any) -> str:
    """The refusal's message, checked to be words for a player: no ids, keys,
    reprs or tracebacks."""
    error = response.json()["error"]
    message = error["message"]
    assert isinstance(message, str) and message
    for leak in ("Traceback", "{", "}", "<", "None", "Error(", "_"):
        assert leak not in message, message
    return str(message)


def test_the_url_is_the_contracts():
    assert reverse("offline-results") == URL


@pytest.mark.django_db
def test_a_finished_game_is_recorded_once_marked_offline_and_pays_nothing(
    make_user, game
):
    user = make_user()
    ledger = (Transaction.objects.count(), Entry.objects.count())
    body = upload(game)
    response = send(signed_in(user), body)
    assert response.status_code == 201, response.content
    assert response.json()["message"] == "Your offline game is in your practice record."

    table = Table.objects.get()
    assert (table.mode, table.status, table.host) == ("practice", "finished", user)
    assert table.variant == "block" and table.options == game.options.to_dict()
    assert response.json()["history"] == reverse("table-history", args=[table.pk])
    recorded = OfflineGame.objects.get()
    assert (recorded.table, recorded.user, recorded.seed) == (table, user, game.seed)
    assert recorded.client_id == uuid.UUID(body["id"])
    assert table.finished_at == recorded.finished_at
    assert table.finished_at.isoformat() == "2026-12-01T10:00:00+00:00"

    # The whole log, as a live practice table keeps it: it replays to the state.
    assert table.seq == 1 + len(game.log) == TableEvent.objects.count()
    assert engine.from_json(table.state) == game.state
    table_verify(table=table)
    events = list(table.events.order_by("seq"))
    assert events[0].actor == "server" and events[0].action is None
    assert [(e.seat, e.action) for e in events[1:]] == [
        (seat, action) for seat, action in game.log
    ]
    assert {e.actor for e in events[1:] if e.seat == 0} == {"player"}
    assert {e.actor for e in events[1:] if e.seat != 0} == {"bot"}

    seats = list(Seat.objects.filter(table=table).order_by("position"))
    assert [(s.user, s.bot_level) for s in seats] == [(user, ""), (None, "medium")]
    won = 0 in game.state.winners
    assert (seats[0].place == 1) == won

    # The practice record counts it under its computer's level, marked offline.
    rows = stats_of(user)
    assert rows["medium"] == {
        "level": "medium",
        "label": "Medium",
        "played": 1,
        "won": int(won),
        "offline": 1,
    }
    assert rows["easy"]["played"] == rows["hard"]["played"] == 0
    _page, history = player_games(user=user)
    assert [(row.table, row.offline) for row in history] == [(table, True)]

    # Practice pays nothing: no coin, no XP, no consequence owed.
    assert (Transaction.objects.count(), Entry.objects.count()) == ledger
    assert not FinishStep.objects.filter(table=table).exists()


@pytest.mark.django_db
def test_the_pages_show_the_offline_game(make_user, game):
    user = make_user()
    client = signed_in(user)
    assert send(client, upload(game)).status_code == 201
    table = Table.objects.get()
    label = '<span class="offline-label">Offline</span>'
    for url in (reverse("my-games"), reverse("table-history", args=[table.pk])):
        page = client.get(url).content.decode()
        assert label in page, url
    play = client.get(reverse("play")).content.decode()
    assert '<tr data-level="medium">' in play
    row = play.split('<tr data-level="medium">')[1].split("</tr>")[0]
    assert '<td class="played">1</td><td class="offline">1</td>' in row
    # Its replay and review open as any practice table's do.
    assert client.get(reverse("table-replay", args=[table.pk])).status_code == 200
    assert client.get(reverse("table-replay-json", args=[table.pk])).status_code == 200


@pytest.mark.django_db
def test_an_online_practice_table_is_not_marked_offline(make_user):
    from tests.support.tables import finished_practice

    user = make_user()
    finished_practice(user=user)
    assert sum(row["offline"] for row in practice_stats(user=user)) == 0
    _page, rows = player_games(user=user)
    assert rows and not any(row.offline for row in rows)


@pytest.mark.django_db
def test_games_count_per_level_under_the_strongest_computer(make_user):
    user = make_user()
    client = signed_in(user)
    easy = played("draw", ("easy",), person_seed=2)
    mixed = played("block", ("easy", "medium"), options={"seats": 3})
    for game in (easy, mixed):
        assert send(client, upload(game)).status_code == 201
    rows = stats_of(user)
    assert (rows["easy"]["played"], rows["easy"]["offline"]) == (1, 1)
    assert (rows["medium"]["played"], rows["medium"]["offline"]) == (1, 1)


@pytest.mark.django_db
def test_the_same_game_twice_is_refused_and_recorded_once(make_user, game):
    user = make_user()
    client = signed_in(user)
    body = upload(game)
    assert send(client, body).status_code == 201
    again = send(client, body)
    assert again.status_code == 409
    assert words(again) == "This game is already in your practice record."
    assert again.json()["error"]["code"] == "duplicate"
    # The same game under a new id is the same game.
    renamed = send(client, {**body, "id": str(uuid.uuid4())})
    assert renamed.status_code == 409
    assert words(renamed) == "This game is already in your practice record."
    assert OfflineGame.objects.count() == Table.objects.count() == 1
    assert stats_of(user)["medium"]["played"] == 1


@pytest.mark.django_db
def test_another_players_game_is_refused(make_user, game):
    ana, ben = make_user(), make_user()
    body = upload(game)
    assert send(signed_in(ana), body).status_code == 201
    for copy in (body, {**body, "id": str(uuid.uuid4())}):
        response = send(signed_in(ben), copy)
        assert response.status_code == 409
        assert words(response) == "This game was already recorded for another player."
    assert OfflineGame.objects.get().user == ana
    assert stats_of(ben)["medium"]["played"] == 0


@pytest.mark.django_db
def test_ids_are_each_players_own(make_user, game):
    """Two players' browsers may give their own games the same id."""
    ana, ben = make_user(), make_user()
    body = upload(game)
    assert send(signed_in(ana), body).status_code == 201
    other = played("draw", ("easy",), person_seed=3)
    assert send(signed_in(ben), upload(other, id=body["id"])).status_code == 201
    assert OfflineGame.objects.count() == 2


def _computer_move_changed(body: dict[str, Any]) -> None:
    """The first computer decision with another legal choice, made differently."""
    game = offline.new_game(
        body["variant"], body["options"], body["levels"], body["seed"]
    )
    for index, (seat, action) in enumerate(body["actions"]):
        if seat != 0:
            legal = [
                engine.action_to_dict(a) for a in engine.legal_actions(game.state, seat)
            ]
            others = [a for a in legal if a != action]
            if others:
                body["actions"][index] = [seat, others[0]]
                return
        game = offline.act(game, seat, action)
    raise AssertionError("no computer decision had a choice")


def _persons_move_illegal(body: dict[str, Any]) -> None:
    """The person's first tile play, played with a tile of the computer's."""
    game = offline.new_game(
        body["variant"], body["options"], body["levels"], body["seed"]
    )
    for index, (seat, action) in enumerate(body["actions"]):
        if seat == 0 and action["type"] == "play":
            view = engine.view(game.state, 1)
            theirs = view["hand"][0] if "hand" in view else [6, 6]
            body["actions"][index] = [0, {**action, "tile": list(theirs)}]
            return
        game = offline.act(game, seat, action)
    raise AssertionError("the person played no tile")


def _out_of_turn(body: dict[str, Any]) -> None:
    """A first move by the seat that does not open."""
    game = offline.new_game(
        body["variant"], body["options"], body["levels"], body["seed"]
    )
    opener = engine.current_seat(game.state)
    body["actions"].insert(0, [1 - int(opener or 0), {"type": "pass"}])


MUTATIONS: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "a computer's move that is not its bot's": (
        _computer_move_changed,
        "is not the computer player's",
    ),
    "a tile the person does not hold": (_persons_move_illegal, "is not allowed"),
    "a game stopped before its end": (
        lambda body: body["actions"].pop(),
        "The game is not finished.",
    ),
    "a move after the end": (
        lambda body: body["actions"].append([0, {"type": "pass"}]),
        "The game goes on after its end.",
    ),
    "a move out of turn": (_out_of_turn, "Move 1 was not that player's to make."),
    "an unknown variant": (lambda body: body.update(variant="chess"), ""),
    "a computer level that does not exist": (
        lambda body: body.update(levels=["grandmaster"]),
        "",
    ),
    "a seed that is no deal's": (lambda body: body.update(seed="nope"), ""),
    "moves that are not a list": (lambda body: body.update(actions="all"), ""),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", list(MUTATIONS))
def test_an_illegal_log_is_refused_in_words_and_changes_nothing(make_user, game, case):
    user = make_user()
    body = json.loads(json.dumps(upload(game)))
    mutate, expected = MUTATIONS[case]
    mutate(body)
    response = send(signed_in(user), body)
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "illegal"
    message = words(response)
    assert message.startswith("This game could not be recorded: ")
    assert expected in message
    nothing_recorded()


@pytest.mark.django_db
@override_settings(GAMES_OFFLINE_UPLOAD_MAX_BYTES=2048)
def test_an_oversized_upload_is_refused_in_words_and_changes_nothing(make_user, game):
    user = make_user()
    body = upload(game)
    assert len(json.dumps(body)) > 2048
    response = send(signed_in(user), body)
    assert response.status_code == 413
    assert words(response) == (
        "This game is too long to send: uploads are limited to 2 KB."
    )
    padded = send(signed_in(user), None, raw=b" " * 4096 + b"{}")
    assert padded.status_code == 413
    nothing_recorded()


@pytest.mark.django_db
def test_the_size_limit_leaves_room_for_a_long_match(make_user, settings):
    """A long match (Draw on the double-nine set to its highest target, three
    seats) fits well inside the default limit."""
    game = played(
        "draw", ("medium", "medium"), options={"set_max": 9, "seats": 3, "target": 250}
    )
    size = len(json.dumps(upload(game)))
    assert size * 4 < settings.GAMES_OFFLINE_UPLOAD_MAX_BYTES, size


@pytest.mark.django_db
@pytest.mark.parametrize(
    "raw",
    [b"", b"{", b"[]", b'"game"', b"\xff\xfe", b"[" * 5000 + b"]" * 5000],
    ids=["empty", "cut", "a list", "a string", "not utf-8", "nested"],
)
def test_an_unreadable_body_is_refused_in_words(make_user, raw):
    response = send(signed_in(make_user()), None, raw=raw)
    assert response.status_code == 400
    assert words(response) == "This game could not be read: it is not valid JSON."
    nothing_recorded()


@pytest.mark.django_db
@pytest.mark.parametrize("change", [{"id": None}, {"id": "42"}, {"id": ["x"]}])
def test_a_game_without_a_valid_id_is_refused(make_user, game, change):
    body = upload(game)
    if change["id"] is None:
        del body["id"]
    else:
        body.update(change)
    response = send(signed_in(make_user()), body)
    assert response.status_code == 400
    assert words(response) == "This game has no valid id: it cannot be recorded."
    nothing_recorded()


@pytest.mark.django_db
@pytest.mark.parametrize("when", [None, "yesterday", "2026-12-01T10:00:00", 5])
def test_a_game_without_a_valid_end_time_is_refused(make_user, game, when):
    response = send(signed_in(make_user()), upload(game, finished_at=when))
    assert response.status_code == 400
    assert words(response) == "This game has no valid end time: it cannot be recorded."
    nothing_recorded()


@pytest.mark.django_db
def test_an_end_time_in_the_future_is_taken_as_now(make_user, game):
    later = (timezone.now() + timedelta(days=30)).isoformat()
    before = timezone.now()
    assert (
        send(signed_in(make_user()), upload(game, finished_at=later)).status_code == 201
    )
    finished = Table.objects.get().finished_at
    assert before <= finished <= timezone.now()


@pytest.mark.django_db
def test_uploads_past_the_hourly_allowance_wait_and_change_nothing(
    make_user, game, settings
):
    user = make_user()
    cache.delete(f"offline:uploads:{user.pk}:{int(time.time() // 3600)}")
    settings.GAMES_OFFLINE_UPLOADS_PER_HOUR = 2
    client = signed_in(user)
    first = played("draw", ("easy",), person_seed=5)
    bad = json.loads(json.dumps(upload(game)))
    bad["actions"].pop()
    assert send(client, upload(first)).status_code == 201
    assert send(client, bad).status_code == 400  # a refused replay counts too
    late = send(client, upload(game))
    assert late.status_code == 429
    assert words(late) == (
        "Many games were sent this hour: the others will be sent later."
    )
    assert OfflineGame.objects.count() == 1
    # Another player has an allowance of their own.
    other = make_user()
    cache.delete(f"offline:uploads:{other.pk}:{int(time.time() // 3600)}")
    assert send(signed_in(other), upload(game)).status_code == 201


@pytest.mark.django_db
def test_a_signed_out_upload_is_refused_in_words(game):
    client = Client()
    response = client.post(
        URL, json.dumps(upload(game)), content_type="application/json"
    )
    assert response.status_code == 403
    assert (
        words(response) == "Sign in to add your offline games to your practice record."
    )
    assert client.get(URL).status_code == 403
    nothing_recorded()


@pytest.mark.django_db
def test_an_upload_without_its_csrf_token_is_refused_in_words(make_user, game):
    client = signed_in(make_user())
    response = client.post(
        URL, json.dumps(upload(game)), content_type="application/json"
    )
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "csrf"
    assert words(response).startswith("That request had expired.")
    nothing_recorded()


@pytest.mark.django_db
def test_the_token_and_the_answers_are_never_cached(make_user, game):
    client = signed_in(make_user())
    token = client.get(URL)
    assert token.status_code == 200 and token.json()["csrf"]
    assert "no-store" in token["Cache-Control"] or "max-age=0" in token["Cache-Control"]
    answer = send(client, upload(game))
    assert "max-age=0" in answer["Cache-Control"]


@pytest.mark.django_db
def test_a_duplicate_past_the_first_check_is_caught_by_the_constraints(
    make_user, game, monkeypatch
):
    """An upload that raced another past the first check (made to here): the
    constraints refuse its rows, every one of them is rolled back, and the
    player reads why."""
    user = make_user()
    client = signed_in(user)
    body = upload(game)
    assert send(client, body).status_code == 201
    checks: list[dict[str, Any]] = []
    first_check = offline_upload._already

    def passes_first(**kwargs: Any) -> Any:
        checks.append(kwargs)
        return None if len(checks) == 1 else first_check(**kwargs)

    monkeypatch.setattr(offline_upload, "_already", passes_first)
    again = send(client, {**body, "id": str(uuid.uuid4())})
    assert again.status_code == 409
    assert words(again) == "This game is already in your practice record."
    assert len(checks) == 2
    assert Table.objects.count() == OfflineGame.objects.count() == 1
    assert TableEvent.objects.count() == 1 + len(game.log)
    assert Seat.objects.count() == 2


def race(user: Any, bodies: list[dict[str, Any]]) -> list[int]:
    """POST each body from its own signed-in tab, all at the same moment."""
    tabs = []
    for _ in bodies:
        client = signed_in(user)
        tabs.append((client, client.get(URL).json()["csrf"]))
    barrier = threading.Barrier(len(bodies))
    statuses = [0] * len(bodies)

    def post(i: int) -> None:
        client, token = tabs[i]
        try:
            barrier.wait()
            statuses[i] = client.post(
                URL,
                json.dumps(bodies[i]),
                content_type="application/json",
                HTTP_X_CSRFTOKEN=token,
            ).status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return statuses


def _raced_once(user: Any, game: offline.Game) -> None:
    body = upload(game)
    assert sorted(race(user, [body, body])) == [201, 409]
    assert OfflineGame.objects.count() == Table.objects.count() == 1
    assert TableEvent.objects.count() == 1 + len(game.log)
    assert stats_of(user)["medium"]["played"] == 1
    # The same game under two ids at once: one deal, recorded once.
    other = played("block", ("medium",), person_seed=4)
    first, second = upload(other), upload(other)
    assert sorted(race(user, [first, second])) == [201, 409]
    assert OfflineGame.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_same_upload_twice_at_once_is_recorded_once_on_sqlite(make_user, game):
    if connection.vendor != "sqlite":
        pytest.skip("the PostgreSQL run is the test below")
    _raced_once(make_user(), game)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_same_upload_twice_at_once_is_recorded_once_on_postgresql(make_user, game):
    assert connection.vendor == "postgresql"
    _raced_once(make_user(), game)
