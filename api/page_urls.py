"""The API's site pages (not under /api/: they are the site's, with its session)."""

from django.urls import include, path

from api import pages

urlpatterns = [
    path("account/tokens/", pages.tokens_page, name="api-tokens"),
    path("", include("api.bot_page_urls")),
]
