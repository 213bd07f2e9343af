"""Online pools, friend rooms and stake tables: one app, three subpackages."""

from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    name = "matchmaking"

    def ready(self) -> None:
        # The hooks import models, which Django lets no app import before this.
        from matchmaking.hooks import hooks_register

        hooks_register()
