"""Swiss events' pages and forms: thin shells over the services. Every POST
answers with a redirect and a message (the player's words for a refusal)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.requests import SignedInRequest
from tournaments.swiss.errors import SwissError
from tournaments.swiss.models import SwissEvent
from tournaments.swiss.rounds import swiss_advance
from tournaments.swiss.selectors import event_page
from tournaments.swiss.services import swiss_create, swiss_join, swiss_withdraw
from tournaments.times import starts_at_of


def _event(event_id: int) -> SwissEvent:
    event = SwissEvent.objects.filter(pk=event_id).first()
    if event is None:
        raise Http404(_("There is no such Swiss event."))
    return event


@login_required
def swiss_detail(request: SignedInRequest, event_id: int) -> HttpResponse:
    # A round that is due starts here too: the embedded default needs no beat.
    swiss_advance(event_id=event_id)
    event = _event(event_id)
    return render(
        request,
        "tournaments/swiss/event.html",
        event_page(event=event, user=request.user),
    )


@login_required
@require_POST
def swiss_join_view(request: SignedInRequest, event_id: int) -> HttpResponse:
    try:
        swiss_join(user=request.user, event_id=event_id)
    except SwissError as err:
        messages.error(request, err.message)
    else:
        messages.success(
            request,
            _("You are in. Keep this page open when a round starts, or you miss it."),
        )
    return redirect("swiss", event_id)


@login_required
@require_POST
def swiss_withdraw_view(request: SignedInRequest, event_id: int) -> HttpResponse:
    try:
        swiss_withdraw(user=request.user, event_id=event_id)
    except SwissError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _("You withdrew from the event."))
    return redirect("swiss", event_id)


@login_required
@require_POST
def swiss_new(request: SignedInRequest) -> HttpResponse:
    """A club's leader runs a Swiss event (the form on the club's page)."""
    club = request.POST.get("club", "")
    try:
        event = swiss_create(
            user=request.user,
            club_slug=club,
            name=request.POST.get("name", ""),
            pool=request.POST.get("pool", ""),
            rounds=request.POST.get("rounds", ""),
            round_minutes=request.POST.get("round_minutes", ""),
            starts_at=starts_at_of(
                request.POST.get("starts_at", ""), request.POST.get("offset", "")
            ),
            entry=request.POST.get("entry", "0"),
            members_only=request.POST.get("members_only") == "1",
        )
    except SwissError as err:
        messages.error(request, err.message)
        return redirect("club", slug=club) if club else redirect("clubs")
    messages.success(request, _("The event is scheduled: its players may join now."))
    return redirect("swiss", event.pk)
