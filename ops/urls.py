from django.urls import path

from ops import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("ops/beacon/", views.beacon_start, name="beacon-start"),
    path("ops/beacon/<slug:token>/", views.beacon_status, name="beacon-status"),
]
