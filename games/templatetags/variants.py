"""Template tags that name the variants the platform plays."""

from __future__ import annotations

from django import template

from games import engine
from games.names import variant_title as _variant_title

register = template.Library()


@register.filter
def variant_title(variant: str) -> str:
    """``{{ r.variant|variant_title }}``: a variant id as players name it."""
    return _variant_title(variant)


@register.simple_tag
def variant_titles() -> dict[str, str]:
    """``{% variant_titles as titles %}``: every variant's name in the page's
    language, in the engine's order (``titles.values`` for a list; as JSON for
    scripts whose frames carry variant ids): the one name each variant has."""
    return {variant: _variant_title(variant) for variant in engine.VARIANTS}
