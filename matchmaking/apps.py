from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    name = "matchmaking"

    def ready(self) -> None:
        from games.signals import table_finished
        from matchmaking.receivers import rewards_on_table_finished

        table_finished.connect(
            rewards_on_table_finished, dispatch_uid="matchmaking.rewards"
        )
