"""WebSocket routes of the Swiss events."""

from django.urls import path

from tournaments.swiss.consumers import SwissConsumer

websocket_urlpatterns = [
    path("ws/tournaments/swiss/<int:event_id>/", SwissConsumer.as_asgi()),
]
