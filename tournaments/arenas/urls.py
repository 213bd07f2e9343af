"""URL routes of the arenas."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
