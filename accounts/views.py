"""Home and profile pages."""

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from accounts.addresses import translated_address
from accounts.language import language_supported, profile_language_set
from accounts.language_offer import offer_dismissed_cookie_set, safe_next


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/profile.html", {"player": request.user})


def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public page: anyone may read it, signed in or not, so a link
    pasted into a chat previews with the player's card. What is the player's own
    (e-mail, coins, boosts, blocks, language) shows only on their own page; the
    replays listed are the public ones (``games.my_games.recent_games``)."""
    # Inactive users (closed accounts, the guests of embedded games) have no page.
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    return render(request, "accounts/profile.html", {"player": player})


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (the cookie, the redirect back to a page of this
    site), landing on the same page in the chosen language when it has an address
    per language; for a signed-in player the choice is kept on the profile for
    every browser. A reader who chose a language is not offered another
    (``accounts.language_offer``)."""
    response = set_language(request)
    chosen = language_supported(request.POST.get("language"))
    if chosen is None:
        return response
    if isinstance(response, HttpResponseRedirect):
        response["Location"] = translated_address(response.url, chosen)
    offer_dismissed_cookie_set(response)
    if request.user.is_authenticated:
        profile_language_set(user=request.user, language=chosen, request=request)
    return response


@require_POST
def language_offer_dismiss(request: HttpRequest) -> HttpResponse:
    """The reader said no to the offer of the page in their language: not again in
    this browser. (The line's script does the same without leaving the page.)"""
    response = redirect(safe_next(request))
    offer_dismissed_cookie_set(response)
    return response
