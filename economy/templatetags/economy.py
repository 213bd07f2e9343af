"""Template tags that show a player's economy on other apps' pages (the profile),
and coin amounts and durations in the reader's language."""

from datetime import timedelta

from django import template
from django.contrib.auth.base_user import AbstractBaseUser
from django.utils import formats
from django.utils.translation import ngettext

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


@register.filter
def coins(amount: int | None) -> str:
    """``{{ balance|coins }}``: digits grouped as the reader's language groups
    them (12,500 · 12.500 · 12 500).

    A filter and not ``USE_THOUSAND_SEPARATOR``: that setting would also group
    ids, seqs and the numbers in attributes the pages' scripts read.
    """
    if amount is None:
        return ""
    return str(formats.number_format(amount, force_grouping=True))


@register.filter
def duration_words(duration: timedelta) -> str:
    """``{{ item.duration|duration_words }}``: "24 hours", "30 days"."""
    hours = int(duration.total_seconds()) // 3600
    if hours and hours % 24 == 0:
        days = hours // 24
        return ngettext("%(n)s day", "%(n)s days", days) % {"n": days}
    return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}
