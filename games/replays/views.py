"""The replay pages of an ended table: the viewer, the JSON it reads, the text
record, the share card's picture. Open to whoever ``replay_may_see`` admits,
signed in or not."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.gzip import gzip_page

from games.models import Seat, Table
from games.names import table_title
from games.replays.access import (
    PUBLIC_MODES,
    ReplayNotYet,
    replay_share_token,
    replay_table_or_404,
)
from games.replays.card import replay_description, replay_png
from games.replays.record import record_text
from games.replays.steps import replay_data


def _share(request: HttpRequest) -> str | None:
    return request.GET.get("share") or None


def _with_share(url: str, share: str | None) -> str:
    return f"{url}?share={share}" if share else url


def table_replay(request: HttpRequest, table_id: int) -> HttpResponse:
    """The viewer: the page loads, then reads ``replay.json``."""
    share = _share(request)
    try:
        table = replay_table_or_404(table_id=table_id, user=request.user, share=share)
    except ReplayNotYet as not_yet:
        # A replay link of a table still in play leads to the table itself.
        messages.info(request, str(not_yet))
        return redirect("table", table_id=table_id)
    seated = request.user.is_authenticated and (
        Seat.objects.filter(table=table, user=request.user).exists()
    )
    link = request.build_absolute_uri(reverse("table-replay", args=[table.pk]))
    if table.mode == Table.Mode.PRACTICE:
        # A practice replay is private: its player shares it with a signed link.
        token = share or (replay_share_token(table) if seated else None)
        link = _with_share(link, token) if token else ""
    config: dict[str, Any] = {
        "id": table.pk,
        "data": _with_share(reverse("table-replay-json", args=[table.pk]), share),
        "record": _with_share(reverse("table-record", args=[table.pk]), share),
        "link": link,
        "title": table_title(table),
        # Hand n's review: ``review`` + "<n>/", its verdicts ``review`` + "<n>.json".
        "review": reverse("table-review", args=[table.pk, 1]).removesuffix("1/"),
        "share": share or "",
    }
    picture = _with_share(reverse("table-replay-png", args=[table.pk]), share)
    return render(
        request,
        "games/replay.html",
        {
            "table": table,
            "config": config,
            "title": table_title(table),
            "card": {
                "description": replay_description(table=table),
                "image": picture,
                "url": _with_share(reverse("table-replay", args=[table.pk]), share),
            },
        },
    )


@gzip_page  # repeats itself step after step: ~360 KB of a long match gzip to ~11 KB
@cache_control(private=True, max_age=300)
def table_replay_json(request: HttpRequest, table_id: int) -> JsonResponse:
    """Every step of the replay (``games.replays.steps``); an ended table no longer
    changes, so a browser may keep it a while."""
    table = replay_table_or_404(
        table_id=table_id, user=request.user, share=_share(request)
    )
    return JsonResponse(replay_data(table=table))


@cache_control(private=True, max_age=300)
def table_record(request: HttpRequest, table_id: int) -> HttpResponse:
    """The text record (docs/notation.md)."""
    table = replay_table_or_404(
        table_id=table_id, user=request.user, share=_share(request)
    )
    response = HttpResponse(
        record_text(table=table), content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'inline; filename="table-{table.pk}.txt"'
    return response


# An ended table's picture does not change: previews may keep it a month (a new
# drawing, ``games.replays.card.FORMAT``, reaches them when that runs out).
PICTURE_SECONDS = 30 * 24 * 3600


def table_replay_png(request: HttpRequest, table_id: int) -> HttpResponse:
    """The share card's picture: the final layout, 1200 × 630 PNG, for whoever may
    watch the replay (the same 404 as the replay's for anyone else)."""
    table = replay_table_or_404(
        table_id=table_id, user=request.user, share=_share(request)
    )
    response = HttpResponse(replay_png(table=table), content_type="image/png")
    # Anyone may see a public replay, so shared caches may keep its picture; the
    # others depend on who asks.
    scope = "public" if table.mode in PUBLIC_MODES else "private"
    response["Cache-Control"] = f"{scope}, max-age={PICTURE_SECONDS}"
    return response
