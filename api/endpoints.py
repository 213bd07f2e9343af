"""The frame of every synchronous API view: method, token, scope, rate, JSON body
and refusals answered as ``{"error": …}`` in the request's language."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt

from api.auth import request_token
from api.errors import ApiError, error_response, refusal_response
from api.models import ApiToken
from core.refusals import Refusal

MAX_BODY = 8192
View = Callable[..., HttpResponse]
Endpoint = Callable[..., HttpResponse]


def method_refused(allowed: Iterable[str]) -> HttpResponse:
    response = error_response(405, gettext("This address does not answer that method."))
    response["Allow"] = ", ".join(allowed)
    return response


def json_body(request: HttpRequest) -> dict[str, Any]:
    """The request's JSON object (``{}`` for an empty body), or ``ApiError`` 400."""
    if len(request.body) > MAX_BODY:
        raise ApiError(413, "too_large", gettext("The request body is too large."))
    if not request.body.strip():
        return {}
    try:
        body = json.loads(request.body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ApiError(
            400, "bad_json", gettext("The request body is not valid JSON.")
        ) from None
    if not isinstance(body, dict):
        raise ApiError(
            400, "bad_json", gettext("The request body must be a JSON object.")
        )
    return body


def endpoint(*, method: str, scopes: Iterable[str]) -> Callable[[Endpoint], View]:
    """Wrap ``view(request, token, **kwargs)``: the token is checked first, so an
    unknown token is told so before anything else is read."""
    wanted = tuple(scopes)

    def wrap(view: Endpoint) -> View:
        @functools.wraps(view)
        def run(request: HttpRequest, **kwargs: Any) -> HttpResponse:
            if request.method != method:
                return method_refused([method])
            try:
                token: ApiToken = request_token(request, wanted)
                return view(request, token, **kwargs)
            except Refusal as refusal:
                return refusal_response(refusal)

        return csrf_exempt(run)

    return wrap
