from django.apps import AppConfig


class EmbedConfig(AppConfig):
    name = "embed"
    default_auto_field = "django.db.models.BigAutoField"
