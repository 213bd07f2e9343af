"""Template tags that show a player's economy on other apps' pages (the profile)."""

from django import template
from django.contrib.auth.base_user import AbstractBaseUser

from economy import selectors

register = template.Library()


@register.simple_tag
def economy_summary(user: AbstractBaseUser) -> dict[str, object]:
    """``{% economy_summary player as eco %}``: balance, XP, level, boosts."""
    return {
        "balance": selectors.wallet_balance(user_id=user.pk),
        "progress": selectors.player_progress(user_id=user.pk),
        "boosts": selectors.boosts_active(user_id=user.pk),
    }
