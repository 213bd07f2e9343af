"""WebSocket URL routes of every app."""

from django.urls import path

from accounts.consumers import PresenceConsumer
from embed.routing import websocket_urlpatterns as embed_websockets
from games.routing import websocket_urlpatterns as games_websockets
from matchmaking.routing import websocket_urlpatterns as matchmaking_websockets
from tournaments.arenas.routing import websocket_urlpatterns as arenas_websockets
from tournaments.swiss.routing import websocket_urlpatterns as swiss_websockets

websocket_urlpatterns = [
    path("ws/presence/", PresenceConsumer.as_asgi()),
    *games_websockets,
    *matchmaking_websockets,
    *arenas_websockets,
    *swiss_websockets,
    *embed_websockets,
]
