"""The weekly league: points, divisions and rollover."""

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"

    def ready(self) -> None:
        from games.finish import consequence_register
        from leagues.receivers import points_on_finish
        from leagues.services import COUNTED_MODES

        consequence_register("league", points_on_finish, modes=COUNTED_MODES)
