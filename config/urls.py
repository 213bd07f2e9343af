"""URL routes of the site."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("accounts.urls")),
    path("", include("ops.urls")),
    path("", include("economy.urls")),
    path("", include("games.urls")),
    path("", include("leagues.urls")),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
