from django.urls import path

from leagues import views

# An address per language (config/urls.py).
public_urlpatterns = [
    path("league/top/", views.league_top, name="league_top"),
]

urlpatterns = [
    path("league/", views.league, name="league"),
    path("league/standings.json", views.league_standings, name="league_standings"),
]
