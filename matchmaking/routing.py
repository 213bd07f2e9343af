"""WebSocket routes of matchmaking: the lobby, a room page, the stake lobby."""

from django.urls import path

from matchmaking.pools.routing import websocket_urlpatterns as pools_websockets
from matchmaking.rooms.consumers import RoomConsumer
from matchmaking.stakes.consumers import StakesConsumer

websocket_urlpatterns = [
    *pools_websockets,
    path("ws/rooms/<int:room_id>/", RoomConsumer.as_asgi()),
    path("ws/stakes/", StakesConsumer.as_asgi()),
]
