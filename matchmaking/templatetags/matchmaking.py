"""Template tags that show a player's ratings and blocks on the profile."""

from __future__ import annotations

from typing import Any

from django import template

from matchmaking.models import Block
from matchmaking.pools.charts import history_chart
from matchmaking.pools.selectors import rating_history, ratings_of

register = template.Library()


@register.simple_tag
def matchmaking_profile(player: Any, viewer: Any) -> dict[str, Any]:
    """``{% matchmaking_profile player user as mm %}``: ratings, charts, block state,
    and on one's own profile whom one blocked."""
    ratings = [
        {
            **r,
            "chart": history_chart(rating_history(user_id=player.pk, variant=r["key"])),
        }
        for r in ratings_of(user_id=player.pk)
    ]
    blocked = (
        viewer.is_authenticated
        and viewer.pk != player.pk
        and Block.objects.filter(blocker_id=viewer.pk, blocked_id=player.pk).exists()
    )
    mine = viewer.is_authenticated and viewer.pk == player.pk
    blocks = (
        list(
            Block.objects.filter(blocker_id=player.pk)
            .order_by("blocked__username")
            .values_list("blocked__username", flat=True)
        )
        if mine
        else []
    )
    return {"ratings": ratings, "blocked": blocked, "my_blocks": blocks, "mine": mine}
