"""A Swiss event's round on PostgreSQL (a benchmark, not a test: run by hand).

    createdb -h 127.0.0.1 -U postgres swiss_bench
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/swiss_bench \\
    REDIS_URL=redis://127.0.0.1:6379/14 DEPLOYMENT_PREFIX=swiss_bench \\
        nice .venv/bin/python bench/swiss_round.py [--players 1000] [--round 5]

Sets up one Swiss event of ``--players`` players, all present on its page, with
``--round - 1`` rounds already played (random results), then times, ``--runs``
times each, inside a transaction rolled back after each run:

1. **Pairing**: what a round's start reads and decides before it writes: the
   entries and every game so far read from the database, the players as the
   pairing sees them (``rounds.entrants_of``), the presence keys, the players busy
   at other tables, and ``pairing.pair_round`` (goal, issue 49: <= 200 ms for
   1,000 players on PostgreSQL).
2. **The whole round's start** (``rounds._round_start``): the same, plus the
   ``players / 2`` online tables dealt and written (``tables_seated_create``, chains
   from the reserve drawn ahead) and the round's game rows.

Prints the median and the slowest run of each, in milliseconds of wall time.

Not measured: the setup (users, entries, past games, the reserve of chains), the
commit (each run is rolled back so that the next one starts from the same round),
the after-commit work (the tables' frames, "paired" notices and the standings push,
replaced by no-ops here: the outbox's cost per table is ``bench/matchmaker.py``'s),
SQL statements and round trips (not counted here: ``bench/arena.py`` counts those of
the same table creation on the wire). A busy machine moves the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from clubs.models import Club, Member  # noqa: E402
from games.fairness import chains_reserve_fill  # noqa: E402
from games.services import transitions  # noqa: E402
from realtime import outbox  # noqa: E402
from tournaments.swiss import rounds  # noqa: E402
from tournaments.swiss.models import SwissEntry, SwissEvent, SwissGame  # noqa: E402
from tournaments.swiss.pairing import pair_round  # noqa: E402
from tournaments.swiss.presence import presence_mark, present_among  # noqa: E402


class Rollback(Exception):
    """Leaves the timed transaction without committing it."""


def setup(players: int, played: int) -> SwissEvent:
    call_command("migrate", verbosity=0)
    user_model = get_user_model()
    tag = f"sb{int(time.time())}"
    users = user_model.objects.bulk_create(
        [user_model(username=f"{tag}-{n}") for n in range(players)]
    )
    club = Club.objects.create(name=f"Bench {tag}", slug=tag, language="en")
    Member.objects.create(club=club, user=users[0], role=Member.Role.LEADER)
    event = SwissEvent.objects.create(
        name="Bench Swiss",
        pool="draw-2",
        variant="draw",
        options={"seats": 2, "partnership": False, "target": 100},
        rounds=played + 1,
        round_minutes=30,
        starts_at=timezone.now() - timedelta(hours=played),
        club=club,
        state=SwissEvent.State.RUNNING,
        round=played,
    )
    rng = random.Random(49)
    entries = SwissEntry.objects.bulk_create(
        [SwissEntry(event=event, user=u, rating=rng.gauss(1500, 250)) for u in users]
    )
    # The rounds so far, paired as the event would pair them, results at random.
    games: list[SwissGame] = []
    for number in range(1, played + 1):
        pairing = pair_round(rounds.entrants_of(entries, games))
        made = [
            SwissGame(
                event=event,
                round=number,
                number=n,
                first_id=a,
                second_id=b,
                result=SwissGame.Result.PLAYED,
                points=rng.choice((0, 1, 2)),
            )
            for n, (a, b) in enumerate(pairing.games, start=1)
        ]
        if pairing.bye is not None:
            made.append(
                SwissGame(
                    event=event,
                    round=number,
                    number=len(made) + 1,
                    first_id=pairing.bye,
                    result=SwissGame.Result.BYE,
                    points=2,
                )
            )
        games += SwissGame.objects.bulk_create(made)
    for user in users:
        presence_mark(event_id=event.pk, user_id=user.pk)
    while chains_reserve_fill(target=players, batch=250):
        pass
    return event


def pairing_only(event: SwissEvent, number: int) -> None:
    entries = list(
        SwissEntry.objects.filter(
            event=event, withdrawn_at__isnull=True, joined_round__lte=number
        ).order_by("pk")
    )
    ids = [e.user_id for e in entries]
    here = present_among(event_id=event.pk, user_ids=ids) - rounds._busy(ids)
    games = list(SwissGame.objects.filter(event=event))
    pair_round([e for e in rounds.entrants_of(entries, games) if e.user_id in here])


def timed(fn, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        try:
            with transaction.atomic():
                fn()
                raise Rollback
        except Rollback:
            pass
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--round", type=int, default=5)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL to a PostgreSQL database (see the docstring).")
    outbox.notify = lambda messages: None  # no channel layer: see the docstring
    transitions.tick_job = lambda *a, **k: None
    event = setup(args.players, args.round - 1)
    number = args.round
    pairing = timed(lambda: pairing_only(event, number), args.runs)
    whole = timed(lambda: rounds._round_start(event, number), args.runs)
    print(
        f"Swiss round {number} of {args.players} players on PostgreSQL "
        f"({settings.DATABASES['default']['NAME']}), median of {args.runs}:"
    )
    print(
        f"  pairing with its reads: {statistics.median(pairing):.0f} ms "
        f"(slowest {max(pairing):.0f})"
    )
    print(
        f"  the whole round's start ({args.players // 2} tables): "
        f"{statistics.median(whole):.0f} ms (slowest {max(whole):.0f})"
    )


if __name__ == "__main__":
    main()
