"""What the frame's script needs to play a game: the table page's config."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from embed.models import EmbedGame
from games import engine
from games.names import variant_title


def game_config(*, game: EmbedGame, token: str, language: str) -> dict[str, Any]:
    """The table page's config for the guest's seat, with the token's socket."""
    table = game.table
    assert table is not None  # embed_game_find returns games with a table
    spec = engine.VARIANTS.get(table.variant)
    query = urlencode({"token": token, "lang": language})
    return {
        "id": table.pk,
        "token": token,
        "ws": f"/ws/embed/tables/{table.pk}/?{query}",
        "seat": 0,
        "variant": table.variant,
        "title": variant_title(table.variant),
        "scoring": spec.scoring if spec else "",
        "stock_drawn": spec is not None and spec.stock != engine.STOCK_NONE,
        "practice": True,
        "fair": reverse("embed-fair") + "?" + urlencode({"token": token}),
        "status": table.status,
    }


def game_choice_key(*, game: EmbedGame) -> str:
    """``EmbedChoice.key()`` of the game's table."""
    table = game.table
    if table is None:
        return ""
    levels = [s.bot_level for s in table.seats.all() if s.bot_level]
    options = table.options or {}
    level = levels[0] if levels else ""
    return f"{table.variant}/{options.get('seats')}/{options.get('target')}/{level}"
