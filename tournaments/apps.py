"""Tournaments: scheduled arenas and stake sit-and-gos. One app, two subpackages
(``arenas``, ``sitgo``), like ``matchmaking``; docs/tournaments.md."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        # The hooks import models, which Django lets no app import before this.
        from tournaments.arenas.hooks import hooks_register as arenas_hooks_register
        from tournaments.sitgo.hooks import hooks_register as sitgo_hooks_register

        sitgo_hooks_register()
        arenas_hooks_register()
