from django.urls import path

from accounts import views

urlpatterns = [
    path("", views.home, name="home"),
    path("profile/", views.profile, name="profile"),
    path("players/<str:username>/", views.player_profile, name="player-profile"),
]
