from django.urls import path

from embed import views

# An address per language (config/urls.py), resolved before ``embed/<variant>/``.
public_urlpatterns = [
    path("embed/code/", views.code, name="embed-code"),
]

urlpatterns = [
    path("embed/", views.frame, name="embed-frame"),
    path("embed/new/", views.new_game, name="embed-new"),
    path("embed/resume/", views.resume_game, name="embed-resume"),
    path("embed/fair.json", views.fair_json, name="embed-fair"),
    path("embed/<slug:variant>/", views.frame, name="embed-variant"),
]
