"""The arenas' writes: scheduling, joining and pausing, pairing, scoring, the end.

Lock order, everywhere: the arena's row first, then its games, then its players in
primary-key order; so pairing, scoring and the end of an arena never deadlock and
never interleave. Arena tables are ordinary online tables (``Table.Mode.ONLINE``):
ratings, leavers' offences, per-table rewards and league points treat them as any
online table, through the receivers that already serve those (docs/tournaments.md).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.bots import bot_refusal
from accounts.links import linked_pairs
from dbtools.prepared import prepared_cursor
from dbtools.rows import rows_insert
from games.finish import FinishNotice
from games.models import Seat, Table
from games.services import SeatTaker, TablePlan, tables_seated_create
from matchmaking.commitments import players_lock_free
from matchmaking.errors import MatchError
from matchmaking.pools.conduct import cooldown_check
from matchmaking.pools.config import pool_get
from matchmaking.pools.display import rating_points
from matchmaking.pools.models import Cooldown, Rating, Search
from tournaments.arenas import notify
from tournaments.arenas.battles import battle_finish, club_for_join
from tournaments.arenas.creating import arena_create as arena_create  # re-exported
from tournaments.arenas.earning import arena_earning_games
from tournaments.arenas.errors import ArenaError
from tournaments.arenas.models import Arena, ArenaGame, ArenaPlayer
from tournaments.arenas.pairing import Free, pairing_round
from tournaments.arenas.presence import present_among, present_at_least
from tournaments.arenas.prize_table import Contender, prizes_award
from tournaments.arenas.prizes import arena_prizes_pay, prize_rules
from tournaments.arenas.schedule import slots_between
from tournaments.arenas.scoring import game_outcome, game_performance, ranks_of
from tournaments.sitgo.commitments import users_in_sitgo

logger = logging.getLogger(__name__)

PAIR_TASK = "tournaments.arena_pair"
NEW_PLAYER_RATING = float(rating_points(25.0))
LIVE_MODES = (Table.Mode.ONLINE, Table.Mode.STAKE)
LIVE_STATUSES = (Table.Status.WAITING, Table.Status.PLAYING)


# --- scheduling arenas


def arenas_schedule(*, now: datetime | None = None) -> int:
    """Create the scheduled arenas of the next ``TOURNAMENTS_ARENA_AHEAD_HOURS``
    that do not exist yet; return how many this call created.

    Each slot's key is unique in the database and each missing row is inserted
    in a savepoint of its own: when two schedulers run at once (two beats, a beat
    and a start-up run), the second insert of a key fails on the constraint and is
    skipped, so each arena is created once.
    """
    now = now or timezone.now()
    end = now + timedelta(hours=settings.TOURNAMENTS_ARENA_AHEAD_HOURS)
    slots = slots_between(settings.TOURNAMENTS_ARENA_SCHEDULE, start=now, end=end)
    rows = []
    for slot in slots:
        pool = pool_get(slot.pool)
        if pool is None:
            logger.error("the arena schedule names an unknown pool %r", slot.pool)
            continue
        rows.append(
            Arena(
                pool=pool.key,
                variant=pool.variant,
                seats=pool.seats,
                partnership=pool.partnership,
                options=pool.options,
                starts_at=slot.starts_at,
                ends_at=slot.ends_at,
                schedule_key=slot.key,
            )
        )
    existing = set(
        Arena.objects.filter(
            schedule_key__in=[r.schedule_key for r in rows]
        ).values_list("schedule_key", flat=True)
    )
    made = 0
    for row in rows:
        if row.schedule_key in existing:
            continue
        try:
            with transaction.atomic():
                row.save(force_insert=True)
        except IntegrityError:
            continue  # another scheduler created it a moment ago
        made += 1
    return made


# --- joining and pausing


def _arena_lock(arena_id: int) -> Arena:
    arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
    if arena is None:
        raise ArenaError("no_arena", _("This arena does not exist."))
    return arena


@transaction.atomic
def arena_join(
    *, arena_id: int, user: AbstractBaseUser, club_id: Any = None
) -> ArenaPlayer:
    """Join (or come back from a pause to) an arena that has not ended.

    Refused while the player is in a leavers' cooldown (RULES.md §6). Computer
    players never join: only a signed-in person can call this. A team battle
    takes the members of its clubs, each for one club (``club_id``, or their only
    one there; ``battles.club_for_join``), kept on coming back.
    """
    if why := bot_refusal(user_id=user.pk):  # bots never play for prizes
        raise ArenaError("bot_account", why)
    arena = _arena_lock(arena_id)
    if arena.status not in (Arena.Status.SCHEDULED, Arena.Status.LIVE):
        raise ArenaError("arena_over", _("This arena is over: join the next one."))
    try:
        cooldown_check(user_id=user.pk)
    except MatchError as exc:
        raise ArenaError("cooldown", exc.message) from None
    now = timezone.now()
    existing = ArenaPlayer.objects.filter(arena=arena, user_id=user.pk).exists()
    club = None
    if arena.team_size and not existing:
        club = club_for_join(arena=arena, user_id=user.pk, club_id=club_id)
    player, created = ArenaPlayer.objects.get_or_create(
        arena=arena, user_id=user.pk, defaults={"free_since": now, "club_id": club}
    )
    if not created:
        if not player.paused:
            raise ArenaError("joined", _("You are already in this arena."))
        player.paused = False
        player.free_since = now
        player.save(update_fields=["paused", "free_since"])
    _standings_changed(arena)
    if arena.status == Arena.Status.LIVE:
        transaction.on_commit(lambda: _pair_soon(arena.pk))
    return player


@transaction.atomic
def arena_withdraw(*, arena_id: int, user: AbstractBaseUser) -> ArenaPlayer:
    """Pause: no new game is paired for the player; a game in progress still
    counts, and joining again resumes with the same score."""
    arena = _arena_lock(arena_id)
    player = ArenaPlayer.objects.filter(arena=arena, user_id=user.pk).first()
    if player is None:
        raise ArenaError("not_joined", _("You have not joined this arena."))
    if player.paused:
        raise ArenaError("paused", _("You have paused already."))
    if arena.status == Arena.Status.FINISHED:
        raise ArenaError("arena_over", _("This arena is over."))
    player.paused = True
    player.save(update_fields=["paused"])
    _standings_changed(arena)
    return player


# --- pairing


def _pair_soon(arena_id: int) -> None:
    try:
        current_app.send_task(PAIR_TASK, args=(arena_id,), ignore_result=True)
    except Exception:
        logger.exception("could not queue a pairing of arena %s", arena_id)


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A free player of an arena as the pairing pass reads them, under its lock."""

    pk: int
    user_id: int
    username: str
    score: int
    free_since: datetime
    last_opponents: list[int]
    opponents: dict[str, int]  # games with each player (user id as text, JSON)
    partners: dict[str, int]
    mu: float | None  # their rating in the arena's variant, None if unrated
    busy: bool  # not to be seated now, see ``_candidates``


def _candidates(arena: Arena, now: datetime) -> list[_Candidate]:
    """The arena's free players (joined, not paused, at no arena table) with their
    names, ratings, and whether they are busy elsewhere: a seat at another live
    online or stake table, a search in an online pool, or a leavers' cooldown.

    Two statements whatever the number of players: the players with all but the
    seats (a lookup by a unique key each), then the ones among them seated at a
    live table (from the live tables, not from each player's history of seats).
    The rows are read without the ORM's model or per-value converters: that and
    ``IN`` lists of every free player cost more than the pairing itself
    (``bench/arena.py``)."""
    free = ArenaPlayer.objects.filter(arena=arena, paused=False, table_id__isnull=True)
    user = OuterRef("user_id")
    searching = Search.objects.filter(user_id=user, status=Search.Status.WAITING)
    cooling = Cooldown.objects.filter(user_id=user, until__gt=now)
    rating = Rating.objects.filter(user_id=user, variant=arena.variant).values("mu")
    query = free.annotate(
        mu=Subquery(rating[:1]), busy=Exists(searching) | Exists(cooling)
    ).values_list(
        "pk",
        "user_id",
        "user__username",
        "score",
        "free_since",
        "last_opponents",
        "opponents",
        "partners",
        "mu",
        "busy",
    )
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    seated = set(
        Seat.objects.filter(
            user_id__in=free.values("user_id"),
            forfeited=False,
            table__mode__in=LIVE_MODES,
            table__status__in=LIVE_STATUSES,
        )
        .order_by()
        .values_list("user_id", flat=True)
    )
    return [
        _Candidate(
            pk=pk,
            user_id=user_id,
            username=username,
            score=score,
            free_since=_aware(free_since),
            last_opponents=_json(last),
            opponents=_json(opponents),
            partners=_json(partners),
            mu=mu,
            busy=bool(busy) or user_id in seated,
        )
        for (
            pk,
            user_id,
            username,
            score,
            free_since,
            last,
            opponents,
            partners,
            mu,
            busy,
        ) in rows
    ]


def _json(value: Any) -> Any:
    """A JSON column as read by a plain cursor: text (SQLite, and PostgreSQL as
    Django sets psycopg up), or already decoded."""
    return json.loads(value) if isinstance(value, str) else value


def _aware(value: datetime | str) -> datetime:
    """A date-time column as read by a plain cursor (text on SQLite) in UTC."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value if timezone.is_aware(value) else value.replace(tzinfo=UTC)


def _counts(raw: dict[str, int]) -> dict[int, int]:
    return {int(k): int(v) for k, v in raw.items()}


def _ratings(variant: str, user_ids: Sequence[int]) -> dict[int, float]:
    rows = Rating.objects.filter(variant=variant, user_id__in=user_ids).values_list(
        "user_id", "mu"
    )
    return {user_id: float(rating_points(mu)) for user_id, mu in rows}


def arena_pair(*, arena_id: int, now: datetime | None = None) -> list[int]:
    """Seat the free players of a live arena; return the new tables' ids.

    Free: joined, not paused, at no arena table, with the arena's page open, and
    not busy elsewhere. The pairing itself is :func:`pairing.pairing_round`; the
    tables are started online tables of the arena's pool, all written together.
    A pass that cannot seat a table (too few free players here) reads only.
    """
    now = now or timezone.now()
    arena = Arena.objects.filter(pk=arena_id).only("seats", "status").first()
    if arena is None or arena.status != Arena.Status.LIVE:
        return []
    free = ArenaPlayer.objects.filter(
        arena_id=arena_id, paused=False, table_id__isnull=True
    ).values_list("user_id", flat=True)
    if not present_at_least(arena_id=arena_id, user_ids=list(free), count=arena.seats):
        return []
    return _arena_pair_locked(arena_id=arena_id, now=now)


@transaction.atomic
def _arena_pair_locked(*, arena_id: int, now: datetime) -> list[int]:
    arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
    if arena is None or arena.status != Arena.Status.LIVE or arena.ends_at <= now:
        return []
    ids = list(
        ArenaPlayer.objects.filter(
            arena=arena, paused=False, table_id__isnull=True
        ).values_list("user_id", flat=True)
    )
    if len(ids) < arena.seats:
        return []
    here = present_among(arena_id=arena.pk, user_ids=ids)
    # A player another commitment holds right now (a sit-and-go entry, a search)
    # waits for the next pass; the ones locked here cannot commit elsewhere
    # meanwhile, so what is read of them below holds until the tables are written.
    locked = players_lock_free(user_ids=[u for u in ids if u in here])
    if len(locked) < arena.seats:
        return []
    in_sitgo = users_in_sitgo(sorted(locked))
    players = [
        p
        for p in _candidates(arena, now)
        if p.user_id in locked and not p.busy and p.user_id not in in_sitgo
    ]
    if len(players) < arena.seats:
        return []
    free = [
        Free(
            user_id=p.user_id,
            score=p.score,
            rating=NEW_PLAYER_RATING if p.mu is None else float(rating_points(p.mu)),
            waited=(now - p.free_since).total_seconds(),
            last_opponents=frozenset(p.last_opponents),
            opponents=_counts(p.opponents),
            partners=_counts(p.partners),
        )
        for p in players
    ]
    teams = None
    if arena.team_size:
        teams = {
            user_id: club_id
            for user_id, club_id in ArenaPlayer.objects.filter(
                arena=arena, user_id__in=[p.user_id for p in players]
            ).values_list("user_id", "club_id")
            if club_id is not None
        }
    pairing = pairing_round(
        free,
        seats=arena.seats,
        partnership=arena.partnership,
        cap=settings.TOURNAMENTS_ARENA_PAIR_CAP,
        apart=linked_pairs(user_ids=[p.user_id for p in players]),
        teams=teams,
    )
    if not pairing.tables:
        return []
    by_user = {p.user_id: p for p in players}
    user_model = get_user_model()
    users = {  # the name is all a new table's frames show of a player
        u: user_model.from_db(
            connection.alias, ["id", "username"], [u, by_user[u].username]
        )
        for table in pairing.tables
        for u in table
    }
    tables = tables_seated_create(
        plans=[
            TablePlan(
                mode=Table.Mode.ONLINE,
                variant=arena.variant,
                options=arena.options,
                seats=[SeatTaker(user=users[u]) for u in seated],
                clock_seconds=settings.MATCHMAKING_CLOCK_SECONDS,
                hand_pause_seconds=settings.MATCHMAKING_HAND_PAUSE_SECONDS,
            )
            for seated in pairing.tables
        ]
    )
    rows_insert(
        [
            ArenaGame(arena_id=arena.pk, table_id=table.pk, user_ids=seated)
            for table, seated in zip(tables, pairing.tables, strict=True)
        ]
    )
    changed = []
    for table, seated in zip(tables, pairing.tables, strict=True):
        for position, user_id in enumerate(seated):
            player = by_user[user_id]
            partner = _partner_of(arena, seated, position)
            rivals = [u for u in seated if u != user_id and u != partner]
            opponents = dict(player.opponents)
            for rival in rivals:
                opponents[str(rival)] = opponents.get(str(rival), 0) + 1
            partners = player.partners
            if partner is not None:
                partners = {**partners, str(partner): partners.get(str(partner), 0) + 1}
            changed.append(
                _Seated(
                    pk=player.pk,
                    table_id=table.pk,
                    last_opponents=rivals,
                    opponents=opponents,
                    partners=partners,
                )
            )
    _players_seat(changed)
    # After commit, in this order: the tables' frames, "your game is ready", then
    # the standings (a frame of every player, the slowest of the three to build).
    notify.paired_send(
        arena_id=arena.pk,
        seated=[
            (table.pk, seated)
            for table, seated in zip(tables, pairing.tables, strict=True)
        ],
    )
    _standings_changed(arena)
    return [t.pk for t in tables]


@dataclass(frozen=True, slots=True)
class _Seated:
    """What a pairing pass writes on a player it seated."""

    pk: int
    table_id: int
    last_opponents: list[int]
    opponents: dict[str, int]
    partners: dict[str, int]


def _players_seat(players: Sequence[_Seated]) -> None:
    """Write the seated players' table and meeting counts in one statement.

    ``bulk_update`` builds a ``CASE`` per row and column: about 3 s of Python for
    1,000 players (``bench/arena.py``). On PostgreSQL this is one ``UPDATE … FROM
    json_to_recordset``, the rows one JSON parameter (one ``json.dumps`` for them
    all); elsewhere one prepared statement run per row.
    """
    table = connection.ops.quote_name(ArenaPlayer._meta.db_table)
    with prepared_cursor() as cursor:
        if connection.vendor == "postgresql":
            rows = [
                {
                    "id": p.pk,
                    "t": p.table_id,
                    "l": p.last_opponents,
                    "o": p.opponents,
                    "pa": p.partners,
                }
                for p in players
            ]
            cursor.execute(
                f"UPDATE {table} AS p SET table_id = v.t, "  # noqa: S608 - the model's table
                "last_opponents = v.l, opponents = v.o, partners = v.pa "
                "FROM json_to_recordset(%s) "
                "AS v(id bigint, t bigint, l jsonb, o jsonb, pa jsonb) "
                "WHERE p.id = v.id",
                [json.dumps(rows)],
            )
        else:
            cursor.executemany(
                f"UPDATE {table} SET table_id = %s, last_opponents = %s, "  # noqa: S608
                "opponents = %s, partners = %s WHERE id = %s",
                [
                    (
                        p.table_id,
                        json.dumps(p.last_opponents),
                        json.dumps(p.opponents),
                        json.dumps(p.partners),
                        p.pk,
                    )
                    for p in players
                ],
            )


def _partner_of(arena: Arena, seated: Sequence[int], position: int) -> int | None:
    """The player's partner at a partnership table (seats 0+2, 1+3)."""
    if not arena.partnership or len(seated) != 4:
        return None
    return seated[(position + 2) % 4]


# --- scoring


def arena_on_table_finished(notice: FinishNotice) -> None:
    """Count a finished arena table in its arena (a finish consequence of every
    online table; other tables are not arena games and change nothing).

    Runs once per table (``games.finish``); also idempotent by ``scored_at``. A
    game that ends after the arena's clock still counts, until the arena is
    finished (ranks and prizes are final then).
    """
    arena_id = (
        ArenaGame.objects.filter(table_id=notice.table_id, scored_at__isnull=True)
        .values_list("arena_id", flat=True)
        .first()
    )
    if arena_id is None:
        return
    with transaction.atomic():
        arena = Arena.objects.select_for_update().get(pk=arena_id)
        game = (
            ArenaGame.objects.select_for_update()
            .filter(table_id=notice.table_id, scored_at__isnull=True)
            .first()
        )
        if game is None:
            return
        now = timezone.now()
        game.scored_at = now
        game.save(update_fields=["scored_at"])
        players = {
            p.user_id: p
            for p in ArenaPlayer.objects.select_for_update()
            .filter(arena=arena, user_id__in=game.user_ids)
            .order_by("pk")
        }
        if arena.status == Arena.Status.FINISHED:
            _players_free(list(players.values()), table_id=notice.table_id, now=now)
            return
        _score(arena, notice, players, now)
        _standings_changed(arena)


def _side(arena: Arena, position: int) -> int:
    return position % 2 if arena.partnership else position


def _score(
    arena: Arena,
    notice: FinishNotice,
    players: dict[int, ArenaPlayer],
    now: datetime,
) -> None:
    sides = 2 if arena.partnership else len(notice.results)
    place_of_side = {_side(arena, r.position): r.place for r in notice.results}
    firsts = sum(1 for place in place_of_side.values() if place == 1)
    user_ids = [r.user_id for r in notice.results if r.user_id is not None]
    ratings = _ratings(arena.variant, user_ids)
    changed = []
    for result in notice.results:
        player = players.get(result.user_id) if result.user_id else None
        if player is None:
            continue
        side = _side(arena, result.position)
        outcome = game_outcome(
            place=result.place,
            sides=sides,
            shared=result.place == 1 and firsts > 1,
            streak=player.streak,
            forfeited=result.forfeited,
        )
        opponents = [
            ratings.get(r.user_id, NEW_PLAYER_RATING)
            for r in notice.results
            if r.user_id is not None and _side(arena, r.position) != side
        ]
        player.score += outcome.points
        player.streak = outcome.streak
        player.games += 1
        player.wins += int(outcome.win)
        player.performance_total += game_performance(
            place=result.place, sides=sides, opponents=opponents
        )
        if result.forfeited:
            player.paused = True  # who left a table is not paired again unasked
        changed.append(player)
    ArenaPlayer.objects.bulk_update(
        changed, ["score", "streak", "games", "wins", "performance_total", "paused"]
    )
    _players_free(list(players.values()), table_id=notice.table_id, now=now)


def _players_free(players: list[ArenaPlayer], *, table_id: int, now: datetime) -> None:
    ArenaPlayer.objects.filter(
        pk__in=[p.pk for p in players], table_id=table_id
    ).update(table_id=None, free_since=now)


def arena_on_table_cancelled(*, table_id: int) -> None:
    """A cancelled arena table counts for nobody; its players are free again."""
    with transaction.atomic():
        game = (
            ArenaGame.objects.select_related("arena")
            .filter(table_id=table_id, scored_at__isnull=True)
            .first()
        )
        if game is None:
            return
        arena = Arena.objects.select_for_update().get(pk=game.arena_id)
        now = timezone.now()
        updated = ArenaGame.objects.filter(pk=game.pk, scored_at__isnull=True).update(
            scored_at=now
        )
        if not updated:
            return
        ArenaPlayer.objects.filter(arena=arena, table_id=table_id).update(
            table_id=None, free_since=now
        )
        _standings_changed(arena)


# --- the clock: start, end, final ranks and prizes


def arenas_tick(*, now: datetime | None = None) -> None:
    """Start the arenas due, pair the live ones, end those whose clock ran out and
    finish those whose last games are in; push standings that changed."""
    now = now or timezone.now()
    # Reads first: a tick with nothing to do writes nothing (on SQLite even an
    # UPDATE that matches no row takes the write lock).
    starting = Q(status=Arena.Status.SCHEDULED, starts_at__lte=now)
    ending = Q(status=Arena.Status.LIVE, ends_at__lte=now)
    if Arena.objects.filter(starting | ending).exists():
        Arena.objects.filter(starting).update(
            status=Arena.Status.LIVE, standings_version=F("standings_version") + 1
        )
        Arena.objects.filter(ending).update(
            status=Arena.Status.ENDING, standings_version=F("standings_version") + 1
        )
    for arena_id in Arena.objects.filter(status=Arena.Status.LIVE).values_list(
        "pk", flat=True
    ):
        try:
            arena_pair(arena_id=arena_id, now=now)
        except Exception:
            logger.exception("pairing arena %s failed", arena_id)
    for arena_id in Arena.objects.filter(status=Arena.Status.ENDING).values_list(
        "pk", flat=True
    ):
        arena_finish(arena_id=arena_id, now=now)
    recent = now - timedelta(minutes=10)
    for arena_id in (
        Arena.objects.filter(standings_sent__lt=F("standings_version"))
        .exclude(status=Arena.Status.FINISHED, finished_at__lt=recent)
        .values_list("pk", flat=True)
    ):
        notify.standings_push(arena_id=arena_id)


@transaction.atomic
def arena_finish(*, arena_id: int, now: datetime | None = None) -> bool:
    """Give an ended arena its final ranks and pay its prizes, once; True if this
    call finished it. Waits for the games in progress (they still count), up to
    ``TOURNAMENTS_ARENA_GRACE_MINUTES`` after the clock.

    Ranks and prizes go to the players with an earning game only (a player whose
    every game was left to the stand-in or forfeited takes no rank); no prize is
    paid below the minimum field, and the purse is bounded by the earning games
    (``tournaments.arenas.prize_table``)."""
    now = now or timezone.now()
    arena = Arena.objects.select_for_update().get(pk=arena_id)
    if arena.status != Arena.Status.ENDING:
        return False
    grace = timedelta(minutes=settings.TOURNAMENTS_ARENA_GRACE_MINUTES)
    pending = ArenaGame.objects.filter(arena=arena, scored_at__isnull=True).exists()
    if pending and now < arena.ends_at + grace:
        return False
    players = list(
        ArenaPlayer.objects.select_for_update()
        .filter(arena=arena, games__gt=0)
        .order_by("pk")
    )
    # Earning needs playing (RULES.md §5): only the players with an earning game
    # are ranked; the prizes follow the field and the games (``prize_table``).
    earning = arena_earning_games(arena_id=arena.pk)
    field = [p for p in players if earning[p.user_id]]
    ranks = ranks_of([(p.user_id, p.score, p.performance, p.games) for p in field])
    rank_of = {p.user_id: rank for p, rank in zip(field, ranks, strict=True)}
    for player in players:
        player.rank = rank_of.get(player.user_id)
    wanted = prizes_award(
        ranked=[
            Contender(user_id=p.user_id, rank=rank_of[p.user_id], score=p.score)
            for p in field
        ],
        earning_games=sum(earning[p.user_id] for p in field),
        rules=prize_rules(),
    )
    paid = arena_prizes_pay(arena_id=arena.pk, prizes=wanted, at=now)
    for player in players:
        coins, xp = paid.get(player.user_id, (0, 0))
        player.prize_coins, player.prize_xp = coins, xp
    ArenaPlayer.objects.bulk_update(players, ["rank", "prize_coins", "prize_xp"])
    if arena.team_size:
        battle_finish(arena=arena, earning=earning, at=now)
    arena.status = Arena.Status.FINISHED
    arena.finished_at = now
    arena.standings_version += 1
    arena.save(update_fields=["status", "finished_at", "standings_version"])
    return True


def _standings_changed(arena: Arena) -> None:
    """Bump the arena's standings version (the caller holds its row lock); push
    at once after commit unless a push went out less than the throttle ago (the
    tick sends that one)."""
    Arena.objects.filter(pk=arena.pk).update(
        standings_version=F("standings_version") + 1
    )
    sent = arena.standings_sent_at
    throttle = timedelta(seconds=settings.TOURNAMENTS_ARENA_STANDINGS_SECONDS)
    if sent is None or timezone.now() - sent >= throttle:
        arena_id = arena.pk
        transaction.on_commit(lambda: notify.standings_push(arena_id=arena_id))
