"""The fair deal over real table sockets: the seeds go in as ``seed`` frames, are
shown to every seat, and no chain top or server seed ever reaches a client; a bad
seed gets an error frame and changes nothing."""

from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.engine import fair
from games.models import Table
from games.replay import table_verify
from games.services import table_practice_create
from tests.games.fairness import top_of
from tests.games.test_table_socket import Player, play_to_the_end, snapshot
from tests.support import tables

pytestmark = pytest.mark.django_db(transaction=True)


def fair_json(table_id: int, user) -> dict:
    client = Client()
    client.force_login(user)
    response = client.get(f"/tables/{table_id}/fair.json")
    assert response.status_code == 200
    return response.json()


async def test_two_people_seed_play_and_never_see_a_server_seed_early(
    make_user, fair_deals
):
    table, ana, ben = await database_sync_to_async(tables.two_human_table)(
        make_user, mode="online", target=50
    )
    eve = await database_sync_to_async(make_user)("eve")
    a, b = await Player.join(table.pk, ana), await Player.join(table.pk, ben)
    spectator = await Player.join(table.pk, eve)
    assert a.state["view"] is None and a.state["table"]["fair"]["seeding"]

    # A spectator's seed, a seed for another seat, a bad seed: refused, no change.
    before = await snapshot(table.pk)
    await spectator.send({"type": "seed", "seed": "eve"})
    assert (await spectator.error())["code"] == "not_seated"
    await a.send({"type": "seed", "seed": "ana", "seat": 1})
    assert (await a.error())["code"] == "not_your_seat"
    await a.send({"type": "seed", "seed": "x" * 65})
    assert (await a.error())["code"] == "bad_seed"
    await a.send({"type": "seed", "seed": "caf\u00e9"})
    assert (await a.error())["code"] == "bad_seed"
    await a.send({"type": "seed", "seed": 42})
    assert (await a.error())["code"] == "bad_frame"
    assert await snapshot(table.pk) == before

    await a.send({"type": "seed", "seed": "ana's seed"})
    shown = await b.wait_state(before[0] + 1)
    assert shown["table"]["fair"]["seeds"] == ["ana's seed", None]
    await b.send({"type": "seed", "seed": "ben's seed", "seat": 1})
    dealt = await a.wait_state(before[0] + 2)
    assert dealt["view"]["hand_no"] == 1
    assert dealt["table"]["fair"]["seeds"] == ["ana's seed", "ben's seed"]
    assert not dealt["table"]["fair"]["seeding"]

    await a.send({"type": "seed", "seed": "too late"})
    assert (await a.error())["code"] == "seeds_fixed"

    mid = await database_sync_to_async(fair_json)(table.pk, eve)
    assert mid["hands"][0]["server_seed"] is None

    last = await play_to_the_end({0: a, 1: b}, random.Random(21))
    assert last["table"]["status"] == "finished"
    await spectator.drain()

    secrets = fair_deals.secrets(hands=40)
    for player in (a, b, spectator):
        for frame in player.frames:
            text = json.dumps(frame)
            leaked = [s for s in secrets if s in text]
            assert not leaked, f"a frame carried a secret: {frame}"
    t = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    await database_sync_to_async(table_verify)(table=t)
    end = await database_sync_to_async(fair_json)(table.pk, eve)
    assert end["hands"][0]["server_seed"] == fair.chain_link(top_of(0), 1).hex()
    assert all(h["server_seed"] for h in end["hands"])
    for player in (a, b, spectator):
        await player.comm.disconnect()


async def test_a_practice_table_deals_on_the_players_seed_and_bots_finish_it(
    make_user, fair_deals, celery_worker_running
):
    """Every frame up to the end of each hand hides that hand's server seed; the
    computer players move through a real worker."""
    user = await database_sync_to_async(make_user)("solo")
    table = await database_sync_to_async(table_practice_create)(
        user=user,
        variant="block",
        options={"target": 50},
        bot_levels=["medium"],
        bot_speed="instant",
    )
    player = await Player.join(table.pk, user)
    assert player.state["table"]["fair"]["commitments"] == [
        fair.chain_link(top_of(0), 0).hex()
    ]
    await player.send({"type": "seed", "seed": "solo"})
    last = await play_to_the_end({0: player}, random.Random(4))
    assert last["table"]["status"] == "finished"
    secrets = fair_deals.secrets(hands=40)
    for frame in player.frames:
        text = json.dumps(frame)
        assert not [s for s in secrets if s in text]
    await player.comm.disconnect()
