"""The upload of a finished offline practice game (``games.offline_upload``),
for a signed-in player only, with the CSRF token it asks for first (the offline
page, kept by the service worker, holds none)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest, JsonResponse
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from games.offline_upload import (
    UploadError,
    offline_game_record,
    too_large,
    upload_limit,
    upload_parse,
)


def _refused(err: UploadError, status: int) -> JsonResponse:
    return JsonResponse({"error": err.as_json()}, status=status)


# The HTTP status of each refusal of an upload.
STATUS = {"too_large": 413, "duplicate": 409, "not_yours": 409}


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
