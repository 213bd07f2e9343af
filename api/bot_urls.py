"""The bot accounts' API endpoints (api/bot_views.py), under /api/ (api/urls.py)."""

from django.urls import URLPattern, URLResolver, path

from api import bot_views

urlpatterns: list[URLPattern | URLResolver] = [
    path(
        "bot/account/upgrade",
        bot_views.api_bot_upgrade,
        name="api-bot-upgrade",
    ),
    path("bot/seek", bot_views.api_bot_seek, name="api-bot-seek"),
    path(
        "bot/seek/cancel",
        bot_views.api_bot_seek_cancel,
        name="api-bot-seek-cancel",
    ),
]
