"""League benchmark on PostgreSQL (a benchmark, not a test: run by hand).

    psql -h 127.0.0.1 -U postgres -c 'create database league_bench'
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/league_bench \\
        .venv/bin/python bench/league.py [--players 100000] [--rounds 3]

Closes a week of ``--players`` active players (groups of 30: ~3,400 groups for
100,000) with ``leagues.rollover.weeks_rollover``: ranks, zones, divisions and the
rewards through the ledger. Prints the median over ``--rounds`` weeks of the close and
of the reward payments, then the ledger audit, then the SQL queries of the league page
and of its JSON standings at two group sizes (they must be equal), counted on the
wire by ``bench/wire.py``'s PostgreSQL proxy. Target (issue 23):
a week of 100,000 players closed, rewards included, in ≤ 60 s.

Not timed: the players, their wallets and each week's memberships, made in bulk
before the clock starts.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.wire import django_wired  # noqa: E402
from economy.audit import ledger_audit  # noqa: E402
from economy.ledger import wallet_key  # noqa: E402
from economy.models import Account  # noqa: E402
from leagues import conf  # noqa: E402
from leagues.models import Group, Membership, Player, Week  # noqa: E402
from leagues.rollover import week_close, week_rewards_pay  # noqa: E402
from leagues.weeks import week_start  # noqa: E402

BATCH = 5000
FIRST_WEEK = datetime(2020, 1, 6, tzinfo=UTC)  # a Monday long past


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


def page_queries(
    client: Client, size: int, week: Week, user_ids: list[int]
) -> tuple[int, int]:
    """Queries of the league page and its JSON for a player in a group of ``size``."""
    group = Group.objects.create(
        week=week, division="bronze", number=10**6 + size, size=size
    )
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    assert connection.vendor == "postgresql", (
        "set DATABASE_URL to a PostgreSQL database"
    )
    call_command("migrate", verbosity=0)
    rng = random.Random(23)
    t = time.perf_counter()
    ids = players_make(args.players)
    print(f"{len(ids)} players ready in {time.perf_counter() - t:.1f} s")
    done = Week.objects.filter(start__lt=week_start(timezone.now())).count()
    closes, pays, totals = [], [], []
    for r in range(args.rounds):
        start = FIRST_WEEK + timedelta(days=7 * (done + r))
        week = week_fill(start, ids, rng)
        groups = Group.objects.filter(week=week).count()
        t0 = time.perf_counter()
        week_close(week_id=week.pk)
        t1 = time.perf_counter()
        paid = week_rewards_pay(week_id=week.pk)
        t2 = time.perf_counter()
        closes.append(t1 - t0)
        pays.append(t2 - t1)
        totals.append(t2 - t0)
        print(
            f"week {week.key}: {groups} groups, close {t1 - t0:.1f} s, "
            f"{paid} rewards paid in {t2 - t1:.1f} s"
        )
    print(
        f"median over {args.rounds} weeks of {len(ids)} players: close "
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
