"""The move round trip and saturation beside the floor, on each ASGI server.

The floor (``bench/floor_app.py``) is what a move's delivery costs with nothing of
the platform in between: a bare Channels consumer turning each frame it receives
into one ``group_send`` to the four sockets of its "table" on the platform's
channel layer (channels_redis pub/sub, the same Redis), no database. The tables are
the platform itself (``config.asgi``) with a Celery worker on PostgreSQL + Redis:
``four``, 4 people at an online table with the matchmaker's turn clock and pause
between hands (cut short by whoever presses "next hand" first: the others'
``stale_seq`` refusals are counted); ``computer``, 1 person against a ``medium``
computer (a practice table). The same client code drives all three
(``bench/ws_load.py``'s ``Client``); a round trip is a frame sent -> the socket's
own next ``state`` frame after it.

Each server (``--server``: daphne through ``config.serve``; uvicorn with ``--ws
websockets``, daphne's frame cap, and uvloop and httptools as ``uvicorn[standard]``
brings them; granian, its ASGI interface without lifespan on uvloop, and hypercorn
on uvloop, both from the bench extra; one process each for
the floor and the platform, started once) and target is measured in two phases, on
tables made for it:

* paced: ``--tables`` tables whose players think 0.8-1.2 s before each move, for
  ``--seconds``: round trip p50/p99, and CPU per move, the CPU time (/proc) of the
  server and the worker over the window / the table transitions logged in it (the
  floor: the server's / its sends);
* saturation: ``--sat-tables`` tables whose players act the moment they may, as
  often as the table socket's rate limit lets one person (10 a second; computers
  ``instant``), for ``--sat-seconds``: the moves (floor: sends) per second that
  closed loop sustains, and its round trip p50. A line says so when the players'
  acts come near that cap: the server was not the limit, add tables.

Rounds interleave them, floor-daphne, table-daphne, floor-uvicorn, table-uvicorn
and so on, ``--rounds`` times. The summary gives each slot's medians; the ratios to
the floor pair each table with the floor of the same server and round (the median
of the ratios), beside issue 32's goals (p50 and p99 <= 3x the floor, saturation >=
0.5 of the floor's, CPU per move <= 2.5 ms), then each other server over daphne the
same way.
PostgreSQL ``floor_bench``, Redis database 14, channel prefix ``dom_floor``, ports
8751 on; traffic to 127.0.0.1 only; it stops by itself and ends what it started.

Not measured:

* frames lost, duplicated or out of order (``bench/ws_load.py`` counts them);
* PostgreSQL's and Redis's own CPU: CPU per move is the servers' and the worker's;
* turn clocks running out, or anything of Celery beat (none runs; people move in
  time), fair-deal seeds (the first deal waits for its 3 s timer in the warm-up);
* connecting, signing in, pages; spectators, presence and lobby sockets;
* permessage-deflate (the clients offer none), TLS, a proxy in front, more than
  one server process; daphne's frame cap on granian and hypercorn (their command
  lines have no such setting: hypercorn's 16 MiB and granian's own apply);
* whether the platform behaves on the other servers as on daphne (SIGTERM's 1001,
  closed sockets): only the frames these clients see;
* saturation as a sweep of offered load: it is one closed loop of ``--sat-tables``
  tables, and the clients share the machine's cores with the servers (their CPU is
  printed: a floor held back by its client says little about the server).

    .venv/bin/python bench/floor.py                      # daphne and uvicorn, 5 rounds
    .venv/bin/python bench/floor.py --server all         # and granian, hypercorn
    .venv/bin/python bench/floor.py --server daphne --rounds 1 --seconds 3 \\
        --sat-seconds 3 --tables 2 --sat-tables 2         # a smoke test
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import signal
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stack import database_ensure, server_env  # noqa: E402
from bench.ws_load import (  # noqa: E402
    Client,
    Scenario,
    Shared,
    cookie_for,
    cpu_seconds,
    db_now,
    django_setup,
    moves_between,
    pct,
    redis_flush,
    table_new,
    tables_retire,
    users_ensure,
)

DB_NAME = "floor_bench"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
REDIS_URL = "redis://127.0.0.1:6379/14"
# The channel-layer prefix: Redis pub/sub is shared by every database number.
PREFIX = "dom_floor"
FLOOR_APP = "bench.floor_app:application"
SEATS = 4
VARIANT = "block"
TARGET = 250  # points: the longest match, so that few tables end in a window
PACE = (0.8, 1.2)  # seconds a player thinks in the paced phase
WARMUP = 5.0  # covers the fair deal's 3 s wait for seeds
TABLE_KINDS = ("four", "computer")
CAP_NEAR = 0.8  # of the acts the rate limit allows the clients: not saturated

# Issue 32: ratios to the floor of the same server, and CPU per move (ms).
GOAL_P50 = 3.0
GOAL_P99 = 3.0
GOAL_SATURATION = 0.5
GOAL_CPU_MS = 2.5


# --- the servers


@dataclass
class Servers:
    """One floor and one platform process per server kind, and one worker."""

    urls: dict[tuple[str, str], str] = field(default_factory=dict)
    pids: dict[tuple[str, str], dict[str, int]] = field(default_factory=dict)
    handles: list[Any] = field(default_factory=list)

    def stop(self) -> None:
        for handle in reversed(self.handles):
            with contextlib.suppress(Exception):
                handle.stop()
        self.handles.clear()


def servers_start(
    env: dict[str, str], kinds: list[str], port: int, logs: Path, uvicorn_ws: str
) -> Servers:
    """Start the worker, then for each server kind its floor and its platform, on
    ports from ``port`` on; uvicorn with the WebSocket implementation
    ``uvicorn_ws``."""
    from config.serve import frame_cap
    from tests.support.servers import (
        ASGI_APP,
        celery_worker_start,
        daphne_start,
        other_server_start,
        uvicorn_start,
    )

    logs.mkdir(parents=True, exist_ok=True)
    servers = Servers()
    try:
        worker = celery_worker_start(env, name="floorbench", log=logs / "worker.log")
        servers.handles.append(worker)
        for kind in kinds:
            for app_name, app in (("floor", FLOOR_APP), ("table", ASGI_APP)):
                log = logs / f"{app_name}-{kind}.log"
                if kind == "daphne":
                    handle = daphne_start(env, port=port, log=log, app=app)
                elif kind in ("granian", "hypercorn"):
                    handle = other_server_start(kind, env, port=port, log=log, app=app)
                else:
                    # daphne's frame cap (config.serve); stop within daphne's time.
                    options = ["--ws-max-size", str(frame_cap())]
                    options += ["--timeout-graceful-shutdown", "5"]
                    handle = uvicorn_start(
                        env, port=port, log=log, app=app, ws=uvicorn_ws, options=options
                    )
                servers.handles.append(handle)
                servers.urls[kind, app_name] = handle.url
                pids = {"server": handle.proc.pid}
                if app_name == "table":
                    pids["worker"] = worker.proc.pid
                servers.pids[kind, app_name] = pids
                port += 1
    except BaseException:
        servers.stop()
        raise
    return servers


# --- Django side (in threads, never on the event loop)


def four_new(users: list[Any]) -> int:
    """A started online table of 4 people, with the matchmaker's turn clock and
    pause between hands (which the people may cut short with ``next_hand``)."""
    from django.conf import settings
    from django.db import close_old_connections, transaction

    from games.models import Table
    from games.services import SeatTaker, table_seated_create

    close_old_connections()
    with transaction.atomic():
        table = table_seated_create(
            mode=Table.Mode.ONLINE,
            variant=VARIANT,
            options={"seats": SEATS, "target": TARGET},
            seats=[SeatTaker(user=user) for user in users],
            clock_seconds=settings.MATCHMAKING_CLOCK_SECONDS,
            hand_pause_seconds=settings.MATCHMAKING_HAND_PAUSE_SECONDS,
        )
    return int(table.pk)


# --- the clients


class Player(Client):
    """A client that acts no more often than the table socket's rate limit lets a
    person (``games.consumers.ACTIONS_PER_SECOND``): without a pause to think it
    plays as fast as it may, and is never refused for it."""

    next_act_at = 0.0

    def think_time(self) -> float:
        from games.consumers import ACTIONS_PER_SECOND

        now = time.monotonic()
        wait = max(super().think_time(), self.next_act_at - now)
        self.next_act_at = now + wait + 1 / ACTIONS_PER_SECOND
        return wait


class FloorClient(Player):
    """A seat of a floor table: it may act when the frame's ``turn`` is its own,
    handing the turn to the next seat."""

    def __init__(self, *args: Any, seat: int, size: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat = seat
        self.size = size

    def legal_of(self, state: dict[str, Any] | None) -> list[Any]:
        if state is None or state.get("turn") != self.seat:
            return []
        return [{"next": (self.seat + 1) % SEATS, "bytes": self.size}]


class Foursome:
    """The four people of one online table, who move on to a new table together
    when their match ends."""

    def __init__(self, users: list[Any]) -> None:
        self.users = users
        self.next: dict[int, asyncio.Task[int]] = {}

    async def table_after(self, table_id: int) -> int:
        """The table that follows ``table_id``, made by the first who asks."""
        if table_id not in self.next:
            self.next[table_id] = asyncio.create_task(
                asyncio.to_thread(four_new, self.users)
            )
        return await self.next[table_id]


class SeatedClient(Player):
    """A person at a 4-person table."""

    def __init__(self, *args: Any, foursome: Foursome, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.foursome = foursome

    async def _next_table(self) -> None:
        assert self.conn is not None
        ended = self.conn.table_id
        await self.close()
        table_id = await self.foursome.table_after(ended)
        if table_id not in self.shared.table_ids:
            self.shared.table_ids.append(table_id)
            self.shared.table_switches += 1
        await self.open(table_id)


@dataclass(frozen=True)
class Phase:
    name: str  # paced | saturation
    tables: int
    seconds: float
    pause: tuple[float, float]
    bot_speed: str  # of the computers at the practice tables
    spread: float  # seconds over which the players' first moves are spread


@dataclass
class People:
    """The signed-in users the tables seat, with their session cookies."""

    users: list[Any]
    cookies: list[str]


OpenTable = tuple[int, list[Client]]  # a table's id and its sockets' clients


async def tables_make(
    target: str,
    phase: Phase,
    shared: Shared,
    url: str,
    people: People,
    rng: random.Random,
    floor_ids: Iterator[int],
    floor_bytes: int,
) -> list[OpenTable]:
    """The phase's tables of ``target`` and a client per socket, none open yet."""

    def args_of(i: int | None) -> tuple[Any, ...]:
        """``Client``'s arguments for user ``i`` (None: nobody, for the floor)."""
        user, cookie = (None, "") if i is None else (people.users[i], people.cookies[i])
        return shared, url, user, cookie, random.Random(rng.random())

    tables: list[OpenTable] = []
    if target == "floor":
        for _ in range(phase.tables):
            clients: list[Client] = [
                FloorClient(*args_of(None), seat=seat, size=floor_bytes)
                for seat in range(SEATS)
            ]
            tables.append((next(floor_ids), clients))
    elif target == "four":
        for t in range(phase.tables):
            seated = range(t * SEATS, (t + 1) * SEATS)
            foursome = Foursome([people.users[i] for i in seated])
            table_id = await asyncio.to_thread(four_new, foursome.users)
            clients = [SeatedClient(*args_of(i), foursome=foursome) for i in seated]
            tables.append((table_id, clients))
    else:
        ids = await asyncio.gather(
            *(
                asyncio.to_thread(
                    table_new, people.users[i], VARIANT, TARGET, phase.bot_speed
                )
                for i in range(phase.tables)
            )
        )
        tables = [(tid, [Player(*args_of(i))]) for i, tid in enumerate(ids)]
    shared.table_ids.extend(tid for tid, _ in tables if target != "floor")
    return tables


async def measure(
    target: str,
    phase: Phase,
    url: str,
    pids: dict[str, int],
    people: People,
    seed: int,
    floor_ids: Iterator[int],
    floor_bytes: int,
) -> dict[str, Any]:
    """One phase of one target: open its tables, play, measure the window."""
    import psutil

    from games.consumers import ACTIONS_PER_SECOND

    scenario = Scenario(
        name=f"{target}-{phase.name}",
        tables=phase.tables,
        seconds=phase.seconds,
        moves=None,
        pause=phase.pause,
        bot_speed=phase.bot_speed,
        variant=VARIANT,
        target=TARGET,
        spread=phase.spread,
        warmup=WARMUP,
    )
    shared = Shared(scenario)
    rng = random.Random(seed)
    tables = await tables_make(
        target, phase, shared, url, people, rng, floor_ids, floor_bytes
    )
    for start in range(0, len(tables), 5):  # no connection storm
        await asyncio.gather(
            *(
                c.open(tid)
                for tid, clients in tables[start : start + 5]
                for c in clients
            )
        )
    clients = [c for _, table_clients in tables for c in table_clients]
    players = [asyncio.create_task(c.play()) for c in clients]
    await asyncio.sleep(scenario.warmup)

    me = psutil.Process()
    cpu0, me0 = cpu_seconds(pids), me.cpu_times()
    t0_db = await asyncio.to_thread(db_now)
    shared.t0 = time.perf_counter()
    shared.measuring = True
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(shared.stop_acting.wait(), timeout=phase.seconds)
    shared.stop_acting.set()
    # Replies to acts in flight still count; wait for them before closing the window.
    await asyncio.gather(*(c._await_reply(timeout=10) for c in clients))
    shared.measuring = False
    elapsed = time.perf_counter() - shared.t0
    t1_db = await asyncio.to_thread(db_now)
    cpu1, me1 = cpu_seconds(pids), me.cpu_times()
    await asyncio.gather(*players, return_exceptions=True)
    for c in clients:
        await c.close()
    if target == "floor":
        moves = len(shared.rtts)
    else:
        by_actor = await asyncio.to_thread(
            moves_between, shared.table_ids, t0_db, t1_db
        )
        moves = sum(by_actor.values())
        await asyncio.to_thread(tables_retire, shared.table_ids)
    cpu = {name: cpu1[name] - cpu0[name] for name in pids}
    return {
        "acts": len(shared.rtts),
        "acts_cap": len(clients) * ACTIONS_PER_SECOND * elapsed,
        "moves": moves,
        "moves_per_s": moves / elapsed,
        "p50": pct(shared.rtts, 50),
        "p99": pct(shared.rtts, 99),
        "cpu_ms": 1000 * sum(cpu.values()) / moves if moves else math.nan,
        "cpu_ms_by": {
            k: 1000 * v / moves if moves else math.nan for k, v in cpu.items()
        },
        "client_pct": 100 * (me1.user + me1.system - me0.user - me0.system) / elapsed,
        "errors": dict(shared.errors),
        "closed": shared.closed_unexpectedly,
        "switches": shared.table_switches,
        "loadavg": os.getloadavg()[0],
    }


def show(label: str, phase: str, r: dict[str, Any]) -> None:
    by = ", ".join(f"{k} {v:.2f}" for k, v in r["cpu_ms_by"].items())
    notes = ""
    if r["errors"] or r["closed"] or r["switches"]:
        notes = (
            f"  errors {r['errors'] or 0}, unexpected closes {r['closed']}, "
            f"new tables {r['switches']}"
        )
    if phase == "saturation" and r["acts"] >= CAP_NEAR * r["acts_cap"]:
        notes += "  NEAR THE CLIENTS' CAP: add --sat-tables"
    print(
        f"  {label:<16} {phase:<10} {r['acts']:>6} acts {r['moves']:>6} moves "
        f"{r['moves_per_s']:7.1f}/s  p50 {r['p50']:6.1f}  p99 {r['p99']:6.1f} ms  "
        f"CPU {r['cpu_ms']:5.2f} ms/move ({by})  client {r['client_pct']:3.0f}%  "
        f"load {r['loadavg']:.1f}{notes}",
        flush=True,
    )


# --- the summary


def median(values: list[float]) -> float:
    """The median of the values that are numbers (nan if none is)."""
    kept = [v for v in values if not math.isnan(v)]
    return statistics.median(kept) if kept else math.nan


def paired_ratio(tops: list[float], bottoms: list[float]) -> float:
    """The median of ``tops[i] / bottoms[i]`` over the rounds where both are
    numbers and the bottom is not 0: each table against its own round's floor."""
    ratios = [
        top / bottom
        for top, bottom in zip(tops, bottoms, strict=True)
        if not math.isnan(top) and not math.isnan(bottom) and bottom
    ]
    return statistics.median(ratios) if ratios else math.nan


def goal_text(value: float, goal: float, *, at_most: bool) -> str:
    if math.isnan(value):
        return "n/a"
    met = value <= goal if at_most else value >= goal
    sign = "<=" if at_most else ">="
    return f"{value:.3g} ({sign} {goal:g}: {'met' if met else 'MISSED'})"


Results = dict[tuple[str, str, str], list[dict[str, Any]]]  # (server, target, phase)


def series(results: Results, key: tuple[str, str, str], field: str) -> list[float]:
    return [float(r[field]) for r in results[key]]


def goals_line(results: Results, server: str, target: str) -> str:
    """A table's ratios to the floor and its CPU per move, beside the goals."""

    def ratio(field: str, phase: str) -> float:
        return paired_ratio(
            series(results, (server, target, phase), field),
            series(results, (server, "floor", phase), field),
        )

    p50 = goal_text(ratio("p50", "paced"), GOAL_P50, at_most=True)
    p99 = goal_text(ratio("p99", "paced"), GOAL_P99, at_most=True)
    saturation = goal_text(
        ratio("moves_per_s", "saturation"), GOAL_SATURATION, at_most=False
    )
    cpu = median(series(results, (server, target, "paced"), "cpu_ms"))
    return (
        f"{target}-{server}: p50 x{p50}, p99 x{p99}, saturation x{saturation}, "
        f"CPU ms/move {goal_text(cpu, GOAL_CPU_MS, at_most=True)}"
    )


def summary(results: Results, kinds: list[str], targets: list[str]) -> None:
    print("\n== medians of the rounds")
    for server in kinds:
        for target in targets:
            paced, sat = (server, target, "paced"), (server, target, "saturation")
            print(
                f"  {target + '-' + server:<16} paced p50 "
                f"{median(series(results, paced, 'p50')):6.1f} ms, p99 "
                f"{median(series(results, paced, 'p99')):6.1f} ms, CPU "
                f"{median(series(results, paced, 'cpu_ms')):5.2f} ms/move; "
                f"saturation {median(series(results, sat, 'moves_per_s')):7.1f}/s "
                f"at p50 {median(series(results, sat, 'p50')):6.1f} ms",
                flush=True,
            )
    print("\n== against the floor of the same server and round (issue 32's goals)")
    for server in kinds:
        for target in targets:
            if target != "floor":
                print(f"  {goals_line(results, server, target)}", flush=True)
    for other in kinds:
        if other == "daphne" or "daphne" not in kinds:
            continue
        print(
            f"\n== {other} over daphne (median of the rounds' ratios; below 1: "
            f"{other} lower)"
        )
        for target in targets:
            parts = []
            for key, phase, label in (
                ("p50", "paced", "p50"),
                ("p99", "paced", "p99"),
                ("cpu_ms", "paced", "CPU/move"),
                ("moves_per_s", "saturation", "saturation"),
            ):
                value = paired_ratio(
                    series(results, (other, target, phase), key),
                    series(results, ("daphne", target, phase), key),
                )
                parts.append(f"{label} x{value:.3g}")
            print(f"  {target}: " + ", ".join(parts), flush=True)


# --- the run


async def main_async(args: argparse.Namespace, servers: Servers) -> None:
    from django.conf import settings

    began = time.monotonic()
    kinds = servers_of(args.server)
    targets = ["floor", *(k for k in TABLE_KINDS if args.table in (k, "both"))]
    phases = [
        Phase(
            "paced",
            args.tables,
            args.seconds,
            PACE,
            settings.MATCHMAKING_BOT_SPEED,
            spread=2.0,
        ),
        Phase(
            "saturation",
            args.sat_tables,
            args.sat_seconds,
            (0.0, 0.0),
            "instant",
            spread=0.0,
        ),
    ]
    n_users = SEATS * max(args.tables, args.sat_tables)
    users = await asyncio.to_thread(users_ensure, n_users)
    cookies = [await asyncio.to_thread(cookie_for, u) for u in users]
    people = People(users, cookies)
    floor_ids = iter(range(1, 10**9))
    results: Results = {}
    for round_no in range(args.rounds):
        print(f"\n== round {round_no + 1} of {args.rounds}", flush=True)
        for server in kinds:
            for target in targets:
                app = "floor" if target == "floor" else "table"
                for phase in phases:
                    r = await asyncio.wait_for(
                        measure(
                            target,
                            phase,
                            servers.urls[server, app],
                            servers.pids[server, app],
                            people,
                            args.seed + round_no,
                            floor_ids,
                            args.floor_bytes,
                        ),
                        timeout=phase.seconds + 180,
                    )
                    results.setdefault((server, target, phase.name), []).append(r)
                    show(f"{target}-{server}", phase.name, r)
    summary(results, kinds, targets)
    print(f"\n{time.monotonic() - began:.0f} s in all", flush=True)


SERVER_KINDS = ("daphne", "uvicorn", "granian", "hypercorn")


def servers_of(choice: str) -> list[str]:
    """``--server``: one kind, ``both`` (daphne and uvicorn), ``all``, or a comma
    list."""
    if choice == "both":
        return ["daphne", "uvicorn"]
    if choice == "all":
        return list(SERVER_KINDS)
    kinds = [k.strip() for k in choice.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in SERVER_KINDS]
    if unknown or not kinds:
        raise SystemExit(f"--server: choose among {', '.join(SERVER_KINDS)}")
    return kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--server",
        default="both",
        help="daphne, uvicorn, granian, hypercorn, a comma list of them, both "
        "(daphne and uvicorn) or all",
    )
    parser.add_argument(
        "--table",
        choices=[*TABLE_KINDS, "both"],
        default="both",
        help="four: 4 people with turn clocks; computer: 1 person vs a computer",
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tables", type=int, default=25, help="paced: tables")
    parser.add_argument("--seconds", type=float, default=20, help="paced: window")
    parser.add_argument("--sat-tables", type=int, default=30, help="saturation: tables")
    parser.add_argument(
        "--sat-seconds", type=float, default=15, help="saturation: window"
    )
    parser.add_argument(
        "--floor-bytes",
        type=int,
        default=1024,
        help="the floor's frame size (issue 32's goal for a table frame's median)",
    )
    parser.add_argument(
        "--uvicorn-ws",
        choices=["websockets", "websockets-sansio"],
        default="websockets",
        help="uvicorn's WebSocket implementation",
    )
    parser.add_argument(
        "--port", type=int, default=8751, help="the first of 2 per server"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-dir", type=Path, default=Path("/tmp/floor_bench"))
    args = parser.parse_args()

    env = server_env(
        database_url=DATABASE_URL,
        redis_url=REDIS_URL,
        DEPLOYMENT_PREFIX=PREFIX,
        CONN_MAX_AGE="60",  # platform/.env.example
    )
    servers: Servers | None = None

    def on_term(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGHUP, on_term)
    try:
        print(f"setting up: {DATABASE_URL}, {REDIS_URL}, prefix {PREFIX}", flush=True)
        database_ensure(DB_NAME, env)
        redis_flush(REDIS_URL)
        django_setup(env)
        started = time.monotonic()
        servers = servers_start(
            env, servers_of(args.server), args.port, args.log_dir, args.uvicorn_ws
        )
        print(
            "servers: "
            + ", ".join(f"{k[1]}-{k[0]} {u}" for k, u in servers.urls.items())
            + f" and a Celery worker, up in {time.monotonic() - started:.0f} s; "
            f"logs in {args.log_dir}",
            flush=True,
        )
        asyncio.run(main_async(args, servers))
    finally:
        if servers is not None:
            servers.stop()


if __name__ == "__main__":
    main()
