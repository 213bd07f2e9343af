"""The lobby, the leaderboards, one table's rating change, blocking a player."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.requests import SignedInRequest
from games import engine
from games.names import variant_dict
from matchmaking.errors import MatchError
from matchmaking.pools.conduct import block_add, block_remove
from matchmaking.pools.selectors import (
    leaderboard,
    lobby_state,
    rating_change_of,
    rating_last_change,
)

LEADERBOARD_PAGE = 50


def _lobby_strings() -> dict[str, str]:
    """Words lobby.js shows, in the page's language (variant names come from the
    page's ``variant-titles``: frames carry the variant's id)."""
    return {
        "seated": _("You have a seat at a table."),
        "back": _("Back to your table"),
        "lost": _("Connection lost: reconnecting… your search is kept."),
        "noTables": _("No online tables are being played right now."),
        "warning": _(
            "Leaving a started online table or letting your clock run out again and "
            "again earns a matchmaking cooldown: 5 minutes, then three times longer "
            "for each repeat the same day."
        ),
    }


@login_required
def lobby(request: SignedInRequest) -> HttpResponse:
    return render(
        request,
        "matchmaking/lobby.html",
        {
            "state": lobby_state(user_id=request.user.pk),
            "last": rating_last_change(user_id=request.user.pk),
            "strings": _lobby_strings(),
        },
    )


def leaderboard_page(request: HttpRequest, variant: str) -> HttpResponse:
    if variant not in engine.VARIANTS:
        raise Http404(_("There is no such variant."))
    page = Paginator(leaderboard(variant=variant), LEADERBOARD_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "matchmaking/leaderboard.html",
        {
            "variant": variant_dict(engine.VARIANTS[variant]),
            "variants": [variant_dict(spec) for spec in engine.VARIANTS.values()],
            "page": page,
            "offset": (page.number - 1) * LEADERBOARD_PAGE,
        },
    )


@login_required
def table_rating_json(request: SignedInRequest, table_id: int) -> JsonResponse:
    """The signed-in player's rating change at one table (``{"change": 14}``)."""
    return JsonResponse(
        {"change": rating_change_of(user_id=request.user.pk, table_id=table_id)}
    )


@login_required
@require_POST
def player_block(request: SignedInRequest, username: str) -> HttpResponse:
    try:
        block_add(blocker_id=request.user.pk, blocked_username=username)
    except MatchError as err:
        messages.error(request, err.message)
    else:
        messages.success(
            request,
            _("You will not be seated with %(name)s.") % {"name": username},
        )
    return redirect("player-profile", username=username)


@login_required
@require_POST
def player_unblock(request: SignedInRequest, username: str) -> HttpResponse:
    other = get_object_or_404(get_user_model(), username=username)
    block_remove(blocker_id=request.user.pk, blocked_id=other.pk)
    messages.success(request, _("%(name)s is no longer blocked.") % {"name": username})
    back = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)  # one's own list of blocks
    return redirect("player-profile", username=username)
