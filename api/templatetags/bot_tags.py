"""The bot section of a player's profile: the label and the "Challenge" form
(``api.bot_views.bot_challenge``); its ratings among bots are in the profile's
ratings, named so."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.bots import user_is_bot
from games import engine
from games.names import variant_title

register = template.Library()


@register.inclusion_tag("api/_bot_profile.html", takes_context=True)
def bot_profile(context: template.Context, player: Any) -> dict[str, Any]:
    """Nothing for a person; for a bot account, the words that it is a bot and,
    for a signed-in person, the way to challenge it."""
    if not user_is_bot(user_id=player.pk):
        return {"is_bot": False}
    viewer = context.get("user")
    return {
        "is_bot": True,
        "player": player,
        "can_challenge": bool(
            viewer is not None
            and viewer.is_authenticated
            and viewer.pk != player.pk
            and not user_is_bot(user_id=viewer.pk)
        ),
        "variants": [(key, variant_title(key)) for key in engine.VARIANTS],
        "csrf_token": context.get("csrf_token"),
    }
