"""Routes of the stake lobby (``/play/stakes/``)."""

from django.urls import path

from matchmaking.stakes import views as stake_views

urlpatterns = [
    path("play/stakes/", stake_views.stakes_page, name="stakes"),
    path("play/stakes/state.json", stake_views.stakes_state, name="stakes-state"),
    path("play/stakes/sit/", stake_views.stakes_sit, name="stakes-sit"),
    path("play/stakes/stand/", stake_views.stakes_stand, name="stakes-stand"),
    path(
        "play/stakes/tables/<int:table_id>/again/",
        stake_views.stake_again,
        name="stake-again",
    ),
    path(
        "play/stakes/tables/<int:table_id>/result.json",
        stake_views.stake_result_json,
        name="stakes-result",
    ),
]
