"""``/tournaments/``: every event on one page; each subpackage renders its part."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render

from core.requests import SignedInRequest
from tournaments.arenas.sections import arenas_index
from tournaments.sitgo.sections import sitgo_index
from tournaments.swiss.sections import swiss_section


@login_required
def index(request: SignedInRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/index.html",
        {
            "arenas": arenas_index(request.user),
            "sitgo": sitgo_index(request.user),
            "swiss": swiss_section(request.user),
        },
    )
