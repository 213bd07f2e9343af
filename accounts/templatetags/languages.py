"""``{% load languages %}``: the languages the site speaks, each in its own name, and
the offer of a page in the reader's language.

Django's ``get_available_languages`` translates the names into the page's language
("英語" on a Japanese page); a player looking for their language reads it in itself,
as ``settings.LANGUAGES`` writes it.
"""

from django import template
from django.conf import settings
from django.template import Context

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
