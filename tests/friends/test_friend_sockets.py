"""Over real sockets: a friend coming online or going offline reaches a player's
pages; a stranger's does not. Two players asking each other at once, on
PostgreSQL, end as friends exactly once."""

from __future__ import annotations

import threading

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from friends import services
from friends.errors import FriendError
from friends.models import FriendRequest, Friendship
from tests.accounts.test_presence import make, next_count, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


async def frames_until(comm, wanted, limit=10):
    seen = []
    for _ in range(limit):
        frame = await comm.receive_json_from(timeout=5)
        seen.append(frame)
        if frame.get("type") == wanted:
            return frame
    raise AssertionError(f"no {wanted} frame: {seen}")


async def test_friends_see_each_other_come_and_go_strangers_do_not(make_user):
    ana, ben, cy = [await make(make_user, n) for n in ("ana", "ben", "cy")]

    def befriend():
        asked = services.friend_request_send(sender=ana, username="ben")
        services.friend_request_accept(request_id=asked.pk, user=ben)

    await database_sync_to_async(befriend)()
    page, ok = await open_socket(ana)
    assert ok
    await next_count(page)
    stranger, ok = await open_socket(cy)
    assert ok
    friend, ok = await open_socket(ben)
    assert ok
    frame = await frames_until(page, "friend")
    assert frame == {"type": "friend", "name": "ben", "online": True}
    await friend.disconnect()
    frame = await frames_until(page, "friend")
    assert frame == {"type": "friend", "name": "ben", "online": False}
    # Cy is online all along: no frame ever named her.
    await stranger.disconnect()
    while not await page.receive_nothing(timeout=0.5):
        assert (await page.receive_json_from()).get("name") != "cy"
    await page.disconnect()


@pytest.mark.services
def test_two_players_asking_each_other_at_once_become_friends_once(make_user):
    for round_ in range(5):
        ana, ben = make_user(f"ana{round_}"), make_user(f"ben{round_}")
        barrier = threading.Barrier(2)
        outcome: list[str] = []

        def ask(sender, name, barrier=barrier, outcome=outcome):
            try:
                barrier.wait(timeout=10)
                made = services.friend_request_send(sender=sender, username=name)
                outcome.append(type(made).__name__)
            except FriendError as err:
                outcome.append(err.code)
            finally:
                connection.close()

        threads = [
            threading.Thread(target=ask, args=(ana, ben.username)),
            threading.Thread(target=ask, args=(ben, ana.username)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert sorted(outcome) == ["FriendRequest", "Friendship"], outcome
        assert Friendship.objects.filter(low=min(ana.pk, ben.pk)).count() == 1
        assert not FriendRequest.objects.filter(
            sender__in=(ana, ben), status="pending"
        ).exists()


@pytest.mark.services
def test_an_accept_racing_a_withdrawal_ends_in_one_state(make_user):
    for round_ in range(5):
        ana, ben = make_user(f"ana{round_}"), make_user(f"ben{round_}")
        asked = services.friend_request_send(sender=ana, username=ben.username)
        barrier = threading.Barrier(2)
        outcome: dict[str, str] = {}

        def run(name, fn, barrier=barrier, outcome=outcome, asked=asked, **kwargs):
            try:
                barrier.wait(timeout=10)
                fn(request_id=asked.pk, **kwargs)
                outcome[name] = "done"
            except FriendError as err:
                outcome[name] = err.code
            finally:
                connection.close()

        threads = [
            threading.Thread(
                target=run,
                args=("accept", services.friend_request_accept),
                kwargs={"user": ben},
            ),
            threading.Thread(
                target=run,
                args=("cancel", services.friend_request_cancel),
                kwargs={"user": ana},
            ),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert sorted(outcome.values()) == ["done", "gone"], outcome
        asked.refresh_from_db()
        friends = Friendship.objects.filter(low=min(ana.pk, ben.pk)).exists()
        assert friends == (outcome["accept"] == "done")
        assert asked.status == ("accepted" if friends else "cancelled")


async def test_a_phrase_said_over_the_presence_socket_reaches_the_table(make_user):
    from games.models import Table
    from tests.support.tables import two_human_table

    table, ana, ben = await database_sync_to_async(two_human_table)(
        make_user, mode=Table.Mode.ONLINE
    )
    ana_page, ok = await open_socket(ana)
    assert ok
    ben_page, ok = await open_socket(ben)
    assert ok
    # The count comes once Ben's socket has joined his group: a chat sent before
    # would find nobody to reach.
    await frames_until(ben_page, "online")
    await ana_page.send_json_to(
        {"type": "chat", "table": table.pk, "phrase": "good_luck"}
    )
    frame = await frames_until(ben_page, "chat")
    assert frame == {
        "type": "chat",
        "table": table.pk,
        "from": "ana",
        "phrase": "good_luck",
    }
    # A bad one is answered on the sender's socket alone, in words.
    await ana_page.send_json_to({"type": "chat", "table": table.pk, "phrase": "spam"})
    error = await frames_until(ana_page, "error")
    assert error["code"] == "bad_phrase" and "phrase" in error["message"]
    await ana_page.disconnect()
    await ben_page.disconnect()
