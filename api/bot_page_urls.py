"""The bot accounts' site pages (api/bot_views.py): the upgrade's confirmation and
a profile's "Challenge" (api/page_urls.py includes them)."""

from django.urls import URLPattern, URLResolver, path

from api import bot_views

urlpatterns: list[URLPattern | URLResolver] = [
    path("account/bot/", bot_views.bot_upgrade_page, name="bot-upgrade"),
    path(
        "players/<str:username>/challenge/",
        bot_views.bot_challenge,
        name="bot-challenge",
    ),
]
