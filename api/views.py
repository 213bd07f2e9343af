"""The API's JSON endpoints (docs/api.md): thin, over selectors and services."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext

from api.auth import PLAY, READ
from api.endpoints import endpoint, json_body
from api.errors import ApiError
from api.models import ApiToken
from api.selectors import (
    account_data,
    ended_table_or_error,
    game_data,
    player_games_data,
    player_or_error,
    profile_data,
)
from api.services import (
    challenge_accept,
    challenge_cancel,
    challenge_create,
    challenge_decline,
    practice_create,
)
from api.table import player_frame
from games.replays.record import record_text
from games.services import seat_back, table_act, table_leave, table_seed


@endpoint(method="GET", scopes=READ)
def account(request: HttpRequest, token: ApiToken) -> HttpResponse:
    return JsonResponse(account_data(user=token.owner))


@endpoint(method="GET", scopes=READ)
def user_profile(request: HttpRequest, token: ApiToken, username: str) -> HttpResponse:
    return JsonResponse(profile_data(player=player_or_error(username)))


@endpoint(method="GET", scopes=READ)
def user_games(request: HttpRequest, token: ApiToken, username: str) -> HttpResponse:
    page = request.GET.get("page", "1")
    if not page.isdigit():
        raise ApiError(400, "bad_page", gettext("The page is a number from 1."))
    return JsonResponse(
        player_games_data(
            player=player_or_error(username), viewer=token.owner, page=int(page)
        )
    )


@endpoint(method="GET", scopes=READ)
def game(request: HttpRequest, token: ApiToken, table_id: int) -> HttpResponse:
    table = ended_table_or_error(table_id=table_id, viewer=token.owner)
    return JsonResponse(game_data(table=table))


@endpoint(method="GET", scopes=READ)
def game_record(request: HttpRequest, token: ApiToken, table_id: int) -> HttpResponse:
    table = ended_table_or_error(table_id=table_id, viewer=token.owner)
    return HttpResponse(
        record_text(table=table), content_type="text/plain; charset=utf-8"
    )


@endpoint(method="GET", scopes=PLAY)
def game_state(request: HttpRequest, token: ApiToken, table_id: int) -> HttpResponse:
    """The seat's current state: the table socket's answer to ``sync``."""
    return JsonResponse(player_frame(table_id=table_id, user=token.owner))


def _number(value: object, words: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ApiError(400, "bad_request", words)
    return value


@endpoint(method="POST", scopes=PLAY)
def game_move(request: HttpRequest, token: ApiToken, table_id: int) -> HttpResponse:
    """The table socket's ``act``: the same service, checks and refusals."""
    body = json_body(request)
    seq = _number(body.get("seq"), gettext('A move needs the table "seq" you saw.'))
    action = body.get("action")
    if not isinstance(action, dict):
        raise ApiError(400, "bad_request", gettext('A move needs an "action" object.'))
    player_frame(table_id=table_id, user=token.owner)  # 404 unless seated there
    new_seq = table_act(
        table_id=table_id, user=token.owner, action=action, expected_seq=seq
    )
    return JsonResponse({"seq": new_seq})


@endpoint(method="POST", scopes=PLAY)
def game_seed(request: HttpRequest, token: ApiToken, table_id: int) -> HttpResponse:
    """The table socket's ``seed``: the client seed of the fair deal."""
    seed = json_body(request).get("seed")
    if not isinstance(seed, str):
        raise ApiError(400, "bad_request", gettext('Send a "seed" string.'))
    player_frame(table_id=table_id, user=token.owner)
    table_seed(table_id=table_id, user=token.owner, seed=seed)
    return JsonResponse({})


@endpoint(method="POST", scopes=PLAY)
def game_back(request: HttpRequest, token: ApiToken, table_id: int) -> HttpResponse:
    """The table socket's ``back``: take the seat back from the stand-in."""
    player_frame(table_id=table_id, user=token.owner)
    seat_back(table_id=table_id, user=token.owner)
    return JsonResponse({})


@endpoint(method="POST", scopes=PLAY)
def game_leave(request: HttpRequest, token: ApiToken, table_id: int) -> HttpResponse:
    """The table socket's ``leave``: abandon a practice table, forfeit a game."""
    player_frame(table_id=table_id, user=token.owner)
    table_leave(table_id=table_id, user=token.owner)
    return JsonResponse({})


@endpoint(method="POST", scopes=PLAY)
def practice(request: HttpRequest, token: ApiToken) -> HttpResponse:
    table = practice_create(user=token.owner, body=json_body(request))
    return JsonResponse(_game_links(table.pk), status=201)


def _game_links(table_id: int) -> dict[str, object]:
    return {
        "game": table_id,
        "stream": f"/api/games/{table_id}/stream",
        "move": f"/api/games/{table_id}/move",
    }


@endpoint(method="POST", scopes=PLAY)
def challenge(request: HttpRequest, token: ApiToken, username: str) -> HttpResponse:
    invitation = challenge_create(
        user=token.owner, username=username, body=json_body(request)
    )
    return JsonResponse(
        {
            "challenge": invitation.pk,
            "to": invitation.invitee.get_username(),
            "expires_at": invitation.expires_at.isoformat(),
        },
        status=201,
    )


@endpoint(method="POST", scopes=PLAY)
def challenge_accept_view(
    request: HttpRequest, token: ApiToken, invitation_id: int
) -> HttpResponse:
    table = challenge_accept(user=token.owner, invitation_id=invitation_id)
    return JsonResponse(_game_links(table.pk))


@endpoint(method="POST", scopes=PLAY)
def challenge_decline_view(
    request: HttpRequest, token: ApiToken, invitation_id: int
) -> HttpResponse:
    challenge_decline(user=token.owner, invitation_id=invitation_id)
    return JsonResponse({})


@endpoint(method="POST", scopes=PLAY)
def challenge_cancel_view(
    request: HttpRequest, token: ApiToken, invitation_id: int
) -> HttpResponse:
    challenge_cancel(user=token.owner, invitation_id=invitation_id)
    return JsonResponse({})
