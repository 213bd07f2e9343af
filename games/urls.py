from django.urls import path

from games import views

urlpatterns = [
    path("tables/<int:table_id>/history/", views.table_history, name="table-history"),
    path("tables/<int:table_id>/log.json", views.table_log_json, name="table-log"),
]
