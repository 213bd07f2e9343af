from django.urls import path

from accounts import views

# An address per language (config/urls.py): /players/ana/, /es/players/ana/.
public_urlpatterns = [
    path("", views.home, name="home"),
    path("players/<str:username>/", views.player_profile, name="player-profile"),
]

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    # Before django.conf.urls.i18n in config/urls.py, so this view takes the name.
    path("i18n/setlang/", views.language_set, name="set_language"),
    path(
        "i18n/offer/dismiss/",
        views.language_offer_dismiss,
        name="language-offer-dismiss",
    ),
]
