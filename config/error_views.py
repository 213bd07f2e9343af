"""Error pages in the site's layout, worded for players."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils.translation import gettext

from core.refusals import Refusal
from realtime.db import database_busy

# Seconds a client should wait before trying again when the database is busy.
BUSY_RETRY_SECONDS = 2


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "404.html", status=404)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "403.html", status=403)


def server_busy() -> HttpResponse:
    """503: no database connection is free (the pool is full); try again soon."""
    # No context processors: they would need the database too.
    response = HttpResponse(loader.render_to_string("503.html"), status=503)
    response["Retry-After"] = str(BUSY_RETRY_SECONDS)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    # Raised where the busy middleware does not see it (another middleware).
    if database_busy(sys.exc_info()[1] or Exception()):
        return server_busy()
    # No context processors: one of them may be what failed.
    return HttpResponse(loader.render_to_string("500.html"), status=500)


class DatabaseBusyMiddleware:
    """A view that finds no free database connection answers 503, not 500."""

    def __init__(self, get_response: object) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)  # type: ignore[operator,no-any-return]

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponse | None:
        return server_busy() if database_busy(exception) else None


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """The form had expired: a page, or for a script posting JSON the refusal's
    JSON (``{"error": {"code", "message"}}``, as ``core.refusals`` words it)."""
    if request.content_type == "application/json":
        message = gettext(
            "That request had expired. Reload the page and try again; if it keeps "
            "happening, allow cookies for this site."
        )
        refusal = Refusal("csrf", message)
        return JsonResponse({"error": refusal.as_json()}, status=403)
    return render(request, "403_csrf.html", status=403)
