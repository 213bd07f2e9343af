"""The matchmaking app's models, one module per concern."""

from matchmaking.models.conduct import Block, Cooldown, Offence
from matchmaking.models.pools import PoolWave, Search, SimulatedPlayer
from matchmaking.models.ratings import Rating, RatingChange

__all__ = [
    "Block",
    "Cooldown",
    "Offence",
    "PoolWave",
    "Rating",
    "RatingChange",
    "Search",
    "SimulatedPlayer",
]
