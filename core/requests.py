"""The request a signed-in view receives, typed once for every app."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest


class SignedInRequest(HttpRequest):
    """A request that ``login_required`` let through: its user is signed in.

    Annotate a ``@login_required`` view's request with it, so ``request.user`` is
    a ``User`` (not ``User | AnonymousUser``) without a cast in every view.
    """

    user: User
