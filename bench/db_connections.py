"""PostgreSQL connections one daphne process holds, by ``CONN_MAX_AGE``.

Starts one daphne (``config.serve``) on database ``db_conn_bench`` and Redis
database 12 for each ``CONN_MAX_AGE`` given, opens ``--sockets`` table sockets of as
many players (each at a practice table), has each send ``--frames`` ``sync`` frames,
and samples ``pg_stat_activity`` for the database: the most connections seen during
the load, and those still held ``--idle`` seconds after the sockets closed. Then
plain page loads (``GET /tables/<id>/``, ``--pages`` in parallel) the same way.

Not measured:

* any process but the one daphne: no Celery worker runs (``EMBEDDED_WORKER`` off),
  and the count is every backend on ``db_conn_bench``, this script's own Django
  connection (from making the players) among them;
* moves: the sockets send ``sync`` frames only, no acts, and with no worker the
  computers never move, so a move's writes and tasks are not exercised;
* connections opened and closed between two samples (a ``psql`` query about
  every 0.2 s under the sockets, 0.1 s under the pages): a peak is the most the
  samples saw;
* time: neither what opening a connection costs nor any latency, at either age;
* more than one server process, or PostgreSQL's ``max_connections`` being reached.

    .venv/bin/python bench/db_connections.py --ages 0 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stack import database_ensure, server_env  # noqa: E402

DB_NAME = "db_conn_bench"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
REDIS_URL = "redis://127.0.0.1:6379/12"
HOST = "127.0.0.1"


def held() -> int:
    out = subprocess.run(
        [
            "psql",
            "-h",
            HOST,
            "-U",
            "postgres",
            "-d",
            "postgres",
            "-tAc",
            f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{DB_NAME}'",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(out.stdout.strip())


def players(count: int) -> list[tuple[int, str]]:
    """(table id, session cookie) of ``count`` players, each at a practice table."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    from games.services import table_practice_create

    found = []
    for i in range(count):
        user, _ = User.objects.get_or_create(username=f"dbconn{i}")
        table = table_practice_create(
            user=user, variant="block", bot_levels=["easy"], bot_speed="normal"
        )
        client = Client()
        client.force_login(user)
        name = settings.SESSION_COOKIE_NAME
        found.append((table.pk, f"{name}={client.cookies[name].value}"))
    return found


async def socket_load(port: int, seats: list[tuple[int, str]], frames: int) -> int:
    import websockets

    peak = 0
    stop = asyncio.Event()

    async def sample() -> None:
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, await asyncio.to_thread(held))
            await asyncio.sleep(0.2)

    async def one(index: int, table_id: int, cookie: str) -> None:
        await asyncio.sleep(index * 0.1)  # handshakes spread over a few seconds
        async with websockets.connect(
            f"ws://{HOST}:{port}/ws/tables/{table_id}/",
            origin=f"http://{HOST}:{port}",
            additional_headers={"Cookie": cookie},
        ) as ws:
            await ws.recv()
            for _ in range(frames):
                await ws.send(json.dumps({"type": "sync"}))
                await ws.recv()
                await asyncio.sleep(0.2)

    sampler = asyncio.create_task(sample())
    await asyncio.gather(*(one(i, t, c) for i, (t, c) in enumerate(seats)))
    stop.set()
    await sampler
    return peak


def page_load(port: int, seats: list[tuple[int, str]], parallel: int) -> int:
    def get(seat: tuple[int, str]) -> int:
        request = urllib.request.Request(
            f"http://{HOST}:{port}/tables/{seat[0]}/", headers={"Cookie": seat[1]}
        )
        with urllib.request.urlopen(request, timeout=30) as reply:
            return int(reply.status)

    peak = 0
    with ThreadPoolExecutor(parallel) as pool:
        futures = [pool.submit(get, s) for s in seats * 3]
        while not all(f.done() for f in futures):
            peak = max(peak, held())
            time.sleep(0.1)
        for future in futures:
            future.result()
    return peak


def run(age: int, args: argparse.Namespace, seats: list[tuple[int, str]]) -> None:
    env = server_env(
        database_url=DATABASE_URL,
        redis_url=REDIS_URL,
        CONN_MAX_AGE=str(age),
        DEPLOYMENT_PREFIX=DB_NAME,
        EMBEDDED_WORKER="false",
    )
    port = args.port
    server = subprocess.Popen(
        [sys.executable, "-m", "config.serve", "-b", HOST, "-p", str(port)]
        + ["config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(Path(args.log_dir) / f"daphne-{age}.log").open("w"),
    )
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://{HOST}:{port}/healthz?only=database")
                break
            except OSError:
                time.sleep(0.2)
        before = held()
        peak = asyncio.run(socket_load(port, seats, args.frames))
        time.sleep(args.idle)
        after_sockets = held()
        page_peak = page_load(port, seats, args.pages)
        time.sleep(args.idle)
        after_pages = held()
        print(
            f"CONN_MAX_AGE={age}: idle before {before}; sockets: peak {peak}, "
            f"{args.idle:.0f} s after {after_sockets}; pages: peak {page_peak}, "
            f"{args.idle:.0f} s after {after_pages}"
        )
    finally:
        server.terminate()
        server.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ages", type=int, nargs="+", default=[0, 60])
    parser.add_argument("--sockets", type=int, default=40)
    parser.add_argument("--frames", type=int, default=5)
    parser.add_argument("--pages", type=int, default=20, help="parallel page loads")
    parser.add_argument("--idle", type=float, default=5.0)
    parser.add_argument("--port", type=int, default=18510)
    parser.add_argument("--log-dir", default="/tmp", help="daphne's stderr goes here")
    args = parser.parse_args()
    env = server_env(
        database_url=DATABASE_URL, redis_url=REDIS_URL, DEPLOYMENT_PREFIX=DB_NAME
    )
    database_ensure(DB_NAME, env)
    import os

    os.environ.update(env)
    seats = players(args.sockets)
    for age in args.ages:
        run(age, args, seats)


if __name__ == "__main__":
    main()
