from django.urls import path

from games.guide import views

urlpatterns = [
    path("rules/", views.rules_index, name="rules"),
    path("rules/<slug:variant>/", views.rules_variant, name="rules-variant"),
]
