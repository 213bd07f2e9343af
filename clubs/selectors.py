"""Clubs as players see them: the directory, a player's own clubs, and a club's
page (members with their ratings and who is online, recent results, requests)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext

from accounts.presence import user_online
from clubs.models import Club, JoinRequest, Member
from games.models import Seat, Table
from games.names import variant_title
from matchmaking.pools.display import rating_label
from matchmaking.pools.models import Rating

PER_PAGE = 30
RECENT_RESULTS = 10
# Results a club shows: rated tables people play; rooms and practice stay private.
PUBLIC_MODES = (Table.Mode.ONLINE, Table.Mode.STAKE)


def club_directory(*, query: str = "", page: Any = 1) -> Page[Any]:
    """Clubs whose name or description holds ``query``, the largest first."""
    clubs: QuerySet[Club] = Club.objects.annotate(member_count=Count("members"))
    query = " ".join((query or "").split())[:60]
    if query:
        clubs = clubs.filter(Q(name__icontains=query) | Q(description__icontains=query))
    clubs = clubs.order_by("-member_count", "name")
    return Paginator(clubs, PER_PAGE).get_page(page)


def clubs_of(*, user: Any) -> list[Member]:
    """The player's memberships, with their clubs, by club name."""
    return list(
        Member.objects.filter(user=user).select_related("club").order_by("club__name")
    )


def language_name(code: str) -> str:
    return str(dict(settings.LANGUAGES).get(code, code))


@dataclass(frozen=True)
class MemberRow:
    member: Member
    online: bool
    # One label per column of ``ClubPage.variants`` ("" where never rated).
    ratings: list[str]


@dataclass(frozen=True)
class ResultRow:
    table_id: int
    variant: str
    date: datetime
    # The club's members at that table, each with their result in words.
    members: list[tuple[str, str]]


@dataclass
class ClubPage:
    club: Club
    viewer: Member | None
    rows: list[MemberRow]
    variants: list[tuple[str, str]]  # (key, title) of the rating columns
    results: list[ResultRow]
    requests: list[JoinRequest] = field(default_factory=list)
    asked: JoinRequest | None = None

    @property
    def is_leader(self) -> bool:
        return self.viewer is not None and self.viewer.role == Member.Role.LEADER

    @property
    def online_count(self) -> int:
        return sum(1 for row in self.rows if row.online)


def _result_words(seat: Seat, seat_count: int) -> str:
    if seat.forfeited:
        return str(gettext("Left"))
    if seat.place == 1:
        return str(gettext("Won"))
    return str(
        gettext("Place %(place)s of %(count)s")
        % {"place": seat.place, "count": seat_count}
    )


def club_results(*, member_ids: list[int]) -> list[ResultRow]:
    """The latest finished rated tables a member played, newest first."""
    tables = list(
        Table.objects.filter(
            seats__user_id__in=member_ids,
            status=Table.Status.FINISHED,
            mode__in=PUBLIC_MODES,
        )
        .distinct()
        .order_by("-finished_at", "-pk")[:RECENT_RESULTS]
    )
    seats = Seat.objects.filter(table__in=tables)
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    members = set(member_ids)
    rows = []
    for table in tables:
        seated = by_table.get(table.pk, [])
        ours = sorted(
            (s for s in seated if s.user_id in members),
            key=lambda s: s.position,
        )
        rows.append(
            ResultRow(
                table_id=table.pk,
                variant=variant_title(table.variant),
                date=table.finished_at or table.created_at,
                members=[(s.name, _result_words(s, len(seated))) for s in ours],
            )
        )
    return rows


def club_page(*, club: Club, viewer: Any) -> ClubPage:
    members = list(
        Member.objects.filter(club=club)
        .select_related("user")
        .order_by("user__username")
    )
    ids = [m.user_id for m in members]
    ratings: dict[tuple[int, str], str] = {}
    used: set[str] = set()
    for r in Rating.objects.filter(user_id__in=ids):
        ratings[(r.user_id, r.variant)] = rating_label(
            mu=r.mu, sigma=r.sigma, tables=r.tables
        )
        used.add(r.variant)
    variants = sorted(((v, variant_title(v)) for v in used), key=lambda p: p[1])
    rows = [
        MemberRow(
            member=m,
            online=user_online(m.user_id),
            ratings=[ratings.get((m.user_id, v), "") for v, _title in variants],
        )
        for m in members
    ]
    rows.sort(
        key=lambda r: (
            r.member.role != Member.Role.LEADER,
            not r.online,
            r.member.user.get_username().lower(),
        )
    )
    mine = next((m for m in members if m.user_id == viewer.pk), None)
    page = ClubPage(
        club=club,
        viewer=mine,
        rows=rows,
        variants=variants,
        results=club_results(member_ids=ids),
    )
    if page.is_leader:
        page.requests = list(
            JoinRequest.objects.filter(club=club, status=JoinRequest.Status.PENDING)
            .select_related("user")
            .order_by("created_at")
        )
    elif mine is None:
        page.asked = JoinRequest.objects.filter(
            club=club, user=viewer, status=JoinRequest.Status.PENDING
        ).first()
    return page
