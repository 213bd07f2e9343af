"""URL routes of the arenas (under ``/tournaments/``)."""

from django.urls import path

from tournaments.arenas import battle_views, views

urlpatterns = [
    path("battles/new/", battle_views.battle_new, name="battle-new"),
    path("arenas/<int:arena_id>/", views.arena_page, name="arena"),
    path("arenas/<int:arena_id>/state.json", views.arena_state, name="arena-state"),
    path("arenas/<int:arena_id>/join/", views.arena_join_view, name="arena-join"),
    path(
        "arenas/<int:arena_id>/withdraw/",
        views.arena_withdraw_view,
        name="arena-withdraw",
    ),
]
