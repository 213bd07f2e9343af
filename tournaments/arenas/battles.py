"""Team battles: arenas where clubs compete (docs/tournaments.md, "Team battles").

A battle is an arena with ``team_size`` set and its clubs in ``ArenaClub``. Each
player joins for one of their clubs among the battle's and scores for it as in
any arena; two players of one club never meet. A club's score is the sum of its
``team_size`` best players' scores. At the end the clubs are ranked, and the
winning club's counted players who had an earning game each receive the club
prize (``TOURNAMENTS_BATTLE_CLUB_PRIZE``), under the arenas' earning rules: no
prize below the arenas' minimum field, nor unless two clubs had an earning
player. The players' own prizes are the arena's.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Member
from core.names import name_impersonates, name_offends
from matchmaking.pools.config import pool_get
from tournaments.arenas.creating import arena_create
from tournaments.arenas.errors import ArenaError
from tournaments.arenas.models import Arena, ArenaClub, ArenaPlayer
from tournaments.arenas.prizes import arena_prizes_pay

CLUBS = (2, 10)  # fewest and most clubs in a battle
TEAM_SIZE = (1, 20)
MINUTES = (20, 240)
LEAD_MINUTES = (5, 30 * 24 * 60)
NAME = (3, 80)


def _bounded(value: Any, bounds: tuple[int, int]) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if bounds[0] <= number <= bounds[1] else None


def _rivals(names: Collection[Any], own: Club) -> list[Club]:
    wanted = [" ".join(str(n).split()) for n in names if str(n or "").strip()]
    clubs = []
    for name in wanted:
        club = Club.objects.filter(name__iexact=name).first()
        if club is None:
            raise ArenaError(
                "no_club", _("No club goes by %(name)s.") % {"name": name[:80]}
            )
        if club != own and club not in clubs:
            clubs.append(club)
    return clubs


@transaction.atomic
def battle_create(
    *,
    user: Any,
    club_slug: Any,
    rivals: Collection[Any],
    name: Any,
    pool_key: Any,
    starts_at: Any,
    minutes: Any,
    team_size: Any,
) -> Arena:
    """A team battle between a club (whose leader makes it) and its rivals, named
    by their clubs' names. Refused, nothing made: a player who leads no such club,
    an unknown rival, fewer than 2 or more than 10 clubs, a game that is not a
    two-seat pool's, a length, a team size or a start out of bounds, a name the
    public-name checks refuse."""
    club = Club.objects.filter(slug=str(club_slug or "")).first()
    if (
        club is None
        or not Member.objects.filter(
            club=club, user=user, role=Member.Role.LEADER
        ).exists()
    ):
        raise ArenaError(
            "not_leader", _("Only a club's leaders may start a team battle for it.")
        )
    title = " ".join(name.split()) if isinstance(name, str) else ""
    if not NAME[0] <= len(title) <= NAME[1]:
        raise ArenaError(
            "name_length",
            _("An event's name has %(min)s to %(max)s characters.")
            % {"min": NAME[0], "max": NAME[1]},
        )
    if name_impersonates(title) or name_offends(title):
        raise ArenaError("name_word", _("Choose another name for the event."))
    clubs = [club, *_rivals(rivals, club)]
    if not CLUBS[0] <= len(clubs) <= CLUBS[1]:
        raise ArenaError(
            "clubs",
            _("A team battle is between %(min)s and %(max)s clubs.")
            % {"min": CLUBS[0], "max": CLUBS[1]},
        )
    pool = pool_get(pool_key)
    if pool is None or pool.seats != 2:
        raise ArenaError("bad_pool", _("Choose one of the two-player games."))
    length = _bounded(minutes, MINUTES)
    if length is None:
        raise ArenaError(
            "bad_length",
            _("A team battle lasts %(min)s to %(max)s minutes.")
            % {"min": MINUTES[0], "max": MINUTES[1]},
        )
    size = _bounded(team_size, TEAM_SIZE)
    if size is None:
        raise ArenaError(
            "team_size",
            _("A club's score counts its best %(min)s to %(max)s players.")
            % {"min": TEAM_SIZE[0], "max": TEAM_SIZE[1]},
        )
    now = timezone.now()
    soonest, latest = (now + timedelta(minutes=m) for m in LEAD_MINUTES)
    if not isinstance(starts_at, datetime) or not soonest <= starts_at <= latest:
        raise ArenaError(
            "bad_start", _("Start the event between 5 minutes and 30 days from now.")
        )
    arena = arena_create(
        pool_key=pool.key, starts_at=starts_at, minutes=length, created_by=user
    )
    arena.team_size, arena.name = size, title
    arena.save(update_fields=["team_size", "name"])
    ArenaClub.objects.bulk_create([ArenaClub(arena=arena, club=c) for c in clubs])
    return arena


def club_for_join(*, arena: Arena, user_id: int, club_id: Any) -> int:
    """The club a player joins a battle for: ``club_id`` if it is one of the
    battle's and theirs, else their only such club; refused otherwise."""
    theirs = list(
        Member.objects.filter(
            user_id=user_id, club_id__in=arena.teams.values("club_id")
        ).values_list("club_id", flat=True)
    )
    if not theirs:
        raise ArenaError(
            "not_in_battle",
            _("This team battle is for the members of its clubs."),
        )
    try:
        chosen = int(club_id) if club_id not in (None, "") else None
    except (TypeError, ValueError):
        chosen = None
    if chosen in theirs:
        return int(chosen)
    if len(theirs) == 1 and club_id in (None, ""):
        return theirs[0]
    raise ArenaError("choose_club", _("Choose the club you play for."))


@dataclass(frozen=True)
class TeamRow:
    rank: int
    club_id: int
    name: str
    score: int
    counted: list[tuple[str, int]]  # the best players' names and scores


def team_rows(*, arena: Arena) -> list[TeamRow]:
    """The battle's clubs, best first: each club's score is its ``team_size`` best
    players' scores; ties share the better rank, by name after."""
    size = arena.team_size or 0
    teams = list(arena.teams.select_related("club"))
    by_club: dict[int, list[tuple[str, int]]] = {t.club_id: [] for t in teams}
    for club_id, username, score in (
        ArenaPlayer.objects.filter(arena=arena, club_id__in=list(by_club))
        .order_by("-score", "user__username")
        .values_list("club_id", "user__username", "score")
    ):
        if club_id is not None:
            by_club[club_id].append((username, score))
    lines = sorted(
        (
            (sum(s for _n, s in by_club[t.club_id][:size]), t.club.name, t.club_id)
            for t in teams
        ),
        key=lambda line: (-line[0], line[1].lower()),
    )
    rows: list[TeamRow] = []
    for at, (score, name, club_id) in enumerate(lines, start=1):
        rank = rows[-1].rank if rows and rows[-1].score == score else at
        rows.append(
            TeamRow(
                rank=rank,
                club_id=club_id,
                name=name,
                score=score,
                counted=by_club[club_id][:size],
            )
        )
    return rows


def battle_finish(*, arena: Arena, earning: Mapping[int, int], at: datetime) -> None:
    """Write the clubs' scores and ranks and pay the club prize (the arena's row
    locked by ``arena_finish``, its players' prizes already decided)."""
    rows = team_rows(arena=arena)
    for row in rows:
        ArenaClub.objects.filter(arena=arena, club_id=row.club_id).update(
            score=row.score, rank=row.rank
        )
    players = list(ArenaPlayer.objects.filter(arena=arena).order_by("pk"))
    earned = [p for p in players if earning.get(p.user_id)]
    clubs_playing = {p.club_id for p in earned}
    if (
        not rows
        or len(earned) < settings.TOURNAMENTS_ARENA_MIN_FIELD
        or len(clubs_playing) < 2
    ):
        return
    winners = {r.club_id for r in rows if r.rank == 1}
    size = arena.team_size or 0
    counted: list[ArenaPlayer] = []
    for club_id in winners:
        best = sorted(
            (p for p in players if p.club_id == club_id),
            key=lambda p: (-p.score, p.pk),
        )[:size]
        counted += [p for p in best if earning.get(p.user_id)]
    coins, xp = settings.TOURNAMENTS_BATTLE_CLUB_PRIZE
    paid = arena_prizes_pay(
        arena_id=arena.pk,
        prizes={p.user_id: (1, int(coins), int(xp)) for p in counted},
        at=at,
        club=True,
    )
    for player in counted:
        player.club_prize_coins, player.club_prize_xp = paid.get(player.user_id, (0, 0))
    ArenaPlayer.objects.bulk_update(counted, ["club_prize_coins", "club_prize_xp"])
