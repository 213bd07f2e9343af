"""Load benchmark of the table socket: real WebSocket clients against a real stack.

Starts (unless ``--url`` is given) the distributed set-up of a 2-core machine as
the Procfile describes it: ``--servers`` daphne processes (2, one per core) and one
Celery worker, pointing at PostgreSQL ``ws_bench`` and Redis database 6, the players'
sockets spread over the daphnes in turn as nginx's upstream list spreads them;
``--servers 1`` runs one. The servers run the light timed jobs (a computer's move)
themselves (``games.local_ticks``) unless ``--local-ticks off``; ``both`` runs each
run on a stack of each kind in turn and compares them. It creates practice tables
(one player against a ``medium`` computer) through the services, signs the players
in, and drives them with the ``websockets`` client. Prints, per run and as the
median of the runs:

* move round trip p50/p99: ``act`` sent -> the connection's own next ``state`` frame
  with a ``seq`` greater than the one the act carried;
* state frames lost (a ``seq`` of the table that never reached the seat's socket) and
  duplicated (a ``seq`` received twice on one socket);
* server CPU per move: CPU time of the daphne processes and the worker over the
  measured window / table transitions logged in that window (the player's and the
  bots').

Scenarios: ``uncontended`` (1 table, ``--moves`` player moves, short pauses, ``fast``
computers) and ``load`` (``--tables`` tables, each player moving about once a second
against ``normal`` computers, for ``--seconds``; the players' first moves are spread
over 2 s, as real tables are not in step, and the window opens 5 s after they start).
Traffic goes to 127.0.0.1 only; the script stops by itself and ends the processes it
started.

Not measured:

* PostgreSQL's and Redis's own CPU in the CPU per move (it is daphne's and the
  worker's); the postgres+redis figure printed beside it is every such process on
  the machine, whatever else it serves;
* signing in and connecting: the cookies are made and the sockets opened before
  the warm-up, which is outside the window (a table replacing one whose match ended
  opens inside it, but no round trip times it);
* round trips of the computers' moves: only the player's acts are timed;
* online tables of people, turn clocks, spectators, presence and lobby sockets,
  pages, Celery beat (not started); variants other than block and draw, two seats;
* permessage-deflate (the clients offer none), TLS, a proxy (the clients go to
  each daphne's own port), more than one worker process;
* a quiet machine: the clients run beside the servers (their CPU, the machine's
  and the load average are printed, not subtracted from anything).

    .venv/bin/python bench/ws_load.py                       # both scenarios, 3 runs
    .venv/bin/python bench/ws_load.py --scenario load --tables 100 --seconds 60
    .venv/bin/python bench/ws_load.py --scenario load --tables 400 --servers 1
    .venv/bin/python bench/ws_load.py --scenario load --tables 200 --local-ticks both
    .venv/bin/python bench/ws_load.py --scenario uncontended --moves 200 --runs 3
    .venv/bin/python bench/ws_load.py --profile /tmp/ws_prof   # py-spy during run 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import urllib.parse
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

DB_NAME = "ws_bench"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
REDIS_URL = "redis://127.0.0.1:6379/6"
HOST = "127.0.0.1"
USER_PREFIX = "wsbench"

TARGETS = {
    "uncontended": {"p50": 15.0, "p99": 50.0},
    "load": {"p99": 100.0},
}


# --- environment and the stack


def bench_env(conn_max_age: int) -> dict[str, str]:
    """The servers' and this process's environment: the bench database and Redis."""
    # platform/.env.example deploys CONN_MAX_AGE=60
    return server_env(
        database_url=DATABASE_URL,
        redis_url=REDIS_URL,
        CONN_MAX_AGE=str(conn_max_age),
    )


def redis_flush(url: str = REDIS_URL) -> None:
    """Empty ``url``, a Redis database of the bench's own (6 here): drop stale
    tasks and channel messages."""
    import redis

    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()


@dataclass
class Stack:
    urls: list[str]
    pids: dict[str, int]
    servers: list[Any] = field(default_factory=list)

    def stop(self) -> None:
        for server in reversed(self.servers):
            with contextlib.suppress(Exception):
                server.stop()
        self.servers.clear()


def stack_start(env: dict[str, str], log_dir: Path, servers: int) -> Stack:
    """One Celery worker and ``servers`` daphne processes on ports of their own,
    as the Procfile runs them behind nginx's upstream list (the clients are spread
    over them in turn, as the proxy's round robin spreads sockets)."""
    from tests.support.servers import celery_worker_start, daphne_start

    log_dir.mkdir(parents=True, exist_ok=True)
    stack = Stack(urls=[], pids={})
    try:
        worker = celery_worker_start(env, name="wsbench", log=log_dir / "worker.log")
        stack.servers.append(worker)
        stack.pids["worker"] = worker.proc.pid
        for n in range(1, servers + 1):
            daphne = daphne_start(env, log=log_dir / f"daphne{n}.log")
            stack.servers.append(daphne)
            stack.urls.append(daphne.url)
            stack.pids[f"daphne{n}"] = daphne.proc.pid
    except BaseException:
        stack.stop()
        raise
    return stack


# --- Django side (runs in this process, in threads, never on the event loop)


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django

    django.setup()


def users_ensure(count: int) -> list[Any]:
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    users = []
    for i in range(count):
        name = f"{USER_PREFIX}{i:04d}"
        user, _ = user_model.objects.get_or_create(
            username=name, defaults={"email": f"{name}@example.invalid"}
        )
        users.append(user)
    return users


def cookie_for(user: Any) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"


def table_new(user: Any, variant: str, target: int, bot_speed: str) -> int:
    from django.db import close_old_connections

    from games.services import table_practice_create

    close_old_connections()
    table = table_practice_create(
        user=user,
        variant=variant,
        options={"seats": 2, "target": target},
        bot_levels=["medium"],
        bot_speed=bot_speed,
    )
    return int(table.pk)


def tables_snapshot(table_ids: list[int]) -> dict[int, tuple[int, str, str]]:
    """seq, status and timer of each table, from the database."""
    from games.models import Table

    rows = Table.objects.filter(pk__in=table_ids).values_list(
        "pk", "seq", "status", "timer"
    )
    return {pk: (seq, status, timer) for pk, seq, status, timer in rows}


def moves_between(table_ids: list[int], start: Any, end: Any) -> Counter[str]:
    """Transitions logged in the window, by actor (player, bot, server)."""
    from django.db.models import Count

    from games.models import TableEvent

    rows = (
        TableEvent.objects.filter(
            table_id__in=table_ids, created_at__gte=start, created_at__lt=end
        )
        .values("actor")
        .annotate(n=Count("id"))
    )
    return Counter({r["actor"]: r["n"] for r in rows})


def tables_retire(table_ids: list[int]) -> None:
    """Cancel this run's tables so that nothing of them runs later."""
    from django.utils import timezone

    from games.models import Table

    Table.objects.filter(pk__in=table_ids, status=Table.Status.PLAYING).update(
        status=Table.Status.CANCELLED,
        finished_at=timezone.now(),
        timer="",
        timer_seat=None,
        deadline=None,
    )


def db_now() -> Any:
    from django.utils import timezone

    return timezone.now()


# --- one client


@dataclass
class Connection:
    """What one socket of one table received."""

    table_id: int
    first_seq: int | None = None
    seen: set[int] = field(default_factory=set)
    frames: int = 0
    dups: int = 0
    connect_dups: int = 0  # a duplicate among the first two frames of the socket


@dataclass
class Scenario:
    name: str
    tables: int
    seconds: float | None
    moves: int | None
    pause: tuple[float, float]
    bot_speed: str
    variant: str
    target: int
    # Players start within this many seconds of each other: real tables are not in
    # step, and 100 first moves in the same instant measure the start, not the play.
    spread: float = 0.0
    warmup: float = 2.0


class Shared:
    """State common to the clients of one run."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.measuring = False
        self.stop_acting = asyncio.Event()
        self.rtts: list[float] = []
        self.rtt_at: list[float] = []  # when each round trip ended (perf_counter)
        self.t0 = 0.0
        self.errors: Counter[str] = Counter()
        self.other_frames: Counter[str] = Counter()
        self.table_ids: list[int] = []
        self.connections: list[Connection] = []
        self.closed_unexpectedly = 0
        self.table_switches = 0


class Client:
    def __init__(
        self, shared: Shared, url: str, user: Any, cookie: str, rng: random.Random
    ) -> None:
        self.shared = shared
        self.url = url
        self.user = user
        self.cookie = cookie
        self.rng = rng
        self.latest: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.pending: tuple[int, float, bool] | None = None  # (seq, sent at, measured)
        self.acted_at_seq = -1
        self.sync_pending = False
        self.conn: Connection | None = None
        self.ws: Any = None

    async def open(self, table_id: int) -> None:
        from websockets.asyncio.client import connect

        port = urllib.parse.urlsplit(self.url).port
        self.conn = Connection(table_id)
        self.shared.connections.append(self.conn)
        self.latest = None
        self.pending = None
        self.acted_at_seq = -1
        self.ws = await connect(
            f"ws://{HOST}:{port}/ws/tables/{table_id}/",
            origin=f"http://{HOST}:{port}",  # type: ignore[arg-type]
            additional_headers={"Cookie": self.cookie},
            compression=None,
            proxy=None,
            open_timeout=30,
            max_size=2**20,
        )
        self.reader = asyncio.create_task(self._read(self.ws, self.conn))

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
            with contextlib.suppress(BaseException):
                await self.reader
            self.ws = None

    async def _read(self, ws: Any, conn: Connection) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in ws:
                now = time.perf_counter()
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "patch":  # the state it stands for, as the page does
                    try:
                        frame, kind = frame_patched(self.latest or {}, frame), "state"
                    except DeltaError:
                        self.shared.errors["patch of another state"] += 1
                        self.sync_pending = True
                        await ws.send(json.dumps({"type": "sync"}))
                        continue
                if kind == "state":
                    self._on_state(frame, conn, now)
                elif kind == "error":
                    self.shared.errors[frame.get("code", "?")] += 1
                    self.pending = None
                    if frame.get("code") == "stale_seq":
                        self.sync_pending = True
                        await ws.send(json.dumps({"type": "sync"}))
                    self.changed.set()
                else:  # e.g. "seats": same seq, no new state
                    self.shared.other_frames[str(kind)] += 1
        except ConnectionClosed as exc:
            clean = exc.rcvd is not None and exc.rcvd.code == 1000
            if not clean and ws is self.ws:
                self.shared.closed_unexpectedly += 1
        self.changed.set()

    def _on_state(self, frame: dict[str, Any], conn: Connection, now: float) -> None:
        seq = frame["seq"]
        conn.frames += 1
        if conn.first_seq is None:
            conn.first_seq = seq
        if seq in conn.seen:
            if self.sync_pending:
                self.sync_pending = False
            elif conn.frames <= 2:
                conn.connect_dups += 1
            else:
                conn.dups += 1
        conn.seen.add(seq)
        if self.pending is not None and seq > self.pending[0]:
            sent_seq, sent_at, measured = self.pending
            self.pending = None
            if measured:
                self.shared.rtts.append((now - sent_at) * 1000)
                self.shared.rtt_at.append(now)
        if self.latest is None or seq >= self.latest["seq"]:
            self.latest = frame
        self.changed.set()

    def legal_of(self, state: dict[str, Any] | None) -> list[Any]:
        """The actions this socket may send in ``state``: its view's ``legal``."""
        view = (state or {}).get("view") or {}
        return list(view.get("legal") or [])

    def think_time(self) -> float:
        """Seconds to wait before the next act: a pause of the scenario's."""
        return self.rng.uniform(*self.shared.scenario.pause)

    async def play(self) -> None:
        """Act whenever the view offers something, until told to stop."""
        s = self.shared
        await asyncio.sleep(self.rng.uniform(0.0, s.scenario.spread))
        while not s.stop_acting.is_set():
            self.changed.clear()  # before reading: a frame arriving later wakes us
            state = self.latest
            if state is not None and state["table"]["status"] != "playing":
                await self._next_table()
                continue
            legal = self.legal_of(state)
            if (
                state is None
                or not legal
                or self.pending is not None
                or state["seq"] <= self.acted_at_seq
            ):
                if self.ws is None or self.reader.done():
                    return
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), timeout=1.0)
                continue
            await asyncio.sleep(self.think_time())
            if s.stop_acting.is_set() or self.latest is not state:
                continue
            action = self.rng.choice(legal)
            seq = state["seq"]
            self.acted_at_seq = seq
            self.pending = (seq, time.perf_counter(), s.measuring)
            await self.ws.send(
                json.dumps({"type": "act", "seq": seq, "action": action})
            )
            if (
                s.scenario.moves is not None
                and s.measuring
                and len(s.rtts) + 1 >= s.scenario.moves
            ):
                # Let this last reply arrive, then stop everyone.
                await self._await_reply(timeout=10)
                s.stop_acting.set()

    async def _await_reply(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.changed.clear()
            if self.pending is None:
                return
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.changed.wait(), timeout=0.2)

    async def _next_table(self) -> None:
        await self.close()
        sc = self.shared.scenario
        table_id = await asyncio.to_thread(
            table_new, self.user, sc.variant, sc.target, sc.bot_speed
        )
        self.shared.table_ids.append(table_id)
        self.shared.table_switches += 1
        await self.open(table_id)


# --- measuring


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, math.ceil(p / 100 * len(ordered)) - 1)
    return ordered[k]


def timeline(shared: Shared, step: float = 10.0) -> list[tuple[int, int, float]]:
    """Round trips per ``step`` seconds of the window: (start s, count, p99 ms)."""
    buckets: dict[int, list[float]] = {}
    for rtt, at in zip(shared.rtts, shared.rtt_at, strict=True):
        buckets.setdefault(int((at - shared.t0) // step), []).append(rtt)
    return [(int(k * step), len(v), pct(v, 99)) for k, v in sorted(buckets.items())]


def cpu_seconds(pids: dict[str, int]) -> dict[str, float]:
    """CPU seconds of each process with its living descendants: granian and
    hypercorn serve from a worker process of their own."""
    import psutil

    out = {}
    for name, pid in pids.items():
        try:
            root = psutil.Process(pid)
            total = 0.0
            for proc in [root, *root.children(recursive=True)]:
                with contextlib.suppress(psutil.NoSuchProcess):
                    t = proc.cpu_times()
                    total += t.user + t.system
            out[name] = total
        except psutil.Error:
            out[name] = float("nan")
    return out


def shared_services_cpu() -> dict[int, float]:
    """CPU of each postgres and redis-server process (shared with anything else)."""
    import psutil

    out = {}
    for proc in psutil.process_iter(["name", "cpu_times"]):
        if proc.info["name"] in {"postgres", "redis-server"} and proc.info["cpu_times"]:
            t = proc.info["cpu_times"]
            out[proc.pid] = t.user + t.system
    return out


def cpu_delta(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU used between two snapshots by processes alive at the second one."""
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


async def quiesce(shared: Shared, clients: list[Client], timeout: float) -> bool:
    """After the players stop: wait until no computer move is pending and every socket
    has caught up with its table's seq."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snap = await asyncio.to_thread(tables_snapshot, shared.table_ids)
        busy = False
        for client in clients:
            conn = client.conn
            if conn is None:
                continue
            seq, status, timer = snap[conn.table_id]
            if (status == "playing" and timer) or max(conn.seen, default=-1) < seq:
                busy = True
                break
        if not busy:
            return True
        await asyncio.sleep(0.25)
    return False


def losses(shared: Shared, snap: dict[int, Any]) -> tuple[int, int, int]:
    """(lost, duplicated, duplicated right at connect) over every socket of the run,
    up to each table's ``seq`` in ``snap`` (taken before the sockets close: closing
    one is itself a change of its table, which it cannot receive)."""
    lost = dups = connect_dups = 0
    for conn in shared.connections:
        dups += conn.dups
        connect_dups += conn.connect_dups
        if conn.first_seq is None:
            continue
        final = snap[conn.table_id][0]
        lost += sum(1 for s in range(conn.first_seq, final + 1) if s not in conn.seen)
    return lost, dups, connect_dups


async def run_once(
    scenario: Scenario,
    urls: list[str],
    pids: dict[str, int],
    users: list[Any],
    cookies: list[str],
    seed: int,
    profile_dir: Path | None,
    profile_idle: bool = False,
    profile_gil: bool = False,
) -> dict[str, Any]:
    import psutil

    shared = Shared(scenario)
    rng = random.Random(seed)
    ids = await asyncio.gather(
        *(
            asyncio.to_thread(
                table_new, u, scenario.variant, scenario.target, scenario.bot_speed
            )
            for u in users[: scenario.tables]
        )
    )
    shared.table_ids.extend(ids)
    clients = [
        Client(
            shared,
            urls[i % len(urls)],
            users[i],
            cookies[i],
            random.Random(rng.random()),
        )
        for i in range(scenario.tables)
    ]
    for start in range(0, len(clients), 20):  # no connection storm
        await asyncio.gather(
            *(
                c.open(t)
                for c, t in zip(clients[start : start + 20], ids[start:], strict=False)
            )
        )
    players = [asyncio.create_task(c.play()) for c in clients]
    await asyncio.sleep(scenario.warmup)  # first moves, first frames, starts spread

    profilers = []
    window = scenario.seconds or 600.0
    if profile_dir is not None:
        profile_dir.mkdir(parents=True, exist_ok=True)
        for name, pid in pids.items():
            base = profile_dir / f"{scenario.name}-{name}"
            profilers.append(
                subprocess.Popen(
                    [
                        "py-spy", "record", "--pid", str(pid), "--rate", "200",
                        "--duration", str(int(min(window, 60))), "--format", "raw",
                        "-o", f"{base}.txt", "--nonblocking",
                        *(["--idle", "--threads"] if profile_idle else []),
                        *(["--gil"] if profile_gil else []),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )  # fmt: skip
    me = psutil.Process()
    cpu0, svc0, me0 = cpu_seconds(pids), shared_services_cpu(), me.cpu_times()
    psutil.cpu_percent()
    t0_db, t0 = await asyncio.to_thread(db_now), time.perf_counter()
    shared.t0 = t0
    shared.measuring = True
    if scenario.seconds is not None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(shared.stop_acting.wait(), timeout=scenario.seconds)
    else:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(shared.stop_acting.wait(), timeout=600)
    shared.stop_acting.set()
    # Replies to acts in flight still count; wait for them before closing the window.
    await asyncio.gather(*(c._await_reply(timeout=10) for c in clients))
    shared.measuring = False
    elapsed = time.perf_counter() - t0
    t1_db = await asyncio.to_thread(db_now)
    cpu1, svc1, me1 = cpu_seconds(pids), shared_services_cpu(), me.cpu_times()
    machine_busy = psutil.cpu_percent()
    for prof in profilers:
        with contextlib.suppress(subprocess.TimeoutExpired):
            prof.wait(timeout=90)
    await asyncio.gather(*players, return_exceptions=True)

    settled = await quiesce(shared, clients, timeout=20)
    final = await asyncio.to_thread(tables_snapshot, shared.table_ids)
    for c in clients:
        await c.close()
    moves = await asyncio.to_thread(moves_between, shared.table_ids, t0_db, t1_db)
    lost, dups, connect_dups = await asyncio.to_thread(losses, shared, final)
    await asyncio.to_thread(tables_retire, shared.table_ids)
    n_moves = sum(moves.values())
    server_cpu = {k: cpu1[k] - cpu0[k] for k in pids}
    total_cpu = sum(server_cpu.values())
    return {
        "scenario": scenario.name,
        "seconds": elapsed,
        "acts": len(shared.rtts),
        "moves": n_moves,
        "moves_by": dict(moves),
        "p50": pct(shared.rtts, 50),
        "p90": pct(shared.rtts, 90),
        "p99": pct(shared.rtts, 99),
        "max": max(shared.rtts, default=float("nan")),
        "timeline": timeline(shared),
        "lost": lost,
        "dups": dups,
        "connect_dups": connect_dups,
        "settled": settled,
        "errors": dict(shared.errors),
        "other_frames": dict(shared.other_frames),
        "closed": shared.closed_unexpectedly,
        "switches": shared.table_switches,
        "cpu_ms_per_move": 1000 * total_cpu / n_moves if n_moves else float("nan"),
        "cpu_ms_per_move_by": {
            k: 1000 * v / n_moves if n_moves else float("nan")
            for k, v in server_cpu.items()
        },
        "server_cpu_pct": 100 * total_cpu / elapsed,
        "db_redis_ms_per_move": (
            1000 * cpu_delta(svc0, svc1) / n_moves if n_moves else 0.0
        ),
        "bench_cpu_pct": 100
        * ((me1.user + me1.system) - (me0.user + me0.system))
        / elapsed,
        "machine_cpu_pct": machine_busy,
        "loadavg": os.getloadavg()[0],
    }


def show(r: dict[str, Any], label: str) -> None:
    by = ", ".join(f"{k} {v:.2f}" for k, v in r["cpu_ms_per_move_by"].items())
    print(
        f"  {label}: {r['acts']} acts, {r['moves']} moves "
        f"({', '.join(f'{k} {v}' for k, v in sorted(r['moves_by'].items()))}) "
        f"in {r['seconds']:.1f} s\n"
        f"    round trip ms: p50 {r['p50']:.1f}  p90 {r['p90']:.1f}  "
        f"p99 {r['p99']:.1f}  max {r['max']:.1f}\n"
        f"    p99 by 10 s: "
        f"{'  '.join(f'{t}s {p:.0f}' for t, _, p in r['timeline'])}\n"
        f"    lost {r['lost']}  duplicated {r['dups']} "
        f"(+{r['connect_dups']} at connect)  settled {r['settled']}  "
        f"errors {r['errors'] or 0}  unexpected closes {r['closed']}  "
        f"new tables {r['switches']}  other frames {r['other_frames'] or 0}\n"
        f"    server CPU {r['cpu_ms_per_move']:.2f} ms/move ({by}); "
        f"server {r['server_cpu_pct']:.0f}% of a core, bench client "
        f"{r['bench_cpu_pct']:.0f}%, machine {r['machine_cpu_pct']:.0f}% "
        f"(load avg {r['loadavg']:.1f} on {os.cpu_count()} cores); "
        f"postgres+redis {r['db_redis_ms_per_move']:.2f} ms/move (shared)",
        flush=True,
    )


def verdict(name: str, med: dict[str, float]) -> str:
    t = TARGETS[name]
    parts = []
    ok = True
    for key, limit in t.items():
        good = med[key] <= limit
        ok &= good
        parts.append(
            f"{key} {med[key]:.1f} <= {limit:.0f} ms: {'yes' if good else 'NO'}"
        )
    if name == "load":
        good = med["lost"] == 0 and med["dups_all"] == 0
        ok &= good
        parts.append(f"zero lost/duplicated: {'yes' if good else 'NO'}")
    return ("MET" if ok else "MISSED") + " (" + "; ".join(parts) + ")"


def scenarios_of(args: argparse.Namespace) -> list[Scenario]:
    scenarios = []
    if args.scenario in ("uncontended", "both"):
        scenarios.append(
            Scenario(
                name="uncontended",
                tables=1,
                seconds=None,
                moves=args.moves,
                pause=(0.02, 0.08),
                bot_speed=args.bot_speed or "fast",
                variant=args.variant,
                target=args.target,
            )
        )
    if args.scenario in ("load", "both"):
        scenarios.append(
            Scenario(
                name="load",
                tables=args.tables,
                seconds=args.seconds,
                moves=None,
                pause=(0.8, 1.2),
                bot_speed=args.bot_speed or "normal",
                variant=args.variant,
                target=args.target,
                spread=2.0,
                warmup=5.0,
            )
        )
    return scenarios


async def run_one(
    args: argparse.Namespace, stack: Stack, sc: Scenario, run: int, label: str
) -> dict[str, Any]:
    """One run of ``sc`` on ``stack`` (run number ``run``, counted from 0)."""
    users = await asyncio.to_thread(users_ensure, sc.tables)
    cookies = [await asyncio.to_thread(cookie_for, u) for u in users]
    prof = args.profile if (args.profile and run == 0) else None
    limit = (sc.seconds or 600) + 180
    r = await asyncio.wait_for(
        run_once(
            sc,
            stack.urls,
            stack.pids,
            users,
            cookies,
            args.seed + run,
            prof,
            args.profile_idle,
            args.profile_gil,
        ),
        timeout=limit,
    )
    r["dups_all"] = r["dups"] + r["connect_dups"]
    show(r, f"run {run + 1}{label}")
    return r


MEDIAN_KEYS = ["p50", "p90", "p99", "max", "lost", "dups_all", "cpu_ms_per_move"]


def medians_show(sc: Scenario, results: list[dict[str, Any]], label: str) -> Any:
    med = {k: statistics.median(r[k] for r in results) for k in MEDIAN_KEYS}
    print(
        f"  {sc.name}{label}, median of {len(results)}: p50 {med['p50']:.1f} ms  "
        f"p99 {med['p99']:.1f} ms  lost {med['lost']:g}  "
        f"duplicated {med['dups_all']:g}  "
        f"server CPU {med['cpu_ms_per_move']:.2f} ms/move",
        flush=True,
    )
    return med


def scenario_title(sc: Scenario, args: argparse.Namespace) -> str:
    return (
        f"\n== {sc.name}: {sc.tables} table(s) of {sc.variant} vs medium "
        f"({sc.bot_speed}), "
        + (f"{sc.moves} player moves" if sc.moves else f"{sc.seconds:.0f} s")
        + f", {args.runs} run(s)"
    )


async def main_async(args: argparse.Namespace, stack: Stack) -> None:
    summary = []
    for sc in scenarios_of(args):
        print(scenario_title(sc, args), flush=True)
        results = [await run_one(args, stack, sc, i, "") for i in range(args.runs)]
        summary.append((sc.name, medians_show(sc, results, "")))
    print("\n== targets (medians)")
    for name, med in summary:
        print(f"  {name}: {verdict(name, med)}")


def stack_announce(stack: Stack, args: argparse.Namespace, label: str) -> None:
    print(
        f"set-up{label}: the distributed one (PostgreSQL, Redis), {args.servers} "
        f"daphne process(es) at {', '.join(stack.urls)}, one Celery worker; "
        f"pids {stack.pids}, logs in {args.log_dir}",
        flush=True,
    )


LOCAL_MODES = {"on": "1", "off": "0"}


def local_ticks_compare(args: argparse.Namespace, env: dict[str, str]) -> None:
    """``--local-ticks both``: each run on a stack with the servers' own timed jobs
    (``games.local_ticks``) and on one without (every job a Celery task), in turn,
    each stack started for its run and stopped after it."""
    results: dict[str, dict[str, list[dict[str, Any]]]] = {m: {} for m in LOCAL_MODES}
    scenarios = scenarios_of(args)
    for sc in scenarios:
        print(scenario_title(sc, args) + ", local ticks on and off in turn")
        for run in range(args.runs):
            for mode, value in LOCAL_MODES.items():
                label = f", local ticks {mode}"
                stack = stack_start(
                    {**env, "GAMES_LOCAL_TICKS": value}, args.log_dir, args.servers
                )
                try:
                    stack_announce(stack, args, label)
                    r = asyncio.run(run_one(args, stack, sc, run, label))
                finally:
                    stack.stop()
                results[mode].setdefault(sc.name, []).append(r)
    print(
        "\n== local ticks on against off (medians; ratio: median of the runs' on/off)"
    )
    for sc in scenarios:
        meds = {
            mode: medians_show(sc, results[mode][sc.name], f", local ticks {mode}")
            for mode in LOCAL_MODES
        }
        ratios = [
            on["cpu_ms_per_move"] / off["cpu_ms_per_move"]
            for on, off in zip(
                results["on"][sc.name], results["off"][sc.name], strict=True
            )
        ]
        print(
            f"  {sc.name}: CPU per move on/off x{statistics.median(ratios):.3f}; "
            f"on: {verdict(sc.name, meds['on'])}; off: {verdict(sc.name, meds['off'])}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--scenario", choices=["uncontended", "load", "both"], default="both"
    )
    parser.add_argument("--tables", type=int, default=100, help="load: tables")
    parser.add_argument("--seconds", type=float, default=60, help="load: duration")
    parser.add_argument(
        "--moves", type=int, default=200, help="uncontended: player moves"
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--variant", choices=["block", "draw"], default="block")
    parser.add_argument("--target", type=int, default=250, help="match target points")
    parser.add_argument(
        "--bot-speed", default=None, help="override: fast/normal/slow/instant"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=60,
        help="CONN_MAX_AGE of the servers (platform/.env.example: 60)",
    )
    parser.add_argument(
        "--url",
        default=None,
        help="use a running server at http://127.0.0.1:PORT (same DB/Redis) instead",
    )
    parser.add_argument(
        "--pids", default="", help="with --url: daphne=PID,worker=PID for CPU"
    )
    parser.add_argument("--profile", type=Path, default=None, help="py-spy output dir")
    parser.add_argument(
        "--profile-idle",
        action="store_true",
        help="py-spy: also sample waiting threads, per thread (wall-clock view)",
    )
    parser.add_argument(
        "--profile-gil",
        action="store_true",
        help="py-spy: sample only the thread holding the GIL (where the CPU goes)",
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=2,
        help="daphne processes (the Procfile runs one per core: 2 on this machine)",
    )
    parser.add_argument(
        "--local-ticks",
        choices=["on", "off", "both"],
        default="on",
        help="the servers run light timed jobs themselves (GAMES_LOCAL_TICKS, on by "
        "default) or queue every one to Celery; both: each run with and without",
    )
    parser.add_argument("--log-dir", type=Path, default=Path("/tmp/ws_load"))
    args = parser.parse_args()

    env = bench_env(args.conn_max_age)
    stack: Stack | None = None

    def on_term(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGHUP, on_term)
    try:
        if args.url:
            parts = urllib.parse.urlsplit(args.url)
            if parts.hostname != HOST:
                raise SystemExit("--url must point at 127.0.0.1")
            pids = dict(
                (k, int(v))
                for k, v in (p.split("=") for p in args.pids.split(",") if p)
            )
            stack = Stack(urls=[f"http://{HOST}:{parts.port}"], pids=pids)
            django_setup(env)
        else:
            print(f"setting up: {DATABASE_URL}, {REDIS_URL}", flush=True)
            database_ensure(DB_NAME, env)
            redis_flush()
            django_setup(env)
            if args.local_ticks == "both":
                local_ticks_compare(args, env)
                return
            env["GAMES_LOCAL_TICKS"] = LOCAL_MODES[args.local_ticks]
            stack = stack_start(env, args.log_dir, args.servers)
            stack_announce(stack, args, f", local ticks {args.local_ticks}")
        asyncio.run(main_async(args, stack))
    finally:
        if stack is not None:
            stack.stop()


if __name__ == "__main__":
    main()
