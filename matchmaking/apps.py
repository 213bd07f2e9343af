from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    name = "matchmaking"

    def ready(self) -> None:
        from games.signals import table_finished
        from matchmaking import stake_tasks  # noqa: F401 - registers the tasks
        from matchmaking.receivers import rewards_on_table_finished
        from matchmaking.stake_receivers import stake_on_table_finished

        table_finished.connect(
            rewards_on_table_finished, dispatch_uid="matchmaking.rewards"
        )
        table_finished.connect(
            stake_on_table_finished, dispatch_uid="matchmaking.stakes"
        )
