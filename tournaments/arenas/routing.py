"""WebSocket routes of the arenas."""

from django.urls import path

from tournaments.arenas.consumers import ArenaConsumer

websocket_urlpatterns = [
    path("ws/tournaments/arenas/<int:arena_id>/", ArenaConsumer.as_asgi()),
]
