"""The sit-and-go pages and forms: thin shells over the services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.requests import SignedInRequest
from economy.selectors import wallet_balance
from tournaments.sitgo.errors import SitGoError
from tournaments.sitgo.models import SitGo
from tournaments.sitgo.selectors import sitgo_page
from tournaments.sitgo.services import sitgo_enter, sitgo_withdraw, sitgos_expire_due


def _int(raw: str | None) -> int:
    """A whole number from a form; 0 (refused by the services) if missing or forged."""
    try:
        return int(raw or "")
    except ValueError:
        return 0


def _row(sitgo_id: int) -> SitGo:
    row = SitGo.objects.filter(pk=sitgo_id).first()
    if row is None:
        raise Http404(_("There is no such sit-and-go."))
    return row


def _back(sitgo_id: int) -> HttpResponse:
    """After a refusal: the event's page if there is one, else the tournaments."""
    if sitgo_id and SitGo.objects.filter(pk=sitgo_id).exists():
        return redirect("sitgo", sitgo_id)
    return redirect("tournaments")


@login_required
def sitgo_detail(request: SignedInRequest, sitgo_id: int) -> HttpResponse:
    sitgos_expire_due()
    row = _row(sitgo_id)
    return render(
        request,
        "tournaments/sitgo/detail.html",
        {
            "s": sitgo_page(row=row, user=request.user),
            "balance": wallet_balance(user_id=request.user.pk),
        },
    )


@login_required
def sitgo_state(request: SignedInRequest, sitgo_id: int) -> JsonResponse:
    """The event page's polling: its state, seats taken and the player's table."""
    sitgos_expire_due()
    page = sitgo_page(row=_row(sitgo_id), user=request.user)
    keys = ("id", "state", "taken", "size", "seconds_left", "current_table")
    return JsonResponse({k: page[k] for k in keys})


@login_required
@require_POST
def sitgo_enter_view(request: SignedInRequest) -> HttpResponse:
    raw_id = request.POST.get("sitgo")
    try:
        row = sitgo_enter(
            user=request.user,
            sitgo_id=_int(raw_id) if raw_id else None,
            size=_int(request.POST.get("size")),
            entry=_int(request.POST.get("entry")),
        )
    except SitGoError as exc:
        messages.error(request, exc.message)
        return _back(_int(raw_id) if raw_id else 0)
    messages.success(
        request,
        ngettext(
            "You are in: %(entry)d coin is in the pot.",
            "You are in: %(entry)d coins are in the pot.",
            row.entry,
        )
        % {"entry": row.entry},
    )
    return redirect("sitgo", row.pk)


@login_required
@require_POST
def sitgo_withdraw_view(request: SignedInRequest, sitgo_id: int) -> HttpResponse:
    try:
        row = sitgo_withdraw(user=request.user, sitgo_id=sitgo_id)
    except SitGoError as exc:
        messages.error(request, exc.message)
        return _back(sitgo_id)
    messages.success(
        request,
        ngettext(
            "You withdrew: %(entry)d coin is back in your wallet.",
            "You withdrew: %(entry)d coins are back in your wallet.",
            row.entry,
        )
        % {"entry": row.entry},
    )
    return redirect("sitgo", row.pk)
