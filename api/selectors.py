"""The API's reads: accounts, profiles, finished games (the JSON endpoints)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.utils.translation import gettext

from accounts.bots import user_is_bot
from api.errors import ApiError
from games.models import Seat, Table
from games.names import seat_display_name, variant_title
from games.replays.access import ENDED, PUBLIC_MODES, replay_may_see
from games.watchers import table_may_see
from matchmaking.pools.display import rating_points, rating_provisional
from matchmaking.pools.models import Rating
from matchmaking.pools.ratings import BOT_KEY_PREFIX

GAMES_PER_PAGE = 20


def _ratings(user_id: int) -> list[dict[str, Any]]:
    return [
        {
            "variant": r.variant.removeprefix(BOT_KEY_PREFIX),
            "bots": r.variant.startswith(BOT_KEY_PREFIX),
            "rating": rating_points(r.mu),
            "provisional": rating_provisional(tables=r.tables, sigma=r.sigma),
            "label": f"{rating_points(r.mu)}"
            + ("?" if rating_provisional(tables=r.tables, sigma=r.sigma) else ""),
            "tables": r.tables,
        }
        for r in Rating.objects.filter(user_id=user_id).order_by("variant")
    ]


def player_or_error(username: str) -> User:
    player = (
        get_user_model()
        .objects.filter(username__iexact=username, is_active=True)
        .first()
    )
    if player is None:
        raise ApiError(404, "no_player", gettext("There is no player of that name."))
    assert isinstance(player, User)
    return player


def account_data(*, user: User) -> dict[str, Any]:
    """The token owner: name, whether a bot account, ratings per variant."""
    return {
        "username": user.get_username(),
        "bot": user_is_bot(user_id=user.pk),
        "joined": user.date_joined.isoformat(),
        "ratings": _ratings(user.pk),
    }


def profile_data(*, player: User) -> dict[str, Any]:
    """A player's public profile: what the profile page shows anyone."""
    return {
        "username": player.get_username(),
        "bot": user_is_bot(user_id=player.pk),
        "joined": player.date_joined.isoformat(),
        "ratings": _ratings(player.pk),
        "url": f"/players/{player.get_username()}/",
    }


def _seat_data(seat: Seat) -> dict[str, Any]:
    return {
        "position": seat.position,
        "team": seat.team,
        "username": seat.user.get_username() if seat.user_id and seat.user else None,
        "label": seat_display_name(seat),
        "computer": seat.user_id is None or seat.simulated or seat.program,
        "bot_account": seat.program,
        "level": seat.bot_level or None,
        "place": seat.place,
        "forfeited": seat.forfeited,
    }


def _result(table: Table, seats: list[Seat]) -> dict[str, Any]:
    if table.status == Table.Status.CANCELLED:
        return {"status": "cancelled", "winners": []}
    winners = [s.position for s in seats if s.place == 1]
    state = table.state or {}
    scores = state.get("scores") if isinstance(state, dict) else None
    return {"status": "finished", "winners": winners, "scores": scores}


def game_data(*, table: Table) -> dict[str, Any]:
    """An ended table's summary: never a hand, the stock or a seed not yet public."""
    seats = sorted(table.seats.all(), key=lambda s: s.position)
    return {
        "id": table.pk,
        "variant": table.variant,
        "variant_name": variant_title(table.variant),
        "mode": table.mode,
        "seats": [_seat_data(s) for s in seats],
        "result": _result(table, seats),
        "started_at": table.started_at.isoformat() if table.started_at else None,
        "finished_at": table.finished_at.isoformat() if table.finished_at else None,
        "links": {
            "api": f"/api/games/{table.pk}",
            "record": f"/api/games/{table.pk}/record.txt",
            "replay": f"/tables/{table.pk}/replay/",
        },
    }


def ended_table_or_error(*, table_id: int, viewer: User) -> Table:
    """The ended table ``viewer`` may see the replay of; a live one they may
    watch is refused in words (409), anything else is not there (404)."""
    table = Table.objects.filter(pk=table_id).first()
    missing = ApiError(404, "no_table", gettext("There is no such game."))
    if table is None:
        raise missing
    if table.status not in ENDED:
        if table_may_see(table=table, user=viewer):
            raise ApiError(
                409,
                "in_play",
                gettext(
                    "This game is still in play: its summary and record open "
                    "when it has ended."
                ),
            )
        raise missing
    if not replay_may_see(table=table, user=viewer):
        raise missing
    return table


def player_games_data(*, player: User, viewer: User, page: int) -> dict[str, Any]:
    """The player's ended games ``viewer`` may see without a link, newest first:
    every one of their own, and of someone else's the online and stake ones."""
    tables = Table.objects.filter(
        seats__user=player, status__in=ENDED
    ).prefetch_related("seats__user")
    if viewer.pk != player.pk:
        tables = tables.filter(mode__in=PUBLIC_MODES)
    tables = tables.order_by("-finished_at", "-pk").distinct()
    paged = Paginator(tables, GAMES_PER_PAGE)
    if page < 1 or (page > paged.num_pages and page != 1):
        raise ApiError(404, "no_page", gettext("There is no such page."))
    current = paged.page(page)
    return {
        "page": page,
        "pages": paged.num_pages,
        "count": paged.count,
        "games": [game_data(table=t) for t in current.object_list],
        "next": (
            f"/api/users/{player.get_username()}/games?page={page + 1}"
            if current.has_next()
            else None
        ),
    }
