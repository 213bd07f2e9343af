"""The Swiss events' parts of other pages: the tournaments page's list, and a
club's page (its events, and for its leaders the form that runs one)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from clubs.models import Club, Member
from economy import conf as economy_conf
from matchmaking.pools.config import pools_all
from tournaments.swiss import conf
from tournaments.swiss.rounds import swiss_sweep
from tournaments.swiss.selectors import club_events, swiss_index


def swiss_section(user: Any) -> dict[str, Any]:
    """Context for ``tournaments/swiss/_index.html`` (rounds that are due start
    here too: a page never shows an event behind its schedule)."""
    swiss_sweep()
    return swiss_index()


def swiss_club_section(
    request: HttpRequest, club: Club, viewer: Member | None
) -> SafeString:
    leader = viewer is not None and viewer.role == Member.Role.LEADER
    return render_to_string(
        "tournaments/swiss/_club.html",
        {
            "club": club,
            "events": club_events(club_id=club.pk),
            "leader": leader,
            "pools": [p for p in pools_all() if p.seats == 2],
            "fees": sorted(economy_conf.entry_fees()),
            "rounds": range(conf.ROUNDS[0], conf.ROUNDS[1] + 1),
            "minutes": conf.ROUND_MINUTES,
        },
        request=request,
    )
