"""The player's page of API tokens (a site page: session, CSRF, the site's
language), linked from their profile."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from accounts.bots import user_is_bot
from api.errors import ApiError
from api.models import ApiToken
from api.tokens import token_create, token_revoke, tokens_live


@login_required
@require_http_methods(["GET", "POST"])
def tokens_page(request: HttpRequest) -> HttpResponse:
    """GET: the player's live tokens; POST: make one (its secret shown once, in
    this answer only) or revoke one."""
    user = request.user
    assert isinstance(user, User)
    secret: str | None = None
    error: str | None = None
    if request.method == "POST":
        try:
            if "revoke" in request.POST:
                token_id = request.POST["revoke"]
                if not token_id.isdigit():
                    raise ApiError(404, "no_token", gettext("There is no such token."))
                token_revoke(owner=user, token_id=int(token_id))
                messages.success(request, gettext("The token was revoked."))
                return redirect("api-tokens")
            _, secret = token_create(
                owner=user,
                name=request.POST.get("name", ""),
                scopes=request.POST.getlist("scopes"),
            )
        except ApiError as refusal:
            error = refusal.message
    return render(
        request,
        "api/tokens.html",
        {
            "tokens": tokens_live(owner=user),
            "secret": secret,
            "error": error,
            "scopes": ApiToken.Scope.choices,
            "is_bot": user_is_bot(user_id=user.pk),
        },
        status=400 if error else 200,
    )
