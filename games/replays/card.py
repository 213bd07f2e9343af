"""A replay's share card: the picture of its final layout, and the words beside it.

The picture shows the board at the end of the last hand the replay shows, built
from a spectator's view of the final state (``engine.view`` with no seat): the
tiles laid face up on the table and nothing else. No hand (not even one the
hand's end revealed) and no stock reaches the drawing. The caller has checked
that the replay may be seen (``games.replays.access``); an ended table no longer
changes, so its picture is drawn once and kept in the cache.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext

from games import engine
from games.models import Seat, Table
from games.names import seat_display_name, variant_title
from games.replays.picture import Band, Board, Tile, board_png

# Bump when the drawing changes: pictures kept under the old number are not served.
FORMAT = 1
# A kept picture is dropped after a week unused; drawing it again costs ~0.1 s.
CACHE_SECONDS = 7 * 24 * 3600


def _tile(pair: Any) -> Tile:
    a, b = pair
    return int(a), int(b)


def board_of_layout(layout: Mapping[str, Any]) -> Board:
    """The picture's board from a view's ``layout`` (``engine.view``): one band per
    arm that holds a tile; an opening double whose arms are all empty, alone."""
    root = layout.get("root")
    if root is None:
        return Board()
    bands: list[Band] = []
    for arm in layout.get("arms", ()):
        tiles = tuple(_tile(t) for t in arm["tiles"])
        if tiles:
            head = None if arm["id"] == "line" else _tile(arm["start"])
            bands.append(Band(head=head, tiles=tiles))
    if not bands:
        bands.append(Band(head=None, tiles=(_tile(root),)))
    spinner = layout.get("spinner")
    return Board(
        bands=tuple(bands),
        spinner=_tile(spinner) if spinner else None,
        root=_tile(root),
    )


def replay_board(*, table: Table) -> Board:
    """The final layout of ``table``, as a spectator saw it."""
    if table.state is None:
        return Board()
    state = engine.from_json(table.state)
    return board_of_layout(engine.view(state, None)["layout"])


def _cache_key(table: Table) -> str:
    # The creation time and the last move's number tell this table from another
    # that got the same id (a database made anew keeps the cache's old entries).
    made = int(table.created_at.timestamp() * 1_000_000) if table.created_at else 0
    return f"replays:card:v{FORMAT}:{table.pk}:{made}:{table.seq}"


def replay_png(*, table: Table) -> bytes:
    """The card's picture of an ended table (cached), PNG bytes."""
    key = _cache_key(table)
    png = cache.get(key)
    if not isinstance(png, bytes):
        png = board_png(replay_board(table=table))
        cache.set(key, png, timeout=CACHE_SECONDS)
    return png


def replay_description(*, table: Table) -> str:
    """One line for the card: who played which game, and how it ended."""
    seats = Seat.objects.filter(table=table).select_related("user").order_by("position")
    names = [seat_display_name(s) for s in seats]
    variant = variant_title(table.variant)
    if table.status == Table.Status.CANCELLED:
        return gettext(
            "A game of %(variant)s between %(players)s, abandoned before the end: "
            "watch it again move by move."
        ) % {"variant": variant, "players": ", ".join(names)}
    return gettext(
        "A game of %(variant)s between %(players)s: watch it again move by move, "
        "with every player's tiles face up."
    ) % {"variant": variant, "players": ", ".join(names)}
