"""The matchmaking app's models, one module per concern."""

from matchmaking.models.conduct import Block, Cooldown, Offence
from matchmaking.models.pools import PoolWave, RematchOffer, Search
from matchmaking.models.ratings import Rating, RatingChange
from matchmaking.models.rooms import (
    Room,
    RoomEvent,
    RoomInvitation,
    RoomRematchVote,
    RoomRemoval,
)
from matchmaking.models.stakes import StakeSitter, StakeTable

__all__ = [
    "Block",
    "Cooldown",
    "Offence",
    "PoolWave",
    "Rating",
    "RatingChange",
    "RematchOffer",
    "Room",
    "RoomEvent",
    "RoomInvitation",
    "RoomRematchVote",
    "RoomRemoval",
    "Search",
    "StakeSitter",
    "StakeTable",
]
