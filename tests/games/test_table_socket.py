"""The table socket end to end: play through WebsocketCommunicator, bad frames,
reconnects. Computer players move through a real worker."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.models import Table, TableEvent
from games.replay import table_verify
from games.services import table_practice_create
from tests.support import session_cookie, tables
from tests.support.frames import TableFrames

pytestmark = pytest.mark.django_db(transaction=True)


async def cookie_for(user) -> bytes:
    return (await database_sync_to_async(session_cookie)(user)).encode()


class Player:
    """A socket client that keeps the latest state frame (patches applied, as the
    page does: ``frames`` holds each as the state it stands for)."""

    def __init__(self, comm: WebsocketCommunicator) -> None:
        self.comm = comm
        self.reader = TableFrames()
        self.errors: list[dict] = []
        self.frames: list[dict] = []
        self.patches = 0

    @property
    def state(self) -> dict | None:
        return self.reader.state

    @classmethod
    async def join(cls, table_id: int, user) -> Player:
        comm = WebsocketCommunicator(
            application,
            f"/ws/tables/{table_id}/",
            headers=[
                (b"origin", b"http://testserver"),
                (b"cookie", await cookie_for(user)),
            ],
        )
        connected, _ = await comm.connect(timeout=10)
        assert connected
        player = cls(comm)
        await player.receive()
        return player

    async def receive(self, timeout: float = 10) -> dict:
        frame = await self.comm.receive_json_from(timeout=timeout)
        self.patches += frame["type"] == "patch"
        frame = self.reader.read(frame)
        self.frames.append(frame)
        if frame["type"] == "error":
            self.errors.append(frame)
        return frame

    async def wait_state(self, seq: int) -> dict:
        """Read frames until a state of at least ``seq`` has arrived."""
        while self.state is None or self.state["seq"] < seq:
            await self.receive()
        return self.state

    async def drain(self) -> None:
        while not await self.comm.receive_nothing(timeout=0.05, interval=0.01):
            await self.receive()

    async def send(self, data) -> None:
        await self.comm.send_to(
            text_data=json.dumps(data) if not isinstance(data, str) else data
        )

    async def act(self, action: dict) -> None:
        await self.send({"type": "act", "seq": self.state["seq"], "action": action})

    async def error(self) -> dict:
        while True:
            frame = await self.receive()
            if frame["type"] == "error":
                return frame


async def play_to_the_end(players: dict[int, Player], rng: random.Random, limit=3000):
    """Each player acts whenever its view offers something; returns the last state."""
    for _ in range(limit):
        for player in players.values():
            await player.drain()
        state = max((p.state for p in players.values()), key=lambda s: s["seq"])
        if state["table"]["status"] != "playing":
            return state
        acted = False
        for player in players.values():
            view = player.state["view"]  # None until a fair table's first deal
            if player.state["seq"] == state["seq"] and view and view["legal"]:
                await player.act(rng.choice(view["legal"]))
                acted = True
                break
        if acted:
            for player in players.values():
                with contextlib.suppress(asyncio.TimeoutError):
                    await player.receive(timeout=5)
        else:
            # Waiting for a computer player: its move arrives through the worker.
            waiter = next(iter(players.values()))
            await waiter.receive(timeout=15)
    raise AssertionError("the match did not end")


async def test_practice_match_against_bots_to_the_end(make_user, celery_worker_running):
    user = await database_sync_to_async(make_user)("solo")
    table = await database_sync_to_async(table_practice_create)(
        user=user,
        variant="block",
        options={"target": 50},
        bot_levels=["medium"],
        bot_speed="instant",
    )
    me = await Player.join(table.pk, user)
    assert me.state["you"] == 0
    assert "hand" in me.state["view"]
    last = await play_to_the_end({0: me}, random.Random(4))
    assert last["table"]["status"] == "finished"
    assert last["view"]["phase"] == "match_over"
    seen = [f["seq"] for f in me.frames if f["type"] == "state"]
    assert seen == sorted(seen)
    assert len(seen) == len(set(seen)) or seen.count(seen[0]) <= 2
    await me.comm.disconnect()
    t = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    await database_sync_to_async(table_verify)(table=t)


async def two_human_table(make_user, mode="friend"):
    return await database_sync_to_async(tables.two_human_table)(
        make_user, mode=mode, target=50
    )


async def test_two_humans_play_to_the_end_with_two_sockets(make_user):
    table, ana, ben = await two_human_table(make_user)
    a, b = await Player.join(table.pk, ana), await Player.join(table.pk, ben)
    assert (a.state["you"], b.state["you"]) == (0, 1)
    last = await play_to_the_end({0: a, 1: b}, random.Random(9))
    assert last["table"]["status"] == "finished"
    assert not a.errors and not b.errors
    # Each seat's frames hold only its own hand; most came as patches.
    for p in (a, b):
        assert all("hand" in f["view"] for f in p.frames if f["type"] == "state")
        assert p.patches > len(p.frames) / 2
    t = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    await database_sync_to_async(table_verify)(table=t)


async def snapshot(table_id):
    def read():
        t = Table.objects.get(pk=table_id)
        return t.seq, t.state, TableEvent.objects.filter(table=t).count()

    return await database_sync_to_async(read)()


async def test_every_bad_input_gets_an_error_and_changes_nothing(make_user):
    # An online table: anyone may watch it (a friend room's only its members).
    table, ana, ben = await two_human_table(make_user, mode="online")
    a, b = await Player.join(table.pk, ana), await Player.join(table.pk, ben)
    watcher = await database_sync_to_async(make_user)("watcher")
    w = await Player.join(table.pk, watcher)
    assert w.state["you"] is None and "hand" not in w.state["view"]
    current = (await snapshot(table.pk))[0]
    for p in (a, b):  # the players' connections were changes too: catch up
        await p.wait_state(current)
    await w.drain()  # the spectator came after them (and numbers its own states)
    mover, idle = (a, b) if a.state["view"]["legal"] else (b, a)
    before = await snapshot(table.pk)
    legal = mover.state["view"]["legal"][0]
    seq = mover.state["seq"]
    hand = mover.state["view"]["hand"]
    cases = [
        (mover, "{broken", "bad_json"),
        (mover, {"type": "dance"}, "unknown_type"),
        (
            mover,
            {"type": "act", "seq": seq, "action": legal, "pad": "x" * 9000},
            "too_large",
        ),
        (mover, {"type": "act", "action": legal}, "bad_frame"),
        (mover, {"type": "act", "seq": seq, "action": "play"}, "bad_frame"),
        (
            idle,
            {"type": "act", "seq": seq, "action": {"type": "draw"}},
            "not_your_turn",
        ),
        (
            mover,
            {"type": "act", "seq": seq, "seat": idle.state["you"], "action": legal},
            "not_your_seat",
        ),
        (
            mover,
            {
                "type": "act",
                "seq": seq,
                "action": {"type": "play", "tile": hand[0], "end": "moon"},
            },
            "illegal",
        ),
        (
            mover,
            {"type": "act", "seq": seq, "action": {"type": "teleport"}},
            "bad_action",
        ),
        # A seq the table never had (one before the last move is refused the same
        # way: tests/games/test_stale_seq.py; one before seat changes only is not).
        (mover, {"type": "act", "seq": seq + 1, "action": legal}, "stale_seq"),
        (w, {"type": "act", "seq": seq, "action": legal}, "not_seated"),
    ]
    for player, frame, code in cases:
        await player.send(frame)
        err = await player.error()
        assert err["code"] == code, (frame, err)
        assert err["message"]
        # A spectator's error carries the number of their socket's last state.
        assert err["seq"] == (w.state["seq"] if player is w else seq)
        if code == "unknown_type":  # no repr of what the client sent
            assert err["message"] == "Unknown frame type."
        assert await snapshot(table.pk) == before
    # Flooding past the rate limit: refused with an error, the socket survives.
    for _ in range(40):
        await idle.send({"type": "dance"})
    codes = []
    for _ in range(40):
        codes.append((await idle.error())["code"])
    assert "rate_limited" in codes
    assert await snapshot(table.pk) == before
    for p in (a, b, w):
        await p.comm.disconnect()


async def test_acting_on_a_finished_table_is_refused(make_user):
    table, ana, ben = await two_human_table(make_user)
    a, b = await Player.join(table.pk, ana), await Player.join(table.pk, ben)
    await play_to_the_end({0: a, 1: b}, random.Random(2))
    before = await snapshot(table.pk)
    await a.send(
        {"type": "act", "seq": a.state["seq"], "action": {"type": "next_hand"}}
    )
    assert (await a.error())["code"] == "not_playing"
    assert await snapshot(table.pk) == before


async def test_reconnect_mid_hand_gets_the_identical_view(make_user):
    table, ana, ben = await two_human_table(make_user)
    a, b = await Player.join(table.pk, ana), await Player.join(table.pk, ben)
    rng = random.Random(1)
    for _ in range(6):  # a few moves into the hand
        mover = a if a.state["view"]["legal"] else b
        seq = mover.state["seq"]
        await mover.act(rng.choice(mover.state["view"]["legal"]))
        await a.wait_state(seq + 1)
        await b.wait_state(seq + 1)
    before = a.state
    await a.comm.disconnect()
    again = await Player.join(table.pk, ana)
    # Back within the grace (a reload): the table did not change.
    assert again.state["seq"] == before["seq"]
    assert again.state["view"] == before["view"]
    assert again.state["seats"][0]["connected"] is True
    # sync gives the same frame again.
    await again.send({"type": "sync"})
    frame = await again.receive()
    while frame["type"] != "state":
        frame = await again.receive()
    assert frame["view"] == before["view"]
    # The other player saw nothing of it.
    await b.drain()
    seen = [f for f in b.frames if f["type"] == "state"]
    assert seen[-1]["seq"] == before["seq"]
    assert all(f["seats"][0]["connected"] for f in seen[-3:])
    await again.comm.disconnect()
    await b.comm.disconnect()


async def test_each_state_after_the_first_is_a_patch_of_the_one_sent_before(
    make_user,
):
    table, ana, ben = await two_human_table(make_user)
    a, b = await Player.join(table.pk, ana), await Player.join(table.pk, ben)
    for p in (a, b):  # the players' connections were changes too: catch up
        await p.wait_state((await snapshot(table.pk))[0])

    async def move_and_read() -> dict:
        """One move by whoever has one; ``a``'s next frame as it came."""
        seq = a.state["seq"]
        await b.wait_state(seq)
        mover = a if a.state["view"]["legal"] else b
        await mover.act(mover.state["view"]["legal"][0])
        raw = await a.comm.receive_json_from(timeout=10)
        await b.wait_state(seq + 1)
        return raw

    async def sync() -> dict:
        await a.send({"type": "sync"})
        return await a.comm.receive_json_from(timeout=10)

    full = a.state
    raw = await move_and_read()
    # Only what changed, on top of the state this socket was sent: shorter.
    assert raw["type"] == "patch"
    assert (raw["base"], raw["seq"]) == (full["seq"], full["seq"] + 1)
    assert len(json.dumps(raw)) < len(json.dumps(full))
    assert "seats" not in raw["changes"] and "you" not in raw["changes"]
    moved = a.reader.read(raw)
    # A sync sends the whole state, the one the patch made (without its events);
    # the next patch builds on the state the sync sent.
    assert await sync() == {**moved, "events": []}
    raw = await move_and_read()
    assert raw["type"] == "patch" and raw["base"] == moved["seq"]
    assert await sync() == {**a.reader.read(raw), "events": []}
    for p in (a, b):
        await p.comm.disconnect()


async def test_anonymous_and_unknown_tables_are_refused(make_user):
    comm = WebsocketCommunicator(
        application, "/ws/tables/1/", headers=[(b"origin", b"http://testserver")]
    )
    connected, _ = await comm.connect(timeout=5)
    assert connected  # accepted, then closed with a code the browser can read
    assert (await comm.receive_output(timeout=5))["code"] == 4401
    user = await database_sync_to_async(make_user)("lost")
    comm = WebsocketCommunicator(
        application,
        "/ws/tables/999999/",
        headers=[
            (b"origin", b"http://testserver"),
            (b"cookie", await cookie_for(user)),
        ],
    )
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert (await comm.receive_output(timeout=5))["code"] == 4404
