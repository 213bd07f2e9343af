"""The main navigation, built from URL names: each app's page shows once it exists."""

from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

NAV = [
    ("lobby", _("Play online")),
    ("play", _("Play")),
    ("my-games", _("My games")),
    ("league", _("League")),
    ("wallet", _("Wallet")),
]


def nav(request: HttpRequest) -> dict[str, object]:
    items = []
    for name, label in NAV:
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue
        items.append(
            {"url": url, "label": label, "active": request.path.startswith(url)}
        )
    return {"nav_items": items}
