"""Fault harness: play tables on the distributed set-up while its parts fail.

Starts its own stack on spare ports: a private ``redis-server`` (never the machine's
6379), PostgreSQL database ``ops_chaos``, two daphne processes (``config.serve``), a
Celery worker and beat. Creates practice tables (a scripted player against a
``medium`` computer) and plays them over real sockets; each client reconnects to the
other daphne when its socket drops. Then, in turn:

1. kills a daphne (its clients move to the other; it is started again);
2. kills the worker (``/healthz`` must name ``worker`` within 30 s; it is started
   again and ``/healthz`` must return to 200);
3. kills its Redis and starts it again after a few seconds (``/healthz`` must be 503
   while Redis is down, 200 again after, and the tables must move again).

Afterwards it checks that every table finished or is playing, that no table's
``TableEvent`` log has a gap in ``seq``, that every replay equals the stored state
(``games.replay.table_verify``); then it cancels what still plays (refunding stake
tables), waits for every finish step to be applied, runs the platform's audit
(``ops.audit.audit_run``: ledger, finish, stakes, minting) and prints its counts
and each audit part's verdict. Exit status 1 if a check failed. Stops by itself
(``--seconds`` bounds each phase of play); it ends every process it started.

    .venv/bin/python bench/chaos.py
    .venv/bin/python bench/chaos.py --tables 8 --seconds 8

It does not measure speed (the faults set the pace), nor how a browser shows the
outages: it reads frames, not pages.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stack import database_ensure, server_env  # noqa: E402
from games.patches import frame_patched  # noqa: E402
from realtime.deltas import DeltaError  # noqa: E402
from tests.ops.redis_server import RedisServer  # noqa: E402
from tests.support.servers import (  # noqa: E402
    BIN,
    Server,
    _spawn,
    celery_worker_start,
    daphne_start,
)

DB_NAME = "ops_chaos"
HOST = "127.0.0.1"
USER_PREFIX = "chaos"


# --- the stack


def stack_env(redis_url: str) -> dict[str, str]:
    """The environment of the servers and of this process: its database, its Redis."""
    return server_env(
        database_url=f"postgres://postgres@{HOST}:5432/{DB_NAME}",
        redis_url=redis_url,
        DEPLOYMENT_PREFIX=DB_NAME,
        # Fresh players sit at stake tables: every stake is open to them (the
        # unlock by play is tested in tests/matchmaking/stakes/test_unlock.py).
        STAKES_UNLOCK="{}",
    )


@dataclass
class Stack:
    env: dict[str, str]
    logs: Path
    redis: RedisServer
    web: list[Server | None] = field(default_factory=lambda: [None, None])
    ports: list[int] = field(default_factory=list)
    worker: Server | None = None
    beat: Server | None = None

    def web_start(self, i: int) -> None:
        self.web[i] = daphne_start(
            self.env, port=self.ports[i], log=self.logs / f"daphne{i}.log"
        )

    def worker_start(self) -> None:
        self.worker = celery_worker_start(
            self.env, name="chaos", log=self.logs / "worker.log"
        )

    def beat_start(self) -> None:
        args = [str(BIN / "celery"), "-A", "config", "beat", "--loglevel=WARNING"]
        args.append(f"--schedule={self.logs / 'beat-schedule'}")
        self.beat = Server(_spawn(args, self.env, self.logs / "beat.log"))

    def url(self, i: int) -> str:
        return f"http://{HOST}:{self.ports[i]}"

    def stop(self) -> None:
        for server in [self.beat, self.worker, *self.web]:
            if server is not None:
                with contextlib.suppress(Exception):
                    server.stop()
        self.redis.kill()

    def log_marks(self) -> dict[Path, int]:
        """The daphne logs' current sizes, to count tracebacks between two marks."""
        return {p: p.stat().st_size for p in self.logs.glob("daphne*.log")}

    def tracebacks(self, skip: tuple[dict[Path, int], dict[Path, int]]) -> int:
        """Tracebacks in the daphne logs outside the span ``skip`` (the Redis outage,
        when channels_redis and Celery log their reconnect attempts with one)."""
        count = 0
        for path in self.logs.glob("daphne*.log"):
            text = path.read_bytes()
            start, end = skip[0].get(path, 0), skip[1].get(path, 0)
            count += (text[:start] + text[end:]).count(b"Traceback")
        return count


def stack_start(logs: Path) -> Stack:
    from tests.support.servers import free_port

    redis = RedisServer(logs)
    redis.start()
    env = stack_env(redis.url)
    stack = Stack(env=env, logs=logs, redis=redis, ports=[free_port(), free_port()])
    try:
        database_ensure(DB_NAME, env)
        stack.worker_start()
        stack.beat_start()
        stack.web_start(0)
        stack.web_start(1)
    except BaseException:
        stack.stop()
        raise
    return stack


def healthz(url: str) -> tuple[int, list[str]]:
    """``/healthz``'s status and the components it names as down (0: no answer)."""
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=15) as resp:
            return resp.status, json.loads(resp.read())["down"]
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()).get("down", [])
    except OSError:
        return 0, []


# --- Django side (this process, in threads)


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def users_ensure(count: int) -> list[Any]:
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    return [
        user_model.objects.get_or_create(username=f"{USER_PREFIX}{i:04d}")[0]
        for i in range(count)
    ]


def cookie_for(user: Any) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"


@dataclass(frozen=True)
class Seating:
    """A table of the mix and the users who play it over sockets."""

    table_id: int
    kind: str
    players: list[Any]


def tables_create(users: list[Any], count: int) -> list[Seating]:
    """``count`` tables of each kind of the mix, from ``users`` (6 per round)."""
    from economy.wallets import wallet_grant_signup
    from games.services import (
        seat_join,
        table_create,
        table_practice_create,
        table_start,
    )
    from matchmaking.rooms.services import room_create, room_join, room_start
    from matchmaking.stakes.services import stake_sit

    seatings = []
    for i in range(count):
        solo, ana, ben, cy, di, walker = users[6 * i : 6 * i + 6]
        table = table_practice_create(
            user=solo,
            variant="draw",
            options={"seats": 2, "target": 100},
            bot_levels=["medium"],
            bot_speed="fast",
        )
        seatings.append(Seating(table.pk, "practice", [solo]))
        for user in (ana, ben):
            wallet_grant_signup(user_id=user.pk)
        row = stake_sit(user=ana, stake=100, shape="block-2")
        stake_sit(user=ben, stake=100, shape="block-2", table_id=row.pk)
        seatings.append(Seating(row.pk, "stake", [ana, ben]))
        room = room_create(
            host=cy, variant="draw", options={"seats": 2, "target": 50}, host_seat=0
        )
        room_join(room_id=room.pk, user=di)
        seatings.append(
            Seating(room_start(room_id=room.pk, user=cy).pk, "friend", [cy, di])
        )
        online = table_create(
            mode="online",
            variant="draw",
            options={"seats": 2, "target": 50},
            clock_seconds=5,
            hand_pause_seconds=1,
        )
        seat_join(table_id=online.pk, user=walker)
        seat_join(
            table_id=online.pk, bot_level="medium", simulated=True, name=f"Sim{i}"
        )
        table_start(table_id=online.pk)
        walked = i % 2 == 1
        seatings.append(
            Seating(
                online.pk,
                "backfill, walked away" if walked else "backfill",
                [] if walked else [walker],
            )
        )
    return seatings


def table_seqs(table_ids: list[int]) -> dict[int, int]:
    from django.db import close_old_connections

    from games.models import Table

    close_old_connections()
    return dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "seq"))


def tables_check(table_ids: list[int]) -> Counter[str]:
    """Statuses, ``seq`` gaps, replay mismatches and ledger breaches."""
    from django.db import close_old_connections

    from games.models import Table
    from games.replay import ReplayMismatch, table_verify

    close_old_connections()
    counts: Counter[str] = Counter(
        f"status {status}"
        for status in Table.objects.filter(pk__in=table_ids).values_list(
            "status", flat=True
        )
    )
    counts.update({"tables with a seq gap": 0, "replay mismatches": 0})
    # A computer may still be moving: stop the tables so each is read at rest.
    tables_retire(table_ids)
    for table in Table.objects.filter(pk__in=table_ids):
        seqs = list(table.events.order_by("seq").values_list("seq", flat=True))
        if not seqs or seqs != list(range(seqs[0], seqs[0] + len(seqs))):
            counts["tables with a seq gap"] += 1
        try:
            table_verify(table=table)
        except ReplayMismatch:
            counts["replay mismatches"] += 1
    return counts


def audit_after() -> tuple[int, dict[str, list[str]]]:
    """Wait (up to a minute) until every finish step is applied, then run the
    platform's audit; return the steps still owed and each part's breaches."""
    from django.db import close_old_connections

    from games.models import FinishStep
    from ops.audit import audit_run

    close_old_connections()
    owed = FinishStep.objects.filter(done_at__isnull=True)
    deadline = time.monotonic() + 60
    while owed.exists() and time.monotonic() < deadline:
        time.sleep(1)
    return owed.count(), audit_run()


def earnings(seatings: list[Seating]) -> Counter[str]:
    """Human seats of finished tables that earned and did not, by kind."""
    from games.models import Seat

    kinds = {s.table_id: s.kind for s in seatings}
    counts: Counter[str] = Counter()
    seats = Seat.objects.filter(
        table_id__in=kinds, user__isnull=False, table__status="finished"
    ).values_list("table_id", "unpaid")
    for table_id, unpaid in seats:
        counts[f"{kinds[table_id]}: {'unpaid ' + unpaid if unpaid else 'earned'}"] += 1
    return counts


def tables_retire(table_ids: list[int]) -> None:
    from games.models import Table
    from games.services import table_cancel

    playing = Table.objects.filter(pk__in=table_ids, status=Table.Status.PLAYING)
    for table_id in playing.values_list("pk", flat=True):
        table_cancel(table_id=table_id, reason="staff")


# --- the scripted player


@dataclass
class Player:
    """Plays seat 0 of one table over a socket, reconnecting to any daphne."""

    table_id: int
    cookie: str
    urls: list[str]
    rng: random.Random
    frames: int = 0
    reconnects: int = 0
    gaps: int = 0

    async def run(self, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        attempt = 0
        while not stop.is_set():
            port = self.urls[attempt % len(self.urls)].rsplit(":", 1)[1]
            attempt += 1
            try:
                async with connect(
                    f"ws://{HOST}:{port}/ws/tables/{self.table_id}/",
                    origin=f"http://{HOST}:{port}",  # type: ignore[arg-type]
                    additional_headers={"Cookie": self.cookie},
                    proxy=None,
                    open_timeout=10,
                    max_size=2**20,
                ) as ws:
                    if await self._play(ws, stop):
                        return  # the table is over: nothing left to play
            except (TimeoutError, OSError, Exception):
                pass
            if not stop.is_set():
                self.reconnects += 1
                await asyncio.sleep(0.3)

    async def _play(self, ws: Any, stop: asyncio.Event) -> bool:
        """Play until ``stop`` or the socket drops (False), or the table ends (True)."""
        seq = -1
        shown: dict[str, Any] = {}
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=3)
            except TimeoutError:
                await ws.send(json.dumps({"type": "sync"}))  # quiet: ask again
                continue
            frame = json.loads(text)
            if frame.get("type") == "patch" and frame["seq"] >= seq:
                try:  # the state it stands for, as the page does
                    frame = frame_patched(shown, frame)
                except DeltaError:
                    await ws.send(json.dumps({"type": "sync"}))
                    continue
            if frame.get("type") != "state" or frame["seq"] < seq:
                continue
            shown = frame
            self.frames += 1
            if seq >= 0 and frame["seq"] > seq + 1:
                self.gaps += 1
                await ws.send(json.dumps({"type": "sync"}))
            seq = frame["seq"]
            if frame["table"]["status"] != "playing":
                return True
            legal = (frame.get("view") or {}).get("legal") or []
            if legal:
                await asyncio.sleep(self.rng.uniform(0.1, 0.4))
                action = self.rng.choice(legal)
                await ws.send(json.dumps({"type": "act", "seq": seq, "action": action}))
        return False


# --- the faults


async def wait_health(
    url: str, want: Any, timeout: float
) -> tuple[float | None, tuple[int, list[str]]]:
    """Seconds until ``want(status, down)`` holds on ``url`` (None: never)."""
    start = time.monotonic()
    last: tuple[int, list[str]] = (0, [])
    while time.monotonic() - start < timeout:
        last = await asyncio.to_thread(healthz, url)
        if want(*last):
            return time.monotonic() - start, last
        await asyncio.sleep(0.5)
    return None, last


async def moved_after(table_ids: list[int], timeout: float) -> float | None:
    """Seconds until every still-playing table's seq moved (None: some never did)."""
    start = time.monotonic()
    before = await asyncio.to_thread(table_seqs, table_ids)
    waiting = set(table_ids)
    while waiting and time.monotonic() - start < timeout:
        await asyncio.sleep(0.5)
        now = await asyncio.to_thread(table_seqs, list(waiting))
        statuses = await asyncio.to_thread(_playing, list(waiting))
        waiting = {t for t in waiting if now[t] == before[t] and t in statuses}
    return None if waiting else time.monotonic() - start


def _playing(table_ids: list[int]) -> set[int]:
    from games.models import Table

    return set(
        Table.objects.filter(pk__in=table_ids, status=Table.Status.PLAYING).values_list(
            "pk", flat=True
        )
    )


async def faults(
    stack: Stack, table_ids: list[int], seconds: float, outage: list[dict[Path, int]]
) -> list[str]:
    """Run the three faults; return one line per fault, ``FAIL`` where health lied.
    ``outage`` receives the daphne logs' marks at the start and end of the Redis
    outage."""
    report: list[str] = []
    ok = lambda status, down: status == 200  # noqa: E731

    # 1. a daphne dies: the other still serves, healthy.
    stack.web[0].kill()  # type: ignore[union-attr]
    await asyncio.sleep(2)
    status, down = await asyncio.to_thread(healthz, stack.url(1))
    resumed = await moved_after(table_ids, 20)
    report.append(
        f"daphne killed: other daphne /healthz {status} {down}; every table moved "
        f"again after {_secs(resumed)}" + ("" if status == 200 and resumed else " FAIL")
    )
    stack.web_start(0)
    await asyncio.sleep(seconds)

    # 2. the worker dies: /healthz names it, then recovers once it is back.
    stack.worker.kill()  # type: ignore[union-attr]
    named, last = await wait_health(
        stack.url(1), lambda s, d: s == 503 and "worker" in d, 40
    )
    stack.worker_start()
    back, _ = await wait_health(stack.url(1), ok, 30)
    resumed = await moved_after(table_ids, 20)
    report.append(
        f"worker killed: /healthz named it after {_secs(named)} ({last[1]}), 200 "
        f"{_secs(back)} after its restart; tables moved after {_secs(resumed)}"
        + ("" if named is not None and back is not None and resumed else " FAIL")
    )
    await asyncio.sleep(seconds)

    # 3. Redis restarts: /healthz is 503 while it is down, 200 after.
    outage.append(stack.log_marks())
    stack.redis.kill()
    down_seen, during = await wait_health(stack.url(1), lambda s, d: s == 503, 10)
    await asyncio.sleep(3)
    stack.redis.start()
    back, _ = await wait_health(stack.url(1), ok, 40)
    await wait_health(stack.url(0), ok, 20)  # both daphnes reconnected: outage over
    outage.append(stack.log_marks())
    resumed = await moved_after(table_ids, 30)
    workers_alive = stack.worker.proc.poll() is None  # type: ignore[union-attr]
    report.append(
        f"Redis restarted: /healthz 503 after {_secs(down_seen)} ({during[1]}), 200 "
        f"{_secs(back)} after Redis returned; tables moved after {_secs(resumed)}; "
        f"worker alive: {workers_alive}"
        + (
            ""
            if down_seen is not None and back is not None and resumed and workers_alive
            else " FAIL"
        )
    )
    return report


def _secs(value: float | None) -> str:
    return "never" if value is None else f"{value:.1f} s"


async def main_async(args: argparse.Namespace, stack: Stack) -> int:
    users = await asyncio.to_thread(users_ensure, 6 * args.tables)
    seatings = await asyncio.to_thread(tables_create, users, args.tables)
    table_ids = [s.table_id for s in seatings]
    urls = [stack.url(0), stack.url(1)]
    players = []
    for i, (seating, user) in enumerate((s, u) for s in seatings for u in s.players):
        cookie = await asyncio.to_thread(cookie_for, user)
        order = urls[i % 2 :] + urls[: i % 2]
        players.append(Player(seating.table_id, cookie, order, random.Random(i)))
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.run(stop)) for p in players]
    try:
        await asyncio.sleep(args.seconds)
        outage: list[dict[Path, int]] = []
        report = await faults(stack, table_ids, args.seconds, outage)
        await asyncio.sleep(args.seconds)
    finally:
        stop.set()
        await asyncio.wait(tasks, timeout=10)
    counts = await asyncio.to_thread(tables_check, table_ids)
    owed, audit = await asyncio.to_thread(audit_after)
    earned = await asyncio.to_thread(earnings, seatings)
    tracebacks = stack.tracebacks((outage[0], outage[1]))
    for line in report:
        print(line)
    print(
        f"tables: {len(seatings)} ({args.tables} of each kind); "
        + "; ".join(f"{k}: {v}" for k, v in counts.items())
    )
    print(
        "human seats of finished tables: "
        + "; ".join(f"{k}: {v}" for k, v in sorted(earned.items()))
    )
    print(
        f"frames received: {sum(p.frames for p in players)}; reconnects: "
        f"{sum(p.reconnects for p in players)}; seq gaps seen by clients: "
        f"{sum(p.gaps for p in players)}; tracebacks in daphne logs outside the "
        f"Redis outage: {tracebacks} (target 0)"
    )
    print(f"finish steps still owed after a minute: {owed}")
    for part, lines in audit.items():
        print(f"audit {part}: " + (f"{len(lines)} breach(es)" if lines else "clean"))
        for line in lines[:10]:
            print(f"  {line}")
    bad = (
        any(line.endswith("FAIL") for line in report)
        or tracebacks
        or owed
        or counts["tables with a seq gap"]
        or counts["replay mismatches"]
        or any(audit.values())
        or set(k for k in counts if k.startswith("status "))
        - {"status playing", "status finished"}
    )
    print("verdict:", "FAIL" if bad else "ok")
    return 1 if bad else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=2, help="tables of each kind")
    parser.add_argument("--seconds", type=float, default=6.0, help="play per phase")
    args = parser.parse_args()
    logs = Path(tempfile.mkdtemp(prefix="chaos-"))
    stack = stack_start(logs)
    try:
        django_setup(stack.env)
        code = asyncio.run(main_async(args, stack))
    finally:
        stack.stop()
    print(f"logs: {logs}")
    sys.exit(code)


if __name__ == "__main__":
    main()
