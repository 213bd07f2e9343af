"""TV pages: the best live game of a channel, for anyone, signed in or not
(``games.tv``)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from games.names import variant_title
from games.tv import ALL, tv_channel_title, tv_channel_valid, tv_channels, tv_now

# How often the page asks what its channel shows: spectators are a move behind
# anyway, so a few seconds more cost nothing and spare the server.
POLL_MS = 2500
# How long a game that ended stays on screen before the channel moves on.
ENDED_PAUSE_MS = 6000


def _channel_or_404(channel: str) -> str:
    if not tv_channel_valid(channel):
        raise Http404(_("There is no such TV channel."))
    return channel


def tv_page(request: HttpRequest, channel: str = ALL) -> HttpResponse:
    """A TV channel: its page's script asks ``tv_now_json`` what to show."""
    channel = _channel_or_404(channel)
    channels = [
        {
            "key": ALL,
            "title": _("All games"),
            "url": reverse("tv"),
            "current": channel == ALL,
        }
    ] + [
        {
            "key": key,
            "title": variant_title(key),
            "url": reverse("tv-channel", args=[key]),
            "current": channel == key,
        }
        for key in tv_channels()
    ]
    return render(
        request,
        "games/tv.html",
        {
            "channel": channel,
            "channel_title": tv_channel_title(channel),
            "channels": channels,
            "config": {
                "channel": channel,
                "now": reverse("tv-now", args=[channel]),
                "table": reverse("table", args=[0]).removesuffix("0/"),
                "signed_in": request.user.is_authenticated,
                "poll_ms": POLL_MS,
                "ended_pause_ms": ENDED_PAUSE_MS,
            },
        },
    )


def tv_now_json(request: HttpRequest, channel: str) -> JsonResponse:
    """What ``channel`` shows now (``games.tv.tv_now``); ``?watching=<table>``
    keeps the table the viewer watches while it is still shown."""
    channel = _channel_or_404(channel)
    raw = request.GET.get("watching", "")
    watching = int(raw) if raw.isdigit() and len(raw) < 19 else None
    response = JsonResponse(tv_now(channel=channel, watching=watching))
    response["Cache-Control"] = "no-store"
    return response
