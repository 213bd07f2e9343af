"""The main navigation, built from URL names."""

from django.http import HttpRequest
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from accounts.addresses import unprefixed
from accounts.nav_counts import nav_counts as counts_of

# (URL name, label, URL names of further pages the item stands for: the stake
# lobby is a tab of the online lobby).
NAV: list[tuple[str, Promise, tuple[str, ...]]] = [
    ("lobby", _("Play online"), ("stakes",)),
    ("play", _("Play"), ()),
    ("my-games", _("My games"), ()),
    ("tournaments", _("Tournaments"), ()),
    ("league", _("League"), ()),
    ("wallet", _("Wallet"), ()),
]


def _match(path: str, prefixes: list[str]) -> int:
    """The length of the longest of ``prefixes`` that ``path`` starts with, or 0."""
    return max((len(p) for p in prefixes if path.startswith(p)), default=0)


def nav(request: HttpRequest) -> dict[str, object]:
    """The items of the main navigation; only the most specific match is active.

    ``/play/online/`` starts with ``/play/`` too: the item whose URL matches the
    longest part of the path wins, so "Play" is not lit on the online lobby.
    """
    # A public page's address in another language (/es/league/top/) lights the
    # item its bare address (/league/top/) would.
    path = unprefixed(request.path)
    items: list[dict[str, object]] = []
    best = 0
    for name, label, also in NAV:
        url = reverse(name)
        prefixes = [url, *(reverse(n) for n in also)]
        score = _match(path, prefixes)
        best = max(best, score)
        items.append({"url": url, "label": label, "score": score})
    for item in items:
        matched = item.pop("score")
        item["active"] = best > 0 and matched == best
    return {"nav_items": items}


def nav_counts(request: HttpRequest) -> dict[str, int]:
    """The navigation's badges for a signed-in player (``accounts.nav_counts``)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return counts_of(user)
