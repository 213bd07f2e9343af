"""``{% load share %}``: the share card of a page (Open Graph and Twitter tags).

A page that others paste into chats names its card in ``{% block share %}`` of
``base.html``: a title, a line of description and a 1200 × 630 picture (the
site's artwork unless the page has its own, as a replay does). Addresses in the
tags are absolute, built from the request, as previews need them.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.translation import get_language, gettext, to_locale

register = template.Library()  # the ``share`` library (settings.TEMPLATES)

# The site's own picture for pages without one (``tools/share_artwork.py``).
ARTWORK = "img/share.png"
CARD_SIZE = (1200, 630)  # every card picture: the artwork and a replay's

# Open Graph names a locale as language_TERRITORY; the territory where most
# readers of each language live, for the languages Django names without one.
OG_LOCALES = {
    "ar": "ar_AR",
    "ca": "ca_ES",
    "de": "de_DE",
    "en": "en_US",
    "es": "es_ES",
    "fa": "fa_IR",
    "fil": "tl_PH",
    "fr": "fr_FR",
    "he": "he_IL",
    "hi": "hi_IN",
    "id": "id_ID",
    "it": "it_IT",
    "ja": "ja_JP",
    "ko": "ko_KR",
    "ms": "ms_MY",
    "nl": "nl_NL",
    "pl": "pl_PL",
    "pt-br": "pt_BR",
    "ru": "ru_RU",
    "th": "th_TH",
    "tr": "tr_TR",
    "uk": "uk_UA",
    "vi": "vi_VN",
    "zh-hans": "zh_CN",
    "zh-hant": "zh_TW",
}


def og_locale(language: str) -> str:
    """The Open Graph locale of a language code of the site ("pt-br": "pt_BR")."""
    return OG_LOCALES.get(language.lower(), to_locale(language))


@register.inclusion_tag("share/_card.html", takes_context=True)
def share_card(
    context: template.Context,
    *,
    title: str,
    description: str,
    image: str | None = None,
    image_alt: str | None = None,
    url: str | None = None,
    kind: str = "website",
    username: str = "",
) -> dict[str, Any]:
    """The card's tags. ``image`` and ``url`` are paths on this site (the
    artwork and the page's own path by default); ``kind`` is the ``og:type``
    ("profile" with the player's ``username``)."""
    request = context["request"]
    return {
        "title": title,
        "description": description,
        "image": request.build_absolute_uri(image or static(ARTWORK)),
        "image_alt": image_alt or gettext("Domino tiles laid out on a green table"),
        "width": CARD_SIZE[0],
        "height": CARD_SIZE[1],
        "url": request.build_absolute_uri(url or request.path),
        "kind": kind,
        "username": username,
        "site_name": gettext("Dominoes"),
        "locale": og_locale(get_language() or "en"),
    }
