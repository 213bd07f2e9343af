"""The offline practice game's pages: the table that plays with no connection
(``/play/offline/``), the page the service worker shows for any other page while
offline, and the upload of a finished offline game (``games.offline_upload``).

The two pages are public and carry nothing of a session (no name, no token, no
message, no cookie): the service worker keeps them (``config.webapp``). The
upload is for a signed-in player only, with the CSRF token it asks for first
(the cached page holds none)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from core.cookieless import cookieless
from games import engine
from games.forms import PlayForm
from games.names import variant_dict
from games.offline_shell import runtime_urls
from games.offline_upload import (
    UploadError,
    offline_game_record,
    too_large,
    upload_limit,
    upload_parse,
)


def _shell_page(
    request: HttpRequest, template: str, context: dict[str, Any]
) -> HttpResponse:
    response = render(request, template, context)
    # The service worker refreshes its copy whenever the page is reachable.
    response["Cache-Control"] = "no-cache"
    return response


@cookieless
@require_safe
def offline_page(request: HttpRequest) -> HttpResponse:
    """The offline table: the practice form and the table page's markup, driven
    by ``static/js/offline/main.js`` from ``#offline-config``."""
    form = PlayForm()
    variants = {key: variant_dict(spec) for key, spec in engine.VARIANTS.items()}
    config: dict[str, Any] = {
        "offline": True,
        "variants": variants,
        "runtime": runtime_urls(),
        "upload": reverse("offline-results"),
        "play": reverse("play"),
        "rules": reverse("rules"),
        "language": get_language(),
    }
    return _shell_page(
        request,
        "games/offline.html",
        {
            "form": form,
            "layout": form.layout(),
            "variants": variants,
            "variant_list": list(variants.values()),
            "config": config,
        },
    )


@cookieless
@require_safe
def offline_notice(request: HttpRequest) -> HttpResponse:
    """What the service worker shows instead of a page it cannot reach."""
    return _shell_page(
        request, "games/offline_notice.html", {"runtime": runtime_urls() is not None}
    )


def _refused(err: UploadError, status: int) -> JsonResponse:
    return JsonResponse({"error": err.as_json()}, status=status)


# The HTTP status of each refusal of an upload.
STATUS = {"too_large": 413, "duplicate": 409, "not_yours": 409, "rate": 429}


@never_cache
@require_http_methods(["GET", "POST"])
def offline_results(request: HttpRequest) -> JsonResponse:
    """GET: a CSRF token for the upload (``{"csrf"}``). POST: record a finished
    offline game (JSON, ``games.offline_upload``): 201 ``{"recorded", "history",
    "message"}``, or ``{"error": {"code", "message"}}`` with nothing changed."""
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        return _refused(
            UploadError(
                "sign_in",
                gettext("Sign in to add your offline games to your practice record."),
            ),
            403,
        )
    if request.method == "GET":
        return JsonResponse({"csrf": get_token(request)})
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    try:
        if declared > upload_limit():
            raise too_large()
        data = upload_parse(body=request.body)
        table = offline_game_record(user=user, data=data)
    except UploadError as err:
        return _refused(err, STATUS.get(err.code, 400))
    return JsonResponse(
        {
            "recorded": True,
            "history": reverse("table-history", args=[table.pk]),
            "message": gettext("Your offline game is in your practice record."),
        },
        status=201,
    )
