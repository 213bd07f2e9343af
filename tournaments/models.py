"""Every model of the tournaments app, for Django and the migrations: each lives in
the subpackage that owns it (arenas, sitgo, swiss)."""

from tournaments.arenas.models import Arena, ArenaClub, ArenaGame, ArenaPlayer
from tournaments.sitgo.models import SitGo, SitGoEntry, SitGoTable
from tournaments.swiss.models import SwissEntry, SwissEvent, SwissGame

__all__: list[str] = [
    "Arena",
    "ArenaClub",
    "ArenaGame",
    "ArenaPlayer",
    "SitGo",
    "SitGoEntry",
    "SitGoTable",
    "SwissEntry",
    "SwissEvent",
    "SwissGame",
]
