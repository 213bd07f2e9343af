from django.urls import path

from embed.consumers import EmbedTableConsumer

websocket_urlpatterns = [
    path("ws/embed/tables/<int:table_id>/", EmbedTableConsumer.as_asgi()),
]
