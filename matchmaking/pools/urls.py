from django.urls import path

from matchmaking.pools import views

# An address per language (config/urls.py).
public_urlpatterns = [
    path("leaderboard/<str:variant>/", views.leaderboard_page, name="leaderboard"),
]

urlpatterns = [
    path("play/online/", views.lobby, name="lobby"),
    path(
        "play/online/tables/<int:table_id>/rating.json",
        views.table_rating_json,
        name="table-rating",
    ),
    path(
        "play/online/tables/<int:table_id>/outcome.json",
        views.table_outcome_json,
        name="table-outcome",
    ),
    path(
        "play/online/tables/<int:table_id>/again/",
        views.table_again,
        name="table-again",
    ),
    path(
        "play/online/tables/<int:table_id>/rematch.json",
        views.table_rematch_json,
        name="table-rematch-offer",
    ),
    path("players/<str:username>/block/", views.player_block, name="player-block"),
    path(
        "players/<str:username>/unblock/",
        views.player_unblock,
        name="player-unblock",
    ),
]
