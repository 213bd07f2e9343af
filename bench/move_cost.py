"""What one move costs on the wire: SQL statements and round trips, Redis commands,
tasks queued, spectator publishes and frame bytes.

    .venv/bin/python bench/move_cost.py [--moves 100] [--db move_bench]

Starts daphne and one Celery worker on PostgreSQL + Redis (the distributed set-up,
persistent database connections as in production), each reaching PostgreSQL and
Redis through its own ``bench/wire.py`` proxies, so every count is taken on the wire
and charged to the process that sent it. Three tables, one after another, each
played by WebSocket clients after a few unmeasured moves:

* ``player``: two people at an online table without a clock; per move, daphne's
  statements (the socket's ``act``) and the Redis commands of both processes;
* ``computer``: a person and an instant computer player at a practice table; per
  computer move, the worker's statements (the person's moves are the ``player``
  figures again). The servers run with ``GAMES_LOCAL_TICKS=0`` so that a computer's
  move is the worker's alone; a daphne that runs it itself sends the same
  statements and, instead of the task's ``LPUSH`` and ``BRPOP``, nothing;
* ``clocked``: two people at an online table with a 30 s turn clock; per move, as
  ``player``, plus the tasks queued (``LPUSH`` to a Celery queue).

Spectator publishes are ``PUBLISH``es to a ``table.<id>.watch`` group while nobody
watches (no spectator connects here). Frame bytes are the JSON text of each new state
as each player's socket receives it, a ``state`` frame or a ``patch`` of the one
before; "deflated" is each of them as permessage-deflate sends it to a browser
(``config.serve`` negotiates it; computed here with the same window, memory level and
context kept between a socket's frames, as the bench's own clients offer none).

Goals (issue 32): a player's move <= 4 statements, a computer move <= 4, Redis
commands per move (daphne + worker) <= 5, frames <= 1 KB median, 0 spectator
publishes with nobody watching, 0 tasks per human move on a clocked table.

Not measured: time (the proxies add a hop to every round trip; nothing is timed);
beat (not started: the clock sweep's one read a second and the other periodic jobs
are not per move); the sockets' opening and closing, presence sockets and their
renewals; what the worker does for a person's move besides tasks (hand pauses are
zero, so the next hand is a worker task, counted under ``other worker``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.stack import database_ensure, server_env  # noqa: E402
from bench.wire import PgCounts, PgWire, RedisCounts, RedisWire  # noqa: E402
from config.serve import DEFLATE_MEM_LEVEL, DEFLATE_WINDOW_BITS  # noqa: E402

REDIS_DB = 5
PREFIX = "dom_movebench"
WARMUP_MOVES = 4
PACE = 0.12  # seconds between two moves by sockets
GOALS = {
    "player statements": 4,
    "computer statements": 4,
    "redis per move": 5,
    "frame bytes median": 1024,
    "spectator publishes": 0,
    "tasks per clocked move": 0,
}


def _django(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def _cookie(user: Any) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"


def _user(name: str) -> Any:
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(
        username=name, defaults={"email": f"{name}@example.invalid"}
    )
    return user


def _two_people(tag: str, clock: int | None) -> tuple[int, list[Any]]:
    from django.db import close_old_connections

    from games.services import seat_join, table_create, table_start

    close_old_connections()
    users = [_user(f"mc-{tag}-{i}") for i in range(2)]
    table = table_create(
        mode="online",
        variant="draw",
        options={"seats": 2, "target": 250},
        clock_seconds=clock,
        hand_pause_seconds=0,
    )
    for user in users:
        seat_join(table_id=table.pk, user=user)
    table_start(table_id=table.pk)
    return int(table.pk), users


def _person_and_computer() -> tuple[int, list[Any]]:
    from django.db import close_old_connections

    from games.services import table_practice_create

    close_old_connections()
    user = _user("mc-solo")
    table = table_practice_create(
        user=user,
        variant="draw",
        options={"seats": 2, "target": 250},
        bot_levels=["medium"],
        bot_speed="instant",
    )
    return int(table.pk), [user]


def _computer_moves(table_id: int, after_seq: int) -> int:
    from django.db import close_old_connections

    from games.models import TableEvent

    close_old_connections()
    return TableEvent.objects.filter(
        table_id=table_id, seq__gt=after_seq, actor="bot", action__isnull=False
    ).count()


class Player:
    """One person's socket: the latest state and the size of each frame of one."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.latest: dict[str, Any] | None = None
        # (bytes, first frame of a hand, a patch)
        self.sizes: list[tuple[int, bool, bool]] = []
        # Each frame's bytes as permessage-deflate would send them to a browser
        # (``config.serve``'s window and memory, the context kept between frames).
        self.deflated: list[int] = []
        self.deflate = zlib.compressobj(
            zlib.Z_DEFAULT_COMPRESSION,
            zlib.DEFLATED,
            -DEFLATE_WINDOW_BITS,
            DEFLATE_MEM_LEVEL,
        )
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        from games.patches import frame_patched

        async for raw in self.ws:
            frame = json.loads(raw)
            patch = frame.get("type") == "patch"
            if patch:
                assert self.latest is not None, "a patch before any state"
                frame = frame_patched(self.latest, frame)
            elif frame.get("type") != "state":
                continue
            events = [e.get("type") for e in frame.get("events") or []]
            self.sizes.append((len(raw), "hand_started" in events, patch))
            data = raw.encode() if isinstance(raw, str) else raw
            packed = self.deflate.compress(data) + self.deflate.flush(zlib.Z_SYNC_FLUSH)
            self.deflated.append(len(packed) - 4)  # RFC 7692 drops the 4-byte tail
            if self.latest is None or frame["seq"] >= self.latest["seq"]:
                self.latest = frame
            self.changed.set()

    def seq(self) -> int:
        return -1 if self.latest is None else int(self.latest["seq"])

    def legal(self) -> list[dict[str, Any]]:
        view = (self.latest or {}).get("view") or {}
        return list(view.get("legal") or [])

    def over(self) -> bool:
        view = (self.latest or {}).get("view") or {}
        return view.get("phase") == "match_over"


async def _connect(port: int, table_id: int, cookie: str) -> Player:
    from websockets.asyncio.client import connect

    ws = await connect(
        f"ws://127.0.0.1:{port}/ws/tables/{table_id}/",
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        additional_headers={"Cookie": cookie},
        compression=None,
        proxy=None,
        open_timeout=30,
    )
    return Player(ws)


async def _settled(players: list[Player], seq: int, timeout: float = 15) -> None:
    """Wait until every socket has seen a number after ``seq``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while any(p.seq() <= seq for p in players):
        for p in players:
            p.changed.clear()
        if loop.time() > end:
            raise RuntimeError(f"the table stayed at {seq}")
        waiting = [asyncio.create_task(p.changed.wait()) for p in players]
        await asyncio.wait(waiting, timeout=1, return_when=asyncio.FIRST_COMPLETED)
        for task in waiting:
            task.cancel()


async def _play(players: list[Player], moves: int, rng: random.Random) -> int:
    """Make up to ``moves`` moves by the players' sockets; how many were made."""
    made = 0
    idle = 0
    while made < moves:
        if any(p.over() for p in players):
            break
        top = max(p.seq() for p in players)
        actor = next((p for p in players if p.seq() == top and p.legal()), None)
        if actor is None:  # a computer player or a timed job is due
            idle += 1
            if idle > 300:
                raise RuntimeError("nobody could move")
            await asyncio.sleep(0.02)
            continue
        idle = 0
        seq = actor.seq()
        action = rng.choice(actor.legal())
        await actor.ws.send(json.dumps({"type": "act", "seq": seq, "action": action}))
        await _settled(players, seq)
        made += 1
        # Under the socket's rate limit (games.consumers: 10 frames a second).
        await asyncio.sleep(PACE)
    await asyncio.sleep(0.3)  # the frames and tasks of the last move
    return made


class Wires:
    """The four proxies: PostgreSQL and Redis for daphne, and for the worker."""

    def __init__(self) -> None:
        self.pg_daphne = PgWire(port=5432)
        self.pg_worker = PgWire(port=5432)
        self.redis_daphne = RedisWire(port=6379)
        self.redis_worker = RedisWire(port=6379)

    def __enter__(self) -> Wires:
        for wire in self._all():
            wire.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        for wire in self._all():
            wire.__exit__(*exc)

    def _all(self) -> list[Any]:
        return [self.pg_daphne, self.pg_worker, self.redis_daphne, self.redis_worker]

    def snapshot(self) -> tuple[PgCounts, PgCounts, RedisCounts, RedisCounts]:
        return (
            self.pg_daphne.snapshot(),
            self.pg_worker.snapshot(),
            self.redis_daphne.snapshot(),
            self.redis_worker.snapshot(),
        )

    def since(self, before: Any) -> tuple[PgCounts, PgCounts, RedisCounts, RedisCounts]:
        return (
            self.pg_daphne.since(before[0]),
            self.pg_worker.since(before[1]),
            self.redis_daphne.since(before[2]),
            self.redis_worker.since(before[3]),
        )


def _watch_publishes(*counts: RedisCounts) -> int:
    return sum(
        n for c in counts for channel, n in c.published.items() if ".watch" in channel
    )


def _frames(players: list[Player], skip: int) -> tuple[float, float, float, float]:
    """Median bytes of the measured frames of a state, of a hand's first, the share
    of them that were patches, and their median deflated."""
    sizes = [s for p in players for s in p.sizes[skip:]]
    deflated = [n for p in players for n in p.deflated[skip:]]
    every = [n for n, _first, _patch in sizes]
    first = [n for n, is_first, _patch in sizes if is_first]
    patches = sum(patch for _n, _first, patch in sizes)
    return (
        statistics.median(every) if every else 0.0,
        statistics.median(first) if first else 0.0,
        patches / len(sizes) if sizes else 0.0,
        statistics.median(deflated) if deflated else 0.0,
    )


async def _scenario(
    name: str,
    port: int,
    wires: Wires,
    table: tuple[int, list[Any]],
    moves: int,
    rng: random.Random,
) -> dict[str, Any]:
    table_id, users = table
    cookies = [await asyncio.to_thread(_cookie, u) for u in users]
    players = [await _connect(port, table_id, c) for c in cookies]
    await _settled(players, -1)
    await _play(players, WARMUP_MOVES, rng)
    skip = min(len(p.sizes) for p in players)
    start_seq = max(p.seq() for p in players)
    before = wires.snapshot()
    made = await _play(players, moves, rng)
    pg_d, pg_w, r_d, r_w = wires.since(before)
    frame_median, frame_first, patch_share, deflated = _frames(players, skip)
    for p in players:
        await p.ws.close()
    computer = await asyncio.to_thread(_computer_moves, table_id, start_seq)
    return {
        "name": name,
        "moves": made,
        "computer moves": computer,
        "daphne statements": pg_d.statements / made,
        "daphne round trips": pg_d.round_trips / made,
        "worker statements": pg_w.statements / max(computer, 1),
        "worker round trips": pg_w.round_trips / max(computer, 1),
        "worker statements total": pg_w.statements,
        "redis per move": (r_d.total + r_w.total) / (made + computer),
        "redis daphne": r_d.commands,
        "redis worker": r_w.commands,
        "tasks per move": (r_d.commands["LPUSH"] + r_w.commands["LPUSH"]) / made,
        "spectator publishes": _watch_publishes(r_d, r_w),
        "frame median": frame_median,
        "frame deflated": deflated,
        "frame first of hand": frame_first,
        "patch share": patch_share,
        "daphne texts": pg_d.texts,
        "worker texts": pg_w.texts,
    }


def _show(r: dict[str, Any], texts: bool) -> None:
    moves, computer = r["moves"], r["computer moves"]
    print(f"\n{r['name']}: {moves} moves by sockets, {computer} computer")
    print(
        f"  daphne per socket move: {r['daphne statements']:.2f} statements, "
        f"{r['daphne round trips']:.2f} round trips"
    )
    if r["computer moves"]:
        print(
            f"  worker per computer move: {r['worker statements']:.2f} statements, "
            f"{r['worker round trips']:.2f} round trips"
        )
    else:
        print(f"  other worker statements (next hands): {r['worker statements total']}")
    print(f"  Redis commands per move (daphne + worker): {r['redis per move']:.2f}")
    print(f"    daphne: {dict(r['redis daphne'].most_common(8))}")
    print(f"    worker: {dict(r['redis worker'].most_common(8))}")
    print(f"  tasks queued per socket move: {r['tasks per move']:.2f}")
    print(f"  spectator publishes (nobody watching): {r['spectator publishes']}")
    print(
        f"  frame bytes per state: median {r['frame median']:.0f}, "
        f"first of a hand {r['frame first of hand']:.0f} "
        f"({r['patch share']:.0%} patches); deflated median {r['frame deflated']:.0f}"
    )
    if texts:
        for label in ("daphne texts", "worker texts"):
            unique = list(dict.fromkeys(t.split("\n")[0][:110] for t in r[label]))
            print(f"  {label}: " + " | ".join(unique[:12]))


def _verdicts(results: dict[str, dict[str, Any]]) -> None:
    got = {
        "player statements": results["player"]["daphne statements"],
        "computer statements": results["computer"]["worker statements"],
        "redis per move": max(r["redis per move"] for r in results.values()),
        "frame bytes median": results["player"]["frame median"],
        "spectator publishes": sum(r["spectator publishes"] for r in results.values()),
        "tasks per clocked move": results["clocked"]["tasks per move"],
    }
    print("\nper move            measured   goal")
    for key, goal in GOALS.items():
        mark = "met" if got[key] <= goal else "NOT met"
        print(f"  {key:<24}{got[key]:>9.2f}   <= {goal}  {mark}")


async def _run(args: argparse.Namespace, port: int, wires: Wires) -> None:
    rng = random.Random(args.seed)
    results = {}
    for name, make in (
        ("player", lambda: _two_people("p", None)),
        ("computer", _person_and_computer),
        ("clocked", lambda: _two_people("c", 30)),
    ):
        table = await asyncio.to_thread(make)
        results[name] = await _scenario(name, port, wires, table, args.moves, rng)
        _show(results[name], args.show)
    _verdicts(results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--db", default="move_bench")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", action="store_true", help="print the statements")
    args = parser.parse_args()
    from tests.support.servers import celery_worker_start, daphne_start

    redis = f"redis://127.0.0.1:6379/{REDIS_DB}"
    direct = f"postgres://postgres@127.0.0.1:5432/{args.db}"
    env = server_env(
        database_url=direct,
        redis_url=redis,
        DEPLOYMENT_PREFIX=PREFIX,
        CONN_MAX_AGE="60",
        # A computer's move on the worker, where its statements are its own: a
        # daphne running it (games.local_ticks) runs the same task body, with the
        # same statements, on the connection its players' moves use.
        GAMES_LOCAL_TICKS="0",
    )
    database_ensure(args.db, env)
    _django(env)
    logs = Path(tempfile.mkdtemp(prefix="move-cost-"))
    with Wires() as wires:

        def through(pg: PgWire, r: RedisWire) -> dict[str, str]:
            return {
                **env,
                "DATABASE_URL": f"postgres://postgres@127.0.0.1:{pg.port}/{args.db}"
                "?sslmode=disable&gssencmode=disable",
                "REDIS_URL": f"redis://127.0.0.1:{r.port}/{REDIS_DB}",
            }

        daphne = daphne_start(
            through(wires.pg_daphne, wires.redis_daphne), log=logs / "daphne.log"
        )
        worker = celery_worker_start(
            through(wires.pg_worker, wires.redis_worker),
            name="movecost",
            concurrency=1,
            log=logs / "worker.log",
        )
        try:
            asyncio.run(_run(args, daphne.port, wires))
        finally:
            worker.stop()
            daphne.stop()
    print(f"\n(server logs: {logs})")


if __name__ == "__main__":
    main()
