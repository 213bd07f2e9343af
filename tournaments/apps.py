"""Tournaments: scheduled arenas, stake sit-and-gos and Swiss events. One app,
three subpackages (``arenas``, ``sitgo``, ``swiss``), like ``matchmaking``;
docs/tournaments.md."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        # The hooks import models, which Django lets no app import before this.
        from tournaments.arenas.hooks import hooks_register as arenas_hooks_register
        from tournaments.sitgo.hooks import hooks_register as sitgo_hooks_register
        from tournaments.swiss.hooks import hooks_register as swiss_hooks_register

        sitgo_hooks_register()
        arenas_hooks_register()
        swiss_hooks_register()
