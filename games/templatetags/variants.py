"""Template tags about the variants the platform plays."""

from __future__ import annotations

from django import template

from games import engine
from games.names import variant_title

register = template.Library()


@register.simple_tag
def variant_titles() -> list[str]:
    """Every variant's name in the current language, in the engine's order: the one
    name each variant has across the site."""
    return [variant_title(key) for key in engine.VARIANTS]
