"""A club's leader starts a team battle (the form on the club's page): a thin
shell over ``battles.battle_create``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Club, Member
from core.requests import SignedInRequest
from matchmaking.pools.config import pools_all
from tournaments.arenas import battles
from tournaments.arenas.errors import ArenaError
from tournaments.arenas.models import Arena
from tournaments.arenas.selectors import arena_row
from tournaments.times import starts_at_of


@login_required
@require_POST
def battle_new(request: SignedInRequest) -> HttpResponse:
    club = request.POST.get("club", "")
    try:
        arena = battles.battle_create(
            user=request.user,
            club_slug=club,
            rivals=request.POST.getlist("rival"),
            name=request.POST.get("name", ""),
            pool_key=request.POST.get("pool", ""),
            starts_at=starts_at_of(
                request.POST.get("starts_at", ""), request.POST.get("offset", "")
            ),
            minutes=request.POST.get("minutes", ""),
            team_size=request.POST.get("team_size", ""),
        )
    except ArenaError as err:
        messages.error(request, err.message)
        return redirect("club", slug=club) if club else redirect("clubs")
    messages.success(
        request, _("The team battle is scheduled: the clubs' members may join.")
    )
    return redirect("arena", arena_id=arena.pk)


def battles_club_section(
    request: HttpRequest, club: Club, viewer: Member | None
) -> SafeString:
    """The club page's team battles, and for its leaders the form that starts one."""
    rows = [
        arena_row(a)
        for a in Arena.objects.filter(teams__club=club).order_by("-starts_at")[:20]
    ]
    return render_to_string(
        "tournaments/arenas/_club.html",
        {
            "club": club,
            "battles": rows,
            "leader": viewer is not None and viewer.role == Member.Role.LEADER,
            "pools": [p for p in pools_all() if p.seats == 2],
            "minutes": battles.MINUTES,
            "team_size": battles.TEAM_SIZE,
        },
        request=request,
    )
