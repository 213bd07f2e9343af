"""Economy health: a simulated week of players through the real services (run by hand).

    .venv/bin/python bench/economy.py [--players 16] [--days 7] [--seed 1]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/economy_bench \\
        .venv/bin/python bench/economy.py          # a database of its own

Without ``DATABASE_URL`` it runs on a new SQLite file in a temporary folder (removed
afterwards). On PostgreSQL, give it a database of its own: it migrates it, adds its
players (``eb<run>-<n>``) and closes every league week that ended by the simulated
clock; a second run plays the week after the last one in the database.

Every coin moves through the services a player's requests reach: sign-up grant
(``wallet_grant_signup``), daily bonus (``daily_bonus_claim``), online tables seated
by the matchmaker (``search_start``, ``wave_run``), stake tables (``stake_sit``,
``stake_stand``), arenas (``arena_create``, ``arena_join``, ``arena_pair``,
``arena_finish``), stake sit-and-gos (``sitgo_enter``), practice games, the shop
(``shop_buy``) and the league's week-end rewards (``weeks_rollover``). Every table is
played to its end through ``table_act`` (the players' own decisions, each chosen by
the bot level that stands for the player's strength: weak players ``easy``, strong
ones ``medium``) and ``table_tick`` (computer seats, hand pauses, the first deal); a
table's finish consequences (rewards, ratings, league points, pots, arena scores,
sit-and-go rounds) run after its commit as in production.

The clock is simulated (``django.utils.timezone.now`` is replaced): a week from a
Monday 00:00 UTC, each table taking the time its moves would take
(``MOVE_SECONDS`` a decision, ``HAND_PAUSE_SECONDS`` between hands); a player's
active hours are the sum of their tables' times. Players differ: a fifth play a lot
(``heavy``), half regularly, the rest a little and not every day; some buy gold
boosters (and a VIP pass once rich), some sit at stakes and sit-and-gos, some join the
evening arena.

Each player plays rated online tables before anything else (stake tables may ask
for some, RULES.md §5). The services are called directly, so no address or device
is recorded and no two simulated players are linked. A refusal by a service (in a
player's words) is counted by its code and printed, never fatal: a rule that changes
what is allowed shows up as refusals, not as a crash.

Prints a table of each source of coins (minted from the mint, burned into the shop,
moved between players through pots) with the coins per active player-hour and where
that stands against the intended range of ``docs/economy.md`` (``in range``,
``above``, ``below``); the same per player strength; the median and quartile wallet
balance at the end of each day; the refusals.

Not measured: friend rooms (they pay only winners, at half the online rate); any
timing (coin counts do not depend on the machine); players' real behaviour (who
plays how much is a model, above); boosts' effect beyond their purchases (the
rewards they multiply are counted in their sources); XP (printed as a total only);
the leave, clock-out and away paths (every seat here is played by its owner); more
than one week of league rollover, division moves and their rewards' growth over
weeks.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
_TEMP = None
if __name__ == "__main__" and not os.environ.get("DATABASE_URL"):
    _TEMP = tempfile.TemporaryDirectory(prefix="economy-bench-")
    os.environ["SQLITE_PATH"] = str(Path(_TEMP.name) / "economy.sqlite3")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db.models import Sum  # noqa: E402
from django.utils import timezone  # noqa: E402

from core.refusals import Refusal  # noqa: E402
from economy.audit import ledger_audit  # noqa: E402
from economy.models import Account, Boost, Entry, Transaction, XpAward  # noqa: E402
from economy.selectors import wallet_balance  # noqa: E402
from economy.services import daily_bonus_claim, shop_buy  # noqa: E402
from economy.wallets import wallet_grant_signup  # noqa: E402
from games import engine  # noqa: E402
from games import services as table_services  # noqa: E402
from games.models import Seat, Table, TableEvent  # noqa: E402
from games.services.timed_jobs import bot_action  # noqa: E402
from leagues.models import Week  # noqa: E402
from leagues.rollover import weeks_rollover  # noqa: E402
from matchmaking.pools.models import Search  # noqa: E402
from matchmaking.pools.services import search_cancel, search_start, wave_run  # noqa: E402
from matchmaking.stakes import services as stakes  # noqa: E402
from tests.support.tables import drive  # noqa: E402
from tournaments.arenas.models import Arena, ArenaGame  # noqa: E402
from tournaments.arenas.presence import presence_mark  # noqa: E402
from tournaments.arenas.services import (  # noqa: E402
    arena_create,
    arena_finish,
    arena_join,
    arena_pair,
    arenas_tick,
)
from tournaments.sitgo.models import SitGo, SitGoTable  # noqa: E402
from tournaments.sitgo.services import sitgo_enter  # noqa: E402

FIRST_MONDAY = datetime(2025, 1, 6, tzinfo=UTC)
MOVE_SECONDS = 5.0  # a decision at an online table, on average (people think)
HAND_PAUSE_SECONDS = 15.0  # between hands (games.services' default pause)
ONLINE_POOL = "block-2"  # the quickest pool: 50 points of Block
STAKE = 100
STAKE_SHAPE = "block-2"
SITGO_SIZE, SITGO_ENTRY = 4, 100
ARENA_POOL = "block-2"
ARENA_ROUNDS = 4  # pairings of the evening arena (about 45 minutes of play)
RATED_BEFORE_STAKES = 5  # online tables a player plays before trying stakes

# Intended coins per active player-hour by source (docs/economy.md, "Intended
# ranges"); minted sources and the shop's burn, as (low, high).
INTENDED: dict[str, tuple[float, float]] = {
    "table rewards, all tables": (150, 400),
    "arena prizes": (0, 60),
    "league rewards": (0, 30),
    "daily bonus": (20, 120),
    "shop (burned)": (50, 250),
    "all minted, sign-up aside": (200, 550),
    "net (minted - burned), sign-up aside": (100, 400),
}


class SimClock:
    """``django.utils.timezone.now`` answering the simulated time."""

    def __init__(self, start: datetime) -> None:
        self.at = start

    def now(self) -> datetime:
        return self.at

    def set(self, at: datetime) -> None:
        self.at = max(self.at, at)

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)

    def install(self, patch: Callable[[Any, str, Any], None] = setattr) -> None:
        patch(timezone, "now", self.now)


def quiet(patch: Callable[[Any, str, Any], None] = setattr) -> None:
    """No broker, no channel layer: queued tasks and socket frames go nowhere.

    The bench runs what those tasks would run (ticks, waves, pairings, finishes)
    itself, in order, at the simulated time."""
    from celery import Celery
    from celery.app.task import Task

    from games.services import transitions
    from realtime import outbox

    patch(Task, "apply_async", lambda self, *a, **k: None)
    patch(Celery, "send_task", lambda self, *a, **k: None)
    patch(transitions, "tick_job", lambda tid, seq, deadline, **kw: None)
    patch(outbox, "_group_send", lambda msgs: None)


@dataclass
class Player:
    user: Any
    level: str  # the bot level that decides for the player: their strength
    appetite: str  # heavy, regular, light
    tables_per_day: int
    plays_daily: bool
    shopper: bool
    gambler: bool
    arena_goer: bool
    rated: int = 0
    seconds: float = 0.0
    tables: int = 0
    wins: int = 0

    @property
    def pk(self) -> int:
        return int(self.user.pk)


@dataclass
class Run:
    clock: SimClock
    rng: random.Random
    monday: datetime
    players: list[Player]
    by_user: dict[int, Player]
    refusals: Counter[str] = field(default_factory=Counter)
    table_seconds: dict[int, float] = field(default_factory=dict)
    balances: list[tuple[str, list[int]]] = field(default_factory=list)


def refused(run: Run, what: str, exc: Exception) -> None:
    code = getattr(exc, "code", type(exc).__name__)
    run.refusals[f"{what}: {code}"] += 1


@contextmanager
def attempt(run: Run, what: str) -> Iterator[None]:
    """Run a player's request; a refusal is counted, never fatal."""
    try:
        yield
    except Refusal as exc:
        refused(run, what, exc)


def players_make(count: int) -> list[Player]:
    User = get_user_model()
    run_tag = f"eb{secrets.token_hex(3)}"  # new names on a database used before
    players = []
    for i in range(count):
        user = User.objects.create_user(username=f"{run_tag}-{i}", password=None)
        wallet_grant_signup(user_id=user.pk)
        share = i / count
        appetite = "heavy" if share < 0.2 else "regular" if share < 0.7 else "light"
        players.append(
            Player(
                user=user,
                level="medium" if i % 2 == 0 else "easy",
                appetite=appetite,
                tables_per_day={"heavy": 8, "regular": 4, "light": 1}[appetite],
                plays_daily=appetite != "light",
                shopper=i % 3 == 0,
                gambler=i % 4 != 3,
                arena_goer=i % 5 != 4,
            )
        )
    return players


# --- playing a table


def table_minutes(table_id: int) -> float:
    """How long a table takes: its decisions and its hand pauses."""
    moves = TableEvent.objects.filter(table_id=table_id, seat__isnull=False).count()
    hands = TableEvent.objects.filter(table_id=table_id, actor="server").count()
    return (moves * MOVE_SECONDS + hands * HAND_PAUSE_SECONDS) / 60


def play(run: Run, table_id: int, max_steps: int = 20000) -> Table:
    """Play a table to its end: each person's decisions by their own bot level,
    sent as theirs; computer seats, pauses and deals by the table's timed job."""
    people = {
        seat.position: run.by_user[seat.user_id]
        for seat in Seat.objects.filter(table_id=table_id, user_id__in=run.by_user)
    }

    def as_the_player(
        table: Table, state: engine.State, position: int
    ) -> engine.Action | None:
        if not engine.legal_actions(state, position):
            return None  # a hand's end, moved on by the table's timed job
        level = people[position].level
        return bot_action(table=table, state=state, position=position, level=level)

    table = drive(
        table_id,
        {position: player.user for position, player in people.items()},
        rng=run.rng,
        max_steps=max_steps,
        choose=as_the_player,
    )
    minutes = table_minutes(table_id)
    run.table_seconds[table_id] = minutes * 60
    for seat in Seat.objects.filter(table_id=table_id, user__isnull=False):
        player = run.by_user.get(seat.user_id)
        if player is not None:
            player.seconds += minutes * 60
            player.tables += 1
            player.wins += seat.place == 1
            if table.mode == Table.Mode.ONLINE:
                player.rated += 1
    return table


def play_all(run: Run, table_ids: list[int]) -> None:
    """Play tables that run at the same time; the clock moves by the longest."""
    start = run.clock.at
    longest = 0.0
    for table_id in table_ids:
        run.clock.set(start)
        play(run, table_id)
        longest = max(longest, run.table_seconds[table_id])
    run.clock.set(start + timedelta(seconds=longest + 60))


# --- activities


def daily_bonuses(run: Run, today: list[Player]) -> None:
    for player in today:
        with attempt(run, "daily bonus"):
            daily_bonus_claim(user_id=player.pk)


def shopping(run: Run, today: list[Player]) -> None:
    """Shoppers buy a gold booster before playing when it leaves them 300 coins,
    and a VIP pass once they hold 5,000 and have none running."""
    for player in today:
        if not player.shopper:
            continue
        balance = wallet_balance(user_id=player.pk)
        vip = Boost.objects.filter(
            user_id=player.pk, kind="vip", ends_at__gt=run.clock.at
        ).exists()
        wanted = "vip" if balance >= 5000 and not vip else "gold"
        if wanted == "gold" and balance < 800:
            continue
        with attempt(run, "shop"):
            shop_buy(
                user_id=player.pk,
                item=wanted,
                request_key=f"bench-{run.rng.randrange(10**12)}",
            )


def online_rounds(run: Run, today: list[Player], rounds: int) -> None:
    """Rounds of the online pool: who wants a table searches, one wave seats them."""
    for r in range(rounds):
        wanting = [p for p in today if p.tables_per_day > r]
        searching = []
        for player in wanting:
            with attempt(run, "online search"):
                search_start(user_id=player.pk, pool_key=ONLINE_POOL)
                searching.append(player)
        if len(searching) < 2:
            for player in searching:
                with attempt(run, "online cancel"):
                    search_cancel(user_id=player.pk)
            continue
        # Only long waits are backfilled: a wave run now pairs the people.
        result = wave_run(pool_key=ONLINE_POOL, now=run.clock.at)
        tables = list(result.tables) if result.ran else []
        still = Search.objects.filter(
            user_id__in=[p.pk for p in searching], status=Search.Status.WAITING
        ).values_list("user_id", flat=True)
        for user_id in still:  # the odd one out leaves the pool
            with attempt(run, "online cancel"):
                search_cancel(user_id=user_id)
        play_all(run, tables)


def practice(run: Run, today: list[Player]) -> None:
    """Light players warm up against the computer (pays nothing)."""
    tables = []
    for player in today:
        if player.appetite != "light":
            continue
        table = table_services.table_practice_create(
            user=player.user,
            variant="block",
            options={"seats": 2, "target": 50},
            bot_levels=["easy"],
        )
        tables.append(table.pk)
    play_all(run, tables)


def stake_tables(run: Run, today: list[Player]) -> None:
    """Gamblers with some rated tables and coins to spare quick-seat at 100."""
    seated: list[Player] = []
    for player in today:
        if (
            not player.gambler
            or player.rated < RATED_BEFORE_STAKES
            or wallet_balance(user_id=player.pk) < STAKE + 200
        ):
            continue
        with attempt(run, "stake sit"):
            stakes.stake_sit(user=player.user, stake=STAKE, shape=STAKE_SHAPE)
            seated.append(player)
    tables = set()
    for player in seated:
        table_id = (
            Seat.objects.filter(user=player.user, table__mode=Table.Mode.STAKE)
            .order_by("-table_id")
            .values_list("table_id", flat=True)
            .first()
        )
        if table_id is None:
            continue
        table = Table.objects.get(pk=table_id)
        if table.status == Table.Status.PLAYING:
            tables.add(table_id)
        elif table.status == Table.Status.WAITING:
            with attempt(run, "stake stand"):
                stakes.stake_stand(user=player.user, table_id=table_id)
    play_all(run, sorted(tables))


def sitgos(run: Run, today: list[Player]) -> None:
    """Gamblers with coins to spare enter 4-player sit-and-gos of 100."""
    entrants = [
        p
        for p in today
        if p.gambler and p.rated >= 2 and wallet_balance(user_id=p.pk) >= 400
    ]
    run.rng.shuffle(entrants)
    full = len(entrants) - len(entrants) % SITGO_SIZE
    rows = set()
    for player in entrants[:full]:
        with attempt(run, "sit-and-go entry"):
            row = sitgo_enter(user=player.user, size=SITGO_SIZE, entry=SITGO_ENTRY)
            rows.add(row.pk)
    for _ in range(10):  # rounds
        live = list(
            SitGoTable.objects.filter(
                sitgo_id__in=rows,
                state=SitGoTable.State.PLAYING,
                table__status=Table.Status.PLAYING,
            ).values_list("table_id", flat=True)
        )
        if not live:
            break
        play_all(run, live)
    for row in SitGo.objects.filter(pk__in=rows, state=SitGo.State.OPEN):
        run.refusals[f"sit-and-go left open ({row.seats_taken} entered)"] += 1


def arena(run: Run, today: list[Player]) -> None:
    """The evening arena: its goers join with its page open; pairing rounds."""
    goers = [p for p in today if p.arena_goer]
    if len(goers) < 2:
        return
    row = arena_create(pool_key=ARENA_POOL, starts_at=run.clock.at, minutes=45)
    arenas_tick(now=run.clock.at)  # it goes live
    for player in goers:
        with attempt(run, "arena join"):
            arena_join(arena_id=row.pk, user=player.user)
    for _ in range(ARENA_ROUNDS):
        for player in goers:
            presence_mark(arena_id=row.pk, user_id=player.pk)
        tables = arena_pair(arena_id=row.pk, now=run.clock.at)
        if not tables:
            break
        play_all(run, tables)
    run.clock.set(Arena.objects.get(pk=row.pk).ends_at + timedelta(seconds=1))
    arenas_tick(now=run.clock.at)  # it ends
    arena_finish(arena_id=row.pk, now=run.clock.at)


def day_play(run: Run, day: int) -> None:
    start = run.monday + timedelta(days=day)
    run.clock.set(start + timedelta(hours=9))
    today = [p for p in run.players if p.plays_daily or run.rng.random() < 0.4]
    daily_bonuses(run, today)
    shopping(run, today)
    practice(run, today)
    most = max((p.tables_per_day for p in today), default=0)
    online_rounds(run, today, rounds=most)
    if day % 2 == 0:
        sitgos(run, today)
    run.clock.set(start + timedelta(hours=17))
    stake_tables(run, today)
    run.clock.set(start + timedelta(hours=19))
    arena(run, today)
    run.balances.append(
        (
            f"{start:%a %d %b}",
            [wallet_balance(user_id=p.pk) for p in run.players],
        )
    )


# --- accounting


NOT_MINTED = ("sign-up grant", "shop (burned)", "pots (between players)")


def source_of(tx_key: str, kind: str, modes: dict[str, str]) -> str:
    if kind == Transaction.Kind.SIGNUP:
        return "sign-up grant"
    if kind == Transaction.Kind.DAILY:
        return "daily bonus"
    if kind == Transaction.Kind.PURCHASE:
        return "shop (burned)"
    if kind in (
        Transaction.Kind.ENTRY,
        Transaction.Kind.REFUND,
        Transaction.Kind.PAYOUT,
    ):
        return "pots (between players)"
    if tx_key.startswith("arena:"):
        return "arena prizes"
    if tx_key.startswith("league:"):
        return "league rewards"
    if tx_key.startswith("reward:"):
        return modes.get(tx_key.split(":")[1], "other table rewards")
    return f"other ({kind})"


def table_sources(table_ids: list[int]) -> dict[str, str]:
    arena_tables = set(
        ArenaGame.objects.filter(table_id__in=table_ids).values_list(
            "table_id", flat=True
        )
    )
    sitgo_tables = set(
        SitGoTable.objects.filter(table_id__in=table_ids).values_list(
            "table_id", flat=True
        )
    )
    modes = {}
    for table_id, mode in Table.objects.filter(pk__in=table_ids).values_list(
        "pk", "mode"
    ):
        if table_id in arena_tables:
            modes[str(table_id)] = "arena table rewards"
        elif table_id in sitgo_tables:
            modes[str(table_id)] = "sit-and-go table rewards"
        else:
            modes[str(table_id)] = f"{mode} table rewards"
    return modes


def standing(source: str, per_hour: float) -> str:
    if source not in INTENDED:
        return ""
    low, high = INTENDED[source]
    if per_hour < low:
        return f"below ({low:g}-{high:g})"
    if per_hour > high:
        return f"above ({low:g}-{high:g})"
    return f"in range ({low:g}-{high:g})"


def report(run: Run) -> None:
    users = [p.pk for p in run.players]
    wallets = dict(
        Account.objects.filter(kind=Account.Kind.WALLET, user_id__in=users).values_list(
            "pk", "user_id"
        )
    )
    rows = list(
        Entry.objects.filter(account_id__in=wallets).values_list(
            "account_id", "amount", "transaction__key", "transaction__kind"
        )
    )
    modes = table_sources(list(run.table_seconds))
    minted: Counter[str] = Counter()
    burned: Counter[str] = Counter()
    moved: Counter[str] = Counter()
    by_level: dict[str, Counter[str]] = defaultdict(Counter)
    level_of = {p.pk: p.level for p in run.players}
    for account_id, amount, key, kind in rows:
        source = source_of(key, kind, modes)
        if source == "pots (between players)":
            moved[source] += amount
        elif source == "shop (burned)":
            burned[source] -= amount
        else:
            minted[source] += amount
            by_level[level_of[wallets[account_id]]][source] += amount
    hours = sum(p.seconds for p in run.players) / 3600
    active = [p for p in run.players if p.seconds]
    print(
        f"{len(run.players)} players ({len(active)} active), {len(run.table_seconds)} "
        f"tables ({statistics.mean(run.table_seconds.values()) / 60:.1f} minutes "
        f"each on average), {hours:.1f} active player-hours "
        f"(a decision {MOVE_SECONDS:g} s, a hand pause {HAND_PAUSE_SECONDS:g} s)"
    )
    print()
    print(f"{'source':40} {'minted':>8} {'burned':>8} {'per hour':>9}  standing")
    total_minted = 0
    for source in sorted(set(minted) | set(burned) | set(moved)):
        m, b = minted[source], burned[source]
        per_hour = (m + b) / hours if hours else 0.0
        if source != "sign-up grant":
            total_minted += m
        note = standing(source, per_hour)
        if source in moved:
            per_hour = 0.0
            note = f"net {moved[source]:+d} across the players (entries, payouts)"
        print(f"{source:40} {m:8d} {b:8d} {per_hour:9.1f}  {note}")
    total_burned = sum(burned.values())
    tables = sum(v for k, v in minted.items() if k.endswith("table rewards"))
    for label, amount in (
        ("table rewards, all tables", tables),
        ("all minted, sign-up aside", total_minted),
        ("net (minted - burned), sign-up aside", total_minted - total_burned),
    ):
        per_hour = amount / hours if hours else 0.0
        note = standing(label, per_hour)
        print(f"{label:40} {amount:8d} {'':8} {per_hour:9.1f}  {note}")
    print()
    print("minted per active hour by strength (sign-up aside):")
    for level in sorted(by_level):
        group = [p for p in run.players if p.level == level]
        group_hours = sum(p.seconds for p in group) / 3600
        coins = sum(v for k, v in by_level[level].items() if k != "sign-up grant")
        tables = sum(p.tables for p in group)
        wins = sum(p.wins for p in group)
        rate = coins / group_hours if group_hours else 0.0
        won = wins * 100 / max(tables, 1)
        print(
            f"  {level:7} {len(group):3d} players, {tables:4d} seats, won "
            f"{won:4.1f}%, {rate:7.1f} coins/hour"
        )
    worst = min(active, key=lambda p: (p.wins / max(p.tables, 1), -p.seconds))
    worst_minted = sum(
        amount
        for account_id, amount, key, kind in rows
        if wallets[account_id] == worst.pk
        and source_of(key, kind, modes) not in NOT_MINTED
    )
    print(
        f"  the worst record: won {worst.wins} of {worst.tables} tables "
        f"({worst.level}, {worst.appetite}), minted {worst_minted} coins, "
        f"{worst_minted * 3600 / max(worst.seconds, 1):.1f} an hour"
    )
    print()
    print("wallet balance at each day's end: median (quartiles)")
    for label, balances in run.balances:
        q = statistics.quantiles(balances, n=4) if len(balances) > 1 else balances * 3
        print(
            f"  {label:12} {statistics.median(balances):8.0f} ({q[0]:.0f}-{q[2]:.0f})"
        )
    xp = XpAward.objects.filter(user_id__in=users).aggregate(t=Sum("amount"))["t"]
    print(f"\nXP awarded: {xp or 0}")
    if run.refusals:
        print("refusals (by the services, in words to the player):")
        for what, n in sorted(run.refusals.items()):
            print(f"  {what}: {n}")
    breaches = ledger_audit()
    print(f"ledger audit: {breaches or 'clean'}")


def first_monday() -> datetime:
    """The week to play: a Monday long past, or the week after the last one a
    database that ran the bench before holds (a week nobody has played yet)."""
    last = Week.objects.order_by("-start").values_list("start", flat=True).first()
    if last is not None and last >= FIRST_MONDAY:
        return last + timedelta(days=7)
    return FIRST_MONDAY


def simulate(
    *,
    players: int,
    days: int,
    seed: int,
    patch: Callable[[Any, str, Any], None] = setattr,
) -> Run:
    """Play ``days`` of a week for ``players`` new players, then close the week."""
    quiet(patch)
    monday = first_monday()
    clock = SimClock(monday)
    clock.install(patch)
    rng = random.Random(seed)
    made = players_make(players)
    run = Run(
        clock=clock,
        rng=rng,
        monday=monday,
        players=made,
        by_user={p.pk: p for p in made},
    )
    for day in range(days):
        day_play(run, day)
        print(f"day {day + 1}: {len(run.table_seconds)} tables so far", file=sys.stderr)
    clock.set(monday + timedelta(days=7, minutes=1))
    weeks_rollover(now=clock.at)
    run.balances.append(
        ("after league", [wallet_balance(user_id=p.pk) for p in run.players])
    )
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    call_command("migrate", "--noinput", verbosity=0)
    report(simulate(players=args.players, days=args.days, seed=args.seed))


if __name__ == "__main__":
    main()
