"""URL routes of the Swiss events (under ``tournaments/``)."""

from django.urls import path

from tournaments.swiss import views

urlpatterns = [
    path("swiss/new/", views.swiss_new, name="swiss-new"),
    path("swiss/<int:event_id>/", views.swiss_detail, name="swiss"),
    path("swiss/<int:event_id>/join/", views.swiss_join_view, name="swiss-join"),
    path(
        "swiss/<int:event_id>/withdraw/",
        views.swiss_withdraw_view,
        name="swiss-withdraw",
    ),
]
