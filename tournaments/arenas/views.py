"""An arena's page, its state as JSON, join and withdraw: thin shells."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.requests import SignedInRequest
from tournaments.arenas.errors import ArenaError
from tournaments.arenas.models import Arena
from tournaments.arenas.scoring import PLACE_POINTS
from tournaments.arenas.selectors import (
    arena_me,
    arena_prizes,
    arena_row,
    battle_page,
    standings_frame,
    standings_rows,
)
from tournaments.arenas.services import arena_join, arena_withdraw


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _arena_or_404(arena_id: int) -> Arena:
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        raise Http404(_("There is no such arena."))
    return arena


@login_required
def arena_page(request: SignedInRequest, arena_id: int) -> HttpResponse:
    arena = _arena_or_404(arena_id)
    me = arena_me(arena=arena, user_id=request.user.pk)
    return render(
        request,
        "tournaments/arenas/arena.html",
        {
            "arena": arena_row(arena),
            "me": me,
            "prizes": arena_prizes(arena_id=arena.pk),
            "points": [
                {"sides": sides, "points": points}
                for sides, points in PLACE_POINTS.items()
                if sides == (2 if arena.partnership else arena.seats)
            ],
            "partnership": arena.partnership,
            "battle": battle_page(arena=arena, user_id=request.user.pk),
            "standings": standings_rows(
                arena_id=arena.pk, final=arena.status == Arena.Status.FINISHED
            ),
        },
    )


@login_required
def arena_state(request: SignedInRequest, arena_id: int) -> JsonResponse:
    arena = _arena_or_404(arena_id)
    return JsonResponse(
        {
            "standings": standings_frame(arena_id=arena.pk),
            "me": arena_me(arena=arena, user_id=request.user.pk),
        }
    )


def _reply(
    request: HttpRequest, arena_id: int, *, ok: str, error: ArenaError | None
) -> HttpResponse:
    if _wants_json(request):
        if error is not None:
            return JsonResponse({"error": error.as_json()}, status=400)
        return JsonResponse({"ok": True, "message": ok})
    if error is not None:
        messages.error(request, error.message)
    else:
        messages.success(request, ok)
    return redirect("arena", arena_id=arena_id)


@login_required
@require_POST
def arena_join_view(request: SignedInRequest, arena_id: int) -> HttpResponse:
    _arena_or_404(arena_id)
    try:
        arena_join(
            arena_id=arena_id, user=request.user, club_id=request.POST.get("club")
        )
    except ArenaError as exc:
        return _reply(request, arena_id, ok="", error=exc)
    return _reply(
        request,
        arena_id,
        ok=_("You are in. Keep this page open: your games start here."),
        error=None,
    )


@login_required
@require_POST
def arena_withdraw_view(request: SignedInRequest, arena_id: int) -> HttpResponse:
    _arena_or_404(arena_id)
    try:
        arena_withdraw(arena_id=arena_id, user=request.user)
    except ArenaError as exc:
        return _reply(request, arena_id, ok="", error=exc)
    return _reply(
        request,
        arena_id,
        ok=_("Paused: no new game will start for you. Join again to go on."),
        error=None,
    )
