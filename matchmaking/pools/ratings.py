"""Rating updates with openskill's Plackett-Luce model, per variant (RULES.md §6).

Only people are rated, and only by their order among the people at the table: a
partnership is one team of its people, a free-for-all table a ranking of seats. A
forfeited seat finishes last. With fewer than two people (or one side) nothing
changes. Each table applies once (``RatingChange`` is unique per table and player).

Bot accounts (``accounts.bots``) are rated apart, among bots only: a table of bots
is rated under the key ``bot:<variant>``, so a bot's rating never meets a
person's. Were a bot and people ever at one rated table, each kind is rated only
among its own kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.db import transaction
from openskill.models import PlackettLuce

from accounts.bots import bot_ids
from games.signals import SeatResult
from matchmaking.pools.models import Rating, RatingChange

RATED_MODES = ("online", "stake")
# The rating key of the bots' own pool: ``bot:<variant>`` (``Rating.variant``).
BOT_KEY_PREFIX = "bot:"
_MODEL = PlackettLuce()
MU = _MODEL.mu
SIGMA = _MODEL.sigma


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class _Person:
    user_id: int
    side: tuple[str, int]
    place: int
    forfeited: bool


def _sides(results: Sequence[SeatResult]) -> list[tuple[int, list[_Person]]]:
    """People grouped by side, each with its rank (lower is better)."""
    people = [
        _Person(
            user_id=r.user_id,
            side=("team", r.team) if r.team is not None else ("seat", r.position),
            place=r.place,
            forfeited=r.forfeited,
        )
        for r in results
        if r.user_id is not None and not r.simulated
    ]
    by_side: dict[tuple[str, int], list[_Person]] = {}
    for r in people:
        by_side.setdefault(r.side, []).append(r)
    worst = max((r.place for r in results), default=1) + 1
    ranked: list[tuple[int, list[_Person]]] = []
    for members in by_side.values():
        rank = worst if any(m.forfeited for m in members) else members[0].place
        ranked.append((rank, members))
    return ranked


def ratings_compute(
    *, results: Sequence[SeatResult], before: dict[int, Skill]
) -> dict[int, Skill]:
    """New skills of the table's people; empty when the table rates nobody."""
    sides = _sides(results)
    if len(sides) < 2:
        return {}
    teams = [
        [
            _MODEL.rating(
                mu=before[m.user_id].mu,
                sigma=before[m.user_id].sigma,
            )
            for m in members
        ]
        for _rank, members in sides
    ]
    rated = _MODEL.rate(teams, ranks=[float(rank) for rank, _members in sides])
    after: dict[int, Skill] = {}
    for (_rank, members), team in zip(sides, rated, strict=True):
        for member, rating in zip(members, team, strict=True):
            after[member.user_id] = Skill(mu=rating.mu, sigma=rating.sigma)
    return after


def rating_key(*, variant: str, bot: bool) -> str:
    """The ``Rating.variant`` key of a variant's people's or bots' pool."""
    return f"{BOT_KEY_PREFIX}{variant}" if bot else variant


def ratings_apply(
    *, table_id: int, mode: str, variant: str, results: Sequence[SeatResult]
) -> dict[int, Skill]:
    """Rate one finished table once, people among people and bots among bots
    (under :func:`rating_key`); a second call changes nothing."""
    if mode not in RATED_MODES:
        return {}
    bots = bot_ids(
        user_ids=[
            r.user_id for r in results if r.user_id is not None and not r.simulated
        ]
    )
    if not bots:
        return _ratings_apply(table_id=table_id, variant=variant, results=results)
    people = [replace(r, simulated=r.simulated or r.user_id in bots) for r in results]
    programs = [
        replace(r, simulated=r.simulated or r.user_id not in bots) for r in results
    ]
    with transaction.atomic():
        return {
            **_ratings_apply(table_id=table_id, variant=variant, results=people),
            **_ratings_apply(
                table_id=table_id,
                variant=rating_key(variant=variant, bot=True),
                results=programs,
            ),
        }


@transaction.atomic
def _ratings_apply(
    *, table_id: int, variant: str, results: Sequence[SeatResult]
) -> dict[int, Skill]:
    user_ids = sorted(
        r.user_id for r in results if r.user_id is not None and not r.simulated
    )
    if len(user_ids) < 2:
        return {}
    for user_id in user_ids:  # in key order: no deadlock between two tables
        Rating.objects.get_or_create(
            user_id=user_id, variant=variant, defaults={"mu": MU, "sigma": SIGMA}
        )
    rows = {
        r.user_id: r
        for r in Rating.objects.select_for_update()
        .filter(user_id__in=user_ids, variant=variant)
        .order_by("user_id")
    }
    if RatingChange.objects.filter(table_id=table_id, user_id__in=user_ids).exists():
        return {}
    before = {uid: Skill(mu=row.mu, sigma=row.sigma) for uid, row in rows.items()}
    after = ratings_compute(results=results, before=before)
    changes = []
    for user_id, skill in after.items():
        row = rows[user_id]
        changes.append(
            RatingChange(
                user_id=user_id,
                table_id=table_id,
                variant=variant,
                mu_before=row.mu,
                sigma_before=row.sigma,
                mu_after=skill.mu,
                sigma_after=skill.sigma,
            )
        )
        row.mu, row.sigma, row.tables = skill.mu, skill.sigma, row.tables + 1
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_update(list(rows.values()), ["mu", "sigma", "tables"])
    return after
