"""A practice table is its player's alone: every door to it (the table page, its
fair deal, the table socket, the history and log, the replay, its data and record,
the reviews) refuses another signed-in player and anyone signed out, with the
answer a table that does not exist gets; only the replay's share link, which the
player hands out, opens the ended game's replay and reviews."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from games.replays.access import replay_share_token
from games.services import table_practice_create
from tests.support import session_cookie
from tests.support.tables import drive

pytestmark = pytest.mark.django_db

LIVE_DOORS = ("/", "/fair.json")
ENDED_DOORS = (
    "/",
    "/fair.json",
    "/history/",
    "/log.json",
    "/replay/",
    "/replay.json",
    "/record.txt",
    "/review/1/",
    "/review/1.json",
)
# Doors that open to a holder of the replay's share link, signed in or not.
SHARED_DOORS = ("/replay/", "/replay.json", "/record.txt", "/review/1/")


def practice(user):
    return table_practice_create(
        user=user,
        variant="block",
        options={"target": 50},
        bot_levels=["easy"],
        bot_speed="instant",
    )


def client_of(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def refused(client: Client, url: str) -> bool:
    """The answer a missing table gets: 404, or the log-in page for a door that
    needs a signed-in player."""
    response = client.get(url)
    if response.status_code == 302:
        return response["Location"].startswith("/accounts/login/")
    return response.status_code == 404


@pytest.fixture
def owner(make_user):
    return make_user("ana")


@pytest.fixture
def other(make_user):
    return make_user("bob")


def test_a_live_practice_table_is_its_players_alone(owner, other, queued):
    table = practice(owner)
    base = f"/tables/{table.pk}"
    for door in LIVE_DOORS:
        assert client_of(owner).get(base + door).status_code == 200, door
        assert refused(client_of(other), base + door), f"{door} opened to another"
        assert refused(client_of(), base + door), f"{door} opened signed out"
    missing = "/tables/999999"
    for door in LIVE_DOORS:
        assert client_of(other).get(missing + door).status_code == 404


def test_an_ended_practice_table_is_its_players_alone(owner, other, queued):
    table = drive(practice(owner).pk, {0: owner}, rng=random.Random(2))
    base = f"/tables/{table.pk}"
    for door in ENDED_DOORS:
        assert client_of(owner).get(base + door).status_code == 200, door
        assert refused(client_of(other), base + door), f"{door} opened to another"
        assert refused(client_of(), base + door), f"{door} opened signed out"


def test_the_share_link_opens_the_replay_and_reviews_and_nothing_else(
    owner, other, queued
):
    table = drive(practice(owner).pk, {0: owner}, rng=random.Random(3))
    base = f"/tables/{table.pk}"
    share = f"?share={replay_share_token(table)}"
    for client in (client_of(other), client_of()):
        for door in SHARED_DOORS:
            assert client.get(base + door + share).status_code == 200, door
        assert refused(client, base + "/" + share)
        assert refused(client, base + "/fair.json" + share)


async def close_code(table_id: int, user) -> int | None:
    """The close code the table socket answers ``user`` with (None: it stays open)."""
    headers = [(b"origin", b"http://testserver")]
    if user is not None:
        cookie = await database_sync_to_async(session_cookie)(user)
        headers.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(
        application, f"/ws/tables/{table_id}/", headers=headers
    )
    connected, _ = await comm.connect(timeout=10)
    assert connected  # accepted, then closed with a code the browser can read
    output = await comm.receive_output(timeout=10)
    await comm.disconnect()
    return output.get("code") if output["type"] == "websocket.close" else None


@pytest.mark.django_db(transaction=True)
async def test_nobody_else_watches_a_practice_table_over_its_socket(make_user, queued):
    ana = await database_sync_to_async(make_user)("ana")
    bob = await database_sync_to_async(make_user)("bob")
    table = await database_sync_to_async(practice)(ana)
    assert await close_code(table.pk, ana) is None  # its player gets the state
    assert await close_code(table.pk, bob) == 4404  # as for a missing table
    assert await close_code(999999, bob) == 4404
    assert await close_code(table.pk, None) == 4401
