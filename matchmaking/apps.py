from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    name = "matchmaking"
