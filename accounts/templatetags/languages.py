"""``{% load languages %}``: the languages the site speaks, each in its own name.

Django's ``get_available_languages`` translates the names into the page's language
("英語" on a Japanese page); a player looking for their language reads it in itself,
as ``settings.LANGUAGES`` writes it.
"""

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def site_languages() -> list[tuple[str, str]]:
    return list(settings.LANGUAGES)
