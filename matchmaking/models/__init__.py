"""The matchmaking app's models, one module per concern."""

from matchmaking.models.rooms import (
    Room,
    RoomBlock,
    RoomEvent,
    RoomInvitation,
    RoomRematchVote,
)

__all__ = ["Room", "RoomBlock", "RoomEvent", "RoomInvitation", "RoomRematchVote"]
