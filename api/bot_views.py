"""The bot accounts' endpoints and page: thin shells over ``api.bots`` and
``api.bot_queue`` (docs/api.md, "Bot accounts")."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts.bots import bot_site_refusal, user_is_bot
from api.auth import PLAY, request_token
from api.bot_queue import BotQueueError, bot_ratings, bot_seek, bot_seek_cancel
from api.bots import BotUpgradeError, bot_upgrade, bot_upgrade_refusal
from api.endpoints import json_body
from api.errors import refusal_response
from core.refusals import Refusal
from matchmaking.errors import RoomError
from matchmaking.rooms.services import invitation_send, room_create


@csrf_exempt  # bearer tokens, never the site's cookie (api/auth.py)
@require_POST
def api_bot_upgrade(request: HttpRequest) -> JsonResponse:
    """``POST /api/bot/account/upgrade``: the token's own account becomes a bot."""
    try:
        token = request_token(request, PLAY)
        bot = bot_upgrade(user_id=token.owner_id)
    except Refusal as refusal:
        if isinstance(refusal, BotUpgradeError):
            return JsonResponse({"error": refusal.message}, status=409)
        return refusal_response(refusal)
    return JsonResponse({"ok": True, "bot": True, "upgraded_at": bot.upgraded_at})


@csrf_exempt  # bearer tokens, never the site's cookie (api/auth.py)
@require_POST
def api_bot_seek(request: HttpRequest) -> JsonResponse:
    """``POST /api/bot/seek`` {pool, speed?}: queue the bot for a rated game among
    bots; answers the queue entry (and its table once paired)."""
    try:
        token = request_token(request, PLAY)
        body = json_body(request)
        seek = bot_seek(
            user_id=token.owner_id,
            pool=str(body.get("pool", "")),
            speed=str(body.get("speed", "") or ""),
        )
    except BotQueueError as refusal:
        return JsonResponse({"error": refusal.message}, status=refusal.status)
    except Refusal as refusal:
        return refusal_response(refusal)
    return JsonResponse(
        {
            "pool": seek.pool,
            "speed": seek.speed,
            "table": seek.table_id,
            "ratings": bot_ratings(user_id=token.owner_id),
        },
        status=200 if seek.table_id else 202,
    )


@csrf_exempt  # bearer tokens, never the site's cookie (api/auth.py)
@require_POST
def api_bot_seek_cancel(request: HttpRequest) -> JsonResponse:
    """``POST /api/bot/seek/cancel``: leave the bots' queue; ``cancelled`` says
    whether the bot was waiting (a bot already paired keeps its table)."""
    try:
        token = request_token(request, PLAY)
    except Refusal as refusal:
        return refusal_response(refusal)
    return JsonResponse({"cancelled": bot_seek_cancel(user_id=token.owner_id)})


@login_required
@require_http_methods(["GET", "POST"])
def bot_upgrade_page(request: HttpRequest) -> HttpResponse:
    """The page that upgrades the signed-in account to a bot, after a confirmation
    in words that it cannot be undone."""
    user = request.user
    assert isinstance(user, User)
    user_id = user.pk
    is_bot = user_is_bot(user_id=user_id)
    refusal = None if is_bot else bot_upgrade_refusal(user_id=user_id)
    if request.method == "POST" and not is_bot:
        if request.POST.get("confirm") != "yes":
            error = gettext(
                "Tick the box to confirm that the upgrade cannot be undone."
            )
            return render(
                request,
                "api/bot_upgrade.html",
                {"is_bot": False, "refusal": refusal, "error": error},
                status=400,
            )
        try:
            bot_upgrade(user_id=user_id)
        except BotUpgradeError as err:
            return render(
                request,
                "api/bot_upgrade.html",
                {"is_bot": False, "refusal": err},
                status=409,
            )
        messages.success(request, gettext("This account is now a bot account."))
        return redirect("bot-upgrade")
    return render(
        request, "api/bot_upgrade.html", {"is_bot": is_bot, "refusal": refusal}
    )


@login_required
@require_POST
def bot_challenge(request: HttpRequest, username: str) -> HttpResponse:
    """A profile's "Challenge": a friend room of the signed-in person, for two,
    with the bot invited (a friendly, unrated game); the bot's program accepts
    through the API."""
    user = request.user
    assert isinstance(user, User)
    bot = get_object_or_404(get_user_model(), username=username, is_active=True)
    if not user_is_bot(user_id=bot.pk):
        raise Http404
    if why := bot_site_refusal(user_id=user.pk):
        messages.error(request, why)
        return redirect("player-profile", username=bot.get_username())
    variant = str(request.POST.get("variant", ""))
    try:
        with transaction.atomic():
            room = room_create(host=user, variant=variant, options={"seats": 2})
            invitation_send(room_id=room.pk, inviter=user, username=bot.get_username())
    except RoomError as err:
        messages.error(request, err.message)
        return redirect("player-profile", username=bot.get_username())
    return redirect("room", room_id=room.pk)
