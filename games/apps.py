from django.apps import AppConfig
from django.core import checks


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from games.stores import stores_check

        checks.register(stores_check)
