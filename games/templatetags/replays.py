"""``{% recent_games player %}``: a player's last ended tables with their replays,
for the profile page (which belongs to ``accounts`` and knows nothing of tables)."""

from __future__ import annotations

from typing import Any

from django import template

from games.my_games import recent_games

register = template.Library()


@register.inclusion_tag("games/_recent_games.html", takes_context=True)
def recent_games_section(context: dict[str, Any], player: Any) -> dict[str, Any]:
    viewer = context.get("user")
    return {
        "rows": recent_games(player=player, viewer=viewer),
        "own": getattr(viewer, "pk", None) == player.pk,
    }
