"""Pools and waves, backfill with simulated players, ratings, leaver cooldowns."""

from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    name = "matchmaking"

    def ready(self) -> None:
        from games.leaving import leave_handler_register
        from games.signals import table_cancelled, table_finished
        from matchmaking import receivers, stake_tasks  # noqa: F401 - registers tasks
        from matchmaking.stake_receivers import (
            stake_on_table_cancelled,
            stake_on_table_finished,
        )

        table_finished.connect(
            receivers.rewards_on_table_finished, dispatch_uid="matchmaking.rewards"
        )
        table_finished.connect(
            receivers.ratings_on_table_finished, dispatch_uid="matchmaking.ratings"
        )
        table_finished.connect(
            receivers.conduct_on_table_finished, dispatch_uid="matchmaking.conduct"
        )
        table_finished.connect(
            stake_on_table_finished, dispatch_uid="matchmaking.stakes"
        )
        table_cancelled.connect(
            stake_on_table_cancelled, dispatch_uid="matchmaking.stakes.cancelled"
        )
        # A waiting stake or friend table is left only through its books' owner.
        from matchmaking.rooms import room_table_leave
        from matchmaking.stakes import stake_leave

        leave_handler_register(mode="stake", handler=stake_leave)
        leave_handler_register(mode="friend", handler=room_table_leave)
