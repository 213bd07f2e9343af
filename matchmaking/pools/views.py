"""The lobby, the leaderboards, one table's rating change, blocking a player."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.requests import SignedInRequest
from games import engine
from games.models import Seat, Table
from games.names import variant_dict
from matchmaking.errors import MatchError
from matchmaking.pools.conduct import block_add, block_remove
from matchmaking.pools.config import pools_all
from matchmaking.pools.models import Search
from matchmaking.pools.rematch import rematch_offer, rematch_state
from matchmaking.pools.seeks import seek_stake_offers
from matchmaking.pools.selectors import (
    leaderboard,
    lobby_state,
    rating_change_of,
    rating_last_change,
    rating_standing,
    table_outcome,
)
from matchmaking.pools.services import search_start

LEADERBOARD_PAGE = 50


def _lobby_strings() -> dict[str, str]:
    """Words lobby.js shows, in the page's language (variant names come from the
    page's ``variant-titles``: frames carry the variant's id)."""
    return {
        "seated": _("Game in progress: you hold a seat at a table."),
        "back": _("Back to your table"),
        "lost": _("Connection lost: reconnecting… your search is kept."),
        "noTables": _("No online tables are being played right now."),
        "noSeeks": _("No open tables right now: open one from a game above."),
        "join": _("Join"),
        "leave": _("Leave"),
        "cancelSeek": _("Cancel the table"),
        "start": _("Start now, computers filling"),
        "rated": _("Rated"),
        "friendly": _("Friendly (unrated)"),
        "fast": _("Fast"),
        "slow": _("Slow"),
        "yours": _("Your table"),
        "noStake": _("No stake"),
        "warning": _(
            "Leaving a started online table or letting your clock run out again and "
            "again earns a matchmaking cooldown: 5 minutes, then three times longer "
            "for each repeat the same day."
        ),
    }


@login_required
def lobby(request: SignedInRequest) -> HttpResponse:
    state = lobby_state(user_id=request.user.pk)
    offers = seek_stake_offers()
    for pool in state["pools"]:  # the page's stake choices (the frame has none)
        pool["stakes"] = offers.get(pool["key"], [])
    return render(
        request,
        "matchmaking/pools/lobby.html",
        {
            "state": state,
            "online": sum(p["waiting"] + p["playing"] for p in state["pools"]),
            "last": rating_last_change(user_id=request.user.pk),
            "strings": _lobby_strings(),
        },
    )


def _pool_variants() -> list[str]:
    """The variants that have an online pool, in the lobby's order."""
    return list(dict.fromkeys(p.variant for p in pools_all()))


def leaderboard_page(request: HttpRequest, variant: str) -> HttpResponse:
    if variant not in engine.VARIANTS:
        raise Http404(_("There is no such variant."))
    page = Paginator(leaderboard(variant=variant), LEADERBOARD_PAGE).get_page(
        request.GET.get("page")
    )
    standing = (
        rating_standing(user_id=request.user.pk, variant=variant)
        if request.user.is_authenticated
        else None
    )
    return render(
        request,
        "matchmaking/pools/leaderboard.html",
        {
            "variant": variant_dict(engine.VARIANTS[variant]),
            "variants": [variant_dict(engine.VARIANTS[v]) for v in _pool_variants()],
            "page": page,
            "offset": (page.number - 1) * LEADERBOARD_PAGE,
            "standing": standing,
        },
    )


@login_required
def table_outcome_json(request: SignedInRequest, table_id: int) -> JsonResponse:
    """What a finished table brought the signed-in player who sat there: rating,
    change, coins and XP (``pending`` while its finish is still applying)."""
    if not Seat.objects.filter(table_id=table_id, user_id=request.user.pk).exists():
        raise Http404(_("You did not play at this table."))
    return JsonResponse(table_outcome(user_id=request.user.pk, table_id=table_id))


@login_required
@require_POST
def table_again(request: SignedInRequest, table_id: int) -> HttpResponse:
    """Find another table: a search in the pool that seated the player here."""
    search = (
        Search.objects.filter(user_id=request.user.pk, seated_table_id=table_id)
        .order_by("-pk")
        .first()
    )
    online = Table.objects.filter(pk=table_id, mode=Table.Mode.ONLINE).exists()
    if search is None or not online:
        raise Http404(_("You were not seated at this table from the lobby."))
    try:
        search_start(user_id=request.user.pk, pool_key=search.pool)
    except MatchError as err:
        messages.error(request, err.message)
        return redirect("lobby")
    return redirect(reverse("lobby") + "?searching=1")


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


@login_required
def table_rematch_json(request: SignedInRequest, table_id: int) -> JsonResponse:
    """GET: the rematch of a finished online table as its result shows it; POST:
    offer or accept it (``{"error": {...}}`` with 400 when refused)."""
    if request.method == "POST":
        try:
            state = rematch_offer(user_id=request.user.pk, table_id=table_id)
        except MatchError as err:
            return JsonResponse({"error": err.as_json()}, status=400)
    else:
        state = rematch_state(user_id=request.user.pk, table_id=table_id)
    return JsonResponse(state)
