from django.urls import path

from chat import views

urlpatterns = [
    path("chat/lines/<int:line_id>/report/", views.report, name="chat-report"),
]
