from django.urls import path

from ops import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("metrics", views.metrics, name="metrics"),
    path("ops/beacon/", views.beacon_start, name="beacon-start"),
    path("ops/beacon/<slug:token>/", views.beacon_status, name="beacon-status"),
]
