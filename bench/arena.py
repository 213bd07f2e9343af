"""Arena benchmark on PostgreSQL (a benchmark, not a test: run by hand).

    createdb -h 127.0.0.1 -U postgres arena_bench
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/arena_bench \\
    REDIS_URL=redis://127.0.0.1:6379/13 DEPLOYMENT_PREFIX=arena_bench \\
        nice .venv/bin/python bench/arena.py [--players 1000] [--rounds 7]
        .venv/bin/python bench/arena.py --profile /tmp/arena.prof  # one round, cProfile

1. **Pairing round**: ``--players`` free players of one live two-player arena, all
   present on its page, with scores and ratings spread out; one
   ``tournaments.arenas.services.arena_pair`` call seats them all (``players / 2``
   online tables, dealt, with their ArenaGame rows and the players' updates), up to
   the end of what it runs after commit (the tables' frames, the paired notices,
   the standings push, which every round makes: none was pushed in the throttle's
   last seconds, as when the arena's tick pairs every few seconds). Each round is
   run twice, side by side: the tables' fair-deal chains drawn in the round (256
   SHA-256 per table, RULES.md §1.1), then taken from the reserve drawn ahead
   (``games.fairness.chains_take``, one statement). Prints, for each, the median
   wall time of the call over ``--rounds`` rounds (goal: <= 100 ms for 1,000
   players) and this process's CPU time in it (steadier than the wall time on a
   shared machine; PostgreSQL's own work is not in it), the tables' creation and
   within it the chains; then the pure pairing, the after-commit part, and the SQL
   statements and round trips of one round from the reserve,
   counted on the wire by ``bench/wire.py``'s PostgreSQL proxy on a connection
   that ran a round before (its prepared statements prepared, as on a worker's
   long-lived connection).
2. **Standings frames**: how many standings frames per second one process builds for
   an arena of ``--players`` players (the read, the ranks and ``json.dumps``, once
   per push; every socket of the arena is sent the same text), the frame's size, and
   the statements of one push (``notify.standings_push``: the version read, the
   standings read, the sent-version update).

Not measured: the players, the arena and the presence keys, made before the clock
starts; between rounds the tables are deleted, the players freed again and the
tables vacuumed, so no round reads the dead rows of the ones before (untimed). The
process freezes what it loaded (``gc.freeze``) as a Celery worker does, where the
pairing runs. The channel-layer sends of the new tables' frames (built and
serialised all the same) and their timed jobs are replaced by no-ops (their cost is
the outbox's and the worker's, per table, as for any online table:
``bench/matchmaker.py``); so is the channel-layer send of the standings (one group
send per push, whatever the number of sockets). No timing is
taken through the proxy (it adds a hop to every round trip).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.wire import django_wired  # noqa: E402
from config.celery import freeze_loaded  # noqa: E402
from games.fairness import chains_reserve_fill  # noqa: E402
from games.models import ChainReserve, Seat, Table, TableEvent  # noqa: E402
from games.services import creating, transitions  # noqa: E402
from realtime import outbox  # noqa: E402
from tournaments.arenas import notify, services  # noqa: E402
from tournaments.arenas.models import Arena, ArenaGame, ArenaPlayer  # noqa: E402
from tournaments.arenas.presence import presence_mark  # noqa: E402
from tournaments.arenas.selectors import standings_frame  # noqa: E402
from tournaments.arenas.services import arena_create, arena_pair  # noqa: E402


def quiet() -> None:
    """No broker and no channel layer: the after-commit sends are no-ops."""
    transitions.tick_job = lambda tid, seq, deadline, **kw: None  # type: ignore[assignment]
    outbox._group_send = lambda msgs: None  # type: ignore[assignment]


def arena_make(players: int) -> tuple[Arena, list[int]]:
    User = get_user_model()
    have = User.objects.filter(username__startswith="ab").count()
    User.objects.bulk_create(
        [User(username=f"ab{i}", password="!") for i in range(have, players)],
        batch_size=5000,
    )
    ids = list(
        User.objects.filter(username__startswith="ab")
        .order_by("pk")
        .values_list("pk", flat=True)[:players]
    )
    arena = arena_create(
        pool_key="draw-2", starts_at=timezone.now() - timedelta(minutes=1), minutes=600
    )
    Arena.objects.filter(pk=arena.pk).update(status=Arena.Status.LIVE)
    rng = random.Random(7)
    now = timezone.now()
    ArenaPlayer.objects.bulk_create(
        [
            ArenaPlayer(
                arena=arena,
                user_id=u,
                score=rng.randrange(0, 40),
                streak=rng.randrange(0, 3),
                games=rng.randrange(0, 12),
                free_since=now - timedelta(seconds=rng.randrange(0, 60)),
            )
            for u in ids
        ],
        batch_size=5000,
    )
    return Arena.objects.get(pk=arena.pk), ids


def arena_reset(arena: Arena, ids: list[int]) -> None:
    """Untimed: drop the round's tables and free every player again."""
    tables = list(
        ArenaGame.objects.filter(arena=arena).values_list("table_id", flat=True)
    )
    ArenaGame.objects.filter(arena=arena).delete()
    TableEvent.objects.filter(table_id__in=tables).delete()
    Seat.objects.filter(table_id__in=tables).delete()
    Table.objects.filter(pk__in=tables).delete()
    ArenaPlayer.objects.filter(arena=arena).update(
        table_id=None, last_opponents=[], opponents={}, partners={}
    )
    # The standings go out after every round (no push in the throttle's last
    # seconds), as when the arena's tick pairs every few seconds.
    Arena.objects.filter(pk=arena.pk).update(standings_sent_at=None)
    for u in ids:
        presence_mark(arena_id=arena.pk, user_id=u)
    with connection.cursor() as cursor:  # no round reads the last ones' dead rows
        cursor.execute(
            "VACUUM ANALYZE games_table, games_seat, games_tableevent, "
            "tournaments_arenagame, tournaments_arenaplayer"
        )


def _timed(spent: list[float], func: Any) -> Any:
    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - start)

    return run


MODES = ("chains drawn in the round", "chains from the reserve")


def _reserve_set(mode: str, tables: int) -> None:
    """Untimed: an empty reserve, or one holding a chain for every table."""
    ChainReserve.objects.all().delete()
    if mode == MODES[1]:
        chains_reserve_fill(target=tables, batch=tables)


def pairing_bench(arena: Arena, ids: list[int], rounds: int) -> None:
    """Each round twice, side by side: its tables' chains drawn in the round, then
    taken from a reserve drawn ahead (``games.fairness.chains_take``)."""
    times: dict[str, list[float]] = {mode: [] for mode in MODES}
    cpu: dict[str, list[float]] = {mode: [] for mode in MODES}
    pure: list[float] = []
    tables_made: list[float] = []
    fair: list[float] = []
    services.pairing_round = _timed(pure, services.pairing_round)
    services.tables_seated_create = _timed(tables_made, services.tables_seated_create)
    creating.chains_take = _timed(fair, creating.chains_take)
    hooks: list[float] = []
    connection.run_and_clear_commit_hooks = _timed(  # type: ignore[method-assign]
        hooks, connection.run_and_clear_commit_hooks
    )
    seated = 0
    made: dict[str, list[float]] = {mode: [] for mode in MODES}
    chains: dict[str, list[float]] = {mode: [] for mode in MODES}
    after_commit: list[float] = []
    for _ in range(rounds):
        for mode in MODES:
            arena_reset(arena, ids)
            _reserve_set(mode, len(ids) // 2)
            fair.clear()
            hooks.clear()
            tables_made.clear()
            start, cpu_start = time.perf_counter(), time.process_time()
            tables = arena_pair(arena_id=arena.pk)
            times[mode].append(time.perf_counter() - start)
            cpu[mode].append(time.process_time() - cpu_start)
            chains[mode].append(sum(fair))  # one take per round
            made[mode].append(sum(tables_made))
            after_commit.append(sum(hooks))
            seated = len(tables)
    arena_reset(arena, ids)
    _reserve_set(MODES[1], len(ids))  # a round before, and the counted round
    with django_wired() as pg:
        arena_pair(arena_id=arena.pk)  # prepares its statements on this connection
        arena_reset(arena, ids)
        before = pg.snapshot()
        arena_pair(arena_id=arena.pk)
        counts = pg.since(before)
    print(f"pairing round, {len(ids)} free players -> {seated} tables:")
    for mode in MODES:
        print(
            f"  {mode}: median {statistics.median(times[mode]) * 1000:.0f} ms "
            f"(min {min(times[mode]) * 1000:.0f}, max {max(times[mode]) * 1000:.0f}, "
            f"{rounds} rounds; this process's CPU "
            f"{statistics.median(cpu[mode]) * 1000:.0f} ms); the tables' creation "
            f"(games.services.tables_seated_create) "
            f"{statistics.median(made[mode]) * 1000:.0f} ms, within it the chains "
            f"(games.fairness.chains_take) "
            f"{statistics.median(chains[mode]) * 1000:.0f} ms"
        )
    print(
        f"  the pure pairing {statistics.median(pure) * 1000:.0f} ms; after the "
        f"commit (the frames, the paired notices, the standings push) "
        f"{statistics.median(after_commit) * 1000:.0f} ms; a round from the reserve "
        f"is {counts.statements} statements, {counts.round_trips} round trips"
    )
    arena_reset(arena, ids)
    ChainReserve.objects.all().delete()


def pairing_profile(arena: Arena, ids: list[int], path: Path) -> None:
    """One round from the reserve under cProfile, after one that warms it up."""
    import cProfile
    import pstats

    for profiled in (False, True):
        arena_reset(arena, ids)
        _reserve_set(MODES[1], len(ids) // 2)
        profiler = cProfile.Profile()
        if profiled:
            profiler.enable()
        arena_pair(arena_id=arena.pk)
        profiler.disable()
    profiler.dump_stats(path)
    stats = pstats.Stats(str(path))
    stats.sort_stats("cumulative").print_stats(40)
    arena_reset(arena, ids)
    ChainReserve.objects.all().delete()


def standings_bench(arena: Arena, players: int, seconds: float = 3.0) -> None:
    frames = 0
    size = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        size = len(json.dumps(standings_frame(arena_id=arena.pk)))
        frames += 1
    rate = frames / (time.perf_counter() - start)
    with django_wired() as pg:
        Arena.objects.filter(pk=arena.pk).exists()
        Arena.objects.filter(pk=arena.pk).update(standings_version=10**6)
        before = pg.snapshot()
        notify.standings_push(arena_id=arena.pk)
        counts = pg.since(before)
    print(
        f"standings, {players} players: {rate:.1f} frames/s per event "
        f"(one process), {size / 1024:.0f} KiB a frame; "
        f"a push is {counts.statements} statements"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--profile",
        type=Path,
        help="write a cProfile of one round from the reserve here (pstats format) "
        "instead of timing rounds",
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("set DATABASE_URL to a PostgreSQL database (see the docstring)")
    call_command("migrate", "--noinput", verbosity=0)
    quiet()
    freeze_loaded()  # as a Celery worker does once it is ready
    arena, ids = arena_make(args.players)
    try:
        if args.profile is not None:
            pairing_profile(arena, ids, args.profile)
            return
        pairing_bench(arena, ids, args.rounds)
        standings_bench(arena, args.players)
    finally:
        arena_reset(arena, ids)
        arena.delete()


if __name__ == "__main__":
    main()
