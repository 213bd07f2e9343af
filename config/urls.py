"""URL routes of the site."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from accounts import urls as accounts_urls
from config.catalog import javascript_catalog
from config.crawlers import robots_txt, sitemap_xml
from config.webapp import service_worker, webmanifest
from embed import urls as embed_urls
from games import urls as games_urls
from leagues import urls as leagues_urls
from matchmaking.pools import urls as pools_urls

# The public pages: an address per language (accounts/addresses.py), English bare
# (/rules/draw/), the others under their code (/es/rules/draw/). First, so that
# /embed/code/ is this page and not an embedded game of a variant called "code".
urlpatterns = i18n_patterns(
    path("", include(accounts_urls.public_urlpatterns)),
    path("", include("games.guide.urls")),
    path("", include(pools_urls.public_urlpatterns)),
    path("", include(leagues_urls.public_urlpatterns)),
    path("", include(games_urls.public_urlpatterns)),
    path("", include(embed_urls.public_urlpatterns)),
    prefix_default_language=False,
)

# Every other page: one address, in the reader's chosen language.
urlpatterns += [
    path("robots.txt", robots_txt, name="robots"),
    path("sitemap.xml", sitemap_xml, name="sitemap"),
    # The installed app (config/webapp.py): the service worker's scope is the
    # folder it is served from, so both live at the root.
    path("manifest.webmanifest", webmanifest, name="webmanifest"),
    path("sw.js", service_worker, name="service-worker"),
    path("", include("accounts.urls")),
    path("", include("ops.urls")),
    path("", include("economy.urls")),
    path("", include("games.urls")),
    path("", include("matchmaking.pools.urls")),
    path("", include("matchmaking.rooms.urls")),
    path("", include("matchmaking.stakes.urls")),
    path("", include("leagues.urls")),
    path("", include("friends.urls")),
    path("", include("chat.urls")),
    path("", include("clubs.urls")),
    path("", include("tournaments.urls")),
    path("", include("embed.urls")),
    # The open API: not under a language prefix (docs/api.md).
    path("api/", include("api.urls")),
    path("", include("api.page_urls")),
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
