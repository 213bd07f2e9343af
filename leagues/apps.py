"""The weekly league: points, divisions and rollover."""

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"

    def ready(self) -> None:
        from games.signals import table_finished
        from leagues.receivers import points_on_finish

        table_finished.connect(
            points_on_finish, dispatch_uid="leagues.points_on_finish"
        )
