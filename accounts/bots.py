"""Which accounts are bots (``BotAccount``): reads every app may ask."""

from __future__ import annotations

from collections.abc import Iterable

from accounts.models import BotAccount


def user_is_bot(*, user_id: int | None) -> bool:
    """True when the account was upgraded to a bot."""
    if user_id is None:
        return False
    return BotAccount.objects.filter(user_id=user_id).exists()


def bot_ids(*, user_ids: Iterable[int | None]) -> set[int]:
    """The bot accounts among ``user_ids``, in one query."""
    wanted = {u for u in user_ids if u is not None}
    if not wanted:
        return set()
    return set(
        BotAccount.objects.filter(user_id__in=wanted).values_list("user_id", flat=True)
    )
