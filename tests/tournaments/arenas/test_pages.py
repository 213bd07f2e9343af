"""The arena pages, join and pause over HTTP, the tournaments page's arena part
and the links to it; the arena socket's standings, presence and "paired"."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from config.asgi import application
from games.events import table_event_link
from tests.support import session_cookie
from tournaments.arenas.models import ArenaPlayer
from tournaments.arenas.presence import present_among
from tournaments.arenas.services import arena_pair


@pytest.mark.django_db
def test_the_tournaments_page_lists_live_and_scheduled_arenas(
    client, make_user, make_arena
):
    live, soon = make_arena(), make_arena(live=False)
    client.force_login(make_user())
    page = client.get("/tournaments/").content.decode()
    assert f'href="/tournaments/arenas/{live.pk}/"' in page
    assert f'href="/tournaments/arenas/{soon.pk}/"' in page
    assert 'id="arenas-schedule"' in page and 'class="local-time"' in page


@pytest.mark.django_db
def test_links_from_the_nav_the_lobby_and_home(client, make_user):
    client.force_login(make_user())
    for url in ("/", reverse("lobby")):
        assert 'href="/tournaments/"' in client.get(url).content.decode(), url


@pytest.mark.django_db
def test_join_and_pause_from_the_arena_page(client, make_user, make_arena):
    arena = make_arena()
    ana = make_user()
    client.force_login(ana)
    page = client.get(f"/tournaments/arenas/{arena.pk}/").content.decode()
    assert 'id="arena-join"' in page and 'id="arena-countdown"' in page
    reply = client.post(f"/tournaments/arenas/{arena.pk}/join/")
    assert reply.status_code == 302
    assert not ArenaPlayer.objects.get(user=ana).paused
    page = client.get(f"/tournaments/arenas/{arena.pk}/").content.decode()
    assert 'id="arena-withdraw"' in page and ana.username in page
    reply = client.post(
        f"/tournaments/arenas/{arena.pk}/withdraw/", HTTP_ACCEPT="application/json"
    )
    assert reply.json()["ok"] is True
    assert ArenaPlayer.objects.get(user=ana).paused
    refused = client.post(
        f"/tournaments/arenas/{arena.pk}/withdraw/", HTTP_ACCEPT="application/json"
    )
    assert refused.status_code == 400
    assert refused.json()["error"] == {
        "code": "paused",
        "message": "You have paused already.",
    }


@pytest.mark.django_db
def test_state_json_and_unknown_arenas(client, make_user, make_arena, joined):
    arena = make_arena()
    joined(arena, 2)
    client.force_login(make_user())
    state = client.get(f"/tournaments/arenas/{arena.pk}/state.json").json()
    assert len(state["standings"]["rows"]) == 2 and state["me"] is None
    assert client.get("/tournaments/arenas/999999/").status_code == 404
    assert client.post("/tournaments/arenas/999999/join/").status_code == 404


async def arena_socket(user, arena_id) -> WebsocketCommunicator:
    cookie = (await database_sync_to_async(session_cookie)(user)).encode()
    comm = WebsocketCommunicator(
        application,
        f"/ws/tournaments/arenas/{arena_id}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
    )
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def frame_of(comm, kind):
    for _ in range(20):
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


@pytest.mark.django_db(transaction=True)
async def test_the_socket_sends_standings_marks_presence_and_pairs(
    make_user, make_arena, queued
):
    from tournaments.arenas.services import arena_join, arena_pair, arenas_tick

    arena = await database_sync_to_async(make_arena)()
    ana, ben = [await database_sync_to_async(make_user)() for _ in range(2)]
    for user in (ana, ben):
        await database_sync_to_async(arena_join)(arena_id=arena.pk, user=user)
    socks = [await arena_socket(ana, arena.pk), await arena_socket(ben, arena.pk)]
    first = await frame_of(socks[0], "standings")
    assert {r[1] for r in first["rows"]} == {ana.pk, ben.pk}
    await frame_of(socks[1], "standings")
    present = await database_sync_to_async(present_among)(
        arena_id=arena.pk, user_ids=[ana.pk, ben.pk]
    )
    assert present == {ana.pk, ben.pk}
    (table_id,) = await database_sync_to_async(arena_pair)(arena_id=arena.pk)
    for sock in socks:
        paired = await frame_of(sock, "paired")
        assert paired["url"] == f"/tables/{table_id}/"
    # Standings went out on the joins a moment ago: this change waits for the
    # tick (the push is throttled), which sends it.
    await database_sync_to_async(arenas_tick)()
    moved = await frame_of(socks[0], "standings")
    assert all(r[7] == "playing" for r in moved["rows"])
    await socks[0].send_json_to({"type": "hello"})
    assert (await frame_of(socks[0], "error"))["code"] == "unknown_type"
    for sock in socks:
        await sock.disconnect()
    gone = await database_sync_to_async(present_among)(
        arena_id=arena.pk, user_ids=[ana.pk, ben.pk]
    )
    assert gone == set()


@pytest.mark.django_db(transaction=True)
async def test_the_socket_refuses_strangers_and_unknown_arenas(make_user):
    comm = WebsocketCommunicator(
        application,
        "/ws/tournaments/arenas/1/",
        headers=[(b"origin", b"http://testserver")],
    )
    await comm.connect(timeout=5)
    assert (await comm.receive_output(timeout=5))["code"] == 4401
    user = await database_sync_to_async(make_user)()
    cookie = (await database_sync_to_async(session_cookie)(user)).encode()
    comm = WebsocketCommunicator(
        application,
        "/ws/tournaments/arenas/999999/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
    )
    await comm.connect(timeout=5)
    assert (await comm.receive_output(timeout=5))["code"] == 4404


@pytest.mark.django_db(transaction=True)
async def test_a_page_opened_while_seated_is_sent_to_the_table(
    make_user, make_arena, queued
):
    from tournaments.arenas.presence import presence_mark
    from tournaments.arenas.services import arena_join, arena_pair

    arena = await database_sync_to_async(make_arena)()
    ana, ben = [await database_sync_to_async(make_user)() for _ in range(2)]
    for user in (ana, ben):
        await database_sync_to_async(arena_join)(arena_id=arena.pk, user=user)
        await database_sync_to_async(presence_mark)(arena_id=arena.pk, user_id=user.pk)
    (table_id,) = await database_sync_to_async(arena_pair)(arena_id=arena.pk)
    sock = await arena_socket(ana, arena.pk)
    assert (await frame_of(sock, "paired"))["table_id"] == table_id
    await sock.disconnect()


@pytest.mark.django_db
def test_an_arena_table_page_leads_back_to_the_arena(
    client,
    make_user,
    make_arena,
    joined,
    queued,
    pushes,
    django_capture_on_commit_callbacks,
):
    arena = make_arena()
    ana, _ben = joined(arena, 2)
    with django_capture_on_commit_callbacks(execute=True):
        (table_id,) = arena_pair(arena_id=arena.pk)
    back = f'<a class="button" href="/tournaments/arenas/{arena.pk}/" data-event>'
    client.force_login(ana)
    html = client.get(reverse("table", args=[table_id])).content.decode()
    assert back + "Back to the arena</a>" in html
    # Its players' next game is the arena's: no rematch, no search elsewhere.
    assert "Find another table" not in html and "Offer a rematch" not in html
    assert "Back to the lobby" in html
    # Someone watching it is shown the way to the arena too.
    client.force_login(make_user())
    assert back in client.get(reverse("table", args=[table_id])).content.decode()


@pytest.mark.django_db
def test_only_online_tables_ask_which_event_seated_them(
    make_arena, joined, django_assert_num_queries
):
    arena = make_arena()
    joined(arena, 2)
    (table_id,) = arena_pair(arena_id=arena.pk)
    with django_assert_num_queries(0):
        assert table_event_link(table_id=table_id, mode="practice") is None
    link = table_event_link(table_id=table_id, mode="online")
    assert link is not None and link.url == f"/tournaments/arenas/{arena.pk}/"
    assert table_event_link(table_id=table_id + 1000, mode="online") is None
