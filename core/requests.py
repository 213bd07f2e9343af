"""The request a view receives: typed once for every app, and who sent it."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest


class SignedInRequest(HttpRequest):
    """A request that ``login_required`` let through: its user is signed in.

    Annotate a ``@login_required`` view's request with it, so ``request.user`` is
    a ``User`` (not ``User | AnonymousUser``) without a cast in every view.
    """

    user: User


def client_address(request: HttpRequest) -> str:
    """The address of whoever sent ``request``.

    Behind the proxy (``BEHIND_PROXY``) the last X-Forwarded-For address is the one
    the proxy appended, which a client cannot forge (allauth reads the same one);
    a request without it came to the process directly.
    """
    forwarded = request.headers.get("x-forwarded-for", "")
    if settings.BEHIND_PROXY and forwarded:
        return forwarded.rsplit(",", 1)[-1].strip()
    return str(request.META.get("REMOTE_ADDR", ""))
