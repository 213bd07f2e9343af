"""The arenas' reads: standings, an arena's page, the tournaments page's part."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Member
from games.events import EventLink, EventStanding
from matchmaking.pools.config import pool_get
from tournaments.arenas.battles import team_rows
from tournaments.arenas.earning import arena_earning_games
from tournaments.arenas.models import Arena, ArenaGame, ArenaPlayer
from tournaments.arenas.prize_table import prizes_preview
from tournaments.arenas.prizes import prize_rules
from tournaments.arenas.scoring import STREAK_FROM, ranks_of


def arena_title(arena: Arena) -> str:
    """The arena's name as the reader says it (its pool's title; a team battle's
    own name first)."""
    pool = pool_get(arena.pool)
    title = pool.title if pool is not None else arena.variant
    return f"{arena.name} · {title}" if arena.team_size else title


def standings_rows(*, arena_id: int, final: bool = False) -> list[dict[str, Any]]:
    """Every player of the arena in standings order; ``final`` (a finished arena):
    the final ranks, None for a player who took none (no earning game), listed
    last."""
    rows = list(
        ArenaPlayer.objects.filter(arena_id=arena_id).values_list(
            "user_id",
            "user__username",
            "score",
            "streak",
            "games",
            "wins",
            "performance_total",
            "table_id",
            "paused",
            "rank",
        )
    )
    performance = [round(r[6] / r[4]) if r[4] else None for r in rows]
    ranks: list[int | None] = (
        [r[9] for r in rows]
        if final
        else list(
            ranks_of(
                [
                    (r[0], r[2], perf, r[4])
                    for r, perf in zip(rows, performance, strict=True)
                ]
            )
        )
    )
    lines = sorted(
        zip(rows, performance, ranks, strict=True),
        key=lambda line: (
            line[2] is None,
            line[2] or 0,
            -line[0][2],
            str(line[0][1]).lower(),
        ),
    )
    return [
        {
            "rank": rank,
            "id": r[0],
            "name": r[1],
            "score": r[2],
            "streak": r[3],
            "fire": r[3] >= STREAK_FROM,
            "games": r[4],
            "wins": r[5],
            "performance": perf,
            "playing": r[7] is not None,
            "paused": r[8],
        }
        for r, perf, rank in lines
    ]


# The columns of a standings frame's rows, in order (docs/tournaments.md).
FRAME_COLUMNS = ("rank", "id", "name", "score", "streak", "games", "performance", "now")


def standings_frame(*, arena_id: int) -> dict[str, Any]:
    """The ``standings`` frame of the arena's socket (docs/tournaments.md): one
    array per player, ``now`` being "playing", "paused" or ""."""
    arena = Arena.objects.get(pk=arena_id)
    return {
        "type": "standings",
        "status": arena.status,
        "version": arena.standings_version,
        "starts_at": arena.starts_at.isoformat(),
        "ends_at": arena.ends_at.isoformat(),
        "fire_from": STREAK_FROM,
        "columns": FRAME_COLUMNS,
        # A team battle's clubs: [rank, club id, name, score], best first.
        "clubs": [[t.rank, t.club_id, t.name, t.score] for t in team_rows(arena=arena)]
        if arena.team_size
        else None,
        "rows": [
            [
                r["rank"],
                r["id"],
                r["name"],
                r["score"],
                r["streak"],
                r["games"],
                r["performance"],
                "playing" if r["playing"] else "paused" if r["paused"] else "",
            ]
            for r in standings_rows(
                arena_id=arena_id, final=arena.status == Arena.Status.FINISHED
            )
        ],
    }


def arena_me(*, arena: Arena, user_id: int) -> dict[str, Any] | None:
    """The player's own line in the arena, or None if they have not joined."""
    player = ArenaPlayer.objects.filter(arena=arena, user_id=user_id).first()
    if player is None:
        return None
    return {
        "score": player.score,
        "streak": player.streak,
        "games": player.games,
        "paused": player.paused,
        "table_id": player.table_id,
        "rank": player.rank,
        "prize_coins": player.prize_coins,
        "prize_xp": player.prize_xp,
        "club_prize_coins": player.club_prize_coins,
        "club_prize_xp": player.club_prize_xp,
    }


def battle_page(*, arena: Arena, user_id: int) -> dict[str, Any] | None:
    """A team battle's part of its page: the clubs' standings, and the reader's
    clubs among the battle's (which one they play for, when more than one)."""
    if not arena.team_size:
        return None
    theirs = list(
        Member.objects.filter(user_id=user_id, club__battle_entries__arena=arena)
        .select_related("club")
        .order_by("club__name")
    )
    return {
        "team_size": arena.team_size,
        "teams": team_rows(arena=arena),
        "my_clubs": [m.club for m in theirs],
        "prize": settings.TOURNAMENTS_BATTLE_CLUB_PRIZE,
    }


def arena_row(arena: Arena) -> dict[str, Any]:
    return {
        "id": arena.pk,
        "title": arena_title(arena),
        "status": arena.status,
        "status_label": arena.get_status_display(),
        "starts_at": arena.starts_at,
        "ends_at": arena.ends_at,
        "staff": arena.schedule_key is None,
        "battle": bool(arena.team_size),
    }


def arenas_index(user: Any) -> dict[str, Any]:
    """Context for ``tournaments/arenas/_index.html``: the schedule, live and
    finished arenas and the player's history."""
    now = timezone.now()
    live = Arena.objects.filter(
        status__in=[Arena.Status.LIVE, Arena.Status.ENDING]
    ).order_by("ends_at")
    upcoming = Arena.objects.filter(
        status=Arena.Status.SCHEDULED,
        starts_at__lt=now + timedelta(hours=settings.TOURNAMENTS_ARENA_AHEAD_HOURS),
    ).order_by("starts_at")[:20]
    finished = Arena.objects.filter(status=Arena.Status.FINISHED).order_by(
        "-finished_at"
    )[:10]
    history = []
    if user.is_authenticated:
        mine = (
            ArenaPlayer.objects.filter(user_id=user.pk)
            .filter(Q(games__gt=0) | ~Q(arena__status=Arena.Status.FINISHED))
            .select_related("arena")
            .order_by("-arena__starts_at")[:20]
        )
        history = [
            {
                **arena_row(p.arena),
                "score": p.score,
                "games": p.games,
                "rank": p.rank,
                "prize_coins": p.prize_coins,
                "prize_xp": p.prize_xp,
            }
            for p in mine
        ]
    return {
        "live": [arena_row(a) for a in live],
        "upcoming": [arena_row(a) for a in upcoming],
        "finished": [arena_row(a) for a in finished],
        "history": history,
    }


def prizes_table() -> list[dict[str, int]]:
    """The full prize table by rank (what a large enough arena pays at most)."""
    return [
        {"rank": rank, "coins": coins, "xp": xp}
        for rank, (coins, xp) in enumerate(prize_rules().table, start=1)
    ]


def arena_prizes(*, arena_id: int) -> dict[str, Any]:
    """The arena page's prize box: the rules in force, the field and earning games
    so far, and the prize of each paid rank if the arena ended now
    (``tournaments.arenas.prize_table``)."""
    rules = prize_rules()
    earning = arena_earning_games(arena_id=arena_id)
    games = sum(earning.values())
    now = prizes_preview(field=len(earning), earning_games=games, rules=rules)
    return {
        "table": prizes_table(),
        "min_field": rules.min_field,
        "per_game_coins": rules.per_game[0],
        "per_game_xp": rules.per_game[1],
        "field": len(earning),
        "games": games,
        "now": [
            {"rank": rank, "coins": coins, "xp": xp}
            for rank, (coins, xp) in enumerate(now, start=1)
        ],
    }


def arena_table_of(*, arena_id: int, user_id: int) -> int | None:
    """The arena table the player sits at now, if any."""
    return (
        ArenaPlayer.objects.filter(arena_id=arena_id, user_id=user_id)
        .values_list("table_id", flat=True)
        .first()
    )


def arena_of_table(table_id: int) -> EventLink | None:
    """The link back to the arena that seated this table (the table page's
    "Back to the arena"), or None for a table no arena seated."""
    arena_id = (
        ArenaGame.objects.filter(table_id=table_id)
        .values_list("arena_id", flat=True)
        .first()
    )
    if arena_id is None:
        return None
    return EventLink(
        url=reverse("arena", args=[arena_id]), label=_("Back to the arena")
    )


def arena_standing_of_table(table_id: int, user_id: int) -> EventStanding | None:
    """The player's standing in the arena that seated this table (its result
    screen's line): the arena's page and, once it has finished, their final rank
    and prize; None for a table no arena seated or a player not in it."""
    game = (
        ArenaGame.objects.filter(table_id=table_id)
        .values_list("arena_id", "arena__status")
        .first()
    )
    if game is None:
        return None
    arena_id, status = game
    player = ArenaPlayer.objects.filter(arena_id=arena_id, user_id=user_id).first()
    if player is None:
        return None
    url = reverse("arena", args=[arena_id])
    if status != Arena.Status.FINISHED:
        return EventStanding(url=url, state="running")
    return EventStanding(
        url=url,
        state="finished",
        place=player.rank,
        coins=player.prize_coins,
        xp=player.prize_xp,
    )
