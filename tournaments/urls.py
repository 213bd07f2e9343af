"""URL routes of the tournaments."""

from django.urls import include, path

from tournaments import views

urlpatterns = [
    path("tournaments/", views.index, name="tournaments"),
    path("tournaments/", include("tournaments.arenas.urls")),
    path("tournaments/", include("tournaments.sitgo.urls")),
    path("tournaments/", include("tournaments.swiss.urls")),
]
