"""Stake-table sit-down benchmark on PostgreSQL (a benchmark, not a test).

    psql -h 127.0.0.1 -U postgres -c 'create database stakes_bench'
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/stakes_bench \\
        .venv/bin/python bench/stakes.py [--clients 8] [--sits 400] [--rounds 3]

``--clients`` processes race for the seats of the same stake and shape (Quick seat,
100 coins, 4 seats in partnership): every sit-down takes a seat of a games table and
pays the entry into its pot in one transaction, and every fourth starts its table
(the deal). Prints sit-downs per second (median over ``--rounds``) and the ledger
audit afterwards. Target (issue 21): >= 300 sit-downs/s, 0 audit breaches.

Only the calls are timed: players, coins and connections are made before the clock
starts. Every player has coins for exactly one entry per round.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, connections  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.ledger import players_make  # noqa: E402
from economy.audit import ledger_audit  # noqa: E402
from matchmaking import stakes  # noqa: E402
from matchmaking.stake_errors import StakeError  # noqa: E402

STAKE = 100
SHAPE = "draw-4p"


def _worker_init() -> None:
    connections.close_all()  # a forked child must not share the parent's socket
    connection.ensure_connection()


def _sit_all(user_ids: list[int]) -> tuple[int, int]:
    """Sit each player down by Quick seat; (seated, refused)."""
    users = list(get_user_model().objects.filter(pk__in=user_ids))
    seated = refused = 0
    for user in users:
        try:
            stakes.stake_sit(user=user, stake=STAKE, shape=SHAPE)
            seated += 1
        except StakeError:
            refused += 1
    return seated, refused


def statements_per_sit() -> list[int]:
    """SQL statements (BEGIN and COMMIT included) of the four sit-downs of one
    table: the first opens it, the last starts it."""
    user_model = get_user_model()
    users = list(
        user_model.objects.filter(pk__in=players_make(4, STAKE, uuid.uuid4().hex[:8]))
    )
    counts = []
    for user in users:
        with CaptureQueriesContext(connection) as queries:
            stakes.stake_sit(user=user, stake=STAKE, shape=SHAPE)
        counts.append(len(queries))
    return counts


def one_round(pool: mp.pool.Pool, clients: int, sits: int) -> tuple[float, int, int]:
    ids = players_make(sits, STAKE, uuid.uuid4().hex[:8])
    chunks = [ids[i::clients] for i in range(clients)]
    start = time.perf_counter()
    results = pool.map(_sit_all, chunks)
    elapsed = time.perf_counter() - start
    seated = sum(s for s, _ in results)
    refused = sum(r for _, r in results)
    return seated / elapsed, seated, refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--sits", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench/stakes.py needs PostgreSQL (DATABASE_URL)")
    call_command("migrate", verbosity=0)
    # The fill-deadline task is published by a thread in production as here; the
    # sweep would cancel these tables if they waited, so the bench never waits.
    ctx = mp.get_context("fork")
    connections.close_all()
    rates = []
    with ctx.Pool(args.clients, initializer=_worker_init) as pool:
        for n in range(args.rounds):
            rate, seated, refused = one_round(pool, args.clients, args.sits)
            rates.append(rate)
            print(
                f"round {n + 1}: {rate:7.1f} sit-downs/s "
                f"({seated} seated, {refused} refused)"
            )
    # After the pool: a process forked once this one has sent to the channel layer
    # would inherit a sender loop whose thread it does not have.
    print("statements per sit-down (open, join, join, start):", statements_per_sit())
    breaches = ledger_audit()
    print(
        f"sit-downs/s with {args.clients} clients: median "
        f"{statistics.median(rates):.1f} (target >= 300)"
    )
    print(f"ledger audit breaches: {len(breaches)}")
    for breach in breaches[:10]:
        print("  ", breach)


if __name__ == "__main__":
    main()
