"""Ledger benchmark on PostgreSQL (a benchmark, not a test: run by hand).

    psql -h 127.0.0.1 -U postgres -c 'create database econ_bench'
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/econ_bench \\
        .venv/bin/python bench/ledger.py [--tables 400] [--workers 8] [--rounds 3]

Measures, with ``--workers`` concurrent processes: entry payments per second (four
per table) and settled tables per second; then fills the ledger to at least one
million entries and times the full audit. Prints medians over ``--rounds``, and the
SQL statements (BEGIN and COMMIT included) of one entry payment and one settlement,
counted on the wire by ``bench/wire.py``'s PostgreSQL proxy. Targets (issue 7):
≥ 500 settled tables/s, audit of 1 M entries in ≤ 10 s.

What is timed is only the calls themselves: the players, their coins and (for the
settlements) the entries are made before the clock starts; the worker processes are
forked and connected once, before the first round, and keep their connection.

Not measured:

* the time of one call: the rates are the pool's throughput, wall clock from the
  first job handed out to the last one done, the pool's dispatch included;
* CPU time, the workers' or PostgreSQL's (a local server shares the cores with
  the workers);
* contention on a wallet or a pot: each table's four players and its pot are its
  own, so no two concurrent calls touch the same account;
* the rest of a table (seats, the game, sockets): only ``pot_entry_pay`` and
  ``pot_settle`` are called;
* statements under load: they are counted once, alone, in this process;
* an audit of a production ledger: the fill is synthetic (four-entry transactions
  from the mint, bulk-loaded with triggers off, analysed just before, its own time
  not taken), and the ``--rounds`` audits read the same data, so all but the first
  find PostgreSQL's cache warm.
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
from django.db import connection, connections, transaction  # noqa: E402

from bench.wire import django_wired  # noqa: E402
from economy.audit import ledger_audit  # noqa: E402
from economy.models import Account, Entry, Transaction  # noqa: E402
from economy.services import pot_entry_pay, pot_settle, wallets_ensure  # noqa: E402
from economy.wallets import _mint_to_wallet  # noqa: E402

FEE = 250


def _pay(job: tuple[str, list[int]]) -> None:
    table, users = job
    for user_id in users:
        pot_entry_pay(table_ref=table, user_id=user_id, amount=FEE)


def _settle(job: tuple[str, list[int]]) -> None:
    table, users = job
    pot_settle(table_ref=table, winner_user_ids=[users[0], users[2]])


def _worker_init() -> None:
    connections.close_all()  # a forked child must not share the parent's socket
    connection.ensure_connection()  # connect now, not inside the first timed call


def players_make(count: int, coins: int, run: str) -> list[int]:
    User = get_user_model()
    User.objects.bulk_create(
        User(username=f"bench-{run}-{n}", password="!") for n in range(count)
    )
    ids = list(
        User.objects.filter(username__startswith=f"bench-{run}-").values_list(
            "pk", flat=True
        )
    )
    wallets_ensure(user_ids=ids)
    for uid in ids:
        with transaction.atomic():
            _mint_to_wallet(
                key=f"bench-fund:{run}:{uid}", kind="signup", user_id=uid, amount=coins
            )
    return ids


def queries_count(run: str) -> dict[str, int]:
    """Statements sent by one entry payment (first of a pot, later) and settlement."""
    users = players_make(4, FEE, f"{run}-q")
    table = f"b{run}q"
    counts = {}
    with django_wired() as pg:
        for n, user_id in enumerate(users):
            before = pg.snapshot()
            pot_entry_pay(table_ref=table, user_id=user_id, amount=FEE)
            counts.setdefault(
                "entry payment" if n else "first entry of a pot",
                pg.since(before).statements,
            )
        before = pg.snapshot()
        pot_settle(table_ref=table, winner_user_ids=[users[0], users[2]])
        counts["settlement"] = pg.since(before).statements
        print("a settlement on the wire:", *pg.since(before).texts, sep="\n  ")
    return counts


def timed(pool: mp.pool.Pool, func, jobs) -> float:
    started = time.perf_counter()
    for _ in pool.imap_unordered(func, jobs, chunksize=4):
        pass
    return time.perf_counter() - started


def ledger_fill(target_entries: int, run: str) -> int:
    """Bulk-load balanced synthetic transactions until the ledger holds the target."""
    have = Entry.objects.count()
    missing_tx = max(0, (target_entries - have + 3) // 4)
    if not missing_tx:
        return have
    mint = Account.objects.get_or_create(
        key="mint", defaults={"kind": "mint", "balance": None}
    )[0]
    wallet_ids = list(
        Account.objects.filter(kind="wallet")
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    with transaction.atomic(), connection.cursor() as cur:
        # Bulk load only: the rows are balanced by construction; triggers are off
        # for this transaction so the load takes seconds, not minutes.
        cur.execute("SET LOCAL session_replication_role = replica")
        cur.execute(
            "INSERT INTO economy_transaction "
            "(key, kind, table_ref, fingerprint, memo, reason, created_at) "
            "SELECT 'bench-fill:' || %s || ':' || g, 'reward', '', '', '', '', now() "
            "FROM generate_series(1, %s) g",
            [run, missing_tx],
        )
        cur.execute(
            "INSERT INTO economy_entry (transaction_id, account_id, amount) "
            "SELECT t.id, x.account_id, x.amount FROM economy_transaction t, "
            "LATERAL (VALUES (%s::bigint, -300::bigint), "
            "  ((%s::bigint[])[1 + (t.id * 3) %% %s], 100), "
            "  ((%s::bigint[])[1 + (t.id * 3 + 1) %% %s], 100), "
            "  ((%s::bigint[])[1 + (t.id * 3 + 2) %% %s], 100)) "
            "  AS x(account_id, amount) "
            "WHERE t.key LIKE %s",
            [
                mint.pk,
                wallet_ids,
                len(wallet_ids),
                wallet_ids,
                len(wallet_ids),
                wallet_ids,
                len(wallet_ids),
                f"bench-fill:{run}:%",
            ],
        )
        cur.execute(
            "UPDATE economy_account a SET balance = s.total FROM "
            "(SELECT account_id, SUM(amount) AS total FROM economy_entry "
            " GROUP BY account_id) s "
            "WHERE a.id = s.account_id AND a.balance IS NOT NULL"
        )
    with connection.cursor() as cur:
        cur.execute("ANALYZE economy_entry")
        cur.execute("ANALYZE economy_transaction")
        cur.execute("ANALYZE economy_account")
    return Entry.objects.count()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=400, help="tables per round")
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--entries", type=int, default=1_000_000)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench/ledger.py needs DATABASE_URL pointing at PostgreSQL")
    call_command("migrate", verbosity=0)
    run = uuid.uuid4().hex[:8]
    players = args.tables * 4
    print(f"{players} players, {args.tables} tables/round, {args.workers} workers")
    ids = players_make(players, FEE * args.rounds, run)
    counts = queries_count(run)
    print("SQL statements: " + ", ".join(f"{n} per {k}" for k, n in counts.items()))
    connections.close_all()

    pay_rates, settle_rates = [], []
    ctx = mp.get_context("fork")
    with ctx.Pool(args.workers, initializer=_worker_init) as pool:
        for r in range(args.rounds):
            jobs = [
                (f"b{run}r{r}t{n}", ids[4 * n : 4 * n + 4]) for n in range(args.tables)
            ]
            secs = timed(pool, _pay, jobs)
            pay_rates.append(4 * args.tables / secs)
            secs = timed(pool, _settle, jobs)
            settle_rates.append(args.tables / secs)
            print(
                f"round {r + 1}: {pay_rates[-1]:7.0f} entry payments/s, "
                f"{settle_rates[-1]:6.0f} settled tables/s"
            )
    print(f"median: {statistics.median(pay_rates):.0f} entry payments/s")
    print(f"median: {statistics.median(settle_rates):.0f} settled tables/s (≥ 500)")

    total = ledger_fill(args.entries, run)
    audit_times, breaches = [], []
    for _ in range(args.rounds):
        started = time.perf_counter()
        breaches = ledger_audit()
        audit_times.append(time.perf_counter() - started)
    print(
        f"audit of {total:,} entries / {Transaction.objects.count():,} transactions: "
        f"median {statistics.median(audit_times):.2f} s (≤ 10 s), "
        f"{len(breaches)} breach(es)"
    )


if __name__ == "__main__":
    main()
