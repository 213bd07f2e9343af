"""Frame fuzzer: malformed frames over real table sockets, and what they did.

Starts a private ``redis-server`` on a spare port and one daphne (``config.serve``)
on PostgreSQL ``ops_chaos``, seats two players at tables of their own (no clock, so
nothing changes a table but a frame) and opens ``--connections`` sockets as those
players and as spectators. Sends ``--frames`` malformed frames in all (bad JSON,
deep nesting, binary, oversize, wrong types, unknown types, acts with a stale or
absurd ``seq``, a wrong seat or a garbage action), paced under the per-connection
rate limit, and counts:

* tracebacks in the daphne log (target 0);
* tables whose ``seq`` or state changed (every frame is refused: target 0);
* answers by error code (``state``: a padded ``sync``, answered with the state),
  and sockets the server closed (with their close codes);
* sockets still usable at the end (a ``sync`` answered with the state).

Stops by itself; ends the processes it started.

Not measured:

* time or CPU: nothing is timed;
* the rate limiter: the frames are paced under it, no socket floods;
* malformed frames amid play: no valid move is sent, and no clock, computer or
  Celery worker (none runs) changes a table meanwhile;
* kinds of bad input beyond ``malformed``'s, or at the handshake (bad origins,
  cookies or paths): every socket opens normally;
* effects beyond the tables' ``seq`` and ``state`` and daphne's log (other rows,
  Redis, errors logged without a traceback).

    .venv/bin/python bench/ws_fuzz.py
    .venv/bin/python bench/ws_fuzz.py --frames 2000 --connections 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.chaos import (  # noqa: E402
    HOST,
    cookie_for,
    database_ensure,
    django_setup,
    stack_env,
    users_ensure,
)
from tests.ops.redis_server import RedisServer  # noqa: E402
from tests.support.servers import daphne_start  # noqa: E402

# Under games.consumers' rate limit (10 frames a second, burst 20): the frames test
# parsing and the handlers, not the limiter.
FRAMES_PER_SECOND = 8


def _nested(depth: int) -> str:
    return '{"type": "act", "seq": 1, "action": ' + "[" * depth + "]" * depth + "}"


def malformed(rng: random.Random) -> str | bytes:
    """One frame no server may accept (never a valid act with the current seq)."""
    junk: list[Any] = [None, True, 3.5, "x", [], {}, -1, 10**30, "\u0000", [1, [2]]]
    kinds: list[Any] = [
        lambda: rng.randbytes(rng.randint(1, 300)),
        lambda: "{" + "".join(rng.choice('{}[]":,x1 ') for _ in range(40)),
        lambda: _nested(rng.choice([40, 200, 1000, 5000])),
        lambda: json.dumps(rng.choice(junk)),
        lambda: json.dumps({"type": rng.choice(junk)}),
        lambda: json.dumps({"type": "x" * rng.randint(1, 500)}),
        lambda: json.dumps({"no": "type"}),
        lambda: json.dumps({"type": "act"}),
        lambda: json.dumps({"type": "act", "seq": rng.choice(junk), "action": {}}),
        lambda: json.dumps(
            {"type": "act", "seq": rng.choice([-7, 10**12]), "action": {"type": "pass"}}
        ),
        lambda: json.dumps(
            {"type": "act", "seq": -1, "action": rng.choice(junk), "seat": 9}
        ),
        lambda: json.dumps(
            {"type": "act", "seq": -1, "action": {"type": "play", "tile": junk}}
        ),
        lambda: json.dumps({"type": "sync", "pad": "y" * rng.choice([10, 20000])}),
        lambda: '{"type": "act", "seq": 1, "action": {"type": "\\ud800"}}',
        lambda: "\ufeff" + json.dumps({"type": "act", "seq": -1, "action": {}}),
    ]
    frame: str | bytes = rng.choice(kinds)()
    return frame


def tables_make(users: list[Any]) -> list[int]:
    from games.services import seat_join, table_create, table_start

    ids = []
    for a, b in zip(users[0::2], users[1::2], strict=True):
        table = table_create(
            mode="friend", variant="draw", options={}, host=a, clock_seconds=None
        )
        seat_join(table_id=table.pk, user=a)
        seat_join(table_id=table.pk, user=b)
        table_start(table_id=table.pk)
        ids.append(table.pk)
    return ids


def tables_snapshot(table_ids: list[int]) -> dict[int, tuple[int, str]]:
    from django.db import close_old_connections

    from games.models import Table

    close_old_connections()
    rows = Table.objects.filter(pk__in=table_ids).values_list("pk", "seq", "state")
    return {pk: (seq, json.dumps(state, sort_keys=True)) for pk, seq, state in rows}


def tables_retire(table_ids: list[int]) -> None:
    from games.models import Table
    from games.services import table_cancel

    playing = Table.objects.filter(pk__in=table_ids, status=Table.Status.PLAYING)
    for table_id in playing.values_list("pk", flat=True):
        table_cancel(table_id=table_id, reason="staff")


@dataclass
class Tally:
    sent: int = 0
    codes: Counter[str] = field(default_factory=Counter)
    closes: Counter[str] = field(default_factory=Counter)
    usable: int = 0


@dataclass
class Phases:
    """Every socket open (a seat's ``connected`` flag is a table change), then every
    socket done: the tables are read at these two moments."""

    barrier: asyncio.Barrier
    read: asyncio.Event = field(default_factory=asyncio.Event)


async def fuzz_one(
    port: int,
    table_id: int,
    cookie: str,
    frames: int,
    seed: int,
    tally: Tally,
    phases: Phases,
) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    rng = random.Random(seed)

    async def open_socket() -> Any:
        ws = await connect(
            f"ws://{HOST}:{port}/ws/tables/{table_id}/",
            origin=f"http://{HOST}:{port}",  # type: ignore[arg-type]
            additional_headers={"Cookie": cookie},
            proxy=None,
            open_timeout=20,
            max_size=2**22,
        )
        await _until(ws, "state")
        return ws

    ws = await open_socket()
    await phases.barrier.wait()
    for _ in range(frames):
        try:
            await ws.send(malformed(rng))
            tally.sent += 1
            answer = await _until(ws, "error", "state")
            code = answer.get("code") if answer["type"] == "error" else "state"
            tally.codes[str(code)] += 1
        except ConnectionClosed as closed:
            tally.closes[
                str(closed.rcvd.code if closed.rcvd else "no close frame")
            ] += 1
            ws = await open_socket()
        except TimeoutError:
            tally.codes["no answer"] += 1
        await asyncio.sleep(1 / FRAMES_PER_SECOND)
    try:
        await ws.send(json.dumps({"type": "sync"}))
        await _until(ws, "state")
        tally.usable += 1
    except (ConnectionClosed, TimeoutError):
        pass
    await phases.barrier.wait()
    await phases.read.wait()
    await ws.close()


async def _until(ws: Any, *kinds: str) -> dict[str, Any]:
    async with asyncio.timeout(10):
        while True:
            frame = json.loads(await ws.recv())
            if frame.get("type") in kinds:
                return dict(frame)


async def main_async(args: argparse.Namespace, port: int) -> Tally:
    users = await asyncio.to_thread(users_ensure, 2 * args.tables)
    table_ids = await asyncio.to_thread(tables_make, users)
    # Seated players and spectators (a user seated at another table watches).
    sockets = []
    for i in range(args.connections):
        table_id = table_ids[i % len(table_ids)]
        user = users[(i * 3) % len(users)]
        sockets.append((table_id, await asyncio.to_thread(cookie_for, user)))
    tally = Tally()
    per = args.frames // args.connections
    phases = Phases(asyncio.Barrier(len(sockets) + 1))
    clients = asyncio.gather(
        *(
            fuzz_one(port, t, c, per, seed, tally, phases)
            for seed, (t, c) in enumerate(sockets)
        )
    )
    await phases.barrier.wait()
    before = await asyncio.to_thread(tables_snapshot, table_ids)
    await phases.barrier.wait()
    after = await asyncio.to_thread(tables_snapshot, table_ids)
    phases.read.set()
    await clients
    changed = sum(1 for t in table_ids if before[t] != after[t])
    await asyncio.to_thread(tables_retire, table_ids)
    tally.codes["__changed_tables"] = changed
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--frames", type=int, default=10_000)
    parser.add_argument("--connections", type=int, default=40)
    parser.add_argument("--tables", type=int, default=4)
    args = parser.parse_args()
    logs = Path(tempfile.mkdtemp(prefix="ws-fuzz-"))
    redis = RedisServer(logs)
    redis.start()
    env = stack_env(redis.url)
    daphne = None
    try:
        database_ensure(env)
        daphne = daphne_start(env, log=logs / "daphne.log")
        django_setup(env)
        assert daphne.port is not None
        tally = asyncio.run(main_async(args, daphne.port))
    finally:
        if daphne is not None:
            daphne.stop()
        redis.kill()
    changed = tally.codes.pop("__changed_tables")
    tracebacks = (logs / "daphne.log").read_text(errors="replace").count("Traceback")
    print(f"frames sent: {tally.sent} over {args.connections} sockets")
    print(f"tracebacks in the server log: {tracebacks} (target 0)")
    print(f"tables changed by refused frames: {changed} (target 0)")
    print(
        "answers by code: "
        + ", ".join(f"{k} {v}" for k, v in tally.codes.most_common())
    )
    print(
        "closed by the server: "
        + (", ".join(f"{k} x{v}" for k, v in tally.closes.items()) or "none")
    )
    print(f"sockets usable at the end: {tally.usable}/{args.connections}")
    print(f"logs: {logs}")
    sys.exit(0 if tracebacks == 0 and changed == 0 else 1)


if __name__ == "__main__":
    main()
