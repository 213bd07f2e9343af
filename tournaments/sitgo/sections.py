"""The sit-and-gos' part of the tournaments page (``tournaments.views.index``)."""

from __future__ import annotations

from typing import Any

from tournaments.sitgo import conf
from tournaments.sitgo.selectors import (
    game_label,
    sitgo_history,
    sitgo_kinds,
    sitgo_running,
)
from tournaments.sitgo.services import sitgos_expire_due


def sitgo_index(user: Any) -> dict[str, Any]:
    """Context for ``tournaments/sitgo/_index.html``: the open sit-and-gos, the
    running ones and the player's history. The fill deadlines are enforced here
    too, so a page never offers an event that ran out of time (no beat needed)."""
    sitgos_expire_due()
    return {
        "kinds": sitgo_kinds(user=user),
        "running": sitgo_running(),
        "history": sitgo_history(user=user),
        "game": game_label(),
        "fill_minutes": conf.fill_seconds() // 60,
        "noshow_minutes": conf.noshow_seconds() // 60,
    }
