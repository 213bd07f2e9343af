"""Every model of the tournaments app, for Django and the migrations: each lives in
the subpackage that owns it (arenas, sitgo)."""

from tournaments.arenas.models import Arena, ArenaGame, ArenaPlayer
from tournaments.sitgo.models import SitGo, SitGoEntry, SitGoTable

__all__: list[str] = [
    "Arena",
    "ArenaGame",
    "ArenaPlayer",
    "SitGo",
    "SitGoEntry",
    "SitGoTable",
]
