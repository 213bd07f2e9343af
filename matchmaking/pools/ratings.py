"""Rating updates with openskill's Plackett-Luce model, per variant (RULES.md §6).

Only people are rated, and only by their order among the people at the table: a
partnership is one team of its people, a free-for-all table a ranking of seats. A
forfeited seat finishes last. With fewer than two people (or one side) nothing
changes. Each table applies once (``RatingChange`` is unique per table and player).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from openskill.models import PlackettLuce

from games.signals import SeatResult
from matchmaking.pools.models import Rating, RatingChange

RATED_MODES = ("online", "stake")
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


@transaction.atomic
def ratings_apply(
    *, table_id: int, mode: str, variant: str, results: Sequence[SeatResult]
) -> dict[int, Skill]:
    """Rate one finished table once; a second call changes nothing."""
    if mode not in RATED_MODES:
        return {}
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
    if RatingChange.objects.filter(table_id=table_id).exists():
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
