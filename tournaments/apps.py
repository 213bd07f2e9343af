"""Tournaments: scheduled arenas and stake sit-and-gos. One app, two subpackages
(``arenas``, ``sitgo``), like ``matchmaking``; docs/tournaments.md."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
