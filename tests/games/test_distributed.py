"""Several processes: two daphne servers and a Celery worker on PostgreSQL + Redis.

The two players of one table are connected to different servers and play a hand to
the end; then one server is killed mid-hand and started again, its player reconnects,
and the match finishes with the state intact.
"""

from __future__ import annotations

import asyncio
import json
import os
import random

import pytest
import websockets

from games.models import Table
from games.replay import table_verify
from games.services import seat_join, table_create, table_start
from tests.support import server_env, session_cookie
from tests.support.frames import TableFrames
from tests.support.servers import celery_worker_start, daphne_start

pytestmark = [
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def stack_env() -> dict[str, str]:
    env = server_env()
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


class Remote:
    """A player's browser-like socket to one server, keeping the latest state."""

    def __init__(self, port: int, table_id: int, cookie: str) -> None:
        self.port, self.table_id, self.cookie = port, table_id, cookie
        self.ws = None
        self.frames = TableFrames()
        self.seqs: list[int] = []

    @property
    def state(self) -> dict | None:
        return self.frames.state

    async def connect(self) -> None:
        self.ws = await websockets.connect(
            f"ws://127.0.0.1:{self.port}/ws/tables/{self.table_id}/",
            origin=f"http://127.0.0.1:{self.port}",
            additional_headers={"Cookie": self.cookie},
            open_timeout=10,
        )
        await self.receive()

    async def receive(self, timeout: float = 10) -> dict:
        frame = self.frames.read(
            json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        )
        if frame["type"] == "state":
            self.seqs.append(frame["seq"])
        return frame

    async def pending(self) -> None:
        """Read whatever has arrived."""
        while True:
            try:
                await self.receive(timeout=0.05)
            except TimeoutError:
                return

    async def act(self, action: dict) -> None:
        await self.ws.send(
            json.dumps({"type": "act", "seq": self.state["seq"], "action": action})
        )


async def play(players: list[Remote], rng: random.Random, *, until, limit: int = 2000):
    for _ in range(limit):
        for p in players:
            await p.pending()
        latest = max(p.state["seq"] for p in players)
        top = next(p for p in players if p.state["seq"] == latest)
        if until(top.state):
            return top.state
        mover = next(
            (
                p
                for p in players
                if p.state["seq"] == latest and p.state["view"]["legal"]
            ),
            None,
        )
        if mover is None:
            await players[0].receive(timeout=10)
            continue
        await mover.act(rng.choice(mover.state["view"]["legal"]))
        await mover.receive()
    raise AssertionError("did not get there")


def test_two_servers_a_worker_and_a_crash(make_user, tmp_path):
    ana, ben = make_user("ana"), make_user("ben")
    table = table_create(
        mode="friend",
        variant="draw",
        options={"target": 100},
        host=ana,
        clock_seconds=60,
        hand_pause_seconds=0,
    )
    seat_join(table_id=table.pk, user=ana)
    seat_join(table_id=table.pk, user=ben)
    table_start(table_id=table.pk)
    env = stack_env()
    web_a = daphne_start(env, log=tmp_path / "a.log")
    web_b = daphne_start(env, log=tmp_path / "b.log")
    worker = celery_worker_start(
        env, name=f"dist-{os.getpid()}", log=tmp_path / "w.log"
    )
    try:
        asyncio.run(
            scenario(
                table.pk, session_cookie(ana), session_cookie(ben), web_a, web_b, env
            )
        )
    finally:
        for proc in (web_a, web_b, worker):
            proc.stop()
    table.refresh_from_db()
    table_verify(table=table)


async def scenario(table_id, cookie_a, cookie_b, web_a, web_b, env):
    rng = random.Random(7)
    a = Remote(web_a.port, table_id, cookie_a)
    b = Remote(web_b.port, table_id, cookie_b)
    await a.connect()
    await b.connect()
    assert (a.state["you"], b.state["you"]) == (0, 1)
    # A whole hand across the two servers: every move reaches the other server.
    ended = await play(
        [a, b], rng, until=lambda s: s["view"]["phase"] in {"hand_over", "match_over"}
    )
    assert ended["view"]["hand_result"] is not None
    if ended["view"]["phase"] == "match_over":
        return
    await play(
        [a, b],
        rng,
        until=lambda s: (
            s["view"]["phase"] == "play"
            and s["view"]["hand_no"] == 2
            and len(s["view"]["history"]) >= 3
        ),
    )
    # Crash server A mid-hand; B's player keeps its seat, A's player reconnects.
    seq_before = max(a.state["seq"], b.state["seq"])
    web_a.kill()
    with pytest.raises((websockets.ConnectionClosed, TimeoutError, OSError)):
        for _ in range(3):
            await a.receive(timeout=2)
    restarted = daphne_start(env, port=web_a.port)
    web_a.proc = restarted.proc
    a = Remote(web_a.port, table_id, cookie_a)
    await a.connect()
    await b.pending()
    assert a.state["seq"] == b.state["seq"] >= seq_before
    assert a.state["view"]["hand_no"] == 2
    final = await play([a, b], rng, until=lambda s: s["table"]["status"] != "playing")
    assert final["table"]["status"] == Table.Status.FINISHED
    # Every frame a client saw came in order, none twice.
    for p in (a, b):
        assert p.seqs == sorted(p.seqs)
