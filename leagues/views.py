"""League pages: my group this week (and its JSON for live updates), the top board."""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET

from games import engine
from games.names import table_title
from leagues import conf
from leagues.display import (
    points_text,
    shape_label,
    utc_moment_text,
    weight_text,
)
from leagues.models import Division
from leagues.points import table_shape
from leagues.selectors import (
    DOWN,
    NONE,
    UP,
    GroupView,
    WeekTable,
    division_tops,
    group_view,
    my_week_tables,
)

POLL_SECONDS = 5


def _zone_label(zone: str) -> str:
    return {
        UP: _("promotion zone"),
        DOWN: _("demotion zone"),
        NONE: _("no points yet"),
    }.get(zone, "")


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _table_row(item: WeekTable) -> dict[str, object]:
    """One of my tables this week, every text ready to show."""
    entry, table = item.entry, item.table
    if table is None:
        title, shape = _("a deleted table"), ""
    else:
        opts = engine.Options.from_dict(table.options)
        title = table_title(table)
        shape = shape_label(table_shape(seats=opts.seats, partnership=opts.partnership))
    return {
        "url": reverse("table", args=[entry.table_id]) if table else None,
        "title": title,
        "shape": shape,
        "finished": _iso(entry.finished_at),
        "finished_text": utc_moment_text(entry.finished_at),
        "place": entry.place,
        # A table over the same-pair limit adds nothing to the week.
        "points": points_text(entry.points if entry.counted else 0),
        "weight": weight_text(entry.weight),
        "counted": entry.counted,
        "status": pgettext("league table counted", "yes")
        if entry.counted
        else pgettext("league table counted", "no: same-pair daily limit"),
    }


def _payload(view: GroupView, *, user_id: int, now: datetime) -> dict[str, object]:
    return {
        "division": Division(view.division).label,
        "seconds_left": max(0, int((view.week_end - now).total_seconds())),
        "time_left": timeuntil(view.week_end, now),
        "week_end": _iso(view.week_end),
        "week_end_text": utc_moment_text(view.week_end),
        "rows": [
            {
                "rank": row.rank,
                "name": row.name,
                "profile_url": reverse("player-profile", args=[row.name])
                if row.user_id is not None
                else None,
                "points": points_text(row.points),
                "tables": row.tables,
                "zone": row.zone,
                "zone_label": _zone_label(row.zone),
                "me": row.user_id == user_id,
            }
            for row in view.rows
        ],
        "my_tables": [_table_row(t) for t in my_week_tables(user_id=user_id, now=now)],
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
    zone = conf.zone(view.division)
    return render(
        request,
        "leagues/league.html",
        {
            "view": view,
            "data": _payload(view, user_id=_player_id(request), now=now),
            "shapes": [
                (shape_label(shape), row) for shape, row in conf.points_table().items()
            ],
            "weight": weight_text(conf.simulated_weight()),
            "pair_limit": conf.pair_daily_limit(),
            "zone": zone,
            "rewards": list(enumerate(zone.rewards, start=1)),
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
