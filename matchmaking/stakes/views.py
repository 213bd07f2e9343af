"""The stake lobby page and its JSON calls: thin shells over the stake services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.requests import SignedInRequest
from economy.selectors import wallet_balance
from matchmaking.errors import StakeError
from matchmaking.stakes.models import StakeTable
from matchmaking.stakes.selectors import stake_lobby, stake_result
from matchmaking.stakes.services import (
    fill_seconds,
    stake_amounts,
    stake_shapes,
    stake_sit,
    stake_stand,
)


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _int_or_none(raw: str | None) -> int | None:
    """A whole number from a form, or None when empty; -1 (no such table) if forged."""
    if raw in (None, ""):
        return None
    try:
        return int(raw)
    except (TypeError, ValueError):
        return -1


def _reply(
    request: HttpRequest, *, ok: str | None, error: StakeError | None
) -> HttpResponse:
    if _wants_json(request):
        if error is not None:
            body = {"error": error.as_json()}
            return JsonResponse(body, status=400)
        return JsonResponse({"ok": True, "message": ok})
    if error is not None:
        messages.error(request, error.message)
    elif ok:
        messages.success(request, ok)
    return redirect("stakes")


@login_required
def stakes_page(request: SignedInRequest) -> HttpResponse:
    shapes = stake_shapes()
    return render(
        request,
        "matchmaking/stakes/stakes.html",
        {
            "stakes": stake_amounts(),
            "shapes": [{"code": s.code, "label": s.label} for s in shapes.values()],
            "lobby": stake_lobby(user=request.user),
            "balance": wallet_balance(user_id=request.user.pk),
            "fill_seconds": fill_seconds(),
        },
    )


@login_required
@require_POST
def stake_again(request: SignedInRequest, table_id: int) -> HttpResponse:
    """Find another table: Quick seat at the stake and shape of a table the player
    sat at, through the stake tables' own books (a new entry fee)."""
    row = StakeTable.objects.filter(
        pk=table_id, table__seats__user_id=request.user.pk
    ).first()
    if row is None:
        raise Http404(_("There is no such stake table."))
    try:
        sat = stake_sit(user=request.user, stake=row.stake, shape=row.shape)
    except StakeError as exc:
        return _reply(request, ok=None, error=exc)
    text = ngettext(
        "You sat down at table %(id)s; %(stake)s coin is in its pot.",
        "You sat down at table %(id)s; %(stake)s coins are in its pot.",
        sat.stake,
    ) % {"id": sat.pk, "stake": sat.stake}
    return _reply(request, ok=text, error=None)


@login_required
def stakes_state(request: SignedInRequest) -> JsonResponse:
    return JsonResponse(stake_lobby(user=request.user))


@login_required
@require_POST
def stakes_sit(request: SignedInRequest) -> HttpResponse:
    stake = _int_or_none(request.POST.get("stake"))
    try:
        row = stake_sit(
            user=request.user,
            stake=stake if stake is not None else 0,
            shape=request.POST.get("shape", ""),
            table_id=_int_or_none(request.POST.get("table")),
        )
    except StakeError as exc:
        return _reply(request, ok=None, error=exc)
    text = ngettext(
        "You sat down at table %(id)s; %(stake)s coin is in its pot.",
        "You sat down at table %(id)s; %(stake)s coins are in its pot.",
        row.stake,
    ) % {"id": row.pk, "stake": row.stake}
    return _reply(request, ok=text, error=None)


@login_required
@require_POST
def stakes_stand(request: SignedInRequest) -> HttpResponse:
    table_id = _int_or_none(request.POST.get("table"))
    try:
        row = stake_stand(user=request.user, table_id=table_id or -1)
    except StakeError as exc:
        return _reply(request, ok=None, error=exc)
    text = ngettext(
        "You stood up; %(stake)s coin is back in your wallet.",
        "You stood up; %(stake)s coins are back in your wallet.",
        row.stake,
    ) % {"stake": row.stake}
    return _reply(request, ok=text, error=None)


@login_required
def stake_result_json(request: SignedInRequest, table_id: int) -> JsonResponse:
    result = stake_result(table_id=table_id)
    if result is None:
        raise Http404(_("There is no such stake table."))
    return JsonResponse(result)
