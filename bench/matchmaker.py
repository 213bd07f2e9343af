"""Matchmaker benchmark (a benchmark, not a test: run by hand).

The matching of one wave over 10,000 waiting players of one pool, on PostgreSQL:

    psql -h 127.0.0.1 -U postgres -c 'create database mm_bench'
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mm_bench \\
        .venv/bin/python bench/matchmaker.py wave [--players 10000] [--rounds 5]

A wave reads the pool's waiting searches and the blocks among them once and groups
them all into tables; it prints the median of each part. The seating of those
tables is ``drain``'s (below).

"Find a table" to the table page, two clients against a real server (daphne on the
embedded default, its in-process worker running the beat's waves):

    .venv/bin/python bench/matchmaker.py latency [--rounds 10] [--port N]

prints the median and spread, per client, from sending ``search`` on ``/ws/lobby/`` to
the table page's HTTP response. Target: p50 <= the wave interval + 300 ms.

A drain of a big pool (issue 32), on PostgreSQL or, without ``DATABASE_URL``, on the
embedded default's SQLite (a file in a temporary folder):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mm_bench \\
        nice .venv/bin/python bench/matchmaker.py drain [--players 10000] \\
        [--rounds 3] [--pools draw-2,draw-4p] [--batch N]

``--players`` searches wait in the pool (ratings ~ N(1500, 250), waits 0-10 s), then
waves run exactly as the deployment chains them: ``wave_run`` of the pool (what the
chained task ``matchmaking.pool_wave`` calls), and again for every wave it queues
(``_wave_soon``, here a list instead of the broker), until none is queued. It prints
the time from the first wave's start to the last one's end (the time the last player
waits for a table; median of ``--rounds``), the waves, tables and players seated,
the players left waiting (nobody within their rating gap), each wave's time and
tables, and each seating batch's transaction (its time is how long it holds the
write lock: the whole database on SQLite). ``--batch`` overrides
``MATCHMAKING_SEAT_BATCH_TABLES``. On PostgreSQL a first drain, untimed, is counted on
the wire (``bench/wire.py``: every statement, BEGIN, COMMIT and SAVEPOINTs
included).

Not measured: the queue hop between chained waves (a broker round trip and a
worker picking the task up, per wave), the channel-layer sends (the lobby's
"seated" and counts frames and the new tables' first frames are built and
serialised, then dropped), the tables' timed jobs, and other traffic on the
database meanwhile. Between rounds the searches and tables are deleted and
vacuumed, untimed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.wire import django_wired  # noqa: E402


def _setup(env: dict[str, str] | None = None) -> None:
    os.environ.update(env or {})
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)


def _users(n: int, prefix: str) -> list[int]:
    from django.contrib.auth import get_user_model

    User = get_user_model()
    User.objects.bulk_create(
        [User(username=f"{prefix}{i}", password="!") for i in range(n)],
        batch_size=2000,
        ignore_conflicts=True,
    )
    names = [f"{prefix}{i}" for i in range(n)]
    return list(User.objects.filter(username__in=names).values_list("pk", flat=True))


def _fill(user_ids: list[int], pool: str, rng: random.Random) -> None:
    from django.utils import timezone

    from games.models import Table
    from matchmaking.models import Search

    Search.objects.all().delete()
    Table.objects.filter(mode="online").delete()
    now = timezone.now()
    Search.objects.bulk_create(
        [
            Search(
                user_id=uid,
                pool=pool,
                rating=rng.gauss(1500, 250),
                started_at=now - timedelta(seconds=rng.uniform(0, 10)),
                seen_at=now,
            )
            for uid in user_ids
        ],
        batch_size=2000,
    )


def _analyze() -> None:
    """Fresh statistics for the refilled table, as autovacuum keeps them live."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE matchmaking_search")


def _ms(times: list[float]) -> str:
    return f"{statistics.median(times) * 1000:.1f} ms"


def bench_wave(players: int, rounds: int) -> None:
    _setup()
    from django.conf import settings
    from django.utils import timezone

    from matchmaking.pools import services
    from matchmaking.pools.config import gap_setting
    from matchmaking.pools.waves import wave_groups

    assert settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
    rng = random.Random(20)
    user_ids = _users(players, "mmbench")
    reads, blocks, groupings, matchings = [], [], [], []
    for _ in range(rounds):
        _fill(user_ids, "draw-2", rng)
        _analyze()
        now = timezone.now()
        t0 = time.perf_counter()
        waiting = services._waiting("draw-2", now)
        t1 = time.perf_counter()
        blocked = services._blocked_pairs("draw-2")
        t2 = time.perf_counter()
        groups = wave_groups(waiting, seats=2, gap=gap_setting(), blocked=blocked)
        t3 = time.perf_counter()
        reads.append(t1 - t0)
        blocks.append(t2 - t1)
        groupings.append(t3 - t2)
        matchings.append(t3 - t0)
    print(
        f"the matching of one wave of pool draw-2 over {players} waiting players "
        f"({len(groups)} tables), PostgreSQL, median of {rounds}: "
        f"{_ms(matchings)} (read the searches {_ms(reads)}, the blocks "
        f"{_ms(blocks)}, group them all {_ms(groupings)})"
    )


def _vacuum() -> None:
    """Drop the dead rows of the round before (PostgreSQL), as autovacuum would."""
    from django.db import connection

    from games.models import Seat, Table, TableEvent
    from matchmaking.models import Search

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in (Search, Table, Seat, TableEvent):
            cursor.execute(f"VACUUM ANALYZE {model._meta.db_table}")


@dataclass
class _Drain:
    """One drain: its total time, and per wave and per seating batch."""

    seconds: float = 0.0
    waves: list[tuple[float, int]] = field(default_factory=list)  # time, tables
    batches: list[tuple[float, int]] = field(default_factory=list)  # time, tables
    seated: int = 0
    left: int = 0


def _drain_once(pool: str, queued: list[str], drain: _Drain) -> None:
    """Waves of ``pool`` as the deployment chains them, until none is queued."""
    from matchmaking.models import Search
    from matchmaking.pools import services

    queued.clear()
    start = time.perf_counter()
    pending = [pool]
    while pending:
        pending.pop(0)
        t0 = time.perf_counter()
        result = services.wave_run(pool_key=pool)
        drain.waves.append((time.perf_counter() - t0, len(result.tables)))
        drain.seated += len(result.seated)
        pending.extend(queued)
        queued.clear()
    drain.seconds = time.perf_counter() - start
    drain.left = Search.objects.filter(pool=pool, status="waiting").count()


def _batches_timed(drains: list[_Drain]) -> None:
    """Record each seating batch's transaction: from its call to its commit (the
    after-commit sends it then runs are not in it)."""
    from django.db import connections

    from matchmaking.pools import services

    batch_seat = getattr(services, "_batch_seat", None)
    if batch_seat is None:  # waves that seat in their own transaction
        return
    conn = connections["default"]
    run_hooks = conn.run_and_clear_commit_hooks
    committed: list[float] = []

    def hooks() -> None:
        committed.append(time.perf_counter())
        run_hooks()

    def timed(*args: object, **kwargs: object) -> object:
        committed.clear()
        t0 = time.perf_counter()
        out = batch_seat(*args, **kwargs)
        end = committed[0] if committed else time.perf_counter()
        drains[-1].batches.append((end - t0, len(args[1])))  # type: ignore[arg-type]
        return out

    conn.run_and_clear_commit_hooks = hooks
    services._batch_seat = timed


def _figures(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    return f"median {statistics.median(ms):.1f} ms, max {ms[-1]:.1f}" if ms else "none"


def bench_drain(players: int, rounds: int, pools: list[str], batch: int) -> None:
    env = {}
    if not os.environ.get("DATABASE_URL"):
        env["SQLITE_PATH"] = str(Path(tempfile.mkdtemp(prefix="mm-drain-")) / "db")
    _setup(env)
    from django.conf import settings
    from django.db import connection

    from games.services import transitions
    from matchmaking.pools import services
    from realtime import outbox

    # The after-commit sends are built and serialised, then dropped (no layer).
    transitions.tick_job = lambda tid, seq, deadline, **kw: None
    outbox._group_send = lambda messages: None
    queued: list[str] = []
    services._wave_soon = queued.append
    if batch:
        settings.MATCHMAKING_SEAT_BATCH_TABLES = batch
    drains: list[_Drain] = []
    _batches_timed(drains)
    rng = random.Random(32)
    user_ids = _users(players, "drain")
    vendor = connection.vendor
    load = os.getloadavg()
    print(
        f"drain of {players} waiting players, {vendor}, load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, seating batch "
        f"{getattr(settings, 'MATCHMAKING_SEAT_BATCH_TABLES', '-')} tables"
    )
    for pool in pools:
        statements = None
        if vendor == "postgresql":
            _fill(user_ids, pool, rng)
            _vacuum()
            counted = _Drain()
            drains.append(counted)
            with django_wired() as pg:  # a first drain, untimed, counted
                before = pg.snapshot()
                _drain_once(pool, queued, counted)
                statements = pg.since(before).statements
        runs = []
        for _ in range(rounds):
            _fill(user_ids, pool, rng)
            _vacuum()
            runs.append(_Drain())
            drains.append(runs[-1])
            _drain_once(pool, queued, runs[-1])
        total = [r.seconds for r in runs]
        last = runs[-1]
        print(
            f"pool {pool}: all seated in {statistics.median(total):.2f} s "
            f"(median of {rounds}; min {min(total):.2f}, max {max(total):.2f}); "
            f"{len(last.waves)} waves, {sum(t for _, t in last.waves)} tables, "
            f"{last.seated} players seated, {last.left} left waiting"
        )
        print(
            f"  per wave: {_figures([t for r in runs for t, _ in r.waves])}; "
            f"tables per wave (last round) {[t for _, t in last.waves][:12]}"
            f"{' ...' if len(last.waves) > 12 else ''}"
        )
        batches = [b for r in runs for b in r.batches]
        if batches:
            sizes = sorted({n for _, n in batches})
            print(
                f"  per seating batch (its transaction, to the commit): "
                f"{_figures([t for t, _ in batches])}; {len(last.batches)} batches "
                f"a drain, of {sizes[-1]} tables (smallest {sizes[0]})"
            )
        if statements is not None:
            print(
                f"  SQL statements on the wire in one drain: {statements} "
                f"({len(counted.waves)} waves, {counted.seated} players seated)"
            )
        load = os.getloadavg()
        print(f"  load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


def _serve(
    db: Path, port: int = 0
) -> tuple[subprocess.Popen[bytes], str, dict[str, str]]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    }
    env.update(SQLITE_PATH=str(db), DEBUG="0", LOG_LEVEL="WARNING")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", port))  # 0: any free port
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2):
                break
        except OSError:
            time.sleep(0.2)
    return proc, url, env


async def _find(url: str, cookie: str) -> float:
    import websockets

    ws_url = url.replace("http", "ws") + "/ws/lobby/"
    headers = {"Cookie": cookie, "Origin": url}
    async with websockets.connect(ws_url, additional_headers=headers) as ws:
        await ws.recv()  # state
        t0 = time.perf_counter()
        await ws.send('{"type": "search", "pool": "draw-2"}')
        import json

        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == "seated":
                break
            if frame["type"] == "error":
                raise RuntimeError(frame["message"])
    req = urllib.request.Request(url + frame["url"], headers={"Cookie": cookie})
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, lambda: urllib.request.urlopen(req).read())
    return time.perf_counter() - t0


def bench_latency(rounds: int, port: int = 0) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="mm-bench-"))
    proc, url, env = _serve(tmp / "db.sqlite3", port)
    try:
        _setup({"SQLITE_PATH": str(tmp / "db.sqlite3")})
        from django.conf import settings
        from django.test import Client

        from games.models import Table

        cookies = []
        for uid in _users(2, "latency"):
            client = Client()
            from django.contrib.auth import get_user_model

            client.force_login(get_user_model().objects.get(pk=uid))
            cookies.append(f"sessionid={client.cookies['sessionid'].value}")
        times: list[float] = []
        for _ in range(rounds):

            async def both() -> list[float]:
                return list(await asyncio.gather(*(_find(url, c) for c in cookies)))

            times.extend(asyncio.run(both()))
            Table.objects.filter(mode="online", status="playing").update(
                status="cancelled"
            )
            time.sleep(random.uniform(0, settings.MATCHMAKING_WAVE_SECONDS))
        times.sort()
        print(f"wave interval: {settings.MATCHMAKING_WAVE_SECONDS:.1f} s")
        print(
            f"find -> table page: p50 {statistics.median(times) * 1000:.0f} ms, "
            f"min {times[0] * 1000:.0f}, max {times[-1] * 1000:.0f} "
            f"({len(times)} clients over {rounds} rounds)"
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["wave", "latency", "drain"])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--port", type=int, default=0, help="latency: daphne's port")
    parser.add_argument("--pools", default="draw-2,draw-4p", help="drain: pool keys")
    parser.add_argument(
        "--batch", type=int, default=0, help="drain: MATCHMAKING_SEAT_BATCH_TABLES"
    )
    args = parser.parse_args()
    if args.what == "wave":
        bench_wave(args.players, args.rounds)
    elif args.what == "drain":
        bench_drain(args.players, args.rounds, args.pools.split(","), args.batch)
    else:
        bench_latency(args.rounds, args.port)


if __name__ == "__main__":
    main()
