"""Responses that set no cookie: what a service worker fetches and keeps.

A page or script the service worker caches (``/sw.js``, the offline game's pages)
must carry nothing of a session: no cookie may ride on it, whatever the
middleware below the view would add (a session refreshed, a device cookie, a CSRF
cookie, a language). A view marks its response with :func:`cookieless`;
:class:`CookielessMiddleware`, placed above every middleware that sets cookies,
drops them all.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.http import HttpRequest, HttpResponse, HttpResponseBase

ATTRIBUTE = "cookieless"

View = TypeVar("View", bound=Callable[..., HttpResponseBase])


def cookieless(view: View) -> View:
    """Mark every response of ``view`` as one that must set no cookie."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(request, *args, **kwargs)
        setattr(response, ATTRIBUTE, True)
        return response

    return wrapped  # type: ignore[return-value]


class CookielessMiddleware:
    """Drop every cookie from a response marked :func:`cookieless`."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if getattr(response, ATTRIBUTE, False):
            response.cookies.clear()
        return response
