"""The embedded game's pages: the frame, its JSON calls, and the snippet builder.

The frame and its calls need no cookie: a third-party frame usually gets none. A
game is started or resumed by a fetch that answers with its token and the table
config (the frame keeps the token in its URL fragment, in its storage when it
may, and in a partitioned cookie); the table socket is then opened with the token.
No view here reads or writes the session, and no form needs a CSRF cookie: a new
guest game acts for nobody, and a token is proof enough for its own game.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from accounts.language import language_supported
from core.requests import client_address
from embed.errors import EmbedError
from embed.headers import frame_headers_set
from embed.params import LEVELS, EmbedChoice, choice_from, variants_public
from embed.selectors import game_choice_key, game_config
from embed.services import embed_game_create, embed_game_find
from games import engine
from games.fairness import table_fair_json
from games.models import Seat
from games.names import variant_title

COOKIE = "embed_game"
COOKIE_AGE = 7 * 24 * 3600


def frame_language(request: HttpRequest) -> str:
    """``?lang=`` when the site has it, else the browser's language (the locale
    middleware read ``Accept-Language``: a third-party frame sends no cookie)."""
    return language_supported(request.GET.get("lang")) or translation.get_language()


def _form_context(choice: EmbedChoice) -> dict[str, Any]:
    spec = engine.VARIANTS[choice.variant]
    return {
        "choice": choice,
        "variants": [(key, variant_title(key)) for key in engine.VARIANTS],
        "seat_choices": list(spec.seats),
        "target_choices": list(spec.targets),
        "levels": [(level, Seat.BotLevel(level).label) for level in LEVELS],
    }


def _site(request: HttpRequest) -> dict[str, str]:
    return {
        "site_url": request.build_absolute_uri(reverse("home")),
        "site_name": request.get_host(),
    }


@never_cache
@require_GET
def frame(request: HttpRequest, variant: str | None = None) -> HttpResponse:
    """The game in a frame: the form preset from the URL, then the table."""
    choice = choice_from(request.GET, variant)
    language = frame_language(request)
    with translation.override(language):
        page = {
            "language": language,
            "variants": variants_public(),
            "new": reverse("embed-new"),
            "resume": reverse("embed-resume"),
            # A game saved in the partitioned cookie: the script resumes it when
            # neither the URL nor the storage holds one (``new``: the player
            # asked for a new game).
            "saved": "" if request.GET.get("new") else _saved_token(request, choice),
            "preset": choice.key(),
        }
        response = render(
            request,
            "embed/frame.html",
            {**_form_context(choice), **_site(request), "page": page},
        )
    response["Content-Language"] = language
    return frame_headers_set(response)


def _saved_token(request: HttpRequest, choice: EmbedChoice) -> str:
    """The partitioned cookie's token if its game is of ``choice``, else ""."""
    token = request.COOKIES.get(COOKIE, "")[:500]
    if not token:
        return ""
    try:
        game = embed_game_find(token=token)
    except EmbedError:
        return ""
    return token if game_choice_key(game=game) == choice.key() else ""


def _refused(err: EmbedError, status: int) -> JsonResponse:
    return JsonResponse({"error": err.as_json()}, status=status)


def _game_response(
    request: HttpRequest, *, game: Any, token: str, status: int = 200
) -> JsonResponse:
    language = frame_language(request)
    with translation.override(language):
        config = game_config(game=game, token=token, language=language)
    response = JsonResponse({"token": token, "game": config}, status=status)
    response["Cache-Control"] = "no-store"
    _cookie_set(request, response, token)
    return response


def _cookie_set(request: HttpRequest, response: HttpResponse, token: str) -> None:
    """The token in a partitioned cookie (CHIPS): kept per embedding site even
    where third-party cookies are blocked; browsers take it over HTTPS only."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=COOKIE_AGE,
        path=reverse("embed-frame"),
        secure=True,
        httponly=True,
        samesite="None",
    )
    # Python 3.11's cookies know no Partitioned attribute: it rides on SameSite.
    response.cookies[COOKIE]["samesite"] = "None; Partitioned"


def _posted(request: HttpRequest) -> QueryDict | dict[str, Any]:
    if request.content_type == "application/json":
        try:
            data = json.loads(request.body or b"{}")
        except (ValueError, RecursionError):
            return {}
        return data if isinstance(data, dict) else {}
    return request.POST


@csrf_exempt
@require_POST
def new_game(request: HttpRequest) -> JsonResponse:
    """Start a game for a new guest: ``{token, game}``, or ``{error}`` (429)."""
    choice = choice_from(_posted(request))
    with translation.override(frame_language(request)):
        try:
            started = embed_game_create(choice=choice, address=client_address(request))
        except EmbedError as err:
            return _refused(err, 429 if err.code == "rate" else 400)
        return _game_response(
            request, game=started.game, token=started.token, status=201
        )


@csrf_exempt
@require_POST
def resume_game(request: HttpRequest) -> JsonResponse:
    """The game of a token the frame kept: ``{token, game}``, or ``{error}`` (404)."""
    token = str(_posted(request).get("token") or "")
    with translation.override(frame_language(request)):
        try:
            game = embed_game_find(token=token)
        except EmbedError as err:
            return _refused(err, 404)
        return _game_response(request, game=game, token=token)


@require_GET
def fair_json(request: HttpRequest) -> JsonResponse:
    """The game's fair deal (as ``/tables/<id>/fair.json``), for its token."""
    with translation.override(frame_language(request)):
        try:
            game = embed_game_find(token=request.GET.get("token", ""))
        except EmbedError as err:
            return _refused(err, 404)
    assert game.table is not None
    response = JsonResponse(table_fair_json(table=game.table))
    response["Cache-Control"] = "no-store"
    return response


def code(request: HttpRequest) -> HttpResponse:
    """The snippet builder: options, a live preview and a copy button."""
    choice = choice_from(request.GET)
    return render(
        request,
        "embed/code.html",
        {
            **_form_context(choice),
            "frame_url": reverse("embed-frame") + "?" + urlencode(choice.as_query()),
            "languages": settings.LANGUAGES,
            "code_config": {
                "frame": request.build_absolute_uri(reverse("embed-frame")),
                "variants": variants_public(),
                "title": gettext("Dominoes"),
            },
            **_site(request),
        },
    )
