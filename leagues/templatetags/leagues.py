"""``{% league_past_weeks player %}``: the profile's past league weeks."""

from __future__ import annotations

from typing import Any

from django import template

from leagues.selectors import past_weeks

register = template.Library()


@register.inclusion_tag("leagues/_profile_weeks.html")
def league_past_weeks(player: Any) -> dict[str, object]:
    return {"weeks": past_weeks(user_id=player.pk)}
