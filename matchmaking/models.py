"""Every model of the matchmaking app, for Django and the migrations: each lives in
the subpackage that owns it (pools, rooms, stakes)."""

from matchmaking.pools.models import (
    Block,
    Cooldown,
    Offence,
    PoolWave,
    Rating,
    RatingChange,
    RematchOffer,
    Search,
    Seek,
    SeekPlayer,
)
from matchmaking.rooms.models import (
    Room,
    RoomEvent,
    RoomInvitation,
    RoomRematchVote,
    RoomRemoval,
)
from matchmaking.stakes.models import StakeReport, StakeSitter, StakeTable

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
    "Seek",
    "SeekPlayer",
    "StakeReport",
    "StakeSitter",
    "StakeTable",
]
