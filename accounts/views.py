"""Home and profile pages."""

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/profile.html", {"player": request.user})


@login_required
def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(get_user_model(), username=username)
    return render(request, "accounts/profile.html", {"player": player})
