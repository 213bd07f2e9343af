"""Open tables over /ws/lobby/: listed live to other lobbies, gone when taken or
cancelled, both players seated; refusals answered with an error frame."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from matchmaking.models import Seek
from tests.matchmaking.pools.test_lobby_socket import lobby, until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_broker(queued, no_wave_tasks):
    """Timed jobs of the tables and extra waves are recorded, not queued."""


async def test_a_seek_is_listed_live_and_taken_with_one_frame(make_user):
    ana = await database_sync_to_async(make_user)("ana")
    ben = await database_sync_to_async(make_user)("ben")
    a, b = await lobby(ana), await lobby(ben)
    assert (await until(a, "state"))["seeks"] == []
    await until(b, "state")
    await a.send_json_to(
        {"type": "seek_open", "pool": "draw-2", "speed": "fast", "rated": False}
    )
    mine = await until(a, "state")
    assert [s["mine"] for s in mine["seeks"]] == [True]
    listed = (await until(b, "seeks"))["seeks"]
    assert len(listed) == 1 and listed[0]["players"][0]["name"] == "ana"
    assert listed[0]["rated"] is False and listed[0]["speed"] == "fast"
    seek_id = listed[0]["id"]
    await b.send_json_to({"type": "seek_join", "seek": seek_id})
    seated_a = await until(a, "seated")
    seated_b = await until(b, "seated")
    assert seated_a["table"] == seated_b["table"]
    assert seated_a["url"] == f"/tables/{seated_a['table']}/"
    seek = await database_sync_to_async(Seek.objects.get)(pk=seek_id)
    assert seek.status == "started" and seek.table_id == seated_a["table"]
    await a.disconnect()
    await b.disconnect()


async def test_a_cancelled_seek_leaves_the_other_lobby(make_user):
    ana = await database_sync_to_async(make_user)("ana")
    ben = await database_sync_to_async(make_user)("ben")
    a, b = await lobby(ana), await lobby(ben)
    await until(a, "state")
    await until(b, "state")
    await a.send_json_to({"type": "seek_open", "pool": "draw-4p"})
    await until(a, "state")
    assert len((await until(b, "seeks"))["seeks"]) == 1
    await a.send_json_to({"type": "seek_cancel"})
    assert (await until(a, "state"))["seeks"] == []
    assert (await until(b, "seeks"))["seeks"] == []
    # A refused frame: an error in words, and nothing else happens.
    await b.send_json_to({"type": "seek_cancel"})
    error = await until(b, "error")
    assert error["code"] == "no_seek" and error["message"]
    await b.send_json_to({"type": "seek_open", "pool": "draw-2", "speed": "warp"})
    assert (await until(b, "error"))["code"] == "unknown_speed"
    await a.disconnect()
    await b.disconnect()
