"""``{% load languages %}``: the languages the site speaks, each in its own name, and
a public page's addresses in each of them, and the offer of a page in the reader's
language.

Django's ``get_available_languages`` translates the names into the page's language
("英語" on a Japanese page); a player looking for their language reads it in itself,
as ``settings.LANGUAGES`` writes it.
"""

from django import template
from django.conf import settings
from django.template import Context
from django.utils import translation

from accounts.addresses import page_addresses
from accounts.language_offer import LanguageOffer, language_offer

register = template.Library()


@register.simple_tag
def site_languages() -> list[tuple[str, str]]:
    return list(settings.LANGUAGES)


@register.simple_tag(takes_context=True)
def page_language_offer(context: Context) -> LanguageOffer | None:
    """``accounts.language_offer.language_offer`` for the page's request (none on a
    page rendered without one)."""
    request = context.get("request")
    return language_offer(request) if request is not None else None


@register.inclusion_tag("accounts/_alternates.html", takes_context=True)
def language_alternates(context: Context) -> dict[str, object]:
    """For a page with an address per language: its address in each language
    (``hreflang``), the English bare one as ``x-default``, and its own as the
    canonical address. Nothing for a page with one address."""
    request = context.get("request")
    addresses = page_addresses(request) if request is not None else None
    if not addresses:
        return {}
    language = translation.get_language() or settings.LANGUAGE_CODE
    return {
        "alternates": list(addresses.items()),
        "x_default": addresses[settings.LANGUAGE_CODE],
        "canonical": addresses.get(language, addresses[settings.LANGUAGE_CODE]),
    }
