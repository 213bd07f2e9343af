from django.apps import AppConfig


class EconomyConfig(AppConfig):
    name = "economy"

    def ready(self) -> None:
        from economy import receivers  # noqa: F401 - connects the receivers
