"""The open API, mounted at ``/api/`` (config/urls.py), outside the language
prefixes: its words follow the request's ``Accept-Language``."""

from django.urls import include, path

from api import streams, views

urlpatterns = [
    path("account", views.account, name="api-account"),
    path("users/<str:username>", views.user_profile, name="api-user"),
    path("users/<str:username>/games", views.user_games, name="api-user-games"),
    path("games/<int:table_id>", views.game, name="api-game"),
    path("games/<int:table_id>/record.txt", views.game_record, name="api-game-record"),
    path("games/<int:table_id>/state", views.game_state, name="api-game-state"),
    path("games/<int:table_id>/stream", streams.game_stream, name="api-game-stream"),
    path("games/<int:table_id>/move", views.game_move, name="api-game-move"),
    path("games/<int:table_id>/seed", views.game_seed, name="api-game-seed"),
    path("games/<int:table_id>/back", views.game_back, name="api-game-back"),
    path("games/<int:table_id>/leave", views.game_leave, name="api-game-leave"),
    path("stream/events", streams.event_stream, name="api-event-stream"),
    path("practice", views.practice, name="api-practice"),
    path(
        "challenge/<int:invitation_id>/accept",
        views.challenge_accept_view,
        name="api-challenge-accept",
    ),
    path(
        "challenge/<int:invitation_id>/decline",
        views.challenge_decline_view,
        name="api-challenge-decline",
    ),
    path(
        "challenge/<int:invitation_id>/cancel",
        views.challenge_cancel_view,
        name="api-challenge-cancel",
    ),
    path("challenge/<str:username>", views.challenge, name="api-challenge"),
    path("", include("api.bot_urls")),
]
