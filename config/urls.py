"""URL routes of the site."""

from django.contrib import admin
from django.urls import include, path

from config.catalog import javascript_catalog

urlpatterns = [
    path("", include("accounts.urls")),
    path("", include("ops.urls")),
    path("", include("economy.urls")),
    path("", include("games.urls")),
    path("", include("games.guide.urls")),
    path("", include("matchmaking.pools.urls")),
    path("", include("matchmaking.rooms.urls")),
    path("", include("matchmaking.stakes.urls")),
    path("", include("leagues.urls")),
    path("", include("friends.urls")),
    path("", include("chat.urls")),
    path("", include("tournaments.urls")),
    path("", include("embed.urls")),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path(
        "jsi18n/<str:language>/<str:release>/",
        javascript_catalog,
        name="javascript-catalog",
    ),
    path("admin/", admin.site.urls),
]

handler403 = "config.error_views.permission_denied"
handler404 = "config.error_views.page_not_found"
handler500 = "config.error_views.server_error"
