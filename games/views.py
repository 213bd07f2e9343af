"""Game pages: Play (start a practice table), the table, rematch, history, log and
the fair deal's proof."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.bots import bot_site_refusal
from core.requests import SignedInRequest
from games import engine
from games.errors import TableError
from games.events import table_event_link, table_event_standing
from games.fairness import table_fair_json
from games.forms import PlayForm
from games.history import table_hands, table_log_export
from games.models import FinishStep, OfflineGame, Seat, Table
from games.my_games import player_games
from games.names import seat_display_name, table_title, variant_dict, variant_title
from games.offline_shell import runtime_ready
from games.services import table_practice_create
from games.speeds import BOT_SPEEDS, DEFAULT_SPEED
from games.stats import practice_stats
from games.watchers import table_visible_or_404, table_with_seats_visible_or_404

ENDED = {Table.Status.FINISHED, Table.Status.CANCELLED}


def _ended_table(table_id: int, user: User) -> Table:
    table = table_visible_or_404(table_id=table_id, user=user)
    if table.status not in ENDED:
        raise Http404(_("The history opens when the game has ended."))
    return table


def _form_error(form: PlayForm, err: TableError) -> None:
    field = err.field if err.field in form.fields else None
    form.add_error(field, err.message)


@login_required
def play(request: SignedInRequest) -> HttpResponse:
    """GET: the practice form and statistics; POST: create the table and go to it."""
    if request.method == "POST":
        form = PlayForm(request.POST)
        if why := bot_site_refusal(user_id=request.user.pk):  # plays by the API
            form.add_error(None, why)
        elif form.is_valid():
            try:
                table = table_practice_create(
                    user=request.user, **form.practice_arguments()
                )
            except TableError as err:
                _form_error(form, err)
            else:
                return redirect("table", table_id=table.pk)
        status = 400
    else:
        form = PlayForm()
        status = 200
    variants = {key: variant_dict(spec) for key, spec in engine.VARIANTS.items()}
    return render(
        request,
        "games/play.html",
        {
            "form": form,
            "layout": form.layout(),
            "variants": variants,
            "variant_list": list(variants.values()),
            "stats": practice_stats(user=request.user),
            # The offline game, offered where its runtime is installed.
            "offline_url": reverse("offline") if runtime_ready() else None,
        },
        status=status,
    )


def _after_links(table: Table, seated: bool) -> dict[str, Any]:
    """Where a finished table leads: back to the event that seated it (an arena,
    a sit-and-go: ``games.events``), or else a rematch and another table of its
    kind (for the people who sat there); and its lobby (``GAMES_REMATCH_OFFER_URLS``,
    ``GAMES_AGAIN_URLS``, ``GAMES_LOBBY_URLS``). A table of an event offers no
    rematch nor another table: its players' next game is the event's."""
    again: dict[str, str] = getattr(settings, "GAMES_AGAIN_URLS", {})
    lobby: dict[str, str] = getattr(settings, "GAMES_LOBBY_URLS", {})
    rematch: dict[str, str] = getattr(settings, "GAMES_REMATCH_OFFER_URLS", {})
    mode = str(table.mode)
    event = table_event_link(table_id=table.pk, mode=mode)
    onward = seated and event is None
    return {
        "event": {
            "url": event.url,
            "label": event.label,
            # The player's standing and prize in the event, asked at the match end.
            "standing": reverse("table-event", args=[table.pk]) if seated else None,
        }
        if event
        else None,
        "rematch_offer": reverse(rematch[mode], args=[table.pk])
        if onward and mode in rematch
        else None,
        "again": reverse(again[mode], args=[table.pk])
        if onward and mode in again
        else None,
        "lobby": reverse(lobby[mode]) if mode in lobby else None,
    }


@login_required
def table_page(request: SignedInRequest, table_id: int) -> HttpResponse:
    """The live table: the page loads, then the socket brings every state."""
    table, seats = table_with_seats_visible_or_404(table_id=table_id, user=request.user)
    mine = next((s for s in seats if s.user_id == request.user.pk), None)
    spec = engine.VARIANTS.get(table.variant)
    config: dict[str, Any] = {
        "id": table.pk,
        "ws": f"/ws/tables/{table.pk}/",
        "seat": mine.position if mine else None,
        "variant": table.variant,
        "title": variant_title(table.variant),
        "scoring": spec.scoring if spec else "",
        # Block sets its undealt tiles aside: a stock nobody draws from is not shown.
        "stock_drawn": spec is not None and spec.stock != engine.STOCK_NONE,
        "practice": table.mode == Table.Mode.PRACTICE,
        "rematch": reverse("table-rematch", args=[table.pk])
        if table.mode == Table.Mode.PRACTICE and mine is not None
        else None,
        "history": reverse("table-history", args=[table.pk]),
        "replay": reverse("table-replay", args=[table.pk]),
        # The review of hand n is ``review`` + "<n>/" (games.reviews).
        "review": reverse("table-review", args=[table.pk, 1]).removesuffix("1/"),
        "fair": reverse("table-fair", args=[table.pk]),
        "play": reverse("play"),
        "room": reverse(settings.GAMES_FRIEND_ROOM_URL, args=[table.pk])
        if table.mode == Table.Mode.FRIEND and settings.GAMES_FRIEND_ROOM_URL
        else None,
        **_after_links(table, mine is not None),
    }
    return render(
        request,
        "games/table.html",
        {
            "table": table,
            "spec": spec,
            "config": config,
            "seat": mine,
            "friend_room": table.mode == Table.Mode.FRIEND,
            # The people met here, to befriend from the result screen.
            "people": [
                s.user
                for s in seats
                if s.user is not None and s.pk != getattr(mine, "pk", None)
            ]
            if mine is not None
            else [],
        },
    )


@login_required
@require_POST
def table_rematch(request: SignedInRequest, table_id: int) -> HttpResponse:
    """A new practice table with the same options, computers and speed."""
    table = get_object_or_404(Table, pk=table_id, mode=Table.Mode.PRACTICE)
    seats = list(table.seats.all())
    if not any(s.user_id == request.user.pk for s in seats):
        raise Http404(_("You did not play at this table."))
    if table.status not in ENDED:
        messages.error(request, _("Finish or leave this game before a rematch."))
        return redirect("table", table_id=table.pk)
    if why := bot_site_refusal(user_id=request.user.pk):  # plays by the API
        messages.error(request, why)
        return redirect("play")
    options = {k: v for k, v in table.options.items() if k != "variant"}
    speed = next(
        (k for k, ms in BOT_SPEEDS.items() if ms == table.bot_delay_ms), DEFAULT_SPEED
    )
    try:
        new = table_practice_create(
            user=request.user,
            variant=table.variant,
            options=options,
            bot_levels=[s.bot_level for s in seats if s.position > 0],
            bot_speed=speed,
        )
    except TableError as err:
        messages.error(request, err.message)
        return redirect("play")
    return redirect("table", table_id=new.pk)


@login_required
def table_history(request: SignedInRequest, table_id: int) -> HttpResponse:
    table = _ended_table(table_id, request.user)
    seats = table.seats.select_related("user")
    return render(
        request,
        "games/history.html",
        {
            "table": table,
            "title": table_title(table),
            "seat_rows": [{"seat": s, "name": seat_display_name(s)} for s in seats],
            "hands": table_hands(table=table),
            # Played offline and uploaded (``games.offline_upload``).
            "offline": OfflineGame.objects.filter(table_id=table.pk).exists(),
        },
    )


@login_required
def my_games(request: SignedInRequest) -> HttpResponse:
    """The player's tables: live ones first with Resume, then results and history."""
    page, rows = player_games(user=request.user, page=request.GET.get("page", 1))
    return render(request, "games/my_games.html", {"page": page, "rows": rows})


@login_required
def table_log_json(request: SignedInRequest, table_id: int) -> JsonResponse:
    table = _ended_table(table_id, request.user)
    response = JsonResponse(table_log_export(table=table))
    response["Content-Disposition"] = f'attachment; filename="table-{table.pk}.json"'
    return response


def table_fair(request: HttpRequest, table_id: int) -> JsonResponse:
    """``fair.json``: the table's fair deal as far as it may be known now, for
    whoever may see the table (RULES.md §1.1, docs/fairness.md)."""
    table = table_visible_or_404(table_id=table_id, user=request.user)
    response = JsonResponse(table_fair_json(table=table))
    response["Cache-Control"] = "no-store"
    return response


@login_required
def table_event_json(request: SignedInRequest, table_id: int) -> JsonResponse:
    """The signed-in player's standing in the event that seated this table (an
    arena, a sit-and-go): its page, its state and, once it has finished, their
    place and prize. ``pending`` while a finish step of the table is still to
    apply: the table's result may not have reached the event yet."""
    table = get_object_or_404(Table, pk=table_id)
    if not Seat.objects.filter(table_id=table_id, user_id=request.user.pk).exists():
        raise Http404(_("You did not play at this table."))
    found = table_event_standing(
        table_id=table.pk, mode=str(table.mode), user_id=request.user.pk
    )
    if found is None:
        raise Http404(_("No event seated this table."))
    kind, standing = found
    pending = FinishStep.objects.filter(
        table_id=table.pk, done_at__isnull=True
    ).exists()
    return JsonResponse(
        {
            "pending": pending,
            "kind": kind,
            "url": standing.url,
            "state": standing.state,
            "place": standing.place,
            "coins": standing.coins,
            "xp": standing.xp,
        }
    )
