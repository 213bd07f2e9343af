"""Stake-table sit-down benchmark on PostgreSQL (a benchmark, not a test).

    psql -h 127.0.0.1 -U postgres -c 'create database stakes_bench'
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/stakes_bench \\
        .venv/bin/python bench/stakes.py [--clients 8] [--sits 400] [--rounds 3] \\
        [--floor]

``--clients`` processes race for the seats of the same stake and shape (Quick seat,
100 coins, 4 seats in partnership): every sit-down takes a seat of a games table and
pays the entry into its pot in one transaction, and every fourth starts its table
(the deal). Prints sit-downs per second (median over ``--rounds``) and the ledger
audit afterwards. Target (issue 21): >= 300 sit-downs/s, 0 audit breaches.

Only the calls are timed: players, coins and connections are made before the clock
starts, an untimed warm-up round of 8 sit-downs per client comes first, and the
tables are vacuumed and analysed before each round (``VACUUM ANALYZE``: on a server
without autovacuum the planner would otherwise plan for the empty tables of the
first round, and every open-table look-up would wade through the dead row versions
of the rounds before). Every player has coins for exactly one entry per round.

Also printed: the CPU time of one sit-down, the clients' own plus their PostgreSQL
backends' (read from ``/proc`` when the server runs on this machine), which other
work on a shared machine does not change as it changes the rate.

Not measured:

* the time of one sit-down: the rate is the clients' throughput, wall clock over
  a round;
* the rest of a sit-down: ``stake_sit`` is called directly (no HTTP request, no
  socket), no Celery worker runs what it publishes (the fill deadline), and no
  stake lobby is open to receive its notice and fetch its state;
* PostgreSQL's CPU beyond the clients' backends (its background processes), and
  theirs too unless ``/proc`` shows them; Redis's CPU;
* other stakes and shapes at the same time, leaving a table, refunds, settlement;
* statements under load: they are counted on the wire (``bench/wire.py``'s
  PostgreSQL proxy) for one table's four sit-downs alone, after the timed rounds.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# The bench's players are made fresh for each round: every stake is open to them
# (the unlock by play is tested in tests/matchmaking/stakes/test_unlock.py).
os.environ.setdefault("STAKES_UNLOCK", "{}")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, connections, transaction  # noqa: E402

from bench.ledger import players_make  # noqa: E402
from bench.wire import django_wired  # noqa: E402
from economy.audit import ledger_audit  # noqa: E402
from matchmaking.errors import StakeError  # noqa: E402
from matchmaking.stakes import services as stakes  # noqa: E402

STAKE = 100
SHAPE = "draw-4p"
WARM_UP_SITS = 8  # per client, before the timed rounds


def _worker_init() -> None:
    connections.close_all()  # a forked child must not share the parent's socket
    connection.ensure_connection()


def _backend_cpu() -> float | None:
    """CPU seconds used so far by this connection's PostgreSQL backend, if readable."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _sit_all(user_ids: list[int]) -> tuple[int, int, float, float | None]:
    """Sit each player down by Quick seat: (seated, refused, client CPU seconds,
    backend CPU seconds or None)."""
    users = list(get_user_model().objects.filter(pk__in=user_ids))
    seated = refused = 0
    backend = _backend_cpu()
    cpu = time.process_time()
    for user in users:
        try:
            stakes.stake_sit(user=user, stake=STAKE, shape=SHAPE)
            seated += 1
        except StakeError:
            refused += 1
    cpu = time.process_time() - cpu
    backend_after = _backend_cpu()
    used = None if backend is None or backend_after is None else backend_after - backend
    return seated, refused, cpu, used


FLOOR_TABLE = "bench_stakes_floor"


def _floor_loop(args: tuple[int, int, bool]) -> None:
    """One client's share of the floor: a one-row UPDATE and COMMIT, ``count``
    times, on its own row (or on row 0 with ``same``)."""
    client, count, same = args
    row = 0 if same else client
    for _ in range(count):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {FLOOR_TABLE} SET n = n + 1 WHERE id = %s",
                [row],
            )


def floor(pool: mp.pool.Pool, clients: int, count: int, *, same: bool) -> float:
    """Transactions per second of the trivial write: what this machine's PostgreSQL
    and this client stack commit at most, the bound of any sit-down rate."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {FLOOR_TABLE} (id int PRIMARY KEY, n bigint)"
        )
        cursor.execute(
            f"INSERT INTO {FLOOR_TABLE} SELECT g, 0 FROM generate_series(0, %s) g "
            "ON CONFLICT DO NOTHING",
            [clients],
        )
    start = time.perf_counter()
    pool.map(_floor_loop, [(c, count, same) for c in range(clients)])
    return clients * count / (time.perf_counter() - start)


def statements_per_sit() -> list[int]:
    """SQL statements (BEGIN and COMMIT included) of the four sit-downs of one
    table: the first opens it, the last starts it."""
    user_model = get_user_model()
    users = list(
        user_model.objects.filter(pk__in=players_make(4, STAKE, uuid.uuid4().hex[:8]))
    )
    counts = []
    with django_wired() as pg:
        for user in users:
            before = pg.snapshot()
            stakes.stake_sit(user=user, stake=STAKE, shape=SHAPE)
            counts.append(pg.since(before).statements)
    return counts


@dataclass
class Round:
    rate: float
    seated: int
    refused: int
    client_ms: float  # CPU per sit-down
    backend_ms: float | None


def one_round(pool: mp.pool.Pool, clients: int, sits: int) -> Round:
    ids = players_make(sits, STAKE, uuid.uuid4().hex[:8])
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    chunks = [ids[i::clients] for i in range(clients)]
    start = time.perf_counter()
    results = pool.map(_sit_all, chunks)
    elapsed = time.perf_counter() - start
    seated = sum(r[0] for r in results)
    backends = [r[3] for r in results]
    return Round(
        rate=seated / elapsed,
        seated=seated,
        refused=sum(r[1] for r in results),
        client_ms=sum(r[2] for r in results) / len(ids) * 1000,
        backend_ms=(
            None
            if None in backends
            else sum(b or 0.0 for b in backends) / len(ids) * 1000
        ),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--sits", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also time a one-row UPDATE + COMMIT by the same clients",
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench/stakes.py needs PostgreSQL (DATABASE_URL)")
    call_command("migrate", verbosity=0)
    # The fill-deadline task is published by a thread in production as here; the
    # sweep would cancel these tables if they waited, so the bench never waits.
    ctx = mp.get_context("fork")
    connections.close_all()
    rounds = []
    with ctx.Pool(args.clients, initializer=_worker_init) as pool:
        # Untimed: each new client process pays its one-time costs (first queries
        # compiled, SQL and adapters cached) before the rounds.
        one_round(pool, args.clients, args.clients * WARM_UP_SITS)
        for n in range(args.rounds):
            done = one_round(pool, args.clients, args.sits)
            rounds.append(done)
            backend = "?" if done.backend_ms is None else f"{done.backend_ms:.2f}"
            print(
                f"round {n + 1}: {done.rate:7.1f} sit-downs/s "
                f"({done.seated} seated, {done.refused} refused); CPU per "
                f"sit-down {done.client_ms:.2f} ms client + {backend} ms PostgreSQL"
            )
        if args.floor:
            for same in (False, True):
                rate = floor(pool, args.clients, args.sits, same=same)
                rows = "one shared row" if same else "a row each"
                print(f"floor, UPDATE + COMMIT on {rows}: {rate:7.0f} /s")
    # After the pool: a process forked once this one has sent to the channel layer
    # would inherit a sender loop whose thread it does not have.
    print("statements per sit-down (open, join, join, start):", statements_per_sit())
    breaches = ledger_audit()
    print(
        f"sit-downs/s with {args.clients} clients: median "
        f"{statistics.median(r.rate for r in rounds):.1f} (target >= 300)"
    )
    if all(r.backend_ms is not None for r in rounds):
        total = statistics.median(r.client_ms + (r.backend_ms or 0.0) for r in rounds)
        print(f"CPU per sit-down, clients and PostgreSQL: median {total:.2f} ms")
    print(f"ledger audit breaches: {len(breaches)}")
    for breach in breaches[:10]:
        print("  ", breach)


if __name__ == "__main__":
    main()
