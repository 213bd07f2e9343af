"""URL routes of the stake sit-and-gos (under ``tournaments/``)."""

from django.urls import path

from tournaments.sitgo import views

urlpatterns = [
    path("sitgo/enter/", views.sitgo_enter_view, name="sitgo-enter"),
    path("sitgo/<int:sitgo_id>/", views.sitgo_detail, name="sitgo"),
    path("sitgo/<int:sitgo_id>/state.json", views.sitgo_state, name="sitgo-state"),
    path(
        "sitgo/<int:sitgo_id>/withdraw/",
        views.sitgo_withdraw_view,
        name="sitgo-withdraw",
    ),
]
