"""URL routes of the stake sit-and-gos."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
