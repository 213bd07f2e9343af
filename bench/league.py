"""League benchmark on PostgreSQL (a benchmark, not a test: run by hand).

    psql -h 127.0.0.1 -U postgres -c 'create database league_bench'
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/league_bench \\
        .venv/bin/python bench/league.py [--players 100000] [--rounds 3] \\
        [--finishing 20]

Closes a week of ``--players`` active players (groups of 30: ~3,400 groups for
100,000) with ``leagues.rollover.week_close``: ranks, zones, divisions and the
rewards through the ledger (``week_rewards_pay``). Prints the median over ``--rounds``
weeks of the close and of the reward payments, then the ledger audit, then the SQL
queries of the league page and of its JSON standings at two group sizes (they must be
equal), counted on the wire by ``bench/wire.py``'s PostgreSQL proxy. Target (issue
32): a week of 100,000 players closed, rewards included, in <= 60 s while tables keep
finishing.

``--finishing N``: meanwhile another process finishes N online tables a second of two
of those players (from a second before the close until the rewards are paid),
through the real finish consequence: the final move's writes (status,
``finished_at``, the owed ``FinishStep``) committed, then
``games.finish.finish_step_apply(name="league")`` in a pool of threads, as the final
move's after-commit hook runs it. Nine in ten finish in the new week; one in ten is
a late commit of the closing week (finished at its last millisecond). It prints how
many finished during the close and rewards, the longest and 99th-percentile wait of
their league step (new week and late commits apart), and checks that every table has
its two entries and that every place in both weeks holds exactly the points of its
counted entries (none lost, none doubled), in the division its player holds.

Not timed: the players, their wallets, each week's memberships and the finishing
tables (their seats and places), made in bulk before the clock starts. Not measured:
the other consequences of a finish (coins, ratings) and the final move's own work,
which do not touch league rows; the rollover's wait for the grace after midnight; a
finish step retried by the sweep.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.db.models import Count, Max, Sum  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.wire import django_wired  # noqa: E402
from economy.audit import ledger_audit  # noqa: E402
from economy.ledger import wallet_key  # noqa: E402
from economy.models import Account  # noqa: E402
from games import engine  # noqa: E402
from games.finish import finish_step_apply  # noqa: E402
from games.models import FinishStep, Seat, Table  # noqa: E402
from leagues import conf  # noqa: E402
from leagues.models import Group, Membership, Player, PointEntry, Week  # noqa: E402
from leagues.rollover import week_close, week_rewards_pay  # noqa: E402
from leagues.weeks import WEEK, week_start  # noqa: E402

BATCH = 5000
FIRST_WEEK = datetime(2020, 1, 6, tzinfo=UTC)  # a Monday long past
# Finishing tables made per table a second asked for: enough for a close and its
# rewards of 150 s; the finisher says when it ran out.
POOL_SECONDS = 150
FINISH_THREADS = 16  # final moves committing at once, each then running its step
LATE_EVERY = 10  # one finishing table in ten is a late commit of the closing week
LEAD_SECONDS = 1.0  # tables finish this long before the close starts


def players_make(count: int) -> list[int]:
    User = get_user_model()
    have = User.objects.filter(username__startswith="lb").count()
    User.objects.bulk_create(
        [User(username=f"lb{i}", password="!") for i in range(have, count)],
        batch_size=BATCH,
    )
    ids = list(
        User.objects.filter(username__startswith="lb")
        .order_by("pk")
        .values_list("pk", flat=True)[:count]
    )
    Player.objects.bulk_create(
        [Player(user_id=u) for u in ids], batch_size=BATCH, ignore_conflicts=True
    )
    Account.objects.bulk_create(
        [Account(key=wallet_key(u), kind="wallet", user_id=u, balance=0) for u in ids],
        batch_size=BATCH,
        ignore_conflicts=True,
    )
    return ids


def week_fill(start: datetime, user_ids: list[int], rng: random.Random) -> Week:
    """A week whose players sit in groups of 30 by arrival, each with some points."""
    week = Week.objects.create(start=start)
    size = conf.group_size()
    division = dict(Player.objects.values_list("user_id", "division"))
    groups: dict[str, list[int]] = {}
    for u in user_ids:
        groups.setdefault(division[u], []).append(u)
    members = []
    for div, users in groups.items():
        made = Group.objects.bulk_create(
            [
                Group(
                    week=week, division=div, number=n + 1, size=len(users[i : i + size])
                )
                for n, i in enumerate(range(0, len(users), size))
            ],
            batch_size=BATCH,
        )
        for n, group in enumerate(made):
            for u in users[n * size : (n + 1) * size]:
                at = start + timedelta(seconds=rng.randrange(7 * 86400))
                members.append(
                    Membership(
                        week=week,
                        group=group,
                        user_id=u,
                        division=div,
                        points=Decimal(rng.randrange(0, 400)) / 2,
                        tables=rng.randrange(1, 40),
                        joined_at=at,
                        reached_at=at,
                    )
                )
    Membership.objects.bulk_create(members, batch_size=BATCH)
    return week


def tables_make(count: int, user_ids: list[int], rng: random.Random) -> list[int]:
    """``count`` online two-seat tables still playing, their places already written
    (as the final move writes them), each of two random players."""
    options = engine.options_for("draw", seats=2).to_dict()
    tables = Table.objects.bulk_create(
        [
            Table(
                mode=Table.Mode.ONLINE,
                status=Table.Status.PLAYING,
                variant="draw",
                options=options,
                seed=rng.randrange(2**62),
            )
            for _ in range(count)
        ],
        batch_size=BATCH,
    )
    seats = []
    for table in tables:
        for position, user_id in enumerate(rng.sample(user_ids, 2)):
            seats.append(
                Seat(
                    table=table, position=position, user_id=user_id, place=position + 1
                )
            )
    Seat.objects.bulk_create(seats, batch_size=BATCH)
    return [t.pk for t in tables]


def finish_one(table_id: int, at: datetime) -> tuple[int, float, float, bool]:
    """The final move's commit, then its league step; when it committed (wall
    clock), how long the step took, and whether it applied."""
    with transaction.atomic():
        Table.objects.filter(pk=table_id).update(
            status=Table.Status.FINISHED, finished_at=at
        )
        FinishStep.objects.create(table_id=table_id, name="league")
    committed = time.time()
    t = time.perf_counter()
    applied = finish_step_apply(table_id=table_id, name="league")
    return table_id, committed, time.perf_counter() - t, applied


def finisher(
    table_ids: list[int], rate: float, week_end: datetime, ready, go, stop, out
) -> None:
    """Finish ``rate`` tables a second from ``go`` until ``stop`` (another process)."""
    Table.objects.exists()  # connected before the start
    ready.set()
    go.wait()
    began = time.perf_counter()
    futures = []
    with ThreadPoolExecutor(FINISH_THREADS) as pool:
        for n, table_id in enumerate(table_ids):
            if stop.is_set():
                break
            delay = began + n / rate - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            late = n % LATE_EVERY == LATE_EVERY - 1
            at = (
                week_end - timedelta(milliseconds=1)
                if late
                else week_end + timedelta(seconds=time.perf_counter() - began)
            )
            futures.append((late, pool.submit(finish_one, table_id, at)))
        else:
            print(f"finisher: all {len(table_ids)} tables finished before the stop")
    out.put([(late, *f.result()) for late, f in futures])


def points_held(week: Week, user_ids: set[int]) -> dict[int, tuple[Decimal, int]]:
    rows = Membership.objects.filter(week=week, user_id__in=user_ids)
    return {u: (p, n) for u, p, n in rows.values_list("user_id", "points", "tables")}


def finishing_check(
    week: Week, before: dict[int, tuple[Decimal, int]], table_ids: list[int]
) -> str:
    """Every finished table counted once; every place of the closed week and the
    next holds exactly the points of its counted entries from these tables."""
    entries = PointEntry.objects.filter(table_id__in=table_ids)
    per_table = dict(
        entries.values_list("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    lost = sum(1 for t in table_ids if per_table.get(t, 0) == 0)
    partial = sum(1 for t in table_ids if per_table.get(t, 0) not in (0, 2))
    following = Week.objects.get(start=week.start + WEEK)
    wrong = 0
    landed = {}
    for w, base in ((week, before), (following, {})):
        counted = defaultdict(lambda: (Decimal(0), 0))
        rows = entries.filter(week=w, counted=True).values("user_id")
        for row in rows.annotate(p=Sum("points"), n=Count("id")):
            counted[row["user_id"]] = (row["p"], row["n"])
        landed[w.key] = entries.filter(week=w).values("table_id").distinct().count()
        held = points_held(w, set(counted) | set(base))
        for user_id in set(counted) | set(base):
            was = base.get(user_id, (Decimal(0), 0))
            now = held.get(user_id, (Decimal(0), 0))
            add = counted[user_id]
            if (now[0] - was[0], now[1] - was[1]) != add:
                wrong += 1
    division = dict(Player.objects.values_list("user_id", "division"))
    misplaced = sum(
        1
        for u, d in Membership.objects.filter(week=following).values_list(
            "user_id", "division"
        )
        if division[u] != d
    )
    undone = FinishStep.objects.filter(
        table_id__in=table_ids, done_at__isnull=True
    ).count()
    return (
        f"tables landed {landed}; lost {lost}, partly counted {partial}, places "
        f"not matching their entries {wrong}, new-week places in an old division "
        f"{misplaced}, steps not done {undone}"
        + (
            " -> OK"
            if lost == partial == wrong == misplaced == undone == 0
            else " -> FAIL"
        )
    )


def waits_line(label: str, waits: list[float]) -> str:
    if not waits:
        return f"{label}: none"
    ordered = sorted(waits)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{label}: {len(waits)}, league step longest {ordered[-1]:.2f} s, "
        f"p99 {p99:.2f} s, median {statistics.median(ordered):.3f} s"
    )


def page_queries(
    client: Client, size: int, week: Week, user_ids: list[int]
) -> tuple[int, int]:
    """Queries of the league page and its JSON for a player in a group of ``size``."""
    number = 10**6 + size
    Group.objects.filter(week=week, number=number).delete()  # left by a broken run
    group = Group.objects.create(week=week, division="bronze", number=number, size=size)
    now = timezone.now()
    Membership.objects.bulk_create(
        [
            Membership(
                week=week,
                group=group,
                user_id=u,
                division="bronze",
                points=Decimal(i),
                tables=1,
                joined_at=now,
                reached_at=now,
            )
            for i, u in enumerate(user_ids[:size])
        ]
    )
    client.force_login(get_user_model().objects.get(pk=user_ids[0]))
    counts = []
    with django_wired() as pg:
        for name in ("league", "league_standings"):
            before = pg.snapshot()
            assert client.get(reverse(name)).status_code == 200
            counts.append(pg.since(before).statements)
    Membership.objects.filter(group=group).delete()
    group.delete()
    return counts[0], counts[1]


def week_next() -> datetime:
    """A fresh week after every bench week (a close creates the week after it)."""
    ended = week_start(timezone.now()) - WEEK  # not the page's current week
    last = Week.objects.filter(start__lt=ended).aggregate(Max("start"))["start__max"]
    return last + WEEK if last else FIRST_WEEK


def close_timed(
    week: Week, ids: list[int], finishing: float, rng: random.Random
) -> tuple[float, float, int, str]:
    """Close ``week`` and pay it, with tables finishing meanwhile if asked; the close
    and rewards seconds, the rewards paid, and what the finishing tables saw."""
    if not finishing:
        t0 = time.perf_counter()
        week_close(week_id=week.pk)
        t1 = time.perf_counter()
        paid = week_rewards_pay(week_id=week.pk)
        return t1 - t0, time.perf_counter() - t1, paid, ""
    pool = tables_make(int(finishing * POOL_SECONDS), ids, rng)
    users = set(
        Seat.objects.filter(table_id__in=pool).values_list("user_id", flat=True)
    )
    before = points_held(week, users)  # type: ignore[arg-type]
    ctx = multiprocessing.get_context("spawn")
    ready, go, stop, out = ctx.Event(), ctx.Event(), ctx.Event(), ctx.Queue()
    proc = ctx.Process(
        target=finisher,
        args=(pool, finishing, week.start + WEEK, ready, go, stop, out),
    )
    proc.start()
    assert ready.wait(120), "the finisher did not start"
    connection.close()  # the clock starts on a fresh connection, as a task's would
    go.set()
    time.sleep(LEAD_SECONDS)
    w0, t0 = time.time(), time.perf_counter()
    week_close(week_id=week.pk)
    t1 = time.perf_counter()
    paid = week_rewards_pay(week_id=week.pk)
    t2, w2 = time.perf_counter(), time.time()
    stop.set()
    results = out.get()
    proc.join()
    Table.objects.filter(pk__in=pool, status=Table.Status.PLAYING).delete()  # unused
    during = [r for r in results if w0 <= r[2] <= w2]
    lines = [
        f"  {len(results)} tables finished at {finishing:g}/s from "
        f"{LEAD_SECONDS:g} s before the close, {len(during)} during the close and "
        "rewards",
        "  " + waits_line("new week", [r[3] for r in during if not r[0]]),
        "  "
        + waits_line(
            "late commits of the closing week", [r[3] for r in during if r[0]]
        ),
        "  " + finishing_check(week, before, [r[1] for r in results]),
    ]
    if not all(r[4] for r in results):
        lines.append("  some league steps did not apply (see the log) -> FAIL")
    return t1 - t0, t2 - t1, paid, "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--finishing",
        type=float,
        default=0,
        help="tables a second finished by another process during the close",
    )
    args = parser.parse_args()
    assert connection.vendor == "postgresql", (
        "set DATABASE_URL to a PostgreSQL database"
    )
    call_command("migrate", verbosity=0)
    rng = random.Random(23)
    t = time.perf_counter()
    ids = players_make(args.players)
    print(f"{len(ids)} players ready in {time.perf_counter() - t:.1f} s")
    closes, pays, totals = [], [], []
    for _ in range(args.rounds):
        week = week_fill(week_next(), ids, rng)
        groups = Group.objects.filter(week=week).count()
        close, pay, paid, finishing = close_timed(week, ids, args.finishing, rng)
        closes.append(close)
        pays.append(pay)
        totals.append(close + pay)
        print(
            f"week {week.key}: {groups} groups, close {close:.1f} s, "
            f"{paid} rewards paid in {pay:.1f} s"
        )
        if finishing:
            print(finishing)
    under = f" with {args.finishing:g} tables/s finishing" if args.finishing else ""
    print(
        f"median over {args.rounds} weeks of {len(ids)} players{under}: close "
        f"{statistics.median(closes):.1f} s + rewards {statistics.median(pays):.1f} s "
        f"= {statistics.median(totals):.1f} s (target <= 60 s)"
    )
    t = time.perf_counter()
    breaches = ledger_audit()
    print(f"ledger audit: {len(breaches)} breaches in {time.perf_counter() - t:.1f} s")
    current = Week.objects.get_or_create(start=week_start(timezone.now()))[0]
    client = Client()
    small, large = (page_queries(client, n, current, ids) for n in (5, 30))
    print(
        f"league page queries (page, json): group of 5 {small}, group of 30 {large}"
        f" -> {'constant' if small == large else 'NOT constant'}"
    )


if __name__ == "__main__":
    main()
