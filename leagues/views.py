"""League pages: my group this week (and its JSON for live updates), the top board."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from leagues import conf
from leagues.models import Division
from leagues.selectors import DOWN, NONE, UP, GroupView, division_tops, group_view

POLL_SECONDS = 5


def _zone_label(zone: str) -> str:
    return {
        UP: _("promotion zone"),
        DOWN: _("demotion zone"),
        NONE: _("no points yet"),
    }.get(zone, "")


def _payload(view: GroupView, *, user_id: int, now: datetime) -> dict[str, object]:
    return {
        "division": Division(view.division).label,
        "seconds_left": max(0, int((view.week_end - now).total_seconds())),
        "time_left": timeuntil(view.week_end, now),
        "rows": [
            {
                "rank": row.rank,
                "name": row.name,
                "points": str(row.points),
                "tables": row.tables,
                "zone": row.zone,
                "zone_label": _zone_label(row.zone),
                "me": row.user_id == user_id,
            }
            for row in view.rows
        ],
    }


def _player_id(request: HttpRequest) -> int:
    """The signed-in player's id (every view here is behind ``login_required``)."""
    if request.user.pk is None:
        raise PermissionDenied
    return int(request.user.pk)


@require_GET
@login_required
def league(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    view = group_view(user_id=_player_id(request), now=now)
    return render(
        request,
        "leagues/league.html",
        {
            "view": view,
            "data": _payload(view, user_id=_player_id(request), now=now),
            "points_table": conf.points_table(),
            "weight": conf.simulated_weight(),
            "pair_limit": conf.pair_daily_limit(),
            "zone": conf.zone(view.division),
            "poll_ms": POLL_SECONDS * 1000,
        },
    )


@require_GET
@login_required
def league_standings(request: HttpRequest) -> JsonResponse:
    now = timezone.now()
    view = group_view(user_id=_player_id(request), now=now)
    return JsonResponse(_payload(view, user_id=_player_id(request), now=now))


@require_GET
def league_top(request: HttpRequest) -> HttpResponse:
    tops = division_tops()
    boards = [(Division(d).label, rows) for d, rows in tops.items()]
    return render(request, "leagues/top.html", {"boards": boards})
